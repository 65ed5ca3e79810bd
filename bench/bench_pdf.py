#!/usr/bin/env python3
"""Benchmarks PDF (`--format pdf`, headless Chromium) against its baseline, measured in the same
run: 200 trips the size of the samples printed

- by one batch run, which starts one browser and prints each trip in a tab of it, with `-j 1`
  and with `-j 2` (two tabs printing at once);
- by 200 runs of `detour-report TRIP -o TRIP.pdf`, one after another, each starting its own
  browser: what printing one trip at a time costs, as a shell loop (or the browser's own
  `--print-to-pdf`, which also starts a browser per page) would do it.

The batch runs alternate with each other, and the medians are printed; the per-trip baseline,
three minutes a run on this machine, runs once unless BENCH_BASELINE_RUNS says otherwise.
BENCH_TRIPS sets the number of trips, BENCH_RUNS the batch runs.
"""
import os
import shutil
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import WORK, build_release, run  # noqa: E402
from bench_batch import make_trips, one_process_per_trip  # noqa: E402


def main():
    runs = int(os.environ.get("BENCH_RUNS", "3"))
    baseline_runs = int(os.environ.get("BENCH_BASELINE_RUNS", "1"))
    count = int(os.environ.get("BENCH_TRIPS", "200"))
    if not shutil.which("chromium"):
        sys.exit("bench_pdf needs chromium (Debian: apt-get install chromium)")
    os.makedirs(WORK, exist_ok=True)
    binary = build_release("detour-report")
    trips = os.path.join(WORK, f"pdf-{count}")
    out = os.path.join(WORK, "pdf-out")
    make_trips(trips, count)
    files = sorted(os.path.join(trips, name) for name in os.listdir(trips))
    today = ["--today", "2026-11-22"]

    def batch(jobs):
        shutil.rmtree(out, ignore_errors=True)
        return run([binary, trips, "-d", out, "--format", "pdf", "-j", str(jobs), "--quiet"] + today)[0]

    def one_browser_per_trip():
        return one_process_per_trip(binary, files, out, "pdf", today)

    times = {"-j 1": [], "-j 2": []}
    for _ in range(runs):
        times["-j 1"].append(batch(1))
        times["-j 2"].append(batch(2))
    produced = len([name for name in os.listdir(out) if name.endswith(".pdf")])
    if produced != count:
        sys.exit(f"the batch wrote {produced} PDFs, not {count}")
    apart = [one_browser_per_trip() for _ in range(baseline_runs)]
    median = {name: statistics.median(values) for name, values in times.items()}
    separate = statistics.median(apart)
    print(f"bench_pdf: {count} trips to PDF, {os.cpu_count()} cores; batch: median of {runs} runs, "
          f"baseline: median of {baseline_runs}")
    print(f"  one batch run, one browser, -j 1             {median['-j 1']:8.2f} s  ({median['-j 1'] / count * 1000:.0f} ms a trip)")
    print(f"  one batch run, one browser, -j 2             {median['-j 2']:8.2f} s  ({median['-j 2'] / count * 1000:.0f} ms a trip)")
    print(f"  baseline: {count} runs, a browser per trip      {separate:8.2f} s  ({separate / count * 1000:.0f} ms a trip)")
    print(f"  -j 2 against -j 1: {median['-j 1'] / median['-j 2']:.2f}x faster")
    print(f"  one batch run (-j 2) against a browser per trip: {separate / median['-j 2']:.1f}x faster (target: at least 5x)")


if __name__ == "__main__":
    main()
