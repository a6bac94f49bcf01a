#!/usr/bin/env python3
"""QuickCart's benchmark (issue 6): run by `make bench`, which builds everything first.

    python3 Benchmarks/bench.py --quickcart .build/release/quickcart --ceiling .build/bench/ceiling \
        [--micro Benchmarks/Micro/.build/release/quickcart-micro] [--seconds 8] [--runs 3]

Every server (QuickCart, the C ceiling, the micro-benchmarks) runs pinned to one CPU
(`taskset -c 0`), every load generator (wrk, the Python clients, this script) to another
(`taskset -c 1`). Each figure is measured --runs times; the table shows medians, and each
ratio is the median of the ratios measured within one run (QuickCart and the ceiling back to
back, their order alternating between runs). Writes the table to Benchmarks/results/latest.md,
a timestamped copy beside it, raw numbers to latest.json, and Benchmarks/RESULTS.md.

Python standard library only.
"""

import argparse
import datetime
import glob
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import streams as sse  # noqa: E402  (the event-stream client beside this file)

MB = 1_000_000
# The page targets are the typed-views round's (pages as typed views on compiled templates);
# the static, stream, start-up and memory targets are the first performance round's.
PAGE_TARGET = 0.40
POST_TARGET = 0.20
MICRO_TARGETS_NS = {"mustache: cart page, 20 rows, with the layout (typed views)": 8_000}

# Headers QuickCart sets per answer that the ceiling must not copy (libmicrohttpd adds its own).
PER_ANSWER_HEADERS = {"date", "content-length", "set-cookie", "connection", "transfer-encoding"}


def say(message=""):
    print(message, flush=True)


def fmt_int(value):
    return f"{value:,.0f}"


def fmt_ms(microseconds):
    return f"{microseconds / 1000:.2f} ms"


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


# ---------------------------------------------------------------------------------------
# Processes

class Server:
    """A server process pinned to the server CPU; waits for its `http://HOST:PORT/` line.

    Standard output and error go to a log file, never a pipe: a server that logs every
    request would otherwise stall once nobody reads the pipe.
    """

    def __init__(self, name, command, cpu, log_path, cwd=ROOT):
        self.name = name
        self.log_path = log_path
        with open(log_path, "ab") as log:
            self.offset = log.tell()
            self.process = subprocess.Popen(["taskset", "-c", str(cpu)] + command, cwd=cwd,
                                            stdout=log, stderr=subprocess.STDOUT)
        self.port = self._wait_for_port(timeout=30)

    def _wait_for_port(self, timeout):
        deadline = time.monotonic() + timeout
        text = b""
        while time.monotonic() < deadline:
            with open(self.log_path, "rb") as log:
                log.seek(self.offset)
                text = log.read(1 << 16)
            match = re.search(rb"http://[^/\s]+:(\d+)/", text)
            if match:
                return int(match.group(1))
            if self.process.poll() is not None:
                break
            time.sleep(0.005)
        self.stop()
        raise RuntimeError(f"{self.name} did not print its address (see {self.log_path}): {text[-300:]!r}")

    def metrics_port(self):
        """The port of QuickCart's operator metrics (started with --metrics), from the line after its address."""
        with open(self.log_path, "rb") as log:
            log.seek(self.offset)
            match = re.search(rb"metrics on http://[^/\s]+:(\d+)/metrics", log.read(1 << 16))
        if not match:
            raise RuntimeError(f"{self.name} did not print its metrics address (see {self.log_path})")
        return int(match.group(1))

    @property
    def pid(self):
        return self.process.pid

    def stop(self, timeout=30):
        """SIGTERM, then wait; returns (exit status, seconds)."""
        if self.process.poll() is not None:
            return self.process.returncode, 0.0
        started = time.perf_counter()
        self.process.send_signal(signal.SIGTERM)
        try:
            status = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            status = self.process.wait()
        return status, time.perf_counter() - started


def quickcart_command(options, database, port=0):
    command = [options.quickcart, "--port", str(port), "--db", database, "--resources", options.resources]
    if options.threads:
        command += ["--threads", str(options.threads)]
    return command + options.quickcart_arg


def ceiling_command(options, body, headers, content_type, etag=None):
    command = [options.ceiling, "--body", body, "--headers", headers, "--content-type", content_type]
    if etag:
        command += ["--etag", etag]
    if options.threads:
        command += ["--threads", str(options.threads)]
    return command


# ---------------------------------------------------------------------------------------
# Who else used the CPUs (sse.CPUMeter, in streams.py, measures each run)

def load_average():
    with open("/proc/loadavg") as loadavg:
        return float(loadavg.read().split()[0])


# ---------------------------------------------------------------------------------------
# wrk

def run_wrk(options, url, script, headers=(), script_args=(), seconds=None, server_pid=None):
    command = ["taskset", "-c", str(options.load_cpu), "wrk", "-t1", f"-c{options.connections}",
               f"-d{seconds or options.seconds}s", "--timeout", "5s", "-s", script]
    for header in headers:
        command += ["-H", header]
    command.append(url)
    if script_args:
        command += ["--"] + list(script_args)
    meter = sse.CPUMeter(options.server_cpu, server_pid) if server_pid else None
    output = subprocess.run(command, capture_output=True, text=True, timeout=(seconds or options.seconds) + 60)
    usage = meter.read() if meter else {}
    match = re.search(r"^BENCH (.*)$", output.stdout, re.M)
    if not match:
        raise RuntimeError(f"wrk printed no BENCH line: {output.stdout[-500:]} {output.stderr[-500:]}")
    result = {}
    for field in match.group(1).split():
        name, _, value = field.partition("=")
        result[name] = float(value)
    result["errors"] = int(sum(result[k] for k in result if k.startswith("errors_")))
    result["bytes_per_answer"] = result["bytes"] / result["requests"] if result["requests"] else 0
    result.update(usage)
    return result


# ---------------------------------------------------------------------------------------
# Saving QuickCart's answers for the ceiling

