#!/usr/bin/env python3
"""Benchmarks `detour-report big.json > /dev/null` in every format against a baseline.

The baseline, measured in the same run, is Foundation's JSONDecoder merely decoding the same file
into plain structs. Each command runs several times, alternating, and the medians are reported,
with peak resident memory from the kernel (wait4's ru_maxrss).

Environment:
  BENCH_RUNS            runs of each command (5)
  BENCH_DESTINATIONS    stays in the generated trip (20000)
  BENCH_SCRATCH         SwiftPM's build folder (--scratch-path; default: .build); the generated
                        trips and the baseline go in its `bench` folder
  BENCH_BEFORE          an earlier detour-report binary: each format is also run with it, in the
                        same alternation, and its figures are printed beside the new ones, after a
                        check that both write the same bytes
"""
import hashlib
import os
import resource
import statistics
import subprocess
import tempfile
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SCRATCH = os.path.abspath(os.environ.get("BENCH_SCRATCH", os.path.join(ROOT, ".build")))
WORK = os.path.join(SCRATCH, "bench")


def run(argv, stdout=subprocess.DEVNULL):
    """Runs `argv` to its end: wall seconds and peak MiB."""
    elapsed, peak, _ = run_usage(argv, stdout)
    return elapsed, peak


def run_usage(argv, stdout=subprocess.DEVNULL):
    """Runs `argv` to its end: wall seconds, peak MiB, and CPU seconds (user and system)."""
    # Standard error goes to a file, not a pipe: a run with thousands of warnings would fill a
    # pipe nobody reads while we wait for the process, and never end.
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=stdout, stderr=errors)
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - start
        errors.seek(0)
        err = errors.read().decode("utf-8", "replace")
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit(f"{argv} failed with {proc.returncode}: {err[:2000]}")
    return elapsed, usage.ru_maxrss / 1024.0, usage.ru_utime + usage.ru_stime


# The build the README tells users to install: optimised, with Swift's runtime and Foundation
# linked in (`--static-swift-stdlib`), which also halves the cost of starting the process.
RELEASE = ["-c", "release", "--static-swift-stdlib", "--scratch-path", SCRATCH]

# The targets, each a multiple of a figure measured in the same run: wall time of the JSONDecoder
# baseline per report format, and peak memory of the input file's size.
TIME_TARGETS = {"html": 1.5, "markdown": 1.3, "json": 1.3}
MEMORY_TARGET = 5.0


def finish(missed):
    """Ends a benchmark with its verdict: exit 1 naming the targets `missed`, else 0."""
    if missed:
        print(f"bench: targets missed: {', '.join(missed)}")
        sys.exit(1)
    print("bench: every target met")


