#!/usr/bin/env python3
"""The per-device baseline: one CSV of every GPU measurement, one schema for all programs.

    python3 bench/baseline.py --device h100 [--commit C] [--hist-n N] [--ops OP,...] [--out FILE] [--append] CSV...
    python3 bench/baseline.py --compare OLD.csv NEW.csv [--threshold 0.1]

Columns (bench/baseline/<device>.csv):

    commit,device,op,type,n,parameters,rune_ms,peer,peer_ms,ratio

  commit      `git rev-parse --short HEAD` of the measured tree (--commit, else $RUNE_COMMIT,
              else git, else "unknown")
  device      the GPU, lower case: h100, h200
  op          what rune computed (the list below)
  type        the element type: i8 i16 i32 i64 f32 f64; pair16 for 16-byte (index, value) pairs
  n           elements (histograms: updates)
  parameters  the workload's other inputs as key=value;key=value (bins=256;entropy=1.000), or empty
  rune_ms     rune's median time in milliseconds
  peer        what rune is measured against (a CUB/Thrust call, cudaMemcpy, PyTorch, rune unfused)
  peer_ms     the peer's median time in milliseconds
  ratio       peer_ms / rune_ms: above 1, rune is faster

Converts the CSVs the benchmark programs write with --csv, recognised by their header:
  * bench_gpu_sweep (op,type,n,bins,entropy,...): ops scan, reduce, map, filter, hist, and
    scan_into, map_into (op scan or map with dest=into: forced with rune::into); rows the
    sweep did not verify are left out, with a warning;
  * bench_gpu_scan, bench_gpu_reduce_map, bench_gpu_hist, bench_gpu_latency
    (workload,peer,rune_ms,peer_ms,speedup): each workload name is parsed by the rules in
    WORKLOADS below; bench_gpu_hist's names carry no n, so --hist-n gives it (its --n);
  * the PyTorch peers bench/torch/scan.py and histograms.py (workload,n,...,ms,...): each row
    is paired with the rune row of the same op, type, n and parameters from the other inputs
    (so give them after the rune CSVs); rows with no rune row to pair with (kmeans.py and
    image_registration.py, whose rune side is an example program) are skipped.

Ops beyond the sweep's: segmented_scan (seg=), filter_by_hand (scan + scatter + last, dest=fresh
or moved), parentheses (scan + min + last in one pass), map_reduce (maps=16 or 1), map with
f=identity (a copy-like map), pipeline5 (a map into a scan, a histogram, a sum and a segmented
scan, launch=forces or graph, dest=into where rune::into writes the previous results),
hist_hdw / hist_cas / hist_xcg (bench_gpu_hist's classes, bins= and rf=). Latency rows
(clock=host) are host time, not CUDA events.

--compare prints the rows of NEW whose ratio moved by more than --threshold (relative) from the
row of OLD with the same op, type, n, parameters and peer, and the rows only one file has.
Python 3 standard library only.
"""
import argparse
import csv
import os
import re
import subprocess
import sys

COLUMNS = ["commit", "device", "op", "type", "n", "parameters", "rune_ms", "peer", "peer_ms", "ratio"]
KEY = ("op", "type", "n", "parameters", "peer")  # what makes a row the same measurement

TYPES = {"int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64", "float": "f32", "float32": "f32",
         "f32": "f32", "double": "f64", "float64": "f64", "f64": "f64", "i8": "i8", "i16": "i16",
         "i32": "i32", "i64": "i64"}

SCAN_N = 100_000_000  # bench/gpu/scan.cu's n, which its hand-written filter rows do not name
HIST_N = 50_000_000   # bench/gpu/hist.cu's default --n
HIST_TYPES = {"hdw": "i32", "cas": "i32", "xcg": "pair16"}


def count(text):
    """1e8, 100000000 or 1000 as an int."""
    value = float(text)
    if value != int(value) or value < 0:
        raise ValueError(f"not a count: {text}")
    return int(value)


def params(**fields):
    return ";".join(f"{k}={v}" for k, v in fields.items() if v is not None and v != "")


