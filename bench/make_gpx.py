#!/usr/bin/env python3
"""Writes a large GPX trip: N stays with 3 two-task detours each, plus one long track."""
import random
import sys
from datetime import date, timedelta

NS = 'xmlns="http://www.topografix.com/GPX/1/1" xmlns:dr="urn:detour-report:gpx:1"'


def write(out, destinations: int, track_points: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    out.write(f'<gpx version="1.1" creator="detour-report bench" {NS}>\n')
    out.write("  <metadata><name>Benchmark trip</name>"
              '<author><email id="bench" domain="example.org"/></author></metadata>\n')
    start = date(2026, 1, 1)
    tasks = []
    for index in range(destinations):
        lat, lon = rng.uniform(-60, 60), rng.uniform(-179, 179)
        arrival = start + timedelta(days=rng.randrange(0, 700))
        departure = arrival + timedelta(days=rng.randrange(1, 9))
        out.write(f'  <wpt lat="{lat:.5f}" lon="{lon:.5f}"><name>Destination {index}</name><type>destination</type>'
                  f'<extensions><dr:stay id="d{index}" arrival="{arrival}" departure="{departure}"/></extensions></wpt>\n')
        for detour in range(3):
            for side in "AB":
                tasks.append((index, detour, side, lat + rng.uniform(-0.05, 0.05), lon + rng.uniform(-0.05, 0.05),
                              rng.choice(["PT1H30M", "2h", "45m"]), round(rng.uniform(0, 120), 2)))
    for index, detour, side, lat, lon, duration, cost in tasks:
        out.write(f'  <wpt lat="{lat:.5f}" lon="{lon:.5f}"><name>Task {index}-{detour}-{side}</name><type>task</type>'
                  f'<extensions><dr:task destination="d{index}" detour="d{index}-{detour}" duration="{duration}" '
                  f'cost="{cost}" currency="EUR"><dr:pro>Great views</dr:pro><dr:con>Crowded at noon</dr:con>'
                  '</dr:task></extensions></wpt>\n')
    out.write("  <trk><name>The whole way</name><trkseg>\n")
    lat, lon = 45.0, 7.0
    for point in range(track_points):
        lat += rng.uniform(-0.0005, 0.0005)
        lon += rng.uniform(-0.0005, 0.0005)
        out.write(f'    <trkpt lat="{lat:.6f}" lon="{lon:.6f}"><ele>{rng.uniform(0, 3000):.1f}</ele>'
                  f'<time>2026-06-01T{point // 3600 % 24:02d}:{point // 60 % 60:02d}:{point % 60:02d}Z</time></trkpt>\n')
    out.write("  </trkseg></trk>\n</gpx>\n")


if __name__ == "__main__":
    destinations = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    points = int(sys.argv[2]) if len(sys.argv) > 2 else 1500000
    path = sys.argv[3] if len(sys.argv) > 3 else "big.gpx"
    with open(path, "w", encoding="utf-8") as handle:
        write(handle, destinations, points)
