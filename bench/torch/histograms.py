#!/usr/bin/env python3
"""HDW histograms in PyTorch at bench/gpu/hist.cu's bins, the peer of its hdw class (the
genhist paper's setup): N uniform 31-bit ints x, bin = (x % max(1, H // RF)) * RF, a count of 1
per sample. RF, the race factor, sends the samples to every RF-th bin only (RF = 63 at H = 31
puts them all in bin 0). Routes:
  torch.bincount(bins, minlength=H)
  torch.zeros(H, dtype=int32).index_add_(0, bins, ones)  (int32: float32 counts stop at 2^24)
The int32 bin indices are computed before timing, a best case for PyTorch (rune computes them
inside its pass).

    python3 bench/torch/histograms.py [--csv FILE] [--runs 15] [--n 5e7] [--rf 1 63]
"""
import sys

from harness import ResultLog, count, median_ms, parse_args  # first: it explains a missing PyTorch

import torch

BIN_COUNTS = [31, 127, 505, 2048, 6144, 12288, 24576, 49152, 196608, 393216, 786432, 1572864]


def by_bincount(bins, h, ones):
    return torch.bincount(bins, minlength=h)


def by_index_add(bins, h, ones):
    return torch.zeros(h, dtype=torch.int32, device=bins.device).index_add_(0, bins, ones)


ROUTES = {"bincount": by_bincount, "index_add_ int32": by_index_add}


def main():
    def own_args(parser):
        parser.add_argument("--n", type=count, default=50_000_000, help="samples")
        parser.add_argument("--rf", type=count, nargs="+", default=[1, 63], help="race factors")

    args, device = parse_args("HDW histograms in PyTorch (bincount, index_add_)", 15, own_args)
    g = torch.Generator(device=device).manual_seed(7)
    x = torch.randint(0, 2**31, (args.n,), generator=g, device=device, dtype=torch.int32)
    ones = torch.ones(args.n, dtype=torch.int32, device=device)
    log = ResultLog(args, device)
    for rf in args.rf:
        for h in BIN_COUNTS:
            bins = (x % max(1, h // rf)) * rf
            if not torch.equal(by_bincount(bins, h, ones).int(), by_index_add(bins, h, ones)):
                sys.exit(f"histograms.py: bincount and index_add_ differ at H = {h}, RF = {rf}")
            for name, route in ROUTES.items():
                ms = median_ms(lambda: route(bins, h, ones), device, args.runs)
                log.add(ms, workload="hdw histogram", n=args.n, H=h, RF=rf, route=name)
    log.write()


if __name__ == "__main__":
    main()