# (pattern over bench_gpu_*'s workload name, function of the match and --hist-n -> (op, type, n, parameters))
WORKLOADS = [
    (r"inclusive sum (?P<type>\w+) (?P<n>[\d.e+]+)",
     lambda m, hn: ("scan", TYPES[m["type"]], count(m["n"]), "")),
    (r"segmented sum (?P<type>\w+) (?P<n>[\d.e+]+), seg (?P<seg>\d+)",
     lambda m, hn: ("segmented_scan", TYPES[m["type"]], count(m["n"]), params(seg=m["seg"]))),
    (r"filter half of (?P<n>[\d.e+]+) (?P<type>\w+) \(rune::filter\)",
     lambda m, hn: ("filter", TYPES[m["type"]], count(m["n"]), "")),
    (r"hand-written scan\+scatter\+last filter, (?P<dest>fresh|moved) dest",
     lambda m, hn: ("filter_by_hand", "i32", SCAN_N, params(dest=m["dest"]))),
    (r"hand-written filter, moved dest \(peer: rune::filter\)",
     lambda m, hn: ("filter_by_hand", "i32", SCAN_N, params(dest="moved"))),
    (r"scan \+ min \+ last \(parentheses\) (?P<n>[\d.e+]+) (?P<type>\w+)",
     lambda m, hn: ("parentheses", TYPES[m["type"]], count(m["n"]), "")),
    (r"16 maps \+ sum, (?P<n>[\d.e+]+) (?P<type>\w+)",
     lambda m, hn: ("map_reduce", TYPES[m["type"]], count(m["n"]), params(maps=16))),
    (r"1 map \+ sum, (?P<n>[\d.e+]+) (?P<type>\w+) \(vs 16 maps\)",
     lambda m, hn: ("map_reduce", TYPES[m["type"]], count(m["n"]), params(maps=1))),
    (r"sum (?P<n>[\d.e+]+) (?P<type>\w+)(?: \(latency\))?",
     lambda m, hn: ("reduce", TYPES[m["type"]], count(m["n"]), "")),
    (r"copy-like map (?P<n>[\d.e+]+) (?P<type>\w+)",
     lambda m, hn: ("map", TYPES[m["type"]], count(m["n"]), params(f="identity"))),
    (r"sum n=(?P<n>\d+) (?P<type>\w+), total on the host",
     lambda m, hn: ("reduce", TYPES[m["type"]], count(m["n"]), params(clock="host", result="host"))),
    (r"sum n=(?P<n>\d+) (?P<type>\w+), total on the device: enqueue",
     lambda m, hn: ("reduce", TYPES[m["type"]], count(m["n"]), params(clock="host", result="device"))),
    (r"5 constructs n=(?P<n>\d+), (?P<launch>forces|graph launch) \+ sync",
     lambda m, hn: ("pipeline5", "i32", count(m["n"]),
                    params(clock="host", launch="forces" if m["launch"] == "forces" else "graph"))),
    (r"5 constructs n=(?P<n>\d+), (?P<launch>forces|graph launch) into the previous results \+ sync",
     lambda m, hn: ("pipeline5", "i32", count(m["n"]),
                    params(clock="host", launch="forces" if m["launch"] == "forces" else "graph", dest="into"))),
    (r"(?P<cls>hdw|cas|xcg) H=(?P<bins>\d+) RF=(?P<rf>\d+) \[.*\]",
     lambda m, hn: ("hist_" + m["cls"], HIST_TYPES[m["cls"]], hn, params(bins=m["bins"], rf=m["rf"]))),
]
WORKLOADS = [(re.compile(p + r"$"), f) for p, f in WORKLOADS]


def warn(message):
    print(f"baseline.py: {message}", file=sys.stderr)


def ratio(rune_ms, peer_ms):
    r = float(rune_ms)
    return f"{float(peer_ms) / r:.4f}" if r > 0 else ""


def from_sweep(rows):
    for r in rows:
        if r.get("verified", "yes") != "yes":
            warn(f"left out (rune's result differed from the peer's): {r['op']} {r['type']} n={r['n']}")
            continue
        op, p = r["op"], params(bins=r["bins"], entropy=r["entropy"]) if r["op"] == "hist" else ""
        if op.endswith("_into"):  # the result written into the previous one's memory (rune::into)
            op, p = op[: -len("_into")], params(dest="into")
        yield (op, r["type"], int(r["n"]), p, r["rune_ms"], r["peer"], r["peer_ms"])


def from_workloads(rows, hist_n):
    for r in rows:
        name = r["workload"].strip()
        for pattern, fields in WORKLOADS:
            m = pattern.match(name)
            if m:
                op, type_, n, p = fields(m, hist_n)
                yield (op, type_, n, p, r["rune_ms"], r["peer"], r["peer_ms"])
                break
        else:
            warn(f"no rule for the workload '{name}'; left out (add one to WORKLOADS)")


def torch_key(r):
    """The (op, type, n, parameters) of a PyTorch peer's row, or None where rune has no such row."""
    w = r.get("workload", "")
    if w == "inclusive sum":
        return "scan", TYPES.get(r["type"], r["type"]), int(r["n"]), ""
    if w == "row-wise inclusive sum":
        rows, _, width = r["shape"].partition("x")
        return "segmented_scan", TYPES.get(r["type"], r["type"]), int(r["n"]), params(seg=width)
    if w == "hdw histogram":
        return "hist_hdw", "i32", int(r["n"]), params(bins=r["H"], rf=r["RF"])
    return None


def from_torch(rows, rune_rows):
    rune_of = {}
    for row in rune_rows:  # the first rune row of each key (every peer of it has the same rune time)
        rune_of.setdefault((row["op"], row["type"], str(row["n"]), row["parameters"]), row)
    for r in rows:
        key = torch_key(r)
        match = rune_of.get((key[0], key[1], str(key[2]), key[3])) if key else None
        if not match:
            warn(f"no rune row to pair with the PyTorch row {r.get('workload')} n={r.get('n')}; left out")
            continue
        route = r.get("route") or "cumsum"
        yield (key[0], key[1], key[2], key[3], match["rune_ms"], f"PyTorch {route}", r["ms"]), match["commit"]