def fetch(port, method, path, cookie=None, body=None, extra_headers=()):
    connection = sse.HTTPConnection("127.0.0.1", port)
    payload = connection.request_bytes(method, path, cookie, body)
    if extra_headers:
        head, rest = payload.split(b"\r\n\r\n", 1)
        payload = head + b"".join(b"\r\n" + h.encode() for h in extra_headers) + b"\r\n\r\n" + rest
    connection.sock.sendall(payload)
    answer = connection.read_response(method)
    connection.close()
    return answer


def fetch_api(port, method, path, token=None, body=None):
    """An API request: bearer token and a JSON body (text), as an app sends them."""
    connection = sse.HTTPConnection("127.0.0.1", port)
    lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}"]
    if token:
        lines.append(f"Authorization: Bearer {token}")
    data = body.encode() if body is not None else b""
    if body is not None:
        lines += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
    connection.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + data)
    answer = connection.read_response(method)
    connection.close()
    return answer


def save_answer(directory, name, status, headers, body):
    """Writes NAME.body and NAME.headers (QuickCart's headers less the per-answer ones)."""
    with open(os.path.join(directory, name + ".body"), "wb") as file:
        file.write(body)
    kept = [(n, v) for n, v in headers if n not in PER_ANSWER_HEADERS]
    with open(os.path.join(directory, name + ".headers"), "w") as file:
        for header_name, value in kept:
            file.write(f"{header_name}: {value}\n")
    return dict(kept)


# ---------------------------------------------------------------------------------------
# The figures

