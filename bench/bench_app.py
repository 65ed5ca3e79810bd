#!/usr/bin/env python3
"""Benchmarks the app's pages on `detour-report serve`, each figure next to a baseline measured
in the same run on the same server:

(a) a form post that changes a 20-stay trip (a pro added to a task, then deleted again, each post
    carrying the version of the page it was made of), timed from the request to the answer's
    303, median of BENCH_POSTS (default 200). Baseline: the sync API's `PUT` of the same trip's
    bytes with `If-Match`, the same read, check and write without the edit. Target: under 20 ms;
(b) the destination list (`/`) for a folder of 200 trips of 5 stays each: the first request
    (every trip read and checked), the median of BENCH_LISTS (default 50) after it (cached), and
    the first request after one trip changed on disk. Baseline: the index of the same folder
    (`/trips`), cached the same way. Target: the cached list under 100 ms.

Times are the client's, over one kept-alive loopback connection: the server's own time is below
them. The server is the plain release build; all traffic stays on 127.0.0.1. The script exits
with 1 when a target is missed.

    python3 bench/bench_app.py        # about a minute once built
"""
import html
import http.client
import json
import os
import re
import statistics
import sys
import tempfile
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import finish  # noqa: E402
from bench_serve import Server, build  # noqa: E402
from make_trip import make_trip  # noqa: E402


class Client:
    """One kept-alive connection to the server."""

    def __init__(self, port):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def request(self, method, path, body=None, headers=None):
        """The answer's status, headers and body, and the seconds from request to body."""
        started = time.perf_counter()
        self.connection.request(method, path, body=body, headers=headers or {})
        response = self.connection.getresponse()
        data = response.read()
        return response.status, dict(response.getheaders()), data, time.perf_counter() - started


def form_posts(client, count):
    """Medians of `count` form posts on the detour page and of as many `PUT`s of the trip."""
    page = "/trips/route/destinations/1/detours/1"
    posts = []
    for number in range(count):
        status, _, body, _ = client.request("GET", page)
        assert status == 200, status
        text = body.decode()
        version = html.unescape(re.search(r'name="version" value="([^"]*)"', text).group(1))
        deletes = re.findall(r'name="delete-pro" value="(\d+)"', text)
        fields = {"version": version}
        if number % 2 == 0:
            fields["left-pro"] = f"Quiet after six ({number})"
        else:
            fields["delete-pro"] = deletes[-1]
        body = urllib.parse.urlencode(fields)
        status, headers, _, seconds = client.request(
            "POST", page + "/tasks/1", body=body, headers={"Content-Type": "application/x-www-form-urlencoded"})
        assert status == 303, (status, headers)
        posts.append(seconds)
    puts = []
    for _ in range(count):
        status, headers, trip, _ = client.request("GET", "/api/v1/trips/route")
        assert status == 200, status
        status, _, _, seconds = client.request(
            "PUT", "/api/v1/trips/route", body=trip,
            headers={"Content-Type": "application/json", "If-Match": headers["ETag"]})
        assert status == 200, status
        puts.append(seconds)
    return statistics.median(posts), statistics.median(puts)


def listing(client, folder, path, count):
    """The first request of `path`, the median of `count` after it, and one after a trip changed."""
    status, _, _, first = client.request("GET", path)
    assert status == 200, status
    kept = [client.request("GET", path)[3] for _ in range(count)]
    name = os.path.join(folder, "trip-007.json")
    with open(name) as source:
        trip = json.load(source)
    trip["title"] += "!"
    with open(name, "w") as target:
        json.dump(trip, target)
    status, _, body, changed = client.request("GET", path)
    assert status == 200, status
    assert trip["title"].encode() in body, f"{path} does not show the changed title yet"
    return first, statistics.median(kept), changed


def main():
    posts = int(os.environ.get("BENCH_POSTS", "200"))
    lists = int(os.environ.get("BENCH_LISTS", "50"))
    binary = build()
    missed = []
    with tempfile.TemporaryDirectory(prefix="bench-app-") as work:
        one = os.path.join(work, "one")
        many = os.path.join(work, "many")
        os.makedirs(one)
        os.makedirs(many)
        with open(os.path.join(one, "route.json"), "w") as target:
            json.dump(make_trip(20), target)
        for index in range(200):
            with open(os.path.join(many, f"trip-{index:03}.json"), "w") as target:
                trip = make_trip(5, seed=index + 2)
                trip["title"] = f"Trip {index}"
                json.dump(trip, target)

        print(f"(a) form posts on a 20-stay trip: {posts} posts, then {posts} PUTs")
        server = Server(binary, one, work)
        try:
            post, put = form_posts(Client(server.port), posts)
        finally:
            server.stop()
        ok = post * 1000 < 20
        missed += [] if ok else ["form post"]
        print(f"{'figure':<36} {'value':>10} {'baseline':>26}  target")
        print(f"{'form post, median':<36} {post * 1000:>7.2f} ms {put * 1000:>8.2f} ms (API PUT)"
              f"  < 20 ms {'ok' if ok else 'MISSED'}")

        print(f"\n(b) the destination list of 200 trips: first, then {lists} more, then one after a change")
        figures = {}
        for path in ("/trips", "/"):
            # A server of its own for each, so neither finds the trips already checked.
            server = Server(binary, many, work)
            try:
                figures[path] = listing(Client(server.port), many, path, lists)
            finally:
                server.stop()
        index, destinations = figures["/trips"], figures["/"]
        ok = destinations[1] * 1000 < 100
        missed += [] if ok else ["destination list"]
        labels = ("first (every trip checked)", "cached, median", "after one trip changed")
        for label, value, baseline in zip(labels, destinations, index):
            target = f"< 100 ms {'ok' if ok else 'MISSED'}" if label.startswith("cached") else ""
            print(f"{'list: ' + label:<36} {value * 1000:>7.2f} ms {baseline * 1000:>8.2f} ms (/trips)  {target}")
    finish(missed)


if __name__ == "__main__":
    main()
