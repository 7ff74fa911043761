#!/usr/bin/env python3
"""Prefix sums in PyTorch, the peer of bench/gpu/scan.cu: torch.cumsum over n int32, int64 and
float32 elements, and the row-wise cumsum of an (n / 1000) x 1000 int32 matrix, the segmented
scan with segments of 1000 (rune::segmented_scan's peer). Inputs are integers in [-100, 100],
as in scan.cu. cumsum is given the element type as dtype: without it PyTorch widens int32 to int64.

    python3 bench/torch/scan.py [--csv FILE] [--runs 15] [--n 1e8]
"""
import sys

from harness import ResultLog, count, median_ms, parse_args  # first: it explains a missing PyTorch

import torch

ROW = 1000  # the segment size of the row-wise cumsum


def check_exact(name, got, x, dim):
    """cumsum's output against int64 prefix sums, element by element: the inputs are small integers,
    so every prefix (and every partial sum a parallel scan forms, a difference of two prefixes, at
    most twice the largest prefix) is exact in int32 and, while prefixes stay below 2^23, in float32."""
    want = x.long().cumsum(dim)
    if want.abs().max().item() >= 2**23:
        sys.exit(f"scan.py: {name}: the prefix sums reach 2^23, where float32 partial sums could round; use a smaller --n")
    if not torch.equal(got.long(), want):
        wrong = (got.long() != want).nonzero()[0].tolist()
        sys.exit(f"scan.py: {name}: cumsum differs from the int64 prefix sums at index {wrong}")


def main():
    def own_args(parser):
        parser.add_argument("--n", type=count, default=100_000_000, help="elements")

    args, device = parse_args("prefix sums in PyTorch (cumsum)", 15, own_args)
    if args.n % ROW:
        sys.exit(f"scan.py: --n must be a multiple of {ROW} (the row length of the segmented scan)")
    g = torch.Generator(device=device).manual_seed(3)
    log = ResultLog(args, device)
    for dtype in (torch.int32, torch.int64, torch.float32):
        x = torch.randint(-100, 101, (args.n,), generator=g, device=device).to(dtype)
        check_exact(f"inclusive sum, {dtype}", torch.cumsum(x, 0, dtype=dtype), x, 0)
        ms = median_ms(lambda: torch.cumsum(x, 0, dtype=dtype), device, args.runs)
        log.add(ms, workload="inclusive sum", n=args.n, type=str(dtype).removeprefix("torch."), shape=f"{args.n}")
    matrix = torch.randint(-100, 101, (args.n // ROW, ROW), generator=g, device=device, dtype=torch.int32)
    check_exact("row-wise inclusive sum", torch.cumsum(matrix, 1, dtype=torch.int32), matrix, 1)
    ms = median_ms(lambda: torch.cumsum(matrix, 1, dtype=torch.int32), device, args.runs)
    log.add(ms, workload="row-wise inclusive sum", n=args.n, type="int32", shape=f"{args.n // ROW}x{ROW}")
    log.write()


if __name__ == "__main__":
    main()
