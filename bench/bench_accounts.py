#!/usr/bin/env python3
"""Benchmarks `detour-report serve --accounts` against the same server without accounts, measured
in the same run:

(a) throughput: `wrk -t2 -c64 -d10s --latency` on the cached report `/trips/lisbon-city-break.html`,
    from a server without accounts (the trip in its folder) and from one with accounts (the trip in
    an account's folder), every request carrying that account's session cookie, in alternating
    rounds (BENCH_ROUNDS, default 5). The server without accounts ignores the cookie, and a
    request with one is never repeated from the event loop (`ResponseReplay`), so both answers come
    from the router: the ratio is what accounts cost. What the server without accounts does for a
    request with no cookie (repeated) is printed after the rounds, as information. Each round's ratio compares two runs made one after the
    other, so load that comes and goes on the machine touches both; the target is on the median of
    the rounds' ratios: with accounts at least 0.9x without (the session is looked up in memory,
    and in the database at most once a second). The CPU time each server spent per request
    (user and system, from /proc) is printed beside, a figure that does not move with wrk's share
    of the cores;
(b) logins: the time of `POST /login` with the right password (one Argon2id hash, 19 MiB and 2
    passes) and with an address that has no account (a hash of the dummy), 9 of each, alternating;
    medians, printed as information: the two should be the same, so that the answer's time does not
    tell whether an address has an account. 9, because the 10th failure from one client would
    make the next attempt wait;
(c) many accounts: BENCH_ACCOUNTS accounts (default 1,000) each register (which signs in), open
    `/` and a preview, on a fresh server; the server's threads and resident memory are printed
    against the count of accounts, next to the idle server's. Targets: at most the cores + 8
    threads more than idle (the server's resources are its own, not each account's), and resident
    memory within `--cache-mib` (256) + 64 MiB of idle.

The server is the plain release build (`swift build -c release --product detour-report`, which
builds detour-report-serve and detour-report-user beside it). wrk comes from Debian (installed
when missing). All traffic stays on 127.0.0.1. The script exits with 1 when a target is missed.

    python3 bench/bench_accounts.py        # about 3 minutes on 2 cores

With BENCH_DATABASE set to a PostgreSQL address (`--database postgres://…`; `.ci/postgres start`
prints one as DETOUR_TEST_POSTGRES), the accounts live there instead of in the folder's SQLite
file, and (b) includes PostgreSQL's round trips.
"""
import http.client
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import finish  # noqa: E402
from bench_serve import PAGE, PER_CLIENT, ROOT, Server, ensure_tools, wrk  # noqa: E402

MIN_RATIO = 0.9
PASSWORD = "correct horse battery staple"
EMAIL = "bench@example.org"


def build():
    """The release binaries (detour-report, detour-report-serve, detour-report-user); the folder."""
    print("bench: building detour-report, detour-report-serve and detour-report-user (release)", flush=True)
    for product in ("detour-report", "detour-report-serve", "detour-report-user"):
        subprocess.run(["swift", "build", "-c", "release", "--product", product], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
    folder = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.strip()
    return os.path.join(folder, "detour-report")


def post(port, path, form, cookie=None):
    """POSTs `form` from the server's own origin: status, Set-Cookie, seconds taken."""
    body = urllib.parse.urlencode(form)
    headers = {"Content-Type": "application/x-www-form-urlencoded", "Origin": f"http://127.0.0.1:{port}"}
    if cookie:
        headers["Cookie"] = f"detour_session={cookie}"
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    start = time.perf_counter()
    connection.request("POST", path, body=body, headers=headers)
    response = connection.getresponse()
    response.read()
    elapsed = time.perf_counter() - start
    connection.close()
    return response.status, response.getheader("Set-Cookie") or "", elapsed


def cpu_seconds(pid):
    """The CPU time (user and system) process `pid` has spent, in seconds."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measured(server, headers):
    """One wrk run of the page: requests per second, p99, errors, CPU microseconds a request."""
    before = cpu_seconds(server.proc.pid)
    requests, rate, p99, errors = wrk(server.url(PAGE), ["-t2", "-c64", "-d10s", "--latency", *headers])
    return rate, p99, errors, (cpu_seconds(server.proc.pid) - before) * 1e6 / requests


def get(port, path, cookie):
    """GETs `path` with the session `cookie`; the status."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", path, headers={"Cookie": f"detour_session={cookie}"})
    response = connection.getresponse()
    response.read()
    connection.close()
    return response.status