def commit_of(given):
    if given:
        return given
    if os.environ.get("RUNE_COMMIT"):
        return os.environ["RUNE_COMMIT"]
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                             cwd=os.path.dirname(os.path.abspath(__file__)), timeout=10)
        if out.returncode == 0 and out.stdout.strip():
            return out.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    return "unknown"


def read_baseline(path):
    """The rows of a baseline CSV as dicts; exits naming the problem when it is not one."""
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames != COLUMNS:
            sys.exit(f"{path} is not a baseline CSV: its columns are {reader.fieldnames}, not {','.join(COLUMNS)}")
        rows = list(reader)
    for i, r in enumerate(rows, 2):
        try:
            int(r["n"]), float(r["rune_ms"]), float(r["peer_ms"]), float(r["ratio"])
        except ValueError:
            sys.exit(f"{path}:{i}: n, rune_ms, peer_ms and ratio must be numbers")
    return rows


def convert(args):
    commit = commit_of(args.commit)
    out_rows = []
    if args.append and os.path.exists(args.out) and os.path.getsize(args.out) > 0:
        out_rows = read_baseline(args.out)
    rune_rows = list(out_rows)
    torch_inputs = []
    for path in args.csv:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            columns = reader.fieldnames or []
            rows = list(reader)
        if columns[:5] == ["op", "type", "n", "bins", "entropy"]:
            made = list(from_sweep(rows))
        elif columns == ["workload", "peer", "rune_ms", "peer_ms", "speedup"]:
            made = list(from_workloads(rows, args.hist_n))
        elif "workload" in columns and "ms" in columns:
            torch_inputs.append((path, rows))
            continue
        else:
            sys.exit(f"baseline.py: {path}: not a CSV of bench_gpu_* or bench/torch/*.py (columns {columns})")
        if args.ops:
            made = [row for row in made if row[0] in args.ops]
        for op, type_, n, p, rune_ms, peer, peer_ms in made:
            rune_rows.append(dict(zip(COLUMNS, (commit, args.device, op, type_, n, p, rune_ms, peer, peer_ms,
                                                ratio(rune_ms, peer_ms)))))
        print(f"baseline.py: {path}: {len(made)} rows", file=sys.stderr)
    torch_rows = []
    for path, rows in torch_inputs:
        made = list(from_torch(rows, rune_rows))
        for (op, type_, n, p, rune_ms, peer, peer_ms), rune_commit in made:
            torch_rows.append(dict(zip(COLUMNS, (rune_commit, args.device, op, type_, n, p, rune_ms, peer, peer_ms,
                                                 ratio(rune_ms, peer_ms)))))
        print(f"baseline.py: {path}: {len(made)} rows", file=sys.stderr)
    all_rows = rune_rows + torch_rows
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(all_rows)
    print(f"baseline.py: wrote {len(all_rows)} rows to {args.out}", file=sys.stderr)


def compare(old_path, new_path, threshold):
    old = {tuple(r[k] for k in KEY): r for r in read_baseline(old_path)}
    new = {tuple(r[k] for k in KEY): r for r in read_baseline(new_path)}
    moved = 0
    for key, r in new.items():
        if key not in old:
            print(f"new      {' '.join(key)}: {float(r['ratio']):.2f}x")
            continue
        before, after = float(old[key]["ratio"]), float(r["ratio"])
        if before > 0 and abs(after / before - 1) > threshold:
            moved += 1
            print(f"{'faster' if after > before else 'SLOWER'}   {' '.join(key)}: {before:.2f}x -> {after:.2f}x "
                  f"({old[key]['commit']} -> {r['commit']})")
    for key in sorted(old.keys() - new.keys()):
        print(f"gone     {' '.join(key)}")
    print(f"baseline.py: {len(new)} rows, {moved} whose ratio moved by more than {threshold:.0%}", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description="Turn benchmark CSVs into baseline rows, or compare two baselines.")
    parser.add_argument("csv", nargs="*", help="CSVs written by bench_gpu_* --csv and bench/torch/*.py --csv")
    parser.add_argument("--device", help="the GPU's short name: h100, h200")
    parser.add_argument("--commit", help="the measured commit (default: $RUNE_COMMIT, else git, else unknown)")
    parser.add_argument("--hist-n", type=count, default=HIST_N, help="bench_gpu_hist's --n (default 5e7)")
    parser.add_argument("--ops", type=lambda text: set(text.split(",")), help="keep only these ops (scan,filter)")
    parser.add_argument("--out", help="the baseline CSV to write (default bench/baseline/<device>.csv)")
    parser.add_argument("--append", action="store_true", help="keep the rows --out already holds")
    parser.add_argument("--compare", nargs=2, metavar=("OLD", "NEW"), help="compare two baselines instead")
    parser.add_argument("--threshold", type=float, default=0.1, help="--compare: relative change reported (0.1)")
    args = parser.parse_args()
    if args.compare:
        compare(*args.compare, args.threshold)
        return
    if not args.device or not args.csv:
        parser.error("converting needs --device and at least one CSV")
    if not args.out:
        args.out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "baseline", f"{args.device}.csv")
    convert(args)


if __name__ == "__main__":
    main()
