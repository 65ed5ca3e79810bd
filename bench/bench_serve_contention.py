#!/usr/bin/env python3
"""`detour-report serve` under the loads of a folder used by many: each figure for the server of
BENCH_BEFORE (a release `detour-report` whose `detour-report-serve` lies beside it), when given,
next to this tree's, measured in the same run on the same machine.

(a) small requests while big renders run: four trips of about 14 MB each (10,000 stays) are
    requested at once, cold; meanwhile one client asks, one request after another, for a 3 KB
    trip file (`GET /api/v1/trips/lisbon-city-break`), a cached report and a documentation page,
    until the four renders are done. The p50, p99 and largest latency of those small requests
    (target: p99 under 50 ms) and how long the four renders took;
(b) a folder of 10,000 small trips, unchanged: `GET /` and `GET /api/v1/trips`, the median of
    five after a first that checks every trip (target: under 100 ms);
(c) memory: a 7 MB trip saved ten times, its HTML report fetched after each save: the server's
    resident memory after the first and after the tenth (target: at most 1.2x).

All traffic stays on 127.0.0.1, each phase bounded in count. The script exits with 1 when a
target is missed by this tree's server.

    BENCH_BEFORE=/path/to/old/release/detour-report python3 bench/bench_serve_contention.py
"""
import http.client
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import finish  # noqa: E402
from bench_serve import Server, build  # noqa: E402
from make_trip import make_trip  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SAMPLES = os.path.join(ROOT, "samples")


def write_trip(path, stays, title, seed=1):
    trip = make_trip(stays, seed)
    trip["title"] = title
    with open(path, "w", encoding="utf-8") as out:
        json.dump(trip, out, ensure_ascii=False, separators=(",", ":"))


def get(port, path, timeout=600):
    """Status and seconds of one GET, on a connection of its own."""
    start = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    connection.request("GET", path)
    response = connection.getresponse()
    response.read()
    connection.close()
    return response.status, time.perf_counter() - start


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def contention(binary, work):
    folder = os.path.join(work, "contention")
    os.makedirs(folder)
    shutil.copy(os.path.join(SAMPLES, "lisbon-city-break.json"), folder)
    for index in range(4):
        write_trip(os.path.join(folder, f"big{index}.json"), 10_000, f"Big {index}", seed=index + 1)
    server = Server(binary, folder, work)
    small = ["/api/v1/trips/lisbon-city-break", "/trips/lisbon-city-break.html", "/docs/diagnostics/empty-file"]
    for path in small:
        get(server.port, path)
    done = []
    renders = []

    def render(index):
        status, seconds = get(server.port, f"/trips/big{index}.html")
        renders.append((status, seconds))
        done.append(index)

    threads = [threading.Thread(target=render, args=(index,)) for index in range(4)]
    for thread in threads:
        thread.start()
    latencies = []
    # Bounded in count as well as by the renders' end.
    while len(done) < 4 and len(latencies) < 20_000:
        status, seconds = get(server.port, small[len(latencies) % len(small)])
        if status != 200:
            sys.exit(f"bench: a small request answered {status}")
        latencies.append(seconds)
    for thread in threads:
        thread.join()
    server.stop()
    if any(status != 200 for status, _ in renders):
        sys.exit(f"bench: a big render answered {renders}")
    return latencies, max(seconds for _, seconds in renders)


def large_folder(binary, work):
    folder = os.path.join(work, "folder")
    os.makedirs(folder)
    with open(os.path.join(SAMPLES, "lisbon-city-break.json"), "rb") as source:
        bytes_ = source.read()
    for index in range(10_000):
        with open(os.path.join(folder, f"trip-{index:05}.json"), "wb") as out:
            out.write(bytes_)
    server = Server(binary, folder, work)
    figures = {}
    for path in ["/", "/api/v1/trips"]:
        status, first = get(server.port, path)
        if status != 200:
            sys.exit(f"bench: {path} answered {status}")
        figures[path] = (first, statistics.median(get(server.port, path)[1] for _ in range(5)))
    server.stop()
    return figures


def memory(binary, work):
    folder = os.path.join(work, "memory")
    os.makedirs(folder)
    path = os.path.join(folder, "big.json")
    server = Server(binary, folder, work)
    sizes = []
    for save in range(10):
        write_trip(path + ".new", 5_000, f"Saved {save}", seed=7)
        os.replace(path + ".new", path)
        status, _ = get(server.port, "/trips/big.html")
        if status != 200:
            sys.exit(f"bench: big.html answered {status}")
        sizes.append(server.rss_kib())
    server.stop()
    return sizes[0], sizes[-1], os.path.getsize(path)


def main():
    binaries = [("after", os.environ.get("BENCH_BINARY") or build())]
    if os.environ.get("BENCH_BEFORE"):
        binaries.insert(0, ("before", os.environ["BENCH_BEFORE"]))
    print(f"bench: {os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f}", flush=True)
    results = {}
    for label, binary in binaries:
        with tempfile.TemporaryDirectory(prefix="detour-bench-") as work:
            latencies, renders = contention(binary, work)
            folder = large_folder(binary, work)
            first, last, size = memory(binary, work)
        results[label] = (latencies, renders, folder, first, last)
        print(f"\n[{label}] {binary}")
        print(f"(a) {len(latencies)} small requests during 4 cold renders of 14 MB trips "
              f"(renders done in {renders:.2f} s): p50 {percentile(latencies, 0.5) * 1000:.1f} ms, "
              f"p99 {percentile(latencies, 0.99) * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms")
        for path, (cold, warm) in folder.items():
            print(f"(b) 10,000 trips, GET {path}: first {cold * 1000:.0f} ms, then median {warm * 1000:.1f} ms")
        print(f"(c) a {size / 1e6:.1f} MB trip saved 10 times: resident {first / 1024:.0f} MiB after the first, "
              f"{last / 1024:.0f} MiB after the tenth ({last / first:.2f}x)")
    latencies, _, folder, first, last = results["after"]
    missed = []
    if percentile(latencies, 0.99) >= 0.050:
        missed.append("(a) p99 under 50 ms")
    if any(warm >= 0.100 for _, warm in folder.values()):
        missed.append("(b) under 100 ms")
    if last > 1.2 * first:
        missed.append("(c) at most 1.2x")
    finish(missed)


if __name__ == "__main__":
    main()
