"""What the PyTorch peer scripts share: the command line (--csv, --runs, --device), timing
(median of runs after a warm-up, with the GPU synchronized around each run) and the CSV."""
import argparse
import csv
import statistics
import sys
import time

try:
    import torch
except ImportError:
    sys.exit("the PyTorch peers need PyTorch: pip install torch")


def count(text):
    """A positive whole number, written 100000000 or 1e8 (an argparse type)."""
    try:
        value = float(text)
    except ValueError:
        value = 0
    if value < 1 or value != int(value):
        raise argparse.ArgumentTypeError(f"wants a positive whole number, not '{text}'")
    return int(value)


def parse_args(description, default_runs, add_own_args=lambda parser: None):
    """The common options plus the script's own; returns (args, device)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--csv", metavar="FILE", help="also write the measurements to FILE")
    parser.add_argument("--runs", type=int, default=default_runs, help="timed runs; the median is reported")
    parser.add_argument("--device", default="cuda", help="cuda (default) or cpu (a check of the script, not a peer)")
    add_own_args(parser)
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs wants a positive count")
    if args.device == "cuda" and not torch.cuda.is_available():
        parser.error("PyTorch sees no CUDA device (--device cpu runs the same code on the CPU, slowly)")
    return args, torch.device(args.device)


def median_ms(fn, device, runs, warmup=3):
    """Median milliseconds of `runs` calls of fn after `warmup` untimed ones."""
    for _ in range(warmup):
        fn()
    return statistics.median([time_once_ms(fn, device) for _ in range(runs)])


def time_once_ms(fn, device):
    """One call of fn: on the GPU, CUDA events around it with the device synchronized before and
    after, so it counts all the work fn queued, not just its launches."""
    if device.type != "cuda":
        start = time.perf_counter()
        fn()
        return (time.perf_counter() - start) * 1e3
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize(device)
    start.record()
    fn()
    end.record()
    torch.cuda.synchronize(device)
    return start.elapsed_time(end)


def device_name(device):
    return torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu"


class ResultLog:
    """Prints each measurement as it comes; writes them all to --csv FILE (if given) at the end,
    each with the number of timed runs its median was taken over."""

    def __init__(self, args, device):
        self.path, self.device, self.runs, self.rows = args.csv, device, args.runs, []

    def add(self, ms, **fields):
        print(" ".join(f"{k}={v}" for k, v in fields.items()) + f": {ms:.4f} ms", flush=True)
        self.rows.append({**fields, "ms": f"{ms:.5f}", "runs": self.runs, "device": device_name(self.device),
                          "torch": torch.__version__})

    def write(self):
        if not self.path:
            return
        columns = list(dict.fromkeys(k for row in self.rows for k in row))  # every field, in first-seen order
        with open(self.path, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=columns)
            writer.writeheader()
            writer.writerows(self.rows)
        print(f"wrote {self.path}")