def many_accounts(binary, work, database_options, missed):
    """(c): threads and resident memory against the number of accounts that signed in."""
    count = int(os.environ.get("BENCH_ACCOUNTS", "1000"))
    folder = os.path.join(work, "many")
    os.makedirs(folder)
    server = Server(binary, folder, work, extra=["--accounts", *database_options, *PER_CLIENT])
    try:
        cores = os.cpu_count() or 1
        idle_threads, idle_rss = server.threads(), server.rss_kib()
        print(f"(c) {count} accounts, each registering, then opening / and a preview; {cores} cores")
        print(f"    {'accounts':>8} {'threads':>8} {'RSS MiB':>8}")
        print(f"    {0:>8} {idle_threads:>8} {idle_rss / 1024:>8.1f}  (idle)")
        marks = sorted({max(1, count // 10), count // 4, count // 2, count} - {0})
        worst_threads, worst_rss = idle_threads, idle_rss
        for number in range(1, count + 1):
            status, set_cookie, _ = post(server.port, "/register", {
                "email": f"user{number}@example.org", "password": PASSWORD, "confirm": PASSWORD})
            cookie = session_of(set_cookie)
            if status != 303 or not cookie:
                sys.exit(f"bench: registration {number} failed: {status} {server.errors()}")
            for path in ("/", "/trips/lisbon-city-break"):
                if get(server.port, path, cookie) not in (200, 404):
                    sys.exit(f"bench: {path} for account {number} failed")
            worst_threads = max(worst_threads, server.threads())
            worst_rss = max(worst_rss, server.rss_kib())
            if number in marks:
                print(f"    {number:>8} {server.threads():>8} {server.rss_kib() / 1024:>8.1f}", flush=True)
        print(f"    most seen: {worst_threads} threads (idle {idle_threads}, target at most "
              f"{idle_threads + cores + 8}), {worst_rss / 1024:.1f} MiB (idle {idle_rss / 1024:.1f}, target at most "
              f"{(idle_rss / 1024) + 256 + 64:.1f})")
        if worst_threads > idle_threads + cores + 8:
            missed.append(f"{worst_threads} threads with {count} accounts > idle {idle_threads} + {cores} cores + 8")
        if worst_rss > idle_rss + (256 + 64) * 1024:
            missed.append(f"{worst_rss / 1024:.1f} MiB with {count} accounts > idle + 320 MiB")
    finally:
        server.stop()


def session_of(set_cookie):
    return set_cookie.split(";", 1)[0].split("=", 1)[1] if set_cookie.startswith("detour_session=") else None


def main():
    ensure_tools()
    binary = build()
    rounds = int(os.environ.get("BENCH_ROUNDS", "5"))
    sample = os.path.join(ROOT, "samples", "lisbon-city-break.json")
    work = tempfile.mkdtemp(prefix="detour-bench-accounts-")
    missed = []
    try:
        plain = os.path.join(work, "plain")
        accounts = os.path.join(work, "accounts")
        os.makedirs(plain)
        os.makedirs(accounts)
        shutil.copy(sample, plain)
        database = os.environ.get("BENCH_DATABASE")
        database_options = ["--database", database] if database else []
        print(f"accounts in {'PostgreSQL, ' + database if database else 'SQLite, in the folder'}")
        user = subprocess.run([binary, "user", "add", EMAIL, accounts, *database_options], input=PASSWORD + "\n", text=True,
                              capture_output=True, check=True).stdout
        account_folder = user.split("its trips go in ", 1)[1].strip().rstrip("/")
        shutil.copy(sample, account_folder)

        plain_server = Server(binary, plain, work, extra=PER_CLIENT)
        account_server = Server(binary, accounts, work, extra=["--accounts", *database_options, *PER_CLIENT])
        try:
            status, set_cookie, _ = post(account_server.port, "/login", {"email": EMAIL, "password": PASSWORD})
            cookie = session_of(set_cookie)
            if status != 303 or not cookie:
                sys.exit(f"bench: the login failed: {status} {account_server.errors()}")

            print(f"(a) throughput of {PAGE}, cached, wrk -t2 -c64 -d10s, {rounds} rounds; "
                  f"load average {os.getloadavg()[0]:.2f}")
            for server, headers in ((plain_server, []), (account_server, ["-H", f"Cookie: detour_session={cookie}"])):
                wrk(server.url(PAGE), ["-t2", "-c64", "-d3s", *headers])  # warm-up
            without, with_accounts, ratios, p99s, cpu_plain, cpu_accounts = [], [], [], [], [], []
            cookie_header = ["-H", f"Cookie: detour_session={cookie}"]
            for round_number in range(1, rounds + 1):
                rate, _, errors, cpu = measured(plain_server, cookie_header)
                if errors:
                    sys.exit(f"bench: without accounts: {errors}")
                without.append(rate)
                cpu_plain.append(cpu)
                rate, p99, errors, cpu = measured(account_server, cookie_header)
                if errors:
                    sys.exit(f"bench: with accounts: {errors} (a redirect to /login means the cookie was refused)")
                with_accounts.append(rate)
                cpu_accounts.append(cpu)
                ratios.append(rate / without[-1])
                p99s.append(p99)
                print(f"    round {round_number}: without accounts {without[-1]:,.0f} req/s ({cpu_plain[-1]:.1f} us CPU a "
                      f"request), with a session cookie {rate:,.0f} req/s ({cpu:.1f} us; p99 {p99:.2f} ms): "
                      f"{ratios[-1]:.2f}x", flush=True)
            ratio = statistics.median(ratios)
            print(f"    medians: without {statistics.median(without):,.0f} req/s, {statistics.median(cpu_plain):.1f} us "
                  f"CPU a request; with {statistics.median(with_accounts):,.0f} req/s, "
                  f"{statistics.median(cpu_accounts):.1f} us; the rounds' ratio {ratio:.2f}x (target at least "
                  f"{MIN_RATIO}x); p99 {statistics.median(p99s):.2f} ms")
            if ratio < MIN_RATIO:
                missed.append(f"throughput with accounts {ratio:.2f}x < {MIN_RATIO}x")
            rate, p99, errors, cpu = measured(plain_server, [])
            print(f"    without accounts and without a cookie (answers repeated from the event loop): {rate:,.0f} "
                  f"req/s, {cpu:.1f} us CPU a request, p99 {p99:.2f} ms{'; ' + '; '.join(errors) if errors else ''}")

            print("(b) POST /login, 9 each, alternating")
            right, unknown = [], []
            for attempt in range(9):
                status, set_cookie, elapsed = post(account_server.port, "/login", {"email": EMAIL, "password": PASSWORD})
                if status != 303:
                    sys.exit(f"bench: a login failed: {status}")
                right.append(elapsed * 1000)
                status, _, elapsed = post(account_server.port, "/login",
                                          {"email": f"nobody{attempt}@example.org", "password": PASSWORD})
                if status != 401:
                    sys.exit(f"bench: an unknown address got {status}")
                unknown.append(elapsed * 1000)
            print(f"    right password: median {statistics.median(right):.1f} ms "
                  f"(min {min(right):.1f}, max {max(right):.1f}); one Argon2id hash, 19 MiB, 2 passes")
            print(f"    unknown address: median {statistics.median(unknown):.1f} ms "
                  f"(min {min(unknown):.1f}, max {max(unknown):.1f}); the dummy hash")
        finally:
            plain_server.stop()
            account_server.stop()
        many_accounts(binary, work, database_options, missed)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    finish(missed)


if __name__ == "__main__":
    main()
