#!/usr/bin/env python3
"""Benchmarks GPX ingestion: `detour-report validate big.gpx` next to `xmllint --stream --noout`.

The file has 70,000 waypoints (10,000 stays, 60,000 tasks) and one track of 1.8 million points,
about 200 MB. Both tools run on the same file in the same run, alternating; medians of
wall time, throughput in MB/s and peak resident memory (wait4's ru_maxrss) are reported. Two more
files with the same waypoints-free shape and tracks of different lengths show whether memory
stays flat as the track grows, and how it grows with the number of waypoints.
"""
import os
import shutil
import statistics
import subprocess
import sys

from bench import WORK, build_release, run

HERE = os.path.dirname(os.path.abspath(__file__))


def make(destinations, points):
    path = os.path.join(WORK, f"trip-{destinations}-{points}.gpx")
    if not os.path.exists(path):
        subprocess.run([sys.executable, os.path.join(HERE, "make_gpx.py"), str(destinations), str(points), path],
                       check=True)
    return path


def main():
    runs = int(os.environ.get("BENCH_RUNS", "5"))
    if shutil.which("xmllint") is None:
        sys.exit("bench: xmllint is missing (apt-get install libxml2-utils)")
    os.makedirs(WORK, exist_ok=True)
    binary = build_release("detour-report")
    big = make(10000, 1800000)
    size_mb = os.path.getsize(big) / 1e6
    commands = {
        "xmllint --stream --noout": ["xmllint", "--stream", "--noout", big],
        "detour-report validate": [binary, "validate", big],
    }
    times = {name: [] for name in commands}
    memory = {name: [] for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():
            seconds, mib = run(argv)
            times[name].append(seconds)
            memory[name].append(mib)
    print(f"\ninput: {big} ({size_mb:.0f} MB: 10,000 stays, 60,000 task waypoints, a 1,800,000-point track); "
          f"{runs} runs each, medians")
    print(f"{'command':28} {'wall s':>8} {'MB/s':>8} {'peak MiB':>9}")
    throughput = {}
    for name in commands:
        wall = statistics.median(times[name])
        throughput[name] = size_mb / wall
        print(f"{name:28} {wall:8.3f} {throughput[name]:8.1f} {statistics.median(memory[name]):9.1f}")
    ratio = throughput["detour-report validate"] / throughput["xmllint --stream --noout"]
    print(f"detour-report / xmllint throughput: {ratio:.0%}")

    print("\nmemory as the track grows (100 stays, 600 task waypoints):")
    for points in (500000, 1000000, 2000000):
        path = make(100, points)
        peaks = [run([binary, "validate", path])[1] for _ in range(max(1, runs // 2))]
        print(f"  {os.path.getsize(path) / 1e6:7.0f} MB  peak {statistics.median(peaks):6.1f} MiB")

    print("\nmemory as the waypoints grow (no track): the trip itself is held in memory")
    for stays in (1000, 3000, 10000):
        path = make(stays, 0)
        peaks = [run([binary, "validate", path])[1] for _ in range(max(1, runs // 2))]
        print(f"  {stays * 7:7,} waypoints ({os.path.getsize(path) / 1e6:5.0f} MB)  peak {statistics.median(peaks):6.1f} MiB")

    # The bound: rendering the 70,000-waypoint trip peaks at most at 8 times its size.
    path = make(10000, 0)
    size_mib = os.path.getsize(path) / 2**20
    print(f"\nrendering {stays * 7:,} waypoints ({size_mib:.1f} MiB): peak memory against the file's size")
    for report in ("html", "markdown", "json"):
        peaks = [run([binary, "render", path, "--format", report, "--today", "2026-11-22", "-o", os.devnull])[1]
                 for _ in range(max(1, runs // 2))]
        peak = statistics.median(peaks)
        print(f"  --format {report:9} peak {peak:6.1f} MiB  {peak / size_mib:4.1f}x the file")


if __name__ == "__main__":
    main()
