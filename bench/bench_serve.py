#!/usr/bin/env python3
"""Benchmarks `detour-report serve DIR` against its baselines, measured in the same run:

(a) throughput: `wrk -t2 -c64 -d10s --latency` on `/trips/lisbon-city-break.html` (warmed, so
    every request is a hit in the render cache), next to nginx serving the very same bytes as a
    static file on the loopback (worker_processes auto, access_log off, keep-alive connections
    kept for the whole run as the server keeps them), in rounds of nginx then the server
    (BENCH_ROUNDS, default 3). Medians of the rounds: requests per second of both, the ratio
    (target: the server at least 0.66x nginx) and p99 latency (target: the server under 10 ms);
(b) reload latency: with `GET /trips/nordic-budget/events` open, 20 saves of nordic-budget.json
    made as vim makes them (a new file written beside it, renamed over it), each timed from the
    rename to the arrival of the stream's `data:` event naming the new version (target: median
    under 300 ms). The baseline is the kernel's own notice of the same renames, read with
    inotify in this process: what is left is the server's debounce and delivery;
(c) leaks: the server's resident memory (VmRSS) after a warm-up of about 50,000 requests and
    after at least 1,000,000 (target: at most 1.2x), from wrk runs over a mix of routes (cached
    outputs, preview pages, the index, the trip list, 304s). The mix goes through a wrk Lua
    script, which costs wrk a little: the throughput of (a) is measured without it.

With BENCH_BEFORE (a release `detour-report` of another tree, its `detour-report-serve` beside
it), (a) also runs that server in every round, after nginx and before this tree's, and prints its
figures next to them: a change's cost in throughput, measured in the same run.

It also counts the sockets the server still holds two seconds after clients opened and then
dropped live-reload streams, and whether the server stops on SIGTERM within 5 s; both are
printed as information, not targets.

The server is the plain release build (`swift build -c release --product detour-report`). wrk
and nginx come from Debian (`apt-get install wrk nginx`) and are installed when missing. All
traffic stays on 127.0.0.1. The script exits with 1 when a target is missed.

    python3 bench/bench_serve.py        # about 2 to 3 minutes on 2 cores

On a machine shared with other work, the p99 latencies of both move with the load (the load
average is printed at the start of (a) and at the end).
"""
import ctypes
import ctypes.util
import grp
import hashlib
import http.client
import json
import os
import pwd
import queue
import re
import shutil
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import finish  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TODAY = "2026-11-24"
PAGE = "/trips/lisbon-city-break.html"
WRK = ["-t2", "-c64", "-d10s", "--latency"]
SAVES = 20
WARM_UP_REQUESTS = 50_000
TOTAL_REQUESTS = 1_000_000

# The targets.
MIN_RATIO = 0.66
MAX_P99_MS = 10.0
MAX_RELOAD_MEDIAN_MS = 300.0
MAX_RSS_GROWTH = 1.2


def ensure_tools():
    """wrk and nginx, from Debian's archive when missing."""
    missing = [name for name in ("wrk", "nginx") if not which(name)]
    if not missing:
        return
    print(f"bench: installing {' '.join(missing)} with apt-get", flush=True)
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(sudo + ["apt-get", "update", "-q"], check=True, env=env, stdout=subprocess.DEVNULL)
    subprocess.run(sudo + ["apt-get", "install", "-y", "-q", *missing], check=True, env=env,
                   stdout=subprocess.DEVNULL)
    still = [name for name in missing if not which(name)]
    if still:
        sys.exit(f"bench: {' '.join(still)} still missing after apt-get")


def which(name):
    """`name` on PATH, or in the sbin folders nginx lives in for users whose PATH lacks them."""
    return shutil.which(name) or shutil.which(name, path="/usr/sbin:/sbin:/usr/local/sbin")


