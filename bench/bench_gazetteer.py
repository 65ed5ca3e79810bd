#!/usr/bin/env python3
"""Benchmarks the gazetteer (GeoNames' 170,391 populated places): how long reading and indexing
the table takes and how much memory it holds, and how long naming a point and searching a name
take, each next to the same question answered without the index in the same run (measuring the
WGS84 distance to every place; scanning every folded name).

Targets (issue 39): load under 300 ms and under 64 MiB; a lookup under 5 ms.

    python3 bench/bench_gazetteer.py       # BENCH_RUNS=5 loads
"""
import os
import subprocess

from bench import build_release


def main():
    runs = os.environ.get("BENCH_RUNS", "5")
    binary = build_release("detour-bench")
    out = subprocess.run([binary, "gazetteer", runs], check=True, capture_output=True, text=True)
    places, load, index, before, after, place, nearest, every, search, scan, _ = out.stdout.split()
    mib = (int(after) - int(before)) / 1024
    rows = [
        ("places", places, "", ""),
        ("load, median of " + runs, f"{float(load) * 1000:.0f} ms", "", check(float(load) * 1000 < 300, "< 300 ms")),
        ("  of which the index", f"{float(index) * 1000:.0f} ms", "", ""),
        ("memory held", f"{mib:.1f} MiB", f"{int(before) / 1024:.1f} MiB before", check(mib < 64, "< 64 MiB")),
        ("name a point (place(at:))", f"{place} us", f"{every} us (every place measured)",
         check(float(place) < 5000, "< 5 ms")),
        ("nearest place (nearest(to:))", f"{nearest} us", f"{every} us (every place measured)",
         check(float(nearest) < 5000, "< 5 ms")),
        ("search a prefix", f"{search} us", f"{scan} us (every name scanned)", check(float(search) < 5000, "< 5 ms")),
    ]
    print(f"{'figure':<30} {'value':>10} {'baseline':>36}  target")
    for name, value, baseline, target in rows:
        print(f"{name:<30} {value:>10} {baseline:>36}  {target}")


def check(ok, target):
    return f"{target} {'ok' if ok else 'MISSED'}"


if __name__ == "__main__":
    main()
