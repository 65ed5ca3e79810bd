#!/usr/bin/env python3
"""Benchmarks a batch run (`detour-report TRIPS/ -d OUT`) on every core against its baselines,
measured in the same run.

- 4,000 trips the size of the samples (BENCH_TRIPS), rendered to HTML with `-j 1, 2, 4, 8`, into
  a RAM file system (/dev/shm) and into a folder on the disk (.build/bench): wall time, CPU time
  (user and system) and voluntary context switches per trip (wait4's ru_nvcsw: each is a thread
  that went to sleep, on a lock or in the kernel);
- next to the machine's own ceiling for two cores, measured in each round: the same trips as two
  `-j 1` processes side by side, one `--shard` each, which share nothing at all;
- 200 trips as 200 separate processes, one after another, as a shell loop would run them, against
  one batch run of them; and one sample end to end next to `detour-report --version`, the floor
  of starting the process at all.

BENCH_BINARY names a detour-report binary to measure instead of building one (a machine with more
cores and no Swift: the release binary, started through its loader as the issue describes, by a
small wrapper script). Each command runs BENCH_RUNS times (5), alternating, so drift on a shared machine hits all alike;
a speed-up is the median of the rounds' own ratios. The targets (issue 27): on tmpfs, `-j 2` at
least 1.85x `-j 1` and within 3 % of the two-core ceiling; at most 0.05 voluntary context
switches per trip at `-j 8`.
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import ROOT, WORK, build_release, finish, run  # noqa: E402

SAMPLES = ["lisbon-city-break.json", "nordic-budget.json", "scandinavia-rail.json", "andes-drafts.json"]
JOBS = [1, 2, 4, 8]
TODAY = ["--today", "2026-11-22"]


def make_trips(folder, count):
    """`count` trips: the JSON samples, copied round-robin under numbered names."""
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    for number in range(count):
        sample = SAMPLES[number % len(SAMPLES)]
        shutil.copyfile(os.path.join(ROOT, "samples", sample), os.path.join(folder, f"trip-{number:04}-{sample}"))


def usage(argv):
    """Runs argv to its end: wall seconds, CPU seconds, voluntary context switches."""
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=errors)
        _, status, rusage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) != 0:
            errors.seek(0)
            sys.exit(f"{argv} failed: {errors.read()[:2000]!r}")
    return elapsed, rusage.ru_utime + rusage.ru_stime, rusage.ru_nvcsw


def main():
    runs = int(os.environ.get("BENCH_RUNS", "5"))
    count = int(os.environ.get("BENCH_TRIPS", "4000"))
    os.makedirs(WORK, exist_ok=True)
    binary = os.environ.get("BENCH_BINARY") or build_release("detour-report")
    trips = os.path.join(WORK, f"batch-{count}")
    make_trips(trips, count)
    places = {"disk": os.path.join(WORK, "batch-out")}
    if os.path.isdir("/dev/shm"):
        places = {"tmpfs": "/dev/shm", **places}
    os.makedirs(places["disk"], exist_ok=True)

    def batch(jobs, where, extra=()):
        folder = tempfile.mkdtemp(prefix="detour-bench-", dir=where)
        shutil.rmtree(folder)
        try:
            return usage([binary, trips, "-d", folder, "-j", str(jobs), "--quiet", *TODAY, *extra])
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def side_by_side(where):
        """The trips as two -j 1 processes at once, one shard each: what two cores give this
        machine at that moment with nothing shared at all, the ceiling for -j 2."""
        folders = [tempfile.mkdtemp(prefix="detour-bench-", dir=where) for _ in range(2)]
        try:
            start = time.perf_counter()
            procs = [subprocess.Popen([binary, trips, "-d", folder, "-j", "1", "--quiet", "--shard", f"{k}/2", *TODAY],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                     for k, folder in enumerate(folders)]
            if any(proc.wait() != 0 for proc in procs):
                sys.exit("a --shard run failed")
            return time.perf_counter() - start
        finally:
            for folder in folders:
                shutil.rmtree(folder, ignore_errors=True)

    few = sorted(os.path.join(trips, name) for name in os.listdir(trips))[:200]
    few_folder = os.path.join(WORK, "batch-200")
    shutil.rmtree(few_folder, ignore_errors=True)
    os.makedirs(few_folder)
    for path in few:
        shutil.copyfile(path, os.path.join(few_folder, os.path.basename(path)))

    def separate():
        """200 trips, each by a run of its own, one after another, as a shell loop would."""
        out = tempfile.mkdtemp(prefix="detour-bench-", dir=places["disk"])
        try:
            start = time.perf_counter()
            for path in few:
                name = os.path.splitext(os.path.basename(path))[0]
                run([binary, path, "-o", os.path.join(out, f"{name}.html"), *TODAY])
            return time.perf_counter() - start
        finally:
            shutil.rmtree(out, ignore_errors=True)

    def few_batch():
        out = tempfile.mkdtemp(prefix="detour-bench-", dir=places["disk"])
        shutil.rmtree(out)
        try:
            return usage([binary, few_folder, "-d", out, "--quiet", *TODAY])[0]
        finally:
            shutil.rmtree(out, ignore_errors=True)

    sample = os.path.join(ROOT, "samples", "lisbon-city-break.json")
    results = {(place, jobs): [] for place in places for jobs in JOBS}
    ceilings = {place: [] for place in places}
    others = {"200 separate processes": [], "200 trips, one batch run": [], "one sample end to end": [],
              "detour-report --version": []}
    for round_number in range(runs):
        print(f"bench: round {round_number + 1} of {runs}", flush=True)
        for place, where in places.items():
            for jobs in JOBS:
                results[place, jobs].append(batch(jobs, where))
            ceilings[place].append(side_by_side(where))
        others["200 separate processes"].append(separate())
        others["200 trips, one batch run"].append(few_batch())
        others["one sample end to end"].append(run([binary, sample, *TODAY])[0])
        others["detour-report --version"].append(run([binary, "--version"])[0])

    missed = []
    print(f"\nbench: {count} trips (HTML), median of {runs} rounds, {os.cpu_count()} cores")
    print(f"{'where':6} {'-j':>3} {'wall s':>8} {'x -j 1':>7} {'CPU s':>7} {'vcsw/trip':>10}")
    for place in places:
        one = [wall for wall, _, _ in results[place, 1]]
        for jobs in JOBS:
            walls = [wall for wall, _, _ in results[place, jobs]]
            speedup = statistics.median(a / b for a, b in zip(one, walls))
            cpu = statistics.median(cpu for _, cpu, _ in results[place, jobs])
            switches = statistics.median(vcsw for _, _, vcsw in results[place, jobs]) / count
            print(f"{place:6} {jobs:3} {statistics.median(walls):8.3f} {speedup:7.2f} {cpu:7.2f} {switches:10.4f}")
            if place == "tmpfs" and jobs == 8 and switches > 0.05:
                missed.append(f"{switches:.3f} voluntary context switches per trip at -j 8 (at most 0.05)")
        ceiling = statistics.median(a / b for a, b in zip(one, ceilings[place]))
        two = statistics.median(a / b for a, (b, _, _) in zip(one, results[place, 2]))
        print(f"{place:6} two -j 1 halves side by side (the two-core ceiling): {statistics.median(ceilings[place]):.3f} s, "
              f"{ceiling:.2f}x; -j 2 reaches {two / ceiling:.1%} of it")
        if place == "tmpfs":
            if two < 1.85:
                missed.append(f"-j 2 is {two:.2f}x -j 1 on tmpfs (at least 1.85x)")
            if two < 0.97 * ceiling:
                missed.append(f"-j 2 is {two / ceiling:.1%} of the two-core ceiling on tmpfs (at least 97 %)")
    median = {name: statistics.median(values) for name, values in others.items()}
    print(f"\n  200 trips: one batch run {median['200 trips, one batch run'] * 1000:.0f} ms, 200 separate processes "
          f"{median['200 separate processes'] * 1000:.0f} ms ({median['200 separate processes'] / median['200 trips, one batch run']:.1f}x)")
    print(f"  one sample end to end: {median['one sample end to end'] * 1000:.1f} ms, of which starting the process "
          f"({median['detour-report --version'] * 1000:.1f} ms for --version)")
    finish(missed)


if __name__ == "__main__":
    main()
