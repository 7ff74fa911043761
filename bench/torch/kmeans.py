#!/usr/bin/env python3
"""k-means in PyTorch, the peer of examples/kmeans.cpp: the same algorithm, sizes and start.
One iteration: every point's nearest centroid (torch.cdist, argmin), the clusters' sums
(index_add_) and sizes (bincount), then the means; a cluster that lost all its points keeps
its centroid. The time is the whole loop of --iters iterations from the initial centroids.

    python3 bench/torch/kmeans.py [--csv FILE] [--runs 5] [--n 1e5] [--d 256] [--k 1024 5] [--iters 10]
"""
import sys

from harness import ResultLog, count, median_ms, parse_args  # first: it explains a missing PyTorch

import torch


def make_points(n, d, k, device):
    """Points around k centres uniform in [-10, 10]^d, point i near centre i % k (unit normal
    noise), as in examples/kmeans.cpp (with PyTorch's random numbers); returns the points and
    the cluster each was drawn from."""
    g = torch.Generator(device=device).manual_seed(29)
    centres = torch.rand(k, d, generator=g, device=device) * 20 - 10
    cluster = torch.arange(n, device=device) % k
    return centres[cluster] + torch.randn(n, d, generator=g, device=device), cluster


def kmeans(points, centroids, iters):
    """The centroids after `iters` iterations, and the last assignment."""
    k = centroids.shape[0]
    for _ in range(iters):
        nearest = torch.cdist(points, centroids).argmin(dim=1)  # the first centroid on ties
        sums = torch.zeros_like(centroids).index_add_(0, nearest, points)
        sizes = torch.bincount(nearest, minlength=k)[:, None]
        centroids = torch.where(sizes > 0, sums / sizes, centroids)
    return centroids, nearest


def main():
    def own_args(parser):
        parser.add_argument("--n", type=count, default=100_000, help="points")
        parser.add_argument("--d", type=count, default=256, help="dimensions")
        parser.add_argument("--k", type=count, nargs="+", default=[1024, 5], help="clusters (one run each)")
        parser.add_argument("--iters", type=count, default=10, help="iterations")

    args, device = parse_args("k-means in PyTorch, the peer of examples/kmeans.cpp", 5, own_args)
    log = ResultLog(args, device)
    for k in args.k:
        if k > args.n:
            sys.exit(f"kmeans.py: --k {k} wants at least as many points (--n {args.n})")
        points, cluster = make_points(args.n, args.d, k, device)
        initial = points[:k].clone()  # one point of every cluster
        ms = median_ms(lambda: kmeans(points, initial, args.iters), device, args.runs)
        # The clusters are far apart, so k-means must end with every point in its own cluster.
        _, nearest = kmeans(points, initial, args.iters)
        if not torch.equal(nearest, cluster):
            sys.exit(f"kmeans.py: k = {k}: the assignment differs from the clusters the points were drawn from")
        log.add(ms, workload="kmeans", n=args.n, d=args.d, k=k, iters=args.iters,
                route="cdist argmin + index_add_ + bincount")
    log.write()


if __name__ == "__main__":
    main()
