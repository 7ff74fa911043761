#!/usr/bin/env python3
"""The histogram step of image registration in PyTorch, the peer of examples/image_registration.cpp:
n points (x, y) in [0, side - 3)^2 are spread over a side x side histogram with cubic B-spline
weights: bin (floor(y) + i, floor(x) + j) gets wy[i] * wx[j] for 0 <= i, j < 4, where wx and wy
are the four weights of x's and y's fractional parts. Routes, each timed from the points to the
histogram (making the 16 n bins and weights included, as rune's pass makes them):
  sort + unique + split   the route of the PyTorch code the genhist paper measured: sort the
                          updates by bin, group them (unique_consecutive, split), sum each group;
  sort + cumsum           the same groups summed at once, as differences of one prefix sum
                          (in float64: the prefix sums reach n, where float32 would lose the weights);
  index_add_, scatter_add_  one atomic add per update: PyTorch's best route.

    python3 bench/torch/image_registration.py [--csv FILE] [--runs 5] [--n N --side S]
    (default: the paper's n = 2e6 with 53 x 53 bins and n = 8e6 with 203 x 203 bins)
"""
import sys

from harness import ResultLog, count, median_ms, parse_args  # first: it explains a missing PyTorch

import torch


def make_points(n, side, device):
    """n points uniform in [0, side - 3)^2, so that every 4 x 4 neighbourhood lies inside."""
    g = torch.Generator(device=device).manual_seed(31)
    below = torch.nextafter(torch.tensor(side - 3.0), torch.tensor(0.0)).item()  # float32 rounding stays inside
    return (torch.rand(n, 2, generator=g, device=device) * (side - 3)).clamp_(max=below)


def spline_weights(t):
    """The four cubic B-spline weights at fractional positions t, as the columns of an n x 4 tensor."""
    t2, t3 = t * t, t * t * t
    return torch.stack([(-t3 + 3 * t2 - 3 * t + 1) / 6, (3 * t3 - 6 * t2 + 4) / 6,
                        (-3 * t3 + 3 * t2 + 3 * t + 1) / 6, t3 / 6], dim=1)


def updates(points, side):
    """The 16 updates of every point: bins and weights, flat tensors of 16 n."""
    cell = points.floor()
    wx, wy = spline_weights(points[:, 0] - cell[:, 0]), spline_weights(points[:, 1] - cell[:, 1])
    cx, cy = cell[:, 0].long(), cell[:, 1].long()
    offset = torch.arange(4, device=points.device)
    row = cy[:, None, None] + offset[None, :, None]  # [point, i, j]: y offset i, x offset j
    col = cx[:, None, None] + offset[None, None, :]
    return (row * side + col).reshape(-1), (wy[:, :, None] * wx[:, None, :]).reshape(-1)


def sorted_groups(bins, weights):
    """The updates sorted by bin: the distinct bins, each one's number of updates, and the weights in that order."""
    sorted_bins, order = bins.sort()
    groups, sizes = torch.unique_consecutive(sorted_bins, return_counts=True)
    return groups, sizes, weights[order]


def by_sort_split(points, side):
    groups, sizes, weights = sorted_groups(*updates(points, side))
    histogram = torch.zeros(side * side, device=points.device)
    histogram[groups] = torch.stack([part.sum() for part in weights.split(sizes.tolist())])
    return histogram


def by_sort_cumsum(points, side):
    groups, sizes, weights = sorted_groups(*updates(points, side))
    prefix = weights.double().cumsum(0)
    group_ends = prefix[sizes.cumsum(0) - 1]
    histogram = torch.zeros(side * side, dtype=torch.float64, device=points.device)
    histogram[groups] = torch.diff(group_ends, prepend=group_ends.new_zeros(1))
    return histogram.float()


def by_index_add(points, side):
    bins, weights = updates(points, side)
    return torch.zeros(side * side, device=points.device).index_add_(0, bins, weights)


def by_scatter_add(points, side):
    bins, weights = updates(points, side)
    return torch.zeros(side * side, device=points.device).scatter_add_(0, bins, weights)


def loop_histogram(points, side):
    """The histogram of `points` by a plain loop in float64, as examples/image_registration.cpp's
    reference computes it: truncation is floor (the coordinates are non-negative)."""
    def weight(t, i):
        return [(-t**3 + 3 * t**2 - 3 * t + 1) / 6, (3 * t**3 - 6 * t**2 + 4) / 6,
                (-3 * t**3 + 3 * t**2 + 3 * t + 1) / 6, t**3 / 6][i]

    histogram = [0.0] * (side * side)
    for x, y in points.double().cpu().tolist():
        cx, cy = int(x), int(y)
        for u in range(16):
            histogram[(cy + u // 4) * side + cx + u % 4] += weight(y - cy, u // 4) * weight(x - cx, u % 4)
    return torch.tensor(histogram, dtype=torch.float64)


def float64_sums(points, side):
    """The histogram of updates(), summed in float64 by index_add_ (not a timed route)."""
    bins, weights = updates(points, side)
    return torch.zeros(side * side, dtype=torch.float64, device=points.device).index_add_(0, bins, weights.double())


def check_updates(points, side, count=10_000):
    """updates() against the plain loop over the first `count` points: the bins must be the same and
    the float32 weights close to the float64 ones, so a point lost or moved (at least 0.479^2 ~ 0.23
    in one bin, the largest of a cubic B-spline's weights being at least 23/48) shows."""
    some = points[:count]
    got, want = float64_sums(some, side).cpu(), loop_histogram(some, side)
    if not torch.allclose(got, want, rtol=1e-5, atol=1e-5):
        worst = (got - want).abs().argmax().item()
        sys.exit(f"image_registration.py: updates() differs from the plain loop at bin {worst}: "
                 f"{got[worst].item()} against {want[worst].item()} (side = {side})")


ROUTES = {"sort + unique + split": by_sort_split, "sort + cumsum": by_sort_cumsum,
          "index_add_": by_index_add, "scatter_add_": by_scatter_add}


def main():
    def own_args(parser):
        parser.add_argument("--n", type=count, help="points (with --side: one size instead of the paper's two)")
        parser.add_argument("--side", type=count, help="the histogram is side x side bins (at least 4)")

    args, device = parse_args("image registration's histogram step in PyTorch", 5, own_args)
    if (args.n is None) != (args.side is None) or (args.side is not None and args.side < 4):
        sys.exit("image_registration.py: give --n and --side together, with --side at least 4")
    sizes = [(args.n, args.side)] if args.n else [(2_000_000, 53), (8_000_000, 203)]
    log = ResultLog(args, device)
    for n, side in sizes:
        points = make_points(n, side, device)
        # updates() is checked against a plain loop; every route must then give the float64 sums of
        # its updates to 1e-4 of a bin plus 1e-4: a lost point (at least 0.23 in one bin) shows
        # while bins hold less than ~2000, as at the paper's sizes (~800 and ~200 a bin).
        check_updates(points, side)
        reference = float64_sums(points, side)
        for name, route in ROUTES.items():
            if not torch.allclose(route(points, side).double(), reference, rtol=1e-4, atol=1e-4):
                sys.exit(f"image_registration.py: {name} differs from the float64 sums (n = {n}, side = {side})")
            ms = median_ms(lambda: route(points, side), device, args.runs)
            log.add(ms, workload="image_registration", n=n, bins=f"{side}x{side}", route=name)
    log.write()


if __name__ == "__main__":
    main()
