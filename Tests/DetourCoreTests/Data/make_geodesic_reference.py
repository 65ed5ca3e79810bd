#!/usr/bin/env python3
"""Writes geodesic-reference.csv: WGS84 geodesic distances from GeographicLib for the Swift tests.

Run with `pip install geographiclib` done; the output is committed, the package is not needed
to run the tests. Columns: kind, lat1, lon1, lat2, lon2, s12 (metres, 17 significant digits),
azi1, azi2 (degrees clockwise from north at each end).
"""
import csv
import math
import random
import sys

from geographiclib.geodesic import Geodesic

WGS84 = Geodesic.WGS84
rng = random.Random(20261122)


def row(kind, lat1, lon1, lat2, lon2):
    solution = WGS84.Inverse(lat1, lon1, lat2, lon2, Geodesic.DISTANCE | Geodesic.AZIMUTH)
    return [kind, repr(lat1), repr(lon1), repr(lat2), repr(lon2), repr(solution["s12"]),
            repr(solution["azi1"]), repr(solution["azi2"])]


def uniform_point():
    # Uniform on the sphere, not in latitude: more pairs where people are.
    lat = math.degrees(math.asin(rng.uniform(-1, 1)))
    return round(lat, 7), round(rng.uniform(-180, 180), 7)


rows = []
for _ in range(200):
    rows.append(row("random", *uniform_point(), *uniform_point()))
for _ in range(100):
    lat, lon = uniform_point()
    lat = max(-89.0, min(89.0, lat))
    distance = 10 ** rng.uniform(0, 5)  # 1 m to 100 km
    azimuth = rng.uniform(-180, 180)
    end = WGS84.Direct(lat, lon, azimuth, distance)
    rows.append(row("short", lat, lon, round(end["lat2"], 9), round(end["lon2"], 9)))
cities = [(51.4700, -0.4543), (40.6413, -73.7781), (-33.9399, 151.1753), (35.5494, 139.7798),
          (-23.4356, -46.4731), (1.3644, 103.9915), (25.2532, 55.3657), (-26.1392, 28.2460),
          (64.1283, -21.9405), (-54.8433, -68.2958), (61.1743, -149.9962), (-43.4894, 172.5322)]
for i, a in enumerate(cities):
    for b in cities[i + 1:]:
        rows.append(row("long-haul", *a, *b))
special = [
    (0, 0, 0, 0), (38.7223, -9.1393, 38.7223, -9.1393), (90, 0, 90, 0), (-90, 0, -90, 0),
    (90, 0, -90, 0), (90, 10, 90, -170), (89.9999, 0, 89.9999, 180), (90, 0, 0, 0), (-90, 0, 45, 45),
    (0, 0, 0, 1), (0, 0, 0, 90), (0, 0, 0, 179), (0, 0, 0, 179.5), (0, 0, 0, 179.9), (0, 0, 0, 180),
    (0, -180, 0, 180), (0, 179.9999, 0, -179.9999), (10, 179.5, 10, -179.5), (-45, -179.99, 45, 179.99),
    (0, 0, 0.5, 179.5), (0, 0, -0.5, 179.7), (1, 0, -1, 179.5), (30, 0, -30, 179.8), (30, 0, -29.9, 179.9),
    (45, 0, -45, 180), (0.01, 0, -0.01, 179.99), (80, 0, -80, 179.99), (-0.0001, 0, 0.0001, 179.9999),
    (0, 0, 1e-9, 1e-9), (51.5, -0.1, 51.5, -0.1 + 1e-8), (0, 0, 0, 0.0000001),
    # Meridian, 3 * tiny <= sig12 < tol0: the s12 < 0 / m12 < 0 test (false, then true: m12 < 0).
    (0, 0, 1e-15, 0), (44.019, 0, 44.01899999999999, 0), (45.641, 101.3131, 45.64099999999999, 101.3131),
    # InverseStart, really short line with comg12 < 0 (near a pole, large longitude difference).
    (89.9999999, 0, 89.9999999, 120), (-89.9999999, 0, -89.9999999, 179.999999999),
    # InverseStart sanity check fails (salp1 <= 0), then Newton bisects with a wide bracket
    # (second half of the tripb test evaluated).
    (-89.9999999, 0, -89.9989999, 179.99999999999),
    # Lambda12 with calp2 == 0 (dlam12 = -2 f1 dn1 / sbet1): after the failed sanity check,
    # and from the astroid strip with x just below -1 and lat2 = -lat1.
    (-89.999, 0, -89.999, 179.9999999999), (30, 0, -30, 179.477017), (45, 0, -45, 179.572718),
    # AngDiff: longitude difference of +-180 with a nonzero rounding error t.
    (10, 0.1, -20, -179.9), (10, 0.3, -20, -179.7),
]
for lat1, lon1, lat2, lon2 in special:
    rows.append(row("special", lat1, lon1, lat2, lon2))
for _ in range(40):  # nearly antipodal, where Vincenty's iteration fails
    lat, lon = uniform_point()
    rows.append(row("antipodal", lat, lon, round(-lat + rng.uniform(-0.5, 0.5), 7),
                    round(((lon + 180 + rng.uniform(-0.5, 0.5)) + 180) % 360 - 180, 7)))

with open(sys.argv[1] if len(sys.argv) > 1 else "geodesic-reference.csv", "w", newline="") as out:
    out.write("# WGS84 geodesic distances and azimuths from GeographicLib %s (Python), made by make_geodesic_reference.py\n"
              % __import__("geographiclib").__version__)
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["kind", "lat1", "lon1", "lat2", "lon2", "s12", "azi1", "azi2"])
    writer.writerows(rows)
print(len(rows), "rows")
