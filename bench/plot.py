#!/usr/bin/env python3
"""Figures from a bench_gpu_sweep CSV (bench/gpu/sweep.cu).

    python3 bench/plot.py bench/results/<file>.csv --out bench/results/plots/

Writes, named after the CSV (<stem>-<op>.png):
  * for scan, reduce, map and filter: GB/s against n (log2 axis), one colour per element type,
    rune solid and the peer (CUB/Thrust) dashed;
  * for hist: rune's speedup over the peer (peer time / rune time) against the number of bins
    (log2 axis), one line per data entropy.
GB/s is the sweep's: the bytes an ideal implementation must move over the time.
"""
import argparse
import csv
import sys
from collections import defaultdict
from pathlib import Path

ELEMENTWISE_OPS = ["scan", "reduce", "map", "filter"]
TYPE_ORDER = ["i8", "i16", "i32", "i64", "f32", "f64"]
REQUIRED_COLUMNS = {"op", "type", "n", "bins", "entropy", "peer", "rune_GBps", "peer_GBps", "speedup"}


def read_rows(path):
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        missing = REQUIRED_COLUMNS - set(reader.fieldnames or [])
        if missing:
            sys.exit(f"plot.py: {path} is not a bench_gpu_sweep CSV: no column(s) {', '.join(sorted(missing))}")
        rows = list(reader)
    if not rows:
        sys.exit(f"plot.py: {path} has no measurements")
    return rows


def warn_about_mismatches(rows):
    bad = [r for r in rows if r.get("verified", "yes") != "yes"]
    for r in bad:
        print(f"plot.py: warning: rune's result differed from the peer's: {r['op']} {r['type']} n={r['n']}"
              + (f" bins={r['bins']} entropy={r['entropy']}" if r["bins"] else ""), file=sys.stderr)


def type_rank(name):
    return TYPE_ORDER.index(name) if name in TYPE_ORDER else len(TYPE_ORDER)


def power_of_two(n):
    """n as 2^k (matplotlib's math text) where it is one, else as a number."""
    return f"$2^{{{n.bit_length() - 1}}}$" if n > 0 and n & (n - 1) == 0 else str(n)


def plot_bandwidth(plt, rows, op, out_file):
    """GB/s against n for one op: a solid line per type for rune, a dashed one for the peer."""
    by_type = defaultdict(list)
    for r in rows:
        by_type[r["type"]].append((int(r["n"]), float(r["rune_GBps"]), float(r["peer_GBps"])))
    peer = rows[0]["peer"]
    fig, ax = plt.subplots(figsize=(8, 5))
    type_handles = []
    for i, (name, points) in enumerate(sorted(by_type.items(), key=lambda item: type_rank(item[0]))):
        points.sort()
        sizes = [p[0] for p in points]
        colour = f"C{i}"
        type_handles += ax.plot(sizes, [p[1] for p in points], color=colour, linestyle="-", marker="o", label=name)
        ax.plot(sizes, [p[2] for p in points], color=colour, linestyle="--", marker="x")
    # One legend entry per type (its colour) and one per side (its line style).
    style_handles = [plt.Line2D([], [], color="black", linestyle="-", marker="o", label="rune"),
                     plt.Line2D([], [], color="black", linestyle="--", marker="x", label=peer)]
    ax.set_xscale("log", base=2)
    ax.set_ylim(bottom=0)
    ax.set_xlabel("n (elements)")
    ax.set_ylabel("GB/s (ideal bytes moved / time)")
    ax.set_title(f"{op}: rune (solid) vs {peer} (dashed)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(handles=type_handles + style_handles, fontsize="small", loc="upper left")
    fig.tight_layout()
    fig.savefig(out_file, dpi=120)
    plt.close(fig)


def plot_hist_speedup(plt, rows, out_file):
    """rune's speedup over the peer against the number of bins, a line per data entropy."""
    by_entropy = defaultdict(list)
    for r in rows:
        by_entropy[float(r["entropy"])].append((int(r["bins"]), float(r["speedup"])))
    n = int(rows[0]["n"])
    peer = rows[0]["peer"]
    fig, ax = plt.subplots(figsize=(8, 5))
    for entropy, points in sorted(by_entropy.items(), reverse=True):
        points.sort()
        ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=f"entropy {entropy:.3f}")
    ax.axhline(1.0, color="grey", linewidth=1, linestyle=":")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("bins")
    ax.set_ylim(bottom=0)
    ax.set_ylabel("speedup (peer time / rune time)")
    ax.set_title(f"histogram, n = {power_of_two(n)} int32 samples: rune vs {peer}", fontsize="medium")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out_file, dpi=120)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description="PNG figures from a bench_gpu_sweep CSV.")
    parser.add_argument("csv", type=Path, help="the CSV written by bench_gpu_sweep --csv")
    parser.add_argument("--out", type=Path, required=True, help="folder for the PNG files (created if missing)")
    args = parser.parse_args()
    if not args.csv.is_file():
        parser.error(f"{args.csv} is not a file")
    try:
        import matplotlib
    except ImportError:
        sys.exit("plot.py needs matplotlib: pip install matplotlib (or apt-get install python3-matplotlib)")
    matplotlib.use("Agg")  # files only; no display needed
    import matplotlib.pyplot as plt

    rows = read_rows(args.csv)
    warn_about_mismatches(rows)
    args.out.mkdir(parents=True, exist_ok=True)
    stem = args.csv.stem
    written = []
    for op in ELEMENTWISE_OPS:
        op_rows = [r for r in rows if r["op"] == op]
        if op_rows:
            written.append(args.out / f"{stem}-{op}.png")
            plot_bandwidth(plt, op_rows, op, written[-1])
    hist_rows = [r for r in rows if r["op"] == "hist"]
    if hist_rows:
        written.append(args.out / f"{stem}-hist-speedup.png")
        plot_hist_speedup(plt, hist_rows, written[-1])
    if not written:
        sys.exit(f"plot.py: {args.csv} has no rows for {', '.join(ELEMENTWISE_OPS)} or hist")
    for path in written:
        print(path)


if __name__ == "__main__":
    main()
