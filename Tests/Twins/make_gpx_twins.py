#!/usr/bin/env python3
"""Writes the GPX twin of each trip JSON given: the same trip, value for value, in detour-report's
GPX mapping, mistakes included (values are copied as written, never checked or normalised).

    python3 Tests/Twins/make_gpx_twins.py Tests/Twins/*.json Tests/Corpus/hostile/j1[1-7]*.json

writes Tests/Twins/<name>.gpx for each. The twin test (Tests/DetourIOTests/TwinTests.swift)
checks that a trip and its twin give the same diagnostics. Only mistakes GPX can express belong
here: a JSON type error (a string where a number goes, a null) has no GPX spelling.
"""
import json
import pathlib
import sys
from xml.sax.saxutils import escape, quoteattr

NS = "urn:detour-report:gpx:1"


def attrs(**values):
    return "".join(f" {name}={quoteattr(value)}" for name, value in values.items() if value is not None)


def point_attrs(location):
    if location is None:
        return ""
    return attrs(lat=location.get("lat"), lon=location.get("lon"))


def budget_element(budget):
    if budget is None:
        return ""
    return f"<dr:budget{attrs(amount=budget.get('amount'), currency=budget.get('currency'))}/>"


def task_element(task, stay, detour, side, task_id, named):
    cost = task.get("cost") or {}
    out = "<dr:task" + attrs(
        id=task_id, name=task.get("name") if named else None, destination=stay, detour=detour, side=side,
        duration=task.get("duration"), cost=cost.get("amount"), currency=cost.get("currency"),
        travel=task.get("travel"))
    body = "".join(f"<dr:pro>{escape(p)}</dr:pro>" for p in task.get("pros") or [])
    body += "".join(f"<dr:con>{escape(c)}</dr:con>" for c in task.get("cons") or [])
    return out + (f">{body}</dr:task>" if body else "/>")


def twin(trip):
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<gpx version="1.1" creator="detour-report twins" xmlns="http://www.topografix.com/GPX/1/1" xmlns:dr="{NS}">',
             "  <metadata>"]
    if "title" in trip:
        lines.append(f"    <name>{escape(trip['title'])}</name>")
    if trip.get("traveler") is not None:
        user, _, domain = trip["traveler"].partition("@")
        lines.append(f"    <author><email{attrs(id=user, domain=domain)}/></author>")
    trip_attrs = attrs(travel=trip.get("travel"), currency=trip.get("currency"), **{"day-hours": trip.get("day_hours")})
    trip_body = "".join(f"<dr:rate{attrs(currency=code, value=value)}/>" for code, value in (trip.get("rates") or {}).items())
    trip_body += budget_element(trip.get("budget"))
    # An empty list of destinations is a trip not planned yet: dr:trip says the file is one. With
    # no list at all, the file holds no trip, and its twin has no trip either.
    if trip_attrs or trip_body or trip.get("destinations") == []:
        lines.append(f"    <extensions><dr:trip{trip_attrs}" + (f">{trip_body}</dr:trip>" if trip_body else "/>") + "</extensions>")
    lines.append("  </metadata>")
    located, routes = [], []
    for i, destination in enumerate(trip.get("destinations", [])):
        stay = f"s{i}"
        stay_attrs = attrs(id=stay, arrival=destination.get("arrival"), departure=destination.get("departure"),
                           **{"day-hours": destination.get("day_hours")})
        stay_budget = budget_element(destination.get("budget"))
        inner = ["<dr:stay" + stay_attrs + (f">{stay_budget}</dr:stay>" if stay_budget else "/>")]
        for j, detour in enumerate(destination.get("detours") or []):
            key = f"{stay}-d{j}"
            inner.append(f'<dr:detour id="{key}"/>')
            tasks = detour.get("tasks") or []
            for k, task in enumerate(tasks):
                side = str(k + 1) if len(tasks) == 2 else None
                task_id = f"{key}-t{k}" if task.get("path") is not None else None
                if task.get("location") is None:
                    inner.append(task_element(task, stay, key, side, task_id, named=True))
                else:
                    name = f"<name>{escape(task['name'])}</name>" if "name" in task else ""
                    located.append(f"  <wpt{point_attrs(task['location'])}>{name}<extensions>"
                                   + task_element(task, stay, key, side, task_id, named=False) + "</extensions></wpt>")
                if task.get("path") is not None:
                    points = "".join(f"<rtept{point_attrs(p)}/>" for p in task["path"])
                    routes.append(f'  <rte><extensions><dr:path destination="{stay}" task="{task_id}"/></extensions>{points}</rte>')
        name = f"<name>{escape(destination['name'])}</name>" if "name" in destination else ""
        lines.append(f"  <wpt{point_attrs(destination.get('location'))}>{name}<extensions>{''.join(inner)}</extensions></wpt>")
    return "\n".join(lines + located + routes + ["</gpx>", ""])


def main(paths):
    here = pathlib.Path(__file__).parent
    for path in map(pathlib.Path, paths):
        trip = json.loads(path.read_text(encoding="utf-8"), parse_float=str, parse_int=str)
        target = here / (path.stem + ".gpx")
        target.write_text(twin(trip), encoding="utf-8")
        print(f"{path} -> {target}")


if __name__ == "__main__":
    main(sys.argv[1:])
