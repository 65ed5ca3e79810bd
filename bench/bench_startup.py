#!/usr/bin/env python3
"""Benchmarks what the server costs the `render` command's start-up: one sample end to end,

    detour-report samples/lisbon-city-break.json --today 2026-11-24 > /dev/null

with a static release build of the current tree, next to the baseline, a static release build of
commit e774082 (the last commit before the server and its HTTP stack were linked), measured in
the same run. The two run alternately, about 200 times each, so that drift on a shared machine
hits both alike; the script prints both medians, their ratio (target: within 10 %), the current
median (target: under 10 ms), the binaries' sizes and the page faults of a run, and, when
valgrind is installed, the instructions of one run of each (`valgrind --tool=callgrind`), a
count that does not move with the load on the machine. It exits with 1 when a target is missed.

    python3 bench/bench_startup.py [CURRENT [BEFORE]]
    python3 bench/bench_startup.py --build      # builds both first, as below

The binaries, by default:

    CURRENT  .build-static/release/detour-report, built from this tree with
             swift build -c release --static-swift-stdlib --product detour-report \\
                 --scratch-path .build-static
             (a folder of its own, so that it and the plain release build in .build, which
             bench_serve.py uses, do not rebuild each other)
    BEFORE   /tmp/detour-before/.build/release/detour-report, built in a worktree of e774082:
             git worktree add --detach /tmp/detour-before e774082
             cp Package.resolved /tmp/detour-before/      # the same versions of the shared packages
             cd /tmp/detour-before && swift build -c release --static-swift-stdlib --product detour-report

Remove the worktree afterwards with `git worktree remove /tmp/detour-before`. A binary that links
Swift's runtime dynamically (built without --static-swift-stdlib) is refused: its start-up is
dominated by the dynamic loader, not by what this compares. BENCH_RUNS sets the number of runs.
"""
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import finish  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BEFORE_COMMIT = "e774082"
WORKTREE = "/tmp/detour-before"
SCRATCH = os.path.join(ROOT, ".build-static")
CURRENT = os.path.join(SCRATCH, "release", "detour-report")
BEFORE = os.path.join(WORKTREE, ".build", "release", "detour-report")
SAMPLE = os.path.join(ROOT, "samples", "lisbon-city-break.json")
TODAY = ["--today", "2026-11-24"]

MAX_RATIO = 1.10
MAX_MEDIAN_MS = 10.0


