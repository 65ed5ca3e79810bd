#!/usr/bin/env python3
"""Writes a large, valid trip JSON: N destinations, 3 detours each, 2 tasks per detour."""
import json
import random
import sys
from datetime import date, timedelta


def make_trip(destinations: int, seed: int = 1) -> dict:
    rng = random.Random(seed)
    start = date(2026, 1, 1)
    stays = []
    for index in range(destinations):
        lat = round(rng.uniform(-60, 60), 4)
        lon = round(rng.uniform(-179, 179), 4)
        arrival = start + timedelta(days=rng.randrange(0, 700))
        departure = arrival + timedelta(days=rng.randrange(1, 9))
        detours = []
        for d in range(3):
            tasks = []
            for side in range(2):
                tasks.append({
                    "name": f"Task {index}-{d}-{'AB'[side]}",
                    "duration": rng.choice(["PT1H30M", "2h", "45m", "PT3H", "1h15m"]),
                    "cost": {"amount": round(rng.uniform(0, 120), 2), "currency": rng.choice(["EUR", "EUR", "USD"])},
                    "location": {"lat": round(lat + rng.uniform(-0.05, 0.05), 5),
                                 "lon": round(lon + rng.uniform(-0.05, 0.05), 5)},
                    "pros": ["Great views", "Open late"],
                    "cons": ["Crowded at noon"],
                })
            detours.append({"tasks": tasks})
        stays.append({
            "name": f"Destination {index}",
            "location": {"lat": lat, "lon": lon},
            "arrival": arrival.isoformat(),
            "departure": departure.isoformat(),
            "detours": detours,
        })
    return {"title": "Benchmark trip", "traveler": "bench@example.org", "destinations": stays}


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    out = sys.argv[2] if len(sys.argv) > 2 else "big.json"
    with open(out, "w", encoding="utf-8") as handle:
        # One destination per line: a realistic shape for a generated file, about 1.4 KB each.
        trip = make_trip(count)
        stays = trip.pop("destinations")
        head = json.dumps(trip, ensure_ascii=False)[:-1]
        handle.write(head + ', "destinations": [\n')
        handle.write(",\n".join(json.dumps(stay, ensure_ascii=False) for stay in stays))
        handle.write("\n]}")
        handle.write("\n")
