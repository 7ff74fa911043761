#!/usr/bin/env python3
"""Figures from a baseline CSV (bench/baseline/<device>.csv; columns in bench/baseline.py).

    python3 bench/plot.py bench/baseline/h100.csv --out build/bench/plots/ [--ops scan,hist]

One PNG per op, <stem>-<op>.png: the ratio peer time / rune time (above the dotted line at 1,
rune is faster; a log axis where the ratios span more than 20x) against n (log2 axis), or against the bins where the op's rows have a bins
parameter (histograms) and against seg for segmented scans. One line per element type, peer
and the remaining parameters (entropy, rf, ...); lines of one point are left out, and so is an
op with none left.
"""
import argparse
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from baseline import read_baseline  # noqa: E402  (bench/baseline.py, beside this file)

TYPE_ORDER = ["i8", "i16", "i32", "i64", "f32", "f64", "pair16"]
X_PARAMETERS = ["bins", "seg"]  # the parameter a line runs along, where the rows have it


def parameters_of(row):
    return dict(field.split("=", 1) for field in row["parameters"].split(";") if field)


def series(rows):
    """{x axis name: {line label: [(x, ratio)]}} for one op's rows."""
    keys = set().union(*(parameters_of(r) for r in rows))
    x_name = next((k for k in X_PARAMETERS if k in keys), "n")
    lines = defaultdict(list)
    for r in rows:
        p = parameters_of(r)
        if x_name != "n" and x_name not in p:
            continue
        x = int(p.pop(x_name)) if x_name != "n" else int(r["n"])
        rest = ";".join(f"{k}={v}" for k, v in sorted(p.items()))
        if x_name != "n" and len(set(s["n"] for s in rows)) > 1:
            rest = f"n={r['n']}" + (f";{rest}" if rest else "")
        label = " ".join(part for part in (r["type"], rest, "vs " + r["peer"]) if part)
        lines[(TYPE_ORDER.index(r["type"]) if r["type"] in TYPE_ORDER else len(TYPE_ORDER), label)].append(
            (x, float(r["ratio"])))
    return x_name, {label: sorted(points) for (_, label), points in sorted(lines.items()) if len(points) > 1}


def plot_op(plt, op, rows, out_file):
    x_name, lines = series(rows)
    if not lines:
        return False
    fig, ax = plt.subplots(figsize=(9, 5.5))
    for i, (label, points) in enumerate(lines.items()):
        ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", color=f"C{i % 10}",
                linestyle="-" if i < 10 else "--", label=label)
    ax.axhline(1.0, color="grey", linewidth=1, linestyle=":")
    ax.set_xscale("log", base=2)
    ratios = [p[1] for points in lines.values() for p in points if p[1] > 0]
    if ratios and max(ratios) / min(ratios) > 20:
        ax.set_yscale("log")  # ratios over orders of magnitude (histograms against one atomic per update)
    else:
        ax.set_ylim(bottom=0)
    ax.set_xlabel({"n": "n (elements)", "bins": "bins", "seg": "segment length"}[x_name])
    ax.set_ylabel("peer time / rune time (above 1: rune faster)")
    devices = sorted(set(r["device"] for r in rows))
    commits = sorted(set(r["commit"] for r in rows))
    ax.set_title(f"{op} on {', '.join(devices)} (commit {', '.join(commits)})", fontsize="medium")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="x-small", loc="best")
    fig.tight_layout()
    fig.savefig(out_file, dpi=120)
    plt.close(fig)
    return True


def main():
    parser = argparse.ArgumentParser(description="PNG figures from a baseline CSV.")
    parser.add_argument("csv", type=Path, help="a baseline CSV (bench/baseline/<device>.csv)")
    parser.add_argument("--out", type=Path, required=True, help="folder for the PNG files (created if missing)")
    parser.add_argument("--ops", help="only these ops, comma-separated (default: every op)")
    parser.add_argument("--check", action="store_true", help="read the CSV and list the figures; draw nothing")
    args = parser.parse_args()
    if not args.csv.is_file():
        parser.error(f"{args.csv} is not a file")
    rows = read_baseline(args.csv)
    if not rows:
        sys.exit(f"plot.py: {args.csv} has no rows")
    by_op = defaultdict(list)
    for r in rows:
        by_op[r["op"]].append(r)
    ops = args.ops.split(",") if args.ops else list(by_op)
    if args.check:
        for op in ops:
            x_name, lines = series(by_op.get(op, []))
            print(f"{op}: {len(lines)} lines against {x_name}" if lines else f"{op}: nothing to draw")
        return
    try:
        import matplotlib
    except ImportError:
        sys.exit("plot.py needs matplotlib: pip install matplotlib (or apt-get install python3-matplotlib)")
    matplotlib.use("Agg")  # files only; no display needed
    import matplotlib.pyplot as plt

    args.out.mkdir(parents=True, exist_ok=True)
    written = []
    for op in ops:
        path = args.out / f"{args.csv.stem}-{op}.png"
        if by_op.get(op) and plot_op(plt, op, by_op[op], path):
            written.append(path)
    if not written:
        sys.exit(f"plot.py: nothing to draw for {', '.join(ops)} in {args.csv}")
    for path in written:
        print(path)


if __name__ == "__main__":
    main()