def build():
    """Builds the plain release binaries (detour-report and the detour-report-serve it starts)
    and returns the path of detour-report."""
    print("bench: building detour-report and detour-report-serve (release)", flush=True)
    for product in ("detour-report", "detour-report-serve"):
        subprocess.run(["swift", "build", "-c", "release", "--product", product], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
    folder = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.strip()
    return os.path.join(folder, "detour-report")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# wrk opens 64 connections from one address: every one of them is the load, so the server's cap
# per client address (32 by default) is lifted to its whole.
PER_CLIENT = ["--max-connections-per-client", "256"]
PER_CLIENT_BEFORE = PER_CLIENT if os.environ.get("BENCH_BEFORE_PER_CLIENT") else []


class Server:
    """`detour-report serve FOLDER` on a free port of the loopback, started by `launcher` (a
    program and its arguments, such as `prlimit --nofile=…`) when one is given."""

    def __init__(self, binary, folder, work, extra=(), launcher=()):
        self.out_path = os.path.join(work, "server.out")
        self.err_path = os.path.join(work, "server.err")
        with open(self.out_path, "wb") as out, open(self.err_path, "wb") as err:
            self.proc = subprocess.Popen(
                [*launcher, binary, "serve", folder, "--port", "0", "--today", TODAY, "--quiet", *extra],
                stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        self.port = None
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with open(self.out_path, "rb") as out:
                first = out.readline().decode("utf-8", "replace")
            found = re.search(r"at http://127\.0\.0\.1:(\d+)/", first)
            if found:
                self.port = int(found.group(1))
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        sys.exit(f"bench: the server did not announce its address: {first!r} {self.errors()}")

    def url(self, path):
        return f"http://127.0.0.1:{self.port}{path}"

    def status(self, key):
        """A number of the server's /proc/PID/status: `VmRSS` (KiB), `Threads`."""
        with open(f"/proc/{self.proc.pid}/status") as status:
            for line in status:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
        raise RuntimeError(f"no {key}")

    def rss_kib(self):
        return self.status("VmRSS")

    def threads(self):
        return self.status("Threads")

    def held(self, clients):
        """How many connections from the client ports `clients` the server still holds, open or
        closed by the client and not yet by the server (TCP states ESTABLISHED and CLOSE-WAIT)."""
        count = 0
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            try:
                with open(table) as lines:
                    next(lines)
                    for line in lines:
                        fields = line.split()
                        local = int(fields[1].rsplit(":", 1)[1], 16)
                        remote = int(fields[2].rsplit(":", 1)[1], 16)
                        if local == self.port and remote in clients and fields[3] in ("01", "08"):
                            count += 1
            except OSError:
                pass
        return count

    def errors(self):
        try:
            with open(self.err_path, "rb") as err:
                return err.read().decode("utf-8", "replace")[-2000:]
        except OSError:
            return ""

    def stop(self):
        """SIGTERM, then SIGKILL after 5 s; returns whether SIGTERM alone stopped it."""
        if self.proc.poll() is not None:
            return True
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(5)
            return True
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return False


class Nginx:
    """nginx serving one static file from `work`, as the current user, all its files in `work`."""

    def __init__(self, work, name, body):
        root = os.path.join(work, "www")
        os.makedirs(os.path.join(root, os.path.dirname(name.lstrip("/"))), exist_ok=True)
        with open(os.path.join(root, name.lstrip("/")), "wb") as page:
            page.write(body)
        temp = os.path.join(work, "nginx-temp")
        os.makedirs(temp, exist_ok=True)
        self.port = free_port()
        user = ""
        if os.geteuid() == 0:  # otherwise nginx runs its workers as nobody, who cannot read `work`
            user = f"user {pwd.getpwuid(os.geteuid()).pw_name} {grp.getgrgid(os.getegid()).gr_name};"
        config = os.path.join(work, "nginx.conf")
        with open(config, "w") as out:
            out.write(f"""{user}
worker_processes auto;
daemon off;
pid {work}/nginx.pid;
error_log {work}/nginx-error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 10000000;
    types {{ text/html html; }}
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
    server {{
        listen 127.0.0.1:{self.port};
        root {root};
    }}
}}
""")
        self.error_log = os.path.join(work, "nginx-error.log")
        with open(os.path.join(work, "nginx.stderr"), "wb") as errors:
            self.proc = subprocess.Popen([which("nginx"), "-p", work, "-c", config, "-e", self.error_log],
                                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=errors)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return
            except OSError:
                if self.proc.poll() is not None:
                    break
                time.sleep(0.05)
        self.stop()
        with open(self.error_log, errors="replace") as log:
            sys.exit(f"bench: nginx did not start: {log.read()[-2000:]}")

    def url(self, path):
        return f"http://127.0.0.1:{self.port}{path}"

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGQUIT)  # nginx's graceful stop; its workers go too
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.send_signal(signal.SIGTERM)
                try:
                    self.proc.wait(5)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()


def load_average():
    with open("/proc/loadavg") as load:
        return " ".join(load.read().split()[:3])


def get(port, path, headers=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


UNITS = {"us": 1e-3, "ms": 1.0, "s": 1e3, "m": 60e3}


def wrk(url, options=WRK, script=None):
    """Runs wrk: requests, requests per second, p99 in ms (with --latency), and any errors."""
    argv = ["wrk", *options] + (["-s", script] if script else []) + [url]
    out = subprocess.run(argv, check=True, capture_output=True, text=True).stdout
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p99 = None
    found = re.search(r"^\s+99%\s+([\d.]+)(us|ms|s|m)\s*$", out, re.M)
    if found:
        p99 = float(found.group(1)) * UNITS[found.group(2)]
    errors = []
    found = re.search(r"Socket errors: (.*)", out)
    if found:
        errors.append("socket errors: " + found.group(1).strip())
    found = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if found:
        errors.append(f"{found.group(1)} non-2xx/3xx responses")
    return requests, rate, p99, errors


# ---- (b) reload latency ------------------------------------------------------------------------

class EventStream:
    """`GET PATH` as Server-Sent Events, read on a thread: each `data:` line with its arrival time."""

    def __init__(self, port, path):
        self.events = queue.Queue()
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n\r\n"
                          .encode())
        self.sock.settimeout(None)
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        buffered = b""
        try:
            while True:
                chunk = self.sock.recv(65536)
                if not chunk:
                    break
                arrived = time.perf_counter()
                buffered += chunk
                *lines, buffered = buffered.split(b"\n")
                for line in lines:
                    # The body is chunked: a `data:` line is found wherever it starts.
                    found = re.search(rb"data: (.*)", line)
                    if found:
                        self.events.put((arrived, found.group(1).decode().strip()))
        except OSError:
            pass
        self.events.put((time.perf_counter(), None))

    def next(self, timeout):
        return self.events.get(timeout=timeout)

    def close(self):
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


class Inotify:
    """The kernel's notices of files moved into `folder`, read on a thread (the baseline of (b))."""
    IN_MOVED_TO = 0x80
    IN_NONBLOCK = 0o4000

    def __init__(self, folder, name):
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        self.fd = libc.inotify_init1(0)
        if self.fd < 0 or libc.inotify_add_watch(self.fd, folder.encode(), self.IN_MOVED_TO) < 0:
            raise OSError(ctypes.get_errno(), "inotify")
        self.name = name.encode()
        self.events = queue.Queue()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        while True:
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                return
            arrived = time.perf_counter()
            offset = 0
            while offset + 16 <= len(data):
                _, mask, _, length = struct.unpack_from("iIII", data, offset)
                name = data[offset + 16:offset + 16 + length].rstrip(b"\0")
                if name == self.name and mask & self.IN_MOVED_TO:
                    self.events.put(arrived)
                offset += 16 + length

    def close(self):
        os.close(self.fd)


def reload_latency(server, folder):
    """Seconds from each save's rename to the new version's event, and to inotify's notice."""
    trip = os.path.join(folder, "nordic-budget.json")
    with open(trip, "rb") as original:
        document = json.load(original)
    title = document["title"]
    watch = Inotify(folder, "nordic-budget.json")
    stream = EventStream(server.port, "/trips/nordic-budget/events")
    latencies, floors, problems = [], [], []
    try:
        _, first = stream.next(10)
        with open(trip, "rb") as current:
            expected = '"' + hashlib.sha256(current.read()).hexdigest() + '"'
        if first != expected:
            problems.append(f"first event {first}, the file's version is {expected}")
        for save in range(SAVES):
            document["title"] = f"{title} (save {save + 1})"
            body = (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode()
            version = '"' + hashlib.sha256(body).hexdigest() + '"'
            descriptor, temporary = tempfile.mkstemp(prefix=".nordic-budget.", suffix=".swp", dir=folder)
            with os.fdopen(descriptor, "wb") as out:
                out.write(body)
            renamed = time.perf_counter()
            os.rename(temporary, trip)
            try:
                while True:
                    arrived, got = stream.next(5)
                    if got is None:
                        problems.append(f"save {save + 1}: the event stream ended")
                        return latencies, floors, problems
                    if got == version:
                        latencies.append(arrived - renamed)
                        break
                    problems.append(f"save {save + 1}: unexpected version {got}")
            except queue.Empty:
                problems.append(f"save {save + 1}: no event within 5 s")
            try:
                floors.append(watch.events.get(timeout=1) - renamed)
            except queue.Empty:
                pass
            time.sleep(0.5)
        return latencies, floors, problems
    finally:
        stream.close()
        watch.close()


# ---- (c) leaks ---------------------------------------------------------------------------------

MIX = """-- Routes in turn: cached outputs, preview pages (a new nonce each), the destination list, the index (rendered each
-- time), the trip list, and a 304.
local paths = {
  {"/trips/lisbon-city-break.html", nil},
  {"/trips/nordic-budget", nil},
  {"/trips/scandinavia-rail.json", nil},
  {"/", nil},
  {"/trips", nil},
  {"/trips/andes-drafts.md", nil},
  {"/api/v1/trips", nil},
  {"/trips/lisbon-city-break.html", "ETAG"},
  {"/trips/fiji-date-line.ics", nil},
}
local n = 0
request = function()
  n = n + 1
  local p = paths[(n % #paths) + 1]
  local headers = {}
  if p[2] then headers["If-None-Match"] = p[2] end
  return wrk.format("GET", p[1], headers)
end
"""


def abandoned_streams(server, count=40):
    """Opens `count` live-reload streams, lets them go idle, drops them; how many of them the
    server still holds 2 s later. Only these connections are counted: the route mix's, closed by
    wrk just before, are the server's to close in their own time."""
    connections = []
    for _ in range(count):
        connection = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        connection.sendall(f"GET /trips/lisbon-city-break/events HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n"
                           .encode())
        connections.append(connection)
    clients = {connection.getsockname()[1] for connection in connections}
    time.sleep(0.5)
    for connection in connections:
        try:
            connection.recv(4096)
        except OSError:
            pass
        connection.close()
    time.sleep(2)
    return server.held(clients)


def main():
    # A kill of this script still stops nginx and the server (the `finally` below).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    ensure_tools()
    binary = build()
    work = tempfile.mkdtemp(prefix="detour-bench-serve-")
    folder = os.path.join(work, "trips")
    os.makedirs(folder)
    samples = os.path.join(ROOT, "samples")
    for name in sorted(os.listdir(samples)):
        if name.endswith(".json"):
            shutil.copyfile(os.path.join(samples, name), os.path.join(folder, name))
    server = nginx = None
    rows, missed, notes = [], [], []

    def row(name, server_value, baseline, target="", ok=None):
        """A line of the table; `ok` is None for a figure with no target."""
        rows.append((name, server_value, baseline, target, "" if ok is None else ("ok" if ok else "MISSED")))
        if ok is False:
            missed.append(name)

    try:
        server = Server(binary, folder, work, extra=PER_CLIENT)
        status, page = get(server.port, PAGE)
        if status != 200:
            sys.exit(f"bench: {PAGE} answered {status}: {page[:300]!r}")
        _, again = get(server.port, PAGE)
        if again != page:
            notes.append(f"{PAGE}: two fetches gave different bytes")
        before = None
        if os.environ.get("BENCH_BEFORE"):
            before_folder = os.path.join(work, "before-trips")
            shutil.copytree(folder, before_folder)
            before_work = os.path.join(work, "before")
            os.makedirs(before_work)
            # A build from before --max-connections-per-client has no cap per client to lift.
            before = Server(os.environ["BENCH_BEFORE"], before_folder, before_work, extra=PER_CLIENT_BEFORE)
            status, old = get(before.port, PAGE)
            if status != 200:
                sys.exit(f"bench: the BENCH_BEFORE server answered {status} for {PAGE}")
        nginx = Nginx(work, PAGE, page)
        status, copy = get(nginx.port, PAGE)
        if status != 200 or copy != page:
            sys.exit(f"bench: nginx answered {status} with {len(copy)} bytes, not the page's {len(page)}")
        print(f"bench: server on port {server.port}, nginx on port {nginx.port}; {PAGE} is {len(page)} bytes",
              flush=True)

        # (a) Throughput: rounds of nginx then the server, back to back, so that the load other
        # work puts on the machine meets both alike; the medians of the rounds.
        rounds = int(os.environ.get("BENCH_ROUNDS", "3"))
        print(f"bench: (a) wrk {' '.join(WRK)}, nginx then the server, {rounds} rounds; "
              f"load average {load_average()}", flush=True)
        figures = {"nginx": [], "before": [], "server": []}
        contenders = [("nginx", nginx.url(PAGE))] + ([("before", before.url(PAGE))] if before else [])
        for _ in range(rounds):
            for who, url in contenders + [("server", server.url(PAGE))]:
                _, rate, p99, errors = wrk(url)
                figures[who].append((rate, p99))
                notes.extend(f"(a) {who}: {error}" for error in errors)
        nginx.stop()
        nginx_rate, server_rate = (statistics.median(r for r, _ in figures[who]) for who in ("nginx", "server"))
        nginx_p99, server_p99 = (statistics.median(p for _, p in figures[who]) for who in ("nginx", "server"))
        ratio = statistics.median(s[0] / n[0] for s, n in zip(figures["server"], figures["nginx"]))
        each = lambda who: ", ".join(f"{r:,.0f}/s p99 {p:.1f} ms" for r, p in figures[who])
        notes.append(f"(a) rounds: nginx {each('nginx')}; server {each('server')}")
        row("(a) requests/s", f"{server_rate:,.0f}", f"{nginx_rate:,.0f} (nginx)")
        if before:
            before.stop()
            notes.append(f"(a) rounds of BENCH_BEFORE: {each('before')}")
            before_rate = statistics.median(r for r, _ in figures["before"])
            before_ratio = statistics.median(b[0] / n[0] for b, n in zip(figures["before"], figures["nginx"]))
            row("(a) requests/s, BENCH_BEFORE", f"{before_rate:,.0f}", f"{nginx_rate:,.0f} (nginx)")
            row("(a) BENCH_BEFORE / nginx", f"{before_ratio:.2f}x", "1.00x")
        row("(a) server / nginx", f"{ratio:.2f}x", "1.00x", f">= {MIN_RATIO}x", ratio >= MIN_RATIO)
        row("(a) p99 latency", f"{server_p99:.2f} ms", f"{nginx_p99:.2f} ms (nginx)", f"< {MAX_P99_MS:g} ms",
            server_p99 < MAX_P99_MS)

        # (b) Reload latency.
        print(f"bench: (b) {SAVES} saves of nordic-budget.json, renamed over it, 0.5 s apart", flush=True)
        latencies, floors, problems = reload_latency(server, folder)
        notes += [f"(b) {problem}" for problem in problems]
        if latencies:
            median = statistics.median(latencies) * 1000
            floor = f"{statistics.median(floors) * 1000:.2f} ms / {max(floors) * 1000:.2f} ms (inotify)" if floors else "-"
            row("(b) reload median / max", f"{median:.0f} ms / {max(latencies) * 1000:.0f} ms", floor,
                f"median < {MAX_RELOAD_MEDIAN_MS:g} ms", median < MAX_RELOAD_MEDIAN_MS and len(latencies) == SAVES)
            row("(b) events received", f"{len(latencies)} of {SAVES}", "")
        else:
            row("(b) reload median", "no events", "", f"median < {MAX_RELOAD_MEDIAN_MS:g} ms", False)

        # (c) Leaks: chunks of wrk over the mix until the counts are reached.
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        connection.request("GET", PAGE)
        response = connection.getresponse()
        response.read()
        etag = response.getheader("ETag")
        connection.close()
        script = os.path.join(work, "mix.lua")
        with open(script, "w") as out:
            out.write(MIX.replace('"ETAG"', json.dumps(etag)))
        for path in re.findall(r'\{"(/[^"]*)"', MIX):
            status, body = get(server.port, path)
            if status != 200:
                notes.append(f"(c) {path} answered {status}: {body[:200]!r}")
        print(f"bench: (c) {WARM_UP_REQUESTS:,} requests of the route mix, then up to {TOTAL_REQUESTS:,}", flush=True)
        total = 0
        chunk_errors = []
        rss_start = server.rss_kib()
        rate = None
        while total < WARM_UP_REQUESTS:
            seconds = 2 if rate is None else max(1, min(30, round((WARM_UP_REQUESTS - total) / rate) + 1))
            requests, rate, _, errors = wrk(server.url("/"), ["-t2", "-c64", f"-d{seconds}s"], script)
            total += requests
            chunk_errors += errors
        warm, warm_total = server.rss_kib(), total
        while total < TOTAL_REQUESTS:
            seconds = max(1, min(30, round((TOTAL_REQUESTS - total) / rate) + 1))
            requests, rate, _, errors = wrk(server.url("/"), ["-t2", "-c64", f"-d{seconds}s"], script)
            total += requests
            chunk_errors += errors
        end = server.rss_kib()
        notes += [f"(c) {error}" for error in chunk_errors]
        growth = end / warm
        row("(c) VmRSS after warm-up", f"{warm / 1024:.1f} MiB", f"{rss_start / 1024:.1f} MiB (before (c))",
            f"after {warm_total:,} requests (and those of (a))")
        row("(c) VmRSS at the end", f"{end / 1024:.1f} MiB", f"{warm / 1024:.1f} MiB (warm)",
            f"after {total:,} requests")
        row("(c) growth", f"{growth:.3f}x", "1.000x", f"<= {MAX_RSS_GROWTH}x", growth <= MAX_RSS_GROWTH)
        row("(c) mix requests/s (last chunk)", f"{rate:,.0f}", "")

        held = abandoned_streams(server)
        row("dropped event streams still held", f"{held} of 40", "0", "(2 s after they were dropped)")
    finally:
        if nginx:
            nginx.stop()
        if server:
            stopped = server.stop()
            rows.append(("server stops on SIGTERM", "yes" if stopped else "no: killed after 5 s", "", "", ""))
            errors = server.errors().strip()
            if errors:
                notes.append("server's standard error: " + errors)
        shutil.rmtree(work, ignore_errors=True)

    print(f"\nbench: {os.cpu_count()} cores, which wrk and the server (or nginx) share; "
          f"load average at the end {load_average()}")
    widths = [max(len(str(r[i])) for r in rows + [("figure", "server", "baseline", "target", "")]) for i in range(5)]
    header = ("figure", "server", "baseline", "target", "")
    for line in [header] + rows:
        print("  " + "  ".join(f"{str(v):<{widths[i]}}" if i in (0, 3, 4) else f"{str(v):>{widths[i]}}"
                               for i, v in enumerate(line)).rstrip())
    for note in notes:
        print(f"  note: {note}")
    finish(missed)


if __name__ == "__main__":
    main()