def build_release(product):
    """Builds `product` as the README's install command does and returns the path of its binary."""
    print(f"bench: building {product} (release, --static-swift-stdlib)", flush=True)
    subprocess.run(["swift", "build", *RELEASE, "--product", product], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    return subprocess.run(["swift", "build", *RELEASE, "--show-bin-path"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout.strip() + "/" + product


def main():
    runs = int(os.environ.get("BENCH_RUNS", "5"))
    destinations = int(os.environ.get("BENCH_DESTINATIONS", "20000"))
    os.makedirs(WORK, exist_ok=True)
    binary = build_release("detour-report")
    baseline = os.path.join(WORK, "json-decoder-baseline")
    print("bench: building the JSONDecoder baseline (-O)", flush=True)
    subprocess.run(["swiftc", "-O", "-o", baseline, os.path.join(HERE, "JSONDecoderBaseline.swift")], check=True)
    trip = os.path.join(WORK, f"big-{destinations}.json")
    if not os.path.exists(trip):
        subprocess.run([sys.executable, os.path.join(HERE, "make_trip.py"), str(destinations), trip], check=True)
    size_mb = os.path.getsize(trip) / 1e6

    before = os.environ.get("BENCH_BEFORE")
    reports = ("html", "markdown", "json")
    commands = {"baseline: JSONDecoder only": [baseline, trip]}
    for report in reports:
        commands[f"detour-report --format {report}"] = [binary, trip, "--today", "2026-11-22", "--format", report]
        if before:
            commands[f"  before: --format {report}"] = [before, trip, "--today", "2026-11-22", "--format", report]
    if before:
        check_same_bytes(binary, before, trip, reports)
    times = {name: [] for name in commands}
    memory = {name: [] for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():  # alternate so drift on a shared machine hits all alike
            seconds, mib = run(argv)
            times[name].append(seconds)
            memory[name].append(mib)

    base = statistics.median(times["baseline: JSONDecoder only"])
    print(f"\ninput: {trip} ({size_mb:.1f} MB, {destinations} destinations x 3 detours x 2 tasks); "
          f"{runs} runs each, medians")
    print(f"{'command':34} {'wall s':>8} {'x base':>7} {'peak MiB':>9} {'x input':>8}")
    missed = []
    for name in commands:
        wall = statistics.median(times[name])
        peak = statistics.median(memory[name])
        print(f"{name:34} {wall:8.3f} {wall / base:7.2f} {peak:9.1f} {peak / (size_mb / 1.048576):8.2f}")
        report = name.rsplit(" ", 1)[-1]
        if name.startswith("detour-report"):
            if wall / base > TIME_TARGETS[report]:
                missed.append(f"{report} {wall / base:.2f}x the baseline (target {TIME_TARGETS[report]}x)")
            if peak / (size_mb / 1.048576) > MEMORY_TARGET:
                missed.append(f"{report} peak {peak / (size_mb / 1.048576):.2f}x the input (target {MEMORY_TARGET}x)")

    sample = os.path.join(ROOT, "samples", "lisbon-city-break.json")
    sample_commands = {"sample: lisbon-city-break.json": [binary, sample, "--today", "2026-11-22"]}
    if before:
        sample_commands["  before: lisbon-city-break.json"] = [before, sample, "--today", "2026-11-22"]
    sample_times = {name: [] for name in sample_commands}
    # 31 runs each, alternating: one run of a sample is a few milliseconds.
    for _ in range(31):
        for name, argv in sample_commands.items():
            sample_times[name].append(run(argv)[0])
    print()
    for name, seconds in sample_times.items():
        print(f"{name:34} {statistics.median(seconds) * 1000:7.1f} ms (median of 31)")

    # The bound: a 63 MB trip renders in every format with 1 GiB of address space.
    large = os.path.join(WORK, "big-44000.json")
    if not os.path.exists(large):
        subprocess.run([sys.executable, os.path.join(HERE, "make_trip.py"), "44000", large], check=True)
    large_mib = os.path.getsize(large) / 2**20
    print(f"\n{large} ({os.path.getsize(large) / 1e6:.1f} MB) under ulimit -v 1 GiB:")
    for report in ("html", "markdown", "json"):
        seconds, mib, status = run_limited([binary, large, "--today", "2026-11-22", "--format", report], 1 << 30)
        print(f"  --format {report:9} exit {status}  {seconds:6.2f} s  peak {mib:6.1f} MiB ({mib / large_mib:.1f}x the file)")
        if status != 0:
            missed.append(f"{report} under ulimit -v 1 GiB exited {status}")
    finish(missed)


def check_same_bytes(binary, before, trip, reports):
    """Exits unless `binary` and `before` write the same bytes for `trip` in every format."""
    for report in reports:
        digests = []
        for program in (binary, before):
            digest = hashlib.sha256()
            argv = [program, trip, "--today", "2026-11-22", "--format", report]
            with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL) as proc:
                for block in iter(lambda: proc.stdout.read(1 << 20), b""):
                    digest.update(block)
            digests.append(digest.hexdigest())
        same = "same bytes" if digests[0] == digests[1] else "DIFFERENT BYTES"
        print(f"bench: --format {report}: sha256 {digests[0]} ({same} as before)")
        if digests[0] != digests[1]:
            sys.exit(f"bench: --format {report} differs from {before}")


def run_limited(argv, address_space):
    """Runs argv with RLIMIT_AS set (the shell's ulimit -v); returns seconds, peak MiB, exit status."""
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=limit)
    _, status, usage = os.wait4(proc.pid, 0)
    return time.perf_counter() - start, usage.ru_maxrss / 1024.0, os.waitstatus_to_exitcode(status)


if __name__ == "__main__":
    main()