def measure_startup(options, work):
    """Start to first 200 on /healthz, and idle RSS, over several starts."""
    database = os.path.join(work, "startup.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(database + suffix):
            os.remove(database + suffix)
    results = []
    for index in range(options.starts + 1):  # the first start creates the database
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        command = quickcart_command(options, database, port)
        log = open(os.path.join(work, "startup.log"), "ab")
        started = time.perf_counter()
        process = subprocess.Popen(["taskset", "-c", str(options.server_cpu)] + command,
                                   cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log)
        ready = None
        while time.perf_counter() - started < 30 and process.poll() is None:
            try:
                connection = socket.create_connection(("127.0.0.1", port), timeout=2)
            except OSError:
                time.sleep(0.0005)
                continue
            try:
                connection.sendall(f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
                answer = connection.recv(64)
            except OSError:
                answer = b""
            connection.close()
            if answer.startswith(b"HTTP/1.1 200"):
                ready = time.perf_counter() - started
                break
            time.sleep(0.0005)
        if ready is None:
            process.kill()
            raise RuntimeError("QuickCart did not answer /healthz with 200 within 30 s (see startup.log)")
        time.sleep(1.0)
        rss = sse.rss_kib(process.pid)
        stop_started = time.perf_counter()
        process.send_signal(signal.SIGTERM)
        status = process.wait(30)
        stopped = time.perf_counter() - stop_started
        log.close()
        results.append({"ready_ms": ready * 1000, "idle_rss_kib": rss, "exit": status,
                        "stop_ms": stopped * 1000, "new_database": index == 0})
        say(f"  start {index + 1}/{options.starts + 1}{' (new database)' if index == 0 else ''}: "
            f"/healthz 200 after {ready * 1000:.1f} ms, idle RSS {rss / 1024:.1f} MiB, "
            f"SIGTERM -> exit {status} in {stopped * 1000:.0f} ms")
    return results


def measure_http(options, work):
    database = os.path.join(work, "http.sqlite")
    quickcart = Server("QuickCart", quickcart_command(options, database), options.server_cpu,
                       os.path.join(work, "quickcart-http.log"))
    ceilings = []
    try:
        port = quickcart.port
        session = sse.Session("127.0.0.1", port)  # stored session; product 1 set to base quantity
        cookie, csrf, base = session.cookie, session.csrf, session.base_quantity
        session.connection.close()
        status, headers, cart = fetch(port, "GET", "/cart", cookie)
        if status != 200:
            raise RuntimeError(f"GET /cart gave {status}")
        cart_headers = save_answer(work, "cart", status, headers, cart)
        status, headers, home = fetch(port, "GET", "/", cookie)
        home_headers = save_answer(work, "home", status, headers, home)
        status, headers, css = fetch(port, "GET", options.static_path)
        if status != 200:
            raise RuntimeError(f"GET {options.static_path} gave {status}")
        css_headers = save_answer(work, "static", status, headers, css)
        etag = css_headers.get("etag")
        if not etag:
            raise RuntimeError(f"{options.static_path} came without an ETag")
        status, _, _ = fetch(port, "GET", options.static_path, extra_headers=[f"If-None-Match: {etag}"])
        if status != 304:
            raise RuntimeError(f"revalidating {options.static_path} gave {status}, not 304")
        # An app's client, stored by its first change (product 1 at the base quantity), beside the web
        # session; only when an API figure is asked for, so the page figures also measure builds older
        # than the API.
        wanted = set(options.http_figures.split(",")) if options.http_figures else None
        uses_api = wanted is None or bool(wanted & {"apicart", "apiput"})
        token, api_cart = None, b""
        if uses_api:
            status, _, created = fetch_api(port, "POST", "/api/v1/clients", body='{"device": "bench"}')
            if status != 201:
                raise RuntimeError(f"POST /api/v1/clients gave {status}")
            token = json.loads(created)["token"]
            status, _, _ = fetch_api(port, "PUT", "/api/v1/cart/lines/1", token, f'{{"quantity": {base}}}')
            if status != 200:
                raise RuntimeError(f"PUT /api/v1/cart/lines/1 gave {status}")
            status, headers, api_cart = fetch_api(port, "GET", "/api/v1/cart", token)
            if status != 200:
                raise RuntimeError(f"GET /api/v1/cart gave {status}")
            api_cart_headers = save_answer(work, "apicart", status, headers, api_cart)
        say(f"  saved QuickCart's answers: /cart {len(cart):,} bytes, / {len(home):,} bytes, "
            f"{options.static_path} {len(css):,} bytes (ETag {etag})"
            + (f", /api/v1/cart {len(api_cart):,} bytes" if uses_api else ""))

        def ceiling(name, content_type, etag=None):
            server = Server(f"ceiling {name}", ceiling_command(
                options, os.path.join(work, name + ".body"), os.path.join(work, name + ".headers"),
                content_type, etag), options.server_cpu, os.path.join(work, f"ceiling-{name}.log"))
            ceilings.append(server)
            status, _, body = fetch(server.port, "GET", "/")
            if status != 200 or body != open(os.path.join(work, name + ".body"), "rb").read():
                raise RuntimeError(f"the {name} ceiling does not serve the saved bytes")
            return server

        cart_ceiling = ceiling("cart", cart_headers.get("content-type", "text/html; charset=utf-8"))
        home_ceiling = ceiling("home", home_headers.get("content-type", "text/html; charset=utf-8"))
        static_ceiling = ceiling("static", css_headers.get("content-type", "text/css"), etag)
        api_ceiling = ceiling("apicart", api_cart_headers.get("content-type", "application/json; charset=utf-8")) if uses_api else None

        cookie_header = f"Cookie: {sse.COOKIE_NAME}={cookie}"
        percentiles = os.path.join(HERE, "wrk", "percentiles.lua")
        post_script = os.path.join(HERE, "wrk", "post-quantity.lua")
        put_script = os.path.join(HERE, "wrk", "put-quantity.lua")
        auth_header = f"Authorization: Bearer {token}"
        other = base + 1 if base < 10 else base - 1
        # (figure, QuickCart's (port, path, script, headers, args), the ceiling's or None)
        figures = [
            ("cart", (port, "/cart", percentiles, [cookie_header], []),
             (cart_ceiling.port, "/cart", percentiles, [cookie_header], [])),
            ("home", (port, "/", percentiles, [cookie_header], []),
             (home_ceiling.port, "/", percentiles, [cookie_header], [])),
            ("post", (port, "/cart/items/1/quantity", post_script, [], [cookie, csrf, "1", str(base), str(other)]),
             None),
            ("static304", (port, options.static_path, percentiles, [f"If-None-Match: {etag}"], []),
             (static_ceiling.port, options.static_path, percentiles, [f"If-None-Match: {etag}"], [])),
            ("static200", (port, options.static_path, percentiles, [], []),
             (static_ceiling.port, options.static_path, percentiles, [], [])),
        ]
        if uses_api:
            # The same cart read and quantity change through the native app's API.
            figures += [
                ("apicart", (port, "/api/v1/cart", percentiles, [auth_header], []),
                 (api_ceiling.port, "/api/v1/cart", percentiles, [auth_header], [])),
                ("apiput", (port, "/api/v1/cart/lines/1", put_script, [], [token, str(base), str(other)]), None),
            ]
        if wanted is not None:
            figures = [figure for figure in figures if figure[0] in wanted]

        pids = {port: quickcart.pid, cart_ceiling.port: cart_ceiling.pid, home_ceiling.port: home_ceiling.pid,
                static_ceiling.port: static_ceiling.pid}
        if api_ceiling:
            pids[api_ceiling.port] = api_ceiling.pid

        def run(target, seconds=None):
            target_port, path, script, headers, args = target
            return run_wrk(options, f"http://127.0.0.1:{target_port}{path}", script, headers, args, seconds,
                           server_pid=pids[target_port])

        def restore_cart():
            """Puts product 1 back at the base quantity, once the posts wrk left in flight are done."""
            time.sleep(0.5)
            status, _, _ = fetch(port, "POST", "/cart/items/1/quantity", cookie, session.body(base))
            if status != 303:
                raise RuntimeError(f"restoring the cart gave {status}")
            if not uses_api:
                return
            status, _, _ = fetch_api(port, "PUT", "/api/v1/cart/lines/1", token, f'{{"quantity": {base}}}')
            if status != 200:
                raise RuntimeError(f"restoring the app's cart gave {status}")

        say(f"  warming up: {options.warmup} s of wrk per server and path")
        for name, mine, theirs in figures:
            run(mine, options.warmup)
            if theirs:
                run(theirs, options.warmup)
        restore_cart()

        runs = []
        for index in range(options.runs):
            results = {}
            for name, mine, theirs in figures:
                order = [("quickcart", mine), ("ceiling", theirs)]
                if index % 2 == 0:
                    order.reverse()
                for who, target in order:
                    if target is None:
                        continue
                    result = run(target)
                    results[f"{name}.{who}"] = result
                    say(f"  run {index + 1}/{options.runs} {name:9} {who:9} {fmt_int(result['rps']):>8} req/s  "
                        f"p50 {fmt_ms(result['p50_us'])}  p99 {fmt_ms(result['p99_us'])}  "
                        f"{result['bytes_per_answer']:,.0f} B/answer  errors {result['errors']}  "
                        f"CPU {options.server_cpu}: server {result['server_cpu_pct']:.0f}%, "
                        f"other {result['other_cpu_pct']:.0f}%")
                if name in ("post", "apiput"):
                    restore_cart()
            runs.append(results)

        status, _, cart_after = fetch(port, "GET", "/cart", cookie)
        if cart_after != cart:
            with open(os.path.join(work, "cart-after.body"), "wb") as file:
                file.write(cart_after)
        return {
            "runs": runs,
            "sizes": {"cart": len(cart), "home": len(home), "static": len(css), "apicart": len(api_cart)},
            "static_path": options.static_path,
            "cart_unchanged": cart_after == cart,
        }
    finally:
        for server in ceilings:
            server.stop()
        quickcart.stop()


def measure_streams(options, work):
    database = os.path.join(work, "streams.sqlite")
    cookie_file = os.path.join(work, "stream-cookies.txt")
    runs = []
    for index in range(options.runs):
        server = Server("QuickCart", quickcart_command(options, database) + ["--metrics", "127.0.0.1:0"], options.server_cpu,
                        os.path.join(work, "quickcart-streams.log"))
        try:
            command = ["taskset", "-c", str(options.load_cpu), sys.executable, os.path.join(HERE, "streams.py"),
                       "--port", str(server.port), "--metrics-port", str(server.metrics_port()),
                       "--pid", str(server.pid), "--streams", str(options.streams),
                       "--changes", str(options.changes), "--cookie-file", cookie_file,
                       "--per-address", str(options.per_address), "--server-cpu", str(options.server_cpu)]
            output = subprocess.run(command, capture_output=True, text=True, timeout=600)
            for line in output.stderr.splitlines():
                say(f"  run {index + 1}/{options.runs} {line}")
            match = re.search(r"^STREAMS (.*)$", output.stdout, re.M)
            if not match:
                raise RuntimeError(f"the stream client failed: {output.stderr[-2000:]}")
            result = json.loads(match.group(1))
        finally:
            status, seconds = server.stop()
        result["stop_exit"], result["stop_ms"] = status, seconds * 1000
        runs.append(result)
    return {"runs": runs}


def measure_micro(options, work):
    if not os.path.exists(options.micro):
        return {"skipped": f"{os.path.relpath(options.micro, ROOT)} was not built (see the build output above; the "
                           "parent package must export the Mustache, SQLite and QuickCart library products)"}
    command = ["taskset", "-c", str(options.server_cpu), options.micro,
               "--views", os.path.join(options.resources, "Views"), "--runs", str(options.runs),
               "--seconds", str(options.micro_seconds), "--scratch", work]
    output = subprocess.run(command, capture_output=True, text=True, timeout=600)
    results = [json.loads(line[6:]) for line in output.stdout.splitlines() if line.startswith("MICRO ")]
    if output.returncode != 0 or not results:
        return {"skipped": f"the micro-benchmark failed: {output.stderr[-1000:]}"}
    for result in results:
        say(f"  {result['name']}: {result['summary']}")
    return {"results": results}


# ---------------------------------------------------------------------------------------
# Many instances on PostgreSQL

class BenchPostgres:
    """Debian's PostgreSQL in a temporary folder on a free port of 127.0.0.1, pinned to the
    server CPU like every server here, with its default (durable) settings but for
    max_connections. As root, every server binary runs as the postgres user (PostgreSQL
    refuses root), in a folder under /tmp that user can reach."""

    def __init__(self, cpu):
        candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]), reverse=True)
        candidates += os.environ.get("PATH", "").split(":") + ["/usr/local/bin"]
        self.binaries = next((c for c in candidates if c and os.path.exists(os.path.join(c, "initdb"))), None)
        if not self.binaries:
            raise RuntimeError("PostgreSQL's initdb was not found (apt-get install postgresql)")
        self.as_postgres = os.getuid() == 0
        self.folder = tempfile.mkdtemp(prefix="quickcart-bench-postgres-", dir="/tmp" if self.as_postgres else None)
        if self.as_postgres:
            shutil.chown(self.folder, "postgres", "postgres")
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.data = os.path.join(self.folder, "data")
        self.run("initdb", "-D", self.data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-instructions")
        self.run("pg_ctl", "start", "-D", self.data, "-w", "-l", os.path.join(self.folder, "server.log"), "-o",
                 f"-p {self.port} -h 127.0.0.1 -k {self.folder} -c max_connections=200", cpu=cpu)
        self.run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "quickcart")
        with open(os.path.join(self.data, "postmaster.pid")) as pid_file:
            self.postmaster = int(pid_file.readline())

    @property
    def url(self):
        return f"postgresql://postgres@127.0.0.1:{self.port}/quickcart"

    def run(self, name, *arguments, cpu=None):
        command = [os.path.join(self.binaries, name), *arguments]
        if cpu is not None:
            command = ["taskset", "-c", str(cpu)] + command
        if self.as_postgres:
            command = ["runuser", "-u", "postgres", "--"] + command
        # A file, not a pipe: the server pg_ctl leaves running would keep a pipe open.
        log = os.path.join(self.folder, name + ".out")
        with open(log, "wb") as output:
            status = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=output, stderr=output, timeout=120).returncode
        if status != 0:
            with open(log, errors="replace") as output:
                raise RuntimeError(f"{name} failed: {output.read()[-1000:]}")

    def pids(self):
        """The postmaster and every process it started (one backend per connection)."""
        found = [self.postmaster]
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/stat") as stat:
                        if int(stat.read().rsplit(")", 1)[1].split()[1]) == self.postmaster:
                            found.append(int(entry))
                except (OSError, IndexError, ValueError):
                    pass
        return found

    def remove(self):
        try:
            self.run("pg_ctl", "stop", "-D", self.data, "-m", "fast", "-w")
        except RuntimeError:
            pass
        shutil.rmtree(self.folder, ignore_errors=True)


