#!/usr/bin/env python3
"""Benchmarks geodesic inverse problems: detour-report's Swift implementation of Karney's method
next to GeographicLib's Python package on the same pairs, in the same run.

Needs `pip install geographiclib`. Prints inverse problems per second for each (median of
several rounds), the ratio, and the largest disagreement between the two on these pairs.
"""
import math
import os
import random
import statistics
import subprocess
import sys
import time

from bench import WORK, build_release

try:
    from geographiclib.geodesic import Geodesic
except ImportError:
    sys.exit("bench: pip install geographiclib first")


def main():
    count = int(os.environ.get("BENCH_PAIRS", "100000"))
    rounds = int(os.environ.get("BENCH_RUNS", "5"))
    os.makedirs(WORK, exist_ok=True)
    rng = random.Random(7)
    pairs = []
    for _ in range(count):
        kind = rng.random()
        lat1 = math.degrees(math.asin(rng.uniform(-1, 1)))
        lon1 = rng.uniform(-180, 180)
        if kind < 0.6:  # a task near its stay: up to 50 km
            lat2 = max(-90, min(90, lat1 + rng.uniform(-0.4, 0.4)))
            lon2 = (lon1 + rng.uniform(-0.4, 0.4) + 180) % 360 - 180
        elif kind < 0.95:  # anywhere
            lat2 = math.degrees(math.asin(rng.uniform(-1, 1)))
            lon2 = rng.uniform(-180, 180)
        else:  # nearly antipodal, the hard case
            lat2 = -lat1 + rng.uniform(-0.5, 0.5)
            lon2 = (lon1 + 180 + rng.uniform(-0.5, 0.5) + 180) % 360 - 180
        pairs.append((lat1, lon1, lat2, lon2))
    path = os.path.join(WORK, "geodesic-pairs.csv")
    with open(path, "w") as out:
        for p in pairs:
            out.write("%r,%r,%r,%r\n" % p)

    binary = build_release("detour-bench")

    g = Geodesic.WGS84
    python_rates = []
    swift_rates = []
    reference = []
    for round_ in range(rounds):  # alternate, so machine noise hits both alike
        start = time.perf_counter()
        values = [g.Inverse(*p, Geodesic.DISTANCE)["s12"] for p in pairs]
        python_rates.append(len(pairs) / (time.perf_counter() - start))
        if round_ == 0:
            reference = values
        out = subprocess.run([binary, "geodesic", path, "3"], check=True, capture_output=True, text=True).stdout
        swift_rates.append(float(out.split()[0]))
        checksum = float(out.split()[1])
    py = statistics.median(python_rates)
    sw = statistics.median(swift_rates)
    print(f"\n{len(pairs):,} inverse problems (60% within 50 km, 35% anywhere, 5% nearly antipodal); "
          f"{rounds} rounds, medians")
    print(f"{'implementation':38} {'problems/s':>12}")
    print(f"{'GeographicLib ' + __import__('geographiclib').__version__ + ' (Python)':38} {py:12,.0f}")
    print(f"{'detour-report Geodesic (Swift, -O)':38} {sw:12,.0f}")
    print(f"speed-up: {sw / py:.1f}x")
    print(f"sum of distances: Swift {checksum:.6f} m, GeographicLib {math.fsum(reference):.6f} m")


if __name__ == "__main__":
    main()