def build():
    """Builds both binaries as the docstring says, making the worktree when it is missing."""
    static = ["swift", "build", "-c", "release", "--static-swift-stdlib", "--product", "detour-report"]
    print("bench: building the current tree (release, --static-swift-stdlib)", flush=True)
    subprocess.run(static + ["--scratch-path", SCRATCH], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    if not os.path.isdir(WORKTREE):
        subprocess.run(["git", "worktree", "add", "--detach", WORKTREE, BEFORE_COMMIT], cwd=ROOT, check=True)
        if os.path.exists(os.path.join(ROOT, "Package.resolved")):
            shutil.copyfile(os.path.join(ROOT, "Package.resolved"), os.path.join(WORKTREE, "Package.resolved"))
    print(f"bench: building {BEFORE_COMMIT} in {WORKTREE} (release, --static-swift-stdlib)", flush=True)
    subprocess.run(static, cwd=WORKTREE, check=True, stdout=subprocess.DEVNULL)


def links_swift_dynamically(binary):
    """Whether `binary` needs libswiftCore.so (a build without --static-swift-stdlib)."""
    out = subprocess.run(["readelf", "-d", binary], capture_output=True, text=True).stdout
    return "libswiftCore.so" in out


def run(argv, stdout=subprocess.DEVNULL):
    """Runs `argv` to its end: wall seconds and minor page faults (wait4's rusage)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=stdout, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"{argv} failed with {code}")
    return elapsed, usage.ru_minflt


def instructions(binary):
    """Instructions of one run under callgrind, or None without valgrind. Valgrind 3.19 cannot
    read the DWARF these builds carry, so it runs a copy without it (the same code)."""
    if not shutil.which("valgrind") or not shutil.which("objcopy"):
        return None
    with tempfile.TemporaryDirectory(prefix="detour-bench-callgrind-") as folder:
        copy = os.path.join(folder, "detour-report")
        subprocess.run(["objcopy", "--strip-debug", binary, copy], check=True)
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={folder}/callgrind.out", copy, SAMPLE, *TODAY],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    found = re.search(r"Collected\s*:\s*(\d+)", out.stderr)
    return int(found.group(1)) if found else None


def sections(binary):
    """Bytes of code and data loaded (`size`), and the number of protocol conformance records:
    the runtime scans all of them on each conformance lookup it has not cached, which argument
    parsing does many times."""
    lines = subprocess.run(["size", binary], capture_output=True, text=True).stdout.splitlines()
    text, data, bss = (int(field) for field in lines[1].split()[:3]) if len(lines) > 1 else (0, 0, 0)
    conformances = 0
    for line in subprocess.run(["readelf", "-SW", binary], capture_output=True, text=True).stdout.splitlines():
        fields = line.replace("[ ", "[").split()
        if len(fields) > 5 and fields[1] == "swift5_protocol_conformances":
            conformances = int(fields[5], 16) // 4  # one 32-bit relative pointer each
    return text, data + bss, conformances


def main():
    arguments = [argument for argument in sys.argv[1:] if argument != "--build"]
    if "--build" in sys.argv[1:]:
        build()
    current = arguments[0] if len(arguments) > 0 else CURRENT
    before = arguments[1] if len(arguments) > 1 else BEFORE
    for name, binary in (("current", current), ("before", before)):
        if not os.access(binary, os.X_OK):
            sys.exit(f"bench: no {name} binary at {binary}; build it as `{sys.argv[0]} --build` would "
                     "(see the docstring)")
        if links_swift_dynamically(binary):
            sys.exit(f"bench: {binary} links Swift's runtime dynamically; build it with --static-swift-stdlib")
    runs = int(os.environ.get("BENCH_RUNS", "200"))

    # Both must make the same report: the server must not have changed what `render` writes.
    outputs = {}
    for name, binary in (("current", current), ("before", before)):
        with tempfile.TemporaryFile() as out:
            run([binary, SAMPLE, *TODAY], stdout=out)
            out.seek(0)
            outputs[name] = out.read()

    commands = {
        "current: one sample end to end": [current, SAMPLE, *TODAY],
        f"before ({BEFORE_COMMIT}): one sample end to end": [before, SAMPLE, *TODAY],
        "current: --version": [current, "--version"],
        f"before ({BEFORE_COMMIT}): --version": [before, "--version"],
    }
    for argv in commands.values():  # a few runs to warm the page cache
        for _ in range(3):
            run(argv)
    times = {name: [] for name in commands}
    faults = {name: [] for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():  # alternate so drift on a shared machine hits all alike
            seconds, minor = run(argv)
            times[name].append(seconds)
            faults[name].append(minor)
    median = {name: statistics.median(values) * 1000 for name, values in times.items()}
    names = list(commands)
    ratio = median[names[0]] / median[names[1]]
    # Each round runs both back to back: the median of the rounds' ratios is steadier than the
    # ratio of the medians when the load changes during the run.
    rounds = statistics.median(a / b for a, b in zip(times[names[0]], times[names[1]]))

    print(f"\nbench: {runs} runs each, alternating, medians; {os.cpu_count()} cores; "
          f"`detour-report {os.path.relpath(SAMPLE, ROOT)} {' '.join(TODAY)} > /dev/null`")
    print(f"  {'command':<44} {'wall ms':>8} {'minor faults':>13}")
    for name in commands:
        print(f"  {name:<44} {median[name]:8.2f} {statistics.median(faults[name]):13.0f}")
    for name, binary in (("current", current), ("before", before)):
        text, data, conformances = sections(binary)
        print(f"  {name + ' binary:':<16} {os.path.getsize(binary) / 2**20:6.1f} MiB on disk (with debug info), "
              f"code {text / 2**20:5.1f} MiB, data {data / 2**20:5.1f} MiB, {conformances:,} conformance records")
    if outputs["current"] != outputs["before"]:
        print(f"  note: the two reports differ ({len(outputs['current'])} and {len(outputs['before'])} bytes)")
    counted = {name: instructions(binary) for name, binary in (("current", current), ("before", before))}
    if counted["current"] and counted["before"]:
        print(f"  instructions of one run (callgrind): current {counted['current']:,}, before {counted['before']:,} "
              f"({counted['current'] / counted['before']:.3f}x)")

    missed = []
    print(f"  current / before: {ratio:.3f}x (ratio of the medians), {rounds:.3f}x (median of the rounds) "
          f"(target: at most {MAX_RATIO:.2f}x)")
    if ratio > MAX_RATIO:
        missed.append("ratio")
    print(f"  current median: {median[names[0]]:.2f} ms (target: under {MAX_MEDIAN_MS:g} ms)")
    if median[names[0]] >= MAX_MEDIAN_MS:
        missed.append("median")
    finish(missed)


if __name__ == "__main__":
    main()