def run_wrk_spread(options, targets, seconds, pids_of):
    """One wrk per (port, path, script, headers, args), all at once, sharing the connections;
    returns the summed requests/s, the worst p99, and the CPU the servers (`pids_of()`, read
    before and after, so backends opened meanwhile count) spent per second of the run."""
    connections = max(1, options.connections // len(targets))
    before = {pid: sse.process_ticks(pid) for pid in pids_of()}
    busy_before, total_before = sse.cpu_ticks(options.server_cpu)
    started = time.monotonic()
    processes = []
    for port, path, script, headers, args in targets:
        command = ["taskset", "-c", str(options.load_cpu), "wrk", "-t1", f"-c{connections}", f"-d{seconds}s",
                   "--timeout", "5s", "-s", script]
        for header in headers:
            command += ["-H", header]
        command.append(f"http://127.0.0.1:{port}{path}")
        if args:
            command += ["--"] + list(args)
        processes.append(subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    outputs = [process.communicate(timeout=seconds + 60) for process in processes]
    elapsed = time.monotonic() - started
    server_ticks = sum(sse.process_ticks(pid) - before.get(pid, 0) for pid in pids_of())
    busy_after, total_after = sse.cpu_ticks(options.server_cpu)
    results = []
    for stdout, stderr in outputs:
        match = re.search(r"^BENCH (.*)$", stdout, re.M)
        if not match:
            raise RuntimeError(f"wrk printed no BENCH line: {stdout[-500:]} {stderr[-500:]}")
        results.append({name: float(value) for name, _, value in (field.partition("=") for field in match.group(1).split())})
    ticks_per_second = os.sysconf("SC_CLK_TCK")
    cpu_seconds = server_ticks / ticks_per_second
    rps = sum(result["rps"] for result in results)
    requests = sum(result["requests"] for result in results)
    return {
        "rps": rps,
        "p99_us": max(result["p99_us"] for result in results),
        "errors": int(sum(value for result in results for name, value in result.items() if name.startswith("errors_"))),
        "server_cpu_seconds": cpu_seconds,
        "requests_per_cpu_second": requests / cpu_seconds if cpu_seconds else 0,
        "server_cpu_pct": 100.0 * cpu_seconds / elapsed,
        "other_cpu_pct": 100.0 * max(0, (busy_after - busy_before) - server_ticks) / max(1, total_after - total_before),
    }


def measure_cluster(options, work):
    """GET /cart and the quantity POST on SQLite's one instance, then on PostgreSQL with one
    and with --cluster-instances instances (the same database), in each run. With several
    instances, one wrk per instance shares the connections (no proxy in between), and each
    instance has its own session, so posts measure throughput, not one cart's row lock."""
    postgres = BenchPostgres(options.server_cpu)
    configurations = [("sqlite", 1), ("postgres", 1), ("postgres", options.cluster_instances)]
    percentiles = os.path.join(HERE, "wrk", "percentiles.lua")
    post_script = os.path.join(HERE, "wrk", "post-quantity.lua")
    runs = []
    try:
        for index in range(options.runs):
            results = {}
            for backend, count in configurations:
                database = os.path.join(work, "cluster.sqlite") if backend == "sqlite" else postgres.url
                servers = []
                try:
                    for number in range(count):
                        servers.append(Server(f"QuickCart {number + 1}", quickcart_command(options, database),
                                              options.server_cpu, os.path.join(work, f"quickcart-cluster-{backend}-{number + 1}.log")))
                    sessions = [sse.Session("127.0.0.1", server.port) for server in servers]
                    for session in sessions:
                        session.connection.close()

                    def pids_of():
                        return [server.pid for server in servers] + (postgres.pids() if backend == "postgres" else [])

                    figures = {
                        "cart": [(server.port, "/cart", percentiles, [f"Cookie: {sse.COOKIE_NAME}={session.cookie}"], [])
                                 for server, session in zip(servers, sessions)],
                        "post": [(server.port, "/cart/items/1/quantity", post_script, [],
                                  [session.cookie, session.csrf, "1", str(session.base_quantity), str(session.other_quantity)])
                                 for server, session in zip(servers, sessions)],
                    }
                    for name, targets in figures.items():
                        if index == 0:
                            run_wrk_spread(options, targets, options.warmup, pids_of)
                        result = run_wrk_spread(options, targets, options.seconds, pids_of)
                        results[f"{name}.{backend}.{count}"] = result
                        say(f"  run {index + 1}/{options.runs} {name:4} {backend:8} × {count}  {fmt_int(result['rps']):>7} req/s  "
                            f"{fmt_int(result['requests_per_cpu_second']):>7} per server CPU-second  "
                            f"p99 {fmt_ms(result['p99_us'])}  errors {result['errors']}  "
                            f"CPU {options.server_cpu}: servers {result['server_cpu_pct']:.0f}%, other {result['other_cpu_pct']:.0f}%")
                finally:
                    for server in servers:
                        server.stop()
            runs.append(results)
    finally:
        postgres.remove()
    return {"runs": runs, "configurations": [f"{backend}.{count}" for backend, count in configurations]}


def cluster_table(options, cluster):
    """The cluster figure: one column per configuration, medians of the runs."""
    runs = cluster["runs"]
    columns = cluster["configurations"]

    def cell(name, column, field, formatter):
        values = [run[f"{name}.{column}"][field] for run in runs if f"{name}.{column}" in run]
        return formatter(median(values)) if values else ""

    def heading(column):
        backend, count = column.split(".")
        return f"{'SQLite' if backend == 'sqlite' else 'PostgreSQL'}, {count} instance{'s' if count != '1' else ''}"

    lines = ["| cluster figure | " + " | ".join(heading(column) for column in columns) + " |",
             "| --- |" + " ---: |" * len(columns)]
    for name, label in (("cart", "GET /cart, real session"), ("post", "POST quantity → commit → publish → 303")):
        lines.append(f"| {label} | " + " | ".join(cell(name, c, "rps", lambda v: f"{fmt_int(v)} req/s") for c in columns) + " |")
        lines.append(f"| {label}: per server CPU-second | "
                     + " | ".join(cell(name, c, "requests_per_cpu_second", fmt_int) for c in columns) + " |")
        lines.append(f"| {label}: p99 (worst instance) | " + " | ".join(cell(name, c, "p99_us", fmt_ms) for c in columns) + " |")
    errors = sum(result["errors"] for run in runs for result in run.values())
    notes = [
        f"Cluster figure: every server (each QuickCart instance and PostgreSQL with all its backends) is pinned to CPU "
        f"{options.server_cpu} and the load to CPU {options.load_cpu}, so {options.cluster_instances} instances share one "
        f"CPU with PostgreSQL: it measures what the extra instances and the network round trips cost, not how a cluster "
        f"of machines scales. Per server CPU-second = requests ÷ CPU time (utime+stime) of every server process, "
        f"PostgreSQL's included. PostgreSQL runs with its default settings (fsync and synchronous_commit on), "
        f"SQLite with QuickCart's (WAL, synchronous=NORMAL). {options.connections} connections in all, split "
        f"between the instances; each instance has its own session. Errors: {errors}.",
    ]
    return lines, notes


# ---------------------------------------------------------------------------------------
# The table

def verdict(ok):
    return "PASS" if ok else "MISS"


def build_table(options, http, stream_results, startup, micro):
    rows = []  # (figure, QuickCart, ceiling, ratio, target, result)
    notes = []

    if http:
        runs = http["runs"]

        def values(key, field):
            return [run[key][field] for run in runs if key in run]

        def errors(key):
            return sum(run[key]["errors"] for run in runs if key in run)

        measured = set(runs[0])

        def throughput_row(label, name, target, ceiling_key=None):
            ceiling_key = ceiling_key or f"{name}.ceiling"
            if f"{name}.quickcart" not in measured or ceiling_key not in measured:
                return None  # a figure left out with --http-figures
            mine = median(values(f"{name}.quickcart", "rps"))
            theirs = median(values(ceiling_key, "rps"))
            ratio = median([run[f"{name}.quickcart"]["rps"] / run[ceiling_key]["rps"] for run in runs])
            per_cpu = median([(run[f"{name}.quickcart"]["rps"] / max(0.01, run[f"{name}.quickcart"]["server_cpu_pct"]))
                              / (run[ceiling_key]["rps"] / max(0.01, run[ceiling_key]["server_cpu_pct"]))
                              for run in runs])
            result = verdict(ratio >= target)
            if errors(f"{name}.quickcart"):
                result += f" ({errors(f'{name}.quickcart')} errors)"
            rows.append((label, f"{fmt_int(mine)} req/s", f"{fmt_int(theirs)} req/s", f"{ratio:.0%}",
                         f"{per_cpu:.0%}", f"≥ {target:.0%}", result))
            return ratio

        throughput_row(f"GET /cart, real session (cookie, SQLite read, render), {options.connections} connections",
                       "cart", PAGE_TARGET)
        if "cart.quickcart" in measured:
            mine = median(values("cart.quickcart", "p99_us"))
            theirs = median(values("cart.ceiling", "p99_us"))
            ratio = median([run["cart.quickcart"]["p99_us"] / max(1, run["cart.ceiling"]["p99_us"]) for run in runs])
            rows.append(("GET /cart: p99 latency", fmt_ms(mine), fmt_ms(theirs), f"{ratio:.1f}×", "", "≤ 2×",
                         verdict(ratio <= 2.0)))
        throughput_row("GET / (home, catalog), same session", "home", PAGE_TARGET)
        throughput_row("POST quantity → commit → publish → 303 (ceiling: its GET /cart)", "post", POST_TARGET,
                       ceiling_key="cart.ceiling")
        throughput_row(f"GET {http['static_path']} with If-None-Match → 304", "static304", 0.80)
        throughput_row(f"GET {http['static_path']} → 200 ({http['sizes']['static']:,} bytes)", "static200", 0.80)
        throughput_row("GET /api/v1/cart, bearer token (SQLite read, JSON)", "apicart", PAGE_TARGET)
        throughput_row("PUT /api/v1/cart/lines/1 → commit → publish → 200 JSON (ceiling: its GET /api/v1/cart)", "apiput",
                       POST_TARGET, ceiling_key="apicart.ceiling")
        notes.append("ratio per CPU-second: the same ratio computed from requests per second of CPU time each "
                     "server actually got (its utime+stime from /proc/PID/stat); it moves less when other work "
                     "shares the machine. The targets apply to the plain ratio.")
        def cpu_per_answer(key):
            """Microseconds of server CPU per answer."""
            return median([run[key]["server_cpu_pct"] / 100 / run[key]["rps"] * 1e6 for run in runs
                           if key in run and run[key]["rps"]])

        if {"cart.quickcart", "apicart.quickcart"} <= measured:
            # The target: the JSON cart costs no more server CPU per answer than the HTML cart page.
            html, api = cpu_per_answer("cart.quickcart"), cpu_per_answer("apicart.quickcart")
            rows.append(("GET /api/v1/cart: server CPU per answer, against GET /cart's", f"{api:.1f} µs", f"{html:.1f} µs",
                         f"{api / html:.2f}×", "", "≤ 1×", verdict(api <= html)))
        for name in ("cart", "home", "post", "static304", "static200", "apicart", "apiput"):
            if f"{name}.quickcart" not in measured:
                continue
            p50 = median(values(f"{name}.quickcart", "p50_us"))
            p99 = median(values(f"{name}.quickcart", "p99_us"))
            line = (f"{name}: QuickCart p50 {fmt_ms(p50)}, p99 {fmt_ms(p99)}, "
                    f"{cpu_per_answer(f'{name}.quickcart'):.0f} µs of CPU per answer")
            if f"{name}.ceiling" in runs[0]:
                line += (f" (ceiling p50 {fmt_ms(median(values(f'{name}.ceiling', 'p50_us')))}, "
                         f"{cpu_per_answer(f'{name}.ceiling'):.0f} µs)")
            line += f"; {median(values(f'{name}.quickcart', 'bytes_per_answer')):,.0f} bytes per answer on the wire"
            if f"{name}.ceiling" in runs[0]:
                line += f" (ceiling {median(values(f'{name}.ceiling', 'bytes_per_answer')):,.0f})"
            notes.append(line)
        for who in ("quickcart", "ceiling"):
            other = [run[key]["other_cpu_pct"] for run in runs for key in run if key.endswith("." + who)]
            if not other:
                # `--http-figures post` (or apiput) alone: no ceiling ran.
                continue
            notes.append(f"CPU {options.server_cpu} time not used by the measured server during the {who} runs "
                         f"(other processes, interrupts, steal): median {median(other):.0f}%, max {max(other):.0f}%")
        if not http["cart_unchanged"]:
            notes.append("WARNING: the /cart page differed after the bench from the bytes the ceiling served "
                         "(compare .build/bench/work/cart.body and cart-after.body).")

    if stream_results:
        runs = stream_results["runs"]
        wanted = options.streams
        held = min(run["held"] for run in runs)
        still = min(run["still_open"] for run in runs)
        reported = median([run.get("server_reports_streams") for run in runs])
        all_held = held == wanted and still == wanted
        rows.append((f"held event streams, one session each", f"{held:,} of {wanted:,} held, {still:,} still open",
                     "", "", "all held", verdict(all_held)))
        per_stream = median([run["rss_per_stream_kib"] for run in runs])
        before = median([run["rss_before_kib"] for run in runs])
        after = median([run["rss_after_kib"] for run in runs])
        rows.append(("server RSS per held stream", f"{per_stream:.1f} KiB", "", "",
                     "≤ 16 KiB", verdict(per_stream <= 16)))
        notes.append(f"streams: server RSS {before / 1024:.1f} MiB before, {after / 1024:.1f} MiB after opening; "
                     f"opened in {median([run['open_seconds'] for run in runs]):.1f} s, {options.per_address} per "
                     f"loopback source address; /metrics reported {reported:,.0f} open streams at the end "
                     f"(median of runs; it still counts the 16 fan-out streams the client closed earlier until "
                     f"the server reaps them)" if reported is not None else "streams: /metrics did not answer")

        def latency_row(label, key):
            measured = [run[key] for run in runs if "error" not in run[key]]
            failures = [run[key]["error"] for run in runs if "error" in run[key]]
            if not measured:
                rows.append((label, "not measured", "", "", "≤ 5 ms", f"MISS ({failures[0]})"))
                return
            p99 = median([m["last_p99_ms"] for m in measured])
            p50 = median([m["last_p50_ms"] for m in measured])
            bad = sum(m["timeouts"] + m["wrong_data"] + m["not_303"] for m in measured)
            result = verdict(p99 <= 5 and not bad and not failures)
            if bad:
                result += f" ({bad} events lost or wrong)"
            if failures:
                result += f" ({len(failures)} of {len(runs)} runs failed: {failures[0]})"
            rows.append((label, f"{p99:.2f} ms (p50 {p50:.2f})", "", "", "≤ 5 ms", result))
            per_run = ", ".join(f"{m['last_p99_ms']:.2f} ms ({m.get('other_cpu_pct', float('nan')):.0f}%)"
                                for m in measured)
            notes.append(f"{label}: per-run p99s {per_run} over {measured[0]['changes']} timed changes each "
                         f"(after {measured[0]['warmup']} untimed), from just before the POST is sent to the event "
                         f"read; in brackets the share of CPU {options.server_cpu} others used meanwhile")

        latency_row(f"change → event, 1 stream, {wanted:,} others idle: p99", "single")
        latency_row("change → event, 16 streams of one session: p99 of the last", "fanout")

    if startup:
        existing = [s for s in startup if not s["new_database"]]
        ready = median([s["ready_ms"] for s in existing])
        rss = median([s["idle_rss_kib"] for s in existing])
        rows.append(("start → first 200 on /healthz (existing database)", f"{ready:.0f} ms", "", "", "≤ 150 ms",
                     verdict(ready <= 150)))
        rows.append(("RSS when idle after start", f"{rss * 1024 / MB:.1f} MB", "", "", "≤ 30 MB",
                     verdict(rss * 1024 <= 30 * MB)))
        first = startup[0]
        notes.append(f"start-up: {len(existing)} starts; the first start, creating the database, took "
                     f"{first['ready_ms']:.0f} ms; SIGTERM → exit median "
                     f"{median([s['stop_ms'] for s in existing]):.0f} ms, exit statuses "
                     f"{sorted(set(s['exit'] for s in startup))}")

    table = ["| figure | QuickCart | ceiling | ratio | ratio per CPU-second | target | result |",
             "| --- | ---: | ---: | ---: | ---: | --- | --- |"]
    for row in rows:
        if len(row) == 6:  # no CPU-normalised ratio
            row = row[:4] + ("",) + row[4:]
        table.append("| " + " | ".join(row) + " |")

    micro_lines = []
    if micro is not None:
        if "skipped" in micro:
            micro_lines.append(f"Micro-benchmarks skipped: {micro['skipped']}")
        else:
            micro_lines += ["| micro-benchmark (median of runs) | result | target | result |", "| --- | --- | --- | --- |"]
            for result in micro["results"]:
                target = MICRO_TARGETS_NS.get(result["name"])
                judged = ("", "") if target is None else (f"≤ {target / 1000:g} µs", verdict(result["ns_per_op"] <= target))
                micro_lines.append(f"| {result['name']} | {result['summary']} | {judged[0]} | {judged[1]} |")
    return table, notes, micro_lines


def machine_description(options):
    def first_line(command):
        try:
            return subprocess.run(command, capture_output=True, text=True, timeout=30).stdout.strip().splitlines()[0]
        except (OSError, IndexError, subprocess.SubprocessError):
            return "unknown"

    model = "unknown"
    with open("/proc/cpuinfo") as cpuinfo:
        for line in cpuinfo:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    memory = "unknown"
    with open("/proc/meminfo") as meminfo:
        for line in meminfo:
            if line.startswith("MemTotal:"):
                memory = f"{int(line.split()[1]) / 1024 / 1024:.0f} GiB"
    commit = first_line(["git", "-C", ROOT, "rev-parse", "--short=12", "HEAD"])
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    return {
        "nproc": os.cpu_count(),
        "cpu": model,
        "kernel": os.uname().release,
        "memory": memory,
        "commit": commit + (" (with uncommitted changes)" if dirty else ""),
        "swift": first_line([options.swift, "--version"]),
        "libmicrohttpd": first_line(["pkg-config", "--modversion", "libmicrohttpd"]),
        "sqlite": first_line(["pkg-config", "--modversion", "sqlite3"]),
        "wrk": first_line(["wrk", "-v"]).split(" Copyright")[0],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quickcart", default=os.path.join(ROOT, ".build/release/quickcart"))
    parser.add_argument("--ceiling", default=os.path.join(ROOT, ".build/bench/ceiling"))
    parser.add_argument("--micro", help="the micro-benchmark executable (skipped when not given)")
    parser.add_argument("--resources", default=ROOT, help="the folder with Views/ and Public/")
    parser.add_argument("--seconds", type=int, default=8, help="seconds per wrk run")
    parser.add_argument("--runs", type=int, default=3, help="runs per figure")
    parser.add_argument("--warmup", type=int, default=1, help="seconds of wrk per server and path before the runs")
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--streams", type=int, default=10000)
    parser.add_argument("--changes", type=int, default=300)
    parser.add_argument("--per-address", type=int, default=100, help="idle streams per loopback source address")
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--micro-seconds", type=float, default=0.5, help="seconds per micro-benchmark run")
    parser.add_argument("--threads", type=int, help="server threads for QuickCart and the ceiling (default: one per CPU)")
    parser.add_argument("--quickcart-arg", action="append", default=[],
                        help="one more argument for QuickCart (repeatable), e.g. --quickcart-arg=--no-access-log")
    parser.add_argument("--static-path", default="/static/css/app.css")
    parser.add_argument("--server-cpu", type=int, default=0)
    parser.add_argument("--load-cpu", type=int, default=1)
    parser.add_argument("--only", default="startup,http,streams,micro,cluster",
                        help="comma-separated sections to run (startup, http, streams, micro, cluster)")
    parser.add_argument("--http-figures", default="",
                        help="only these figures of the http section, e.g. cart,apicart,apiput (default: all)")
    parser.add_argument("--cluster-instances", type=int, default=3, help="instances on PostgreSQL in the cluster figure")
    parser.add_argument("--work", default=os.path.join(ROOT, ".build/bench/work"))
    parser.add_argument("--results", default=os.path.join(HERE, "results"))
    parser.add_argument("--results-md", default=os.path.join(HERE, "RESULTS.md"),
                        help="the committed copy of the latest table ('' for none)")
    parser.add_argument("--swift", default="swift")
    options = parser.parse_args()
    sections = set(options.only.split(","))
    options.quickcart = os.path.abspath(options.quickcart)
    options.ceiling = os.path.abspath(options.ceiling)
    options.resources = os.path.abspath(options.resources)
    if options.micro:
        options.micro = os.path.abspath(options.micro)

    cpus = os.cpu_count() or 1
    if cpus < 2:
        options.load_cpu = options.server_cpu
        pinning = f"only one CPU: servers and load share CPU {options.server_cpu} (taskset -c {options.server_cpu})"
    else:
        pinning = (f"servers pinned to CPU {options.server_cpu} (taskset -c {options.server_cpu}), "
                   f"load (wrk, Python clients) to CPU {options.load_cpu} (taskset -c {options.load_cpu})")
    os.sched_setaffinity(0, {options.load_cpu})  # this script is load too

    shutil.rmtree(options.work, ignore_errors=True)
    os.makedirs(options.work)
    os.makedirs(options.results, exist_ok=True)
    machine = machine_description(options)
    started = time.monotonic()
    load_at_start = load_average()
    estimate = (("http" in sections) * (9 * options.runs * options.seconds + 8 * options.warmup + 10)
                + ("streams" in sections) * options.runs * 15 + ("startup" in sections) * (options.starts + 1) * 1.3
                + ("micro" in sections) * (options.runs + 1) * options.micro_seconds * 7
                + ("cluster" in sections) * (6 * options.runs * options.seconds + 6 * options.warmup + 10))
    say(f"QuickCart bench: {options.runs} runs of {options.seconds} s per HTTP figure, "
        f"{options.connections} connections, {options.streams:,} streams; about {estimate / 60:.0f} min.")
    say(f"CPU pinning: {pinning}.")
    if options.quickcart_arg:
        say(f"QuickCart runs with: {' '.join(options.quickcart_arg)}")
    say(f"Machine: {machine['nproc']} CPUs, {machine['cpu']}, kernel {machine['kernel']}; commit {machine['commit']}")
    if load_at_start > 1.0:
        say(f"NOTE: the 1-minute load average is {load_at_start:.1f} before starting: other work on this machine "
            f"will lower and scatter the figures (the table notes show how much CPU others took).")

    startup = http = stream_results = micro = None
    if "startup" in sections:
        say("\n[start-up] time from exec to the first 200 on /healthz, idle RSS")
        startup = measure_startup(options, options.work)
    if "http" in sections:
        say("\n[http] wrk, 1 thread, QuickCart against the ceiling serving the same bytes")
        http = measure_http(options, options.work)
    if "streams" in sections:
        say(f"\n[streams] {options.streams:,} held event streams, change → event")
        stream_results = measure_streams(options, options.work)
    if "micro" in sections and options.micro:
        say("\n[micro] Mustache, the typed cart page and SQLite (Benchmarks/Micro)")
        micro = measure_micro(options, options.work)
    elif "micro" in sections:
        micro = {"skipped": "not built (see Benchmarks/README.md: the parent package must export "
                            "the Mustache, SQLite and QuickCart library products)"}

    cluster = None
    if "cluster" in sections:
        say(f"\n[cluster] GET /cart and POST on SQLite (1 instance) and PostgreSQL (1 and {options.cluster_instances} instances)")
        cluster = measure_cluster(options, options.work)

    table, notes, micro_lines = build_table(options, http, stream_results, startup, micro)
    cluster_lines = []
    if cluster:
        cluster_lines, cluster_notes = cluster_table(options, cluster)
        notes += cluster_notes
    notes.append(f"1-minute load average: {load_at_start:.1f} at the start, {load_average():.1f} at the end "
                 f"({os.cpu_count()} CPUs); anything above ~2 means other work shared the machine")
    elapsed = time.monotonic() - started
    stamp = datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S")
    report = [
        "# QuickCart benchmark results",
        "",
        f"Written by `make bench` on {stamp} (took {elapsed / 60:.1f} min). Medians of {options.runs} runs; "
        f"HTTP figures are wrk runs of {options.seconds} s with {options.connections} connections, one wrk thread; "
        f"each ratio is the median of the per-run ratios against the ceiling (Benchmarks/ceiling: a C "
        f"libmicrohttpd server in QuickCart's daemon mode answering with the same bytes and headers).",
        "",
        f"- Machine: {machine['nproc']} CPUs ({machine['cpu']}), {machine['memory']} memory, kernel {machine['kernel']}",
        f"- Commit: {machine['commit']}",
        f"- Software: {machine['swift']}; libmicrohttpd {machine['libmicrohttpd']}; SQLite {machine['sqlite']}; {machine['wrk']}",
        f"- CPU pinning: {pinning}",
        f"- QuickCart's options: `--port 0 --db FILE --resources DIR`"
        + (f" `{' '.join(options.quickcart_arg)}`" if options.quickcart_arg else " (otherwise defaults)"),
        "",
    ] + table + [""] + cluster_lines + [""] + [f"- {note}" for note in notes] + [""] + micro_lines + [""]
    text = "\n".join(report)
    say("\n" + text)

    latest = os.path.join(options.results, "latest.md")
    with open(latest, "w") as file:
        file.write(text)
    shutil.copy(latest, os.path.join(options.results, datetime.datetime.now().strftime("%Y%m%d-%H%M%S") + ".md"))
    with open(os.path.join(options.results, "latest.json"), "w") as file:
        json.dump({"machine": machine, "options": vars(options), "startup": startup, "http": http,
                   "streams": stream_results, "micro": micro, "cluster": cluster}, file, indent=1)
    if options.results_md:
        with open(options.results_md, "w") as file:
            file.write(text)
    say(f"Written to {os.path.relpath(latest, ROOT)}"
        + (f" and {os.path.relpath(options.results_md, ROOT)}" if options.results_md else ""))


if __name__ == "__main__":
    main()
