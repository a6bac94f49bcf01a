#!/usr/bin/env python3
"""Event-stream load client for QuickCart's GET /events (Python standard library only).

    python3 Benchmarks/streams.py --port PORT --metrics-port PORT --pid SERVER_PID [--streams 10000] [--changes 300]

What it does, in order, against a running QuickCart:

1. Fan-out within a session: makes a session S16 (GET / for its cookie, GET /cart for its
   CSRF token, one quantity POST so the session is stored), opens 16 streams with S16's
   cookie, then changes S16's cart CHANGES times (POST /cart/items/1/quantity, the
   quantity alternating, so each change changes the count) and times, for each change,
   from just before the POST is sent to the moment the LAST of the 16 streams has received
   its `event: badge` (and the first, for reference). No other streams are open.
2. Held streams and memory: gets STREAMS session cookies (GET / without a cookie sets
   quickcart_session; a cookie file is reused when given), reads the server's VmRSS from
   /proc/PID/status, opens one stream per cookie (PER_ADDRESS of them from each of many
   loopback source addresses 127.1.x.y, as shoppers come from many addresses), waits until every stream has had its first
   `event: badge`, reads VmRSS again: (after - before) / STREAMS is the cost of a held stream.
3. One stream among many: a session S1 with one stream, the STREAMS others idle; changes as
   in 1, timing change -> event.
4. Checks that every idle stream is still open (no EOF, no reset) and asks the operator metrics (--metrics) how many
   streams the server holds.

Prints progress on stderr and one line `STREAMS {json}` on stdout. The client raises its own
open-file limit (run it under `ulimit -n 65536` too). Latencies are measured with
time.perf_counter(); the POST and the streams share one selector loop, so an event is
timestamped when it is read, not after the 303 is.
"""

import argparse
import errno
import json
import os
import random
import re
import resource
import selectors
import socket
import struct
import sys
import time
from concurrent.futures import ThreadPoolExecutor

COOKIE_NAME = "quickcart_session"
CSRF_PATTERN = re.compile(rb'name="csrf" value="([^"]+)"')


def log(message):
    print(f"streams: {message}", file=sys.stderr, flush=True)


def percentile(values, fraction):
    """Nearest-rank percentile (the value below which `fraction` of samples fall)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, int(round(fraction * len(ordered) + 0.5 - 1e-9)))
    return ordered[min(rank, len(ordered)) - 1]


def raise_open_file_limit(wanted):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = max(soft, wanted)
    if hard != resource.RLIM_INFINITY and hard < target:
        try:  # root may raise the hard limit too
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, target))
            return target
        except (ValueError, OSError):
            target = hard
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ValueError, OSError):
        pass
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for pid {pid}")


def reset_close(sock):
    """Closes with RST (SO_LINGER 0): thousands of closes leave no TIME_WAIT behind."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass
    sock.close()


# ---------------------------------------------------------------------------------------
# Who else used the CPUs: this machine may be shared, and a busy neighbour halves a figure.

def cpu_ticks(cpu):
    """(busy, total) clock ticks of one CPU since boot, from /proc/stat."""
    with open("/proc/stat") as stat:
        for line in stat:
            if line.startswith(f"cpu{cpu} "):
                fields = [int(v) for v in line.split()[1:]]
                idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
                return sum(fields[:8]) - idle, sum(fields[:8])
    return 0, 0


def process_ticks(pid):
    """utime + stime of a whole process (all its threads), in clock ticks."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    except (OSError, IndexError, ValueError):
        return 0


class CPUMeter:
    """Share of the server CPU's time spent by the server, and by anything else."""

    def __init__(self, cpu, pid):
        self.cpu, self.pid = cpu, pid
        self.busy, self.total = cpu_ticks(cpu)
        self.server = process_ticks(pid)

    def read(self):
        busy, total = cpu_ticks(self.cpu)
        elapsed = max(1, total - self.total)
        server = process_ticks(self.pid) - self.server
        return {"server_cpu_pct": 100.0 * server / elapsed,
                "other_cpu_pct": 100.0 * max(0, busy - self.busy - server) / elapsed}


# ---------------------------------------------------------------------------------------
# A minimal keep-alive HTTP/1.1 client on a blocking socket.

class HTTPConnection:
    def __init__(self, host, port, timeout=30):
        self.host, self.port = host, port
        self.sock = socket.create_connection((host, port), timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = b""

    def close(self):
        self.sock.close()

    def request_bytes(self, method, path, cookie=None, body=None):
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        if cookie:
            lines.append(f"Cookie: {COOKIE_NAME}={cookie}")
        if body is not None:
            lines.append("Content-Type: application/x-www-form-urlencoded")
            lines.append(f"Content-Length: {len(body)}")
        payload = ("\r\n".join(lines) + "\r\n\r\n").encode()
        return payload + (body.encode() if body is not None else b"")

    def request(self, method, path, cookie=None, body=None):
        self.sock.sendall(self.request_bytes(method, path, cookie, body))
        return self.read_response(method)

    def _fill(self):
        data = self.sock.recv(65536)
        if not data:
            raise ConnectionError("server closed the connection")
        self.buffer += data

    def read_response(self, method="GET"):
        while b"\r\n\r\n" not in self.buffer:
            self._fill()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = []
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers.append((name.strip().lower(), value.strip()))
        fields = dict(headers)
        # RFC 9112 §6.3: these have no body, whatever Content-Length says (a 304's is the 200's).
        if method == "HEAD" or status in (204, 304) or 100 <= status < 200:
            body = b""
        elif fields.get("transfer-encoding", "").lower() == "chunked":
            body = b""
            while True:
                while b"\r\n" not in self.buffer:
                    self._fill()
                size_line, self.buffer = self.buffer.split(b"\r\n", 1)
                size = int(size_line.split(b";")[0], 16)
                while len(self.buffer) < size + 2:
                    self._fill()
                body += self.buffer[:size]
                self.buffer = self.buffer[size + 2:]
                if size == 0:
                    break
        else:
            length = int(fields.get("content-length", "0"))
            while len(self.buffer) < length:
                self._fill()
            body, self.buffer = self.buffer[:length], self.buffer[length:]
        return status, headers, body


def session_cookie(headers):
    for name, value in headers:
        if name == "set-cookie" and value.startswith(COOKIE_NAME + "="):
            return value.split(";", 1)[0].split("=", 1)[1]
    return None


def gather_cookies(host, port, count, workers=4):
    """`count` new sessions: GET / without a cookie, keep the quickcart_session it sets."""
    def work(share):
        connection = HTTPConnection(host, port)
        cookies = []
        for _ in range(share):
            status, headers, _ = connection.request("GET", "/")
            cookie = session_cookie(headers)
            if status != 200 or cookie is None:
                raise RuntimeError(f"GET / gave {status} and no session cookie")
            cookies.append(cookie)
        connection.close()
        return cookies

    shares = [count // workers + (1 if i < count % workers else 0) for i in range(workers)]
    with ThreadPoolExecutor(workers) as pool:
        return [cookie for cookies in pool.map(work, shares) for cookie in cookies]


class Session:
    """A stored session with its CSRF token, and product 1's quantity to toggle."""

    def __init__(self, host, port):
        self.connection = HTTPConnection(host, port)
        status, headers, _ = self.connection.request("GET", "/")
        self.cookie = session_cookie(headers)
        if status != 200 or not self.cookie:
            raise RuntimeError(f"GET / gave {status} without a session cookie")
        status, _, page = self.connection.request("GET", "/cart", self.cookie)
        match = CSRF_PATTERN.search(page)
        if status != 200 or not match:
            raise RuntimeError(f"GET /cart gave {status} without a CSRF token")
        self.csrf = match.group(1).decode()
        # The first post stores the session (and its cart) in SQLite, and puts product 1 (in
        # the demo cart every new session starts with) at a known quantity.
        self.base_quantity, self.other_quantity = 2, 3
        status, headers, _ = self.connection.request("POST", "/cart/items/1/quantity", self.cookie, self.body(self.base_quantity))
        if status != 303:
            raise RuntimeError(f"the first quantity POST gave {status}, not 303 "
                               "(is product 1 in the demo cart? was the server started with --empty-carts?)")
        # The change that stores a session moves it to a new cookie (the old one is spent).
        self.cookie = session_cookie(headers) or self.cookie

    def body(self, quantity):
        return f"quantity={quantity}&csrf={self.csrf}&return_to=/cart"

    def post_bytes(self, quantity):
        return self.connection.request_bytes("POST", "/cart/items/1/quantity", self.cookie, self.body(quantity))


# ---------------------------------------------------------------------------------------
# Event streams on non-blocking sockets.

class Stream:
    """One GET /events connection: parses the answer, de-chunks it, collects badge events."""

    __slots__ = ("sock", "cookie", "raw", "headers_done", "status", "chunked", "text",
                 "events", "closed", "sent", "started")

    def __init__(self, sock, cookie):
        self.sock, self.cookie = sock, cookie
        self.raw = bytearray()
        self.text = bytearray()
        self.headers_done = False
        self.status = None
        self.chunked = False
        self.events = []          # (perf_counter at read, data)
        self.closed = False
        self.sent = False
        self.started = time.perf_counter()

    def request(self, host, port):
        return (f"GET /events HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n"
                f"Cookie: {COOKIE_NAME}={self.cookie}\r\n\r\n").encode()

    def feed(self, data, now):
        self.raw += data
        if not self.headers_done:
            end = self.raw.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(self.raw[:end]).decode("latin-1").split("\r\n")
            del self.raw[:end + 4]
            self.headers_done = True
            self.status = int(head[0].split()[1])
            self.chunked = any(line.lower().replace(" ", "") == "transfer-encoding:chunked" for line in head[1:])
        if self.chunked:
            while True:
                line_end = self.raw.find(b"\r\n")
                if line_end < 0:
                    break
                size = int(bytes(self.raw[:line_end]).split(b";")[0] or b"0", 16)
                if len(self.raw) < line_end + 2 + size + 2:
                    break
                self.text += self.raw[line_end + 2:line_end + 2 + size]
                del self.raw[:line_end + 2 + size + 2]
        else:
            self.text += self.raw
            self.raw.clear()
        while True:
            end = self.text.find(b"\n\n")
            if end < 0:
                break
            block = bytes(self.text[:end]).decode("utf-8", "replace")
            del self.text[:end + 2]
            event, data = "message", []
            for line in block.split("\n"):
                if line.startswith(":"):
                    continue
                field, _, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                if field == "event":
                    event = value
                elif field == "data":
                    data.append(value)
            if event == "badge":
                self.events.append((now, "\n".join(data)))


IP_BIND_ADDRESS_NO_PORT = getattr(socket, "IP_BIND_ADDRESS_NO_PORT", 24)


def source_address(index, per_address):
    """The loopback address the index-th idle stream connects from: 127.1.0.1, 127.1.0.2, …

    Shoppers come from many addresses, and QuickCart limits connections per address (256
    by default), so the idle streams are spread over many: all of 127.0.0.0/8 is loopback.
    """
    k = index // per_address
    return f"127.1.{k // 254}.{k % 254 + 1}"


def connect_nonblocking(host, port, source=None):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setblocking(False)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    if source:
        sock.setsockopt(socket.IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, 1)
        sock.bind((source, 0))
    code = sock.connect_ex((host, port))
    if code not in (0, errno.EINPROGRESS):
        sock.close()
        raise OSError(code, os.strerror(code))
    return sock


def open_streams(host, port, cookies, concurrency=256, timeout=60, per_address=None):
    """Opens one stream per cookie; returns (held, failed, seconds). Held = got a badge event.
    With `per_address`, at most that many connect from each loopback source address."""
    selector = selectors.DefaultSelector()
    queue = list(cookies)
    queue.reverse()
    held, failed = [], []
    in_flight = 0
    started = time.perf_counter()
    deadline = started + timeout
    opened = 0
    while queue or in_flight:
        while queue and in_flight < concurrency:
            cookie = queue.pop()
            source = source_address(opened, per_address) if per_address else None
            opened += 1
            try:
                sock = connect_nonblocking(host, port, source)
            except OSError as error:
                failed.append(f"connect: {error}")
                continue
            selector.register(sock, selectors.EVENT_WRITE, Stream(sock, cookie))
            in_flight += 1
        if time.perf_counter() > deadline:
            break
        for key, mask in selector.select(timeout=1):
            stream = key.data
            if not stream.sent:
                problem = stream.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                if problem:
                    failed.append(f"connect: {os.strerror(problem)}")
                    selector.unregister(stream.sock)
                    stream.sock.close()
                    in_flight -= 1
                    continue
                stream.sock.send(stream.request(host, port))
                stream.sent = True
                selector.modify(stream.sock, selectors.EVENT_READ, stream)
                continue
            try:
                data = stream.sock.recv(65536)
            except (BlockingIOError, InterruptedError):
                continue
            except OSError as error:
                data, stream.closed = b"", True
                failed.append(f"recv: {error}")
            now = time.perf_counter()
            if data:
                stream.feed(data, now)
            if not data or (stream.headers_done and stream.status != 200):
                if data:
                    failed.append(f"status {stream.status}")
                elif not stream.closed:
                    failed.append("closed before the first event")
                selector.unregister(stream.sock)
                reset_close(stream.sock)
                in_flight -= 1
            elif stream.events:
                selector.unregister(stream.sock)
                held.append(stream)
                in_flight -= 1
    for key in list(selector.get_map().values()):
        failed.append("no first event before the timeout")
        selector.unregister(key.fileobj)
        reset_close(key.fileobj)
    selector.close()
    return held, failed, time.perf_counter() - started


def time_changes(session, streams, changes, warmup, pause, timeout=5.0, meter=None, timeline=None):
    """Changes the session's cart `changes` times; for each, ms from sending the POST to the
    first and to the last of `streams` receiving its badge event."""
    post = session.connection.sock
    post.setblocking(False)
    selector = selectors.DefaultSelector()
    for stream in streams:
        selector.register(stream.sock, selectors.EVENT_READ, stream)
    selector.register(post, selectors.EVENT_READ, None)
    base_count = int(streams[0].events[-1][1])
    count_at_base = base_count  # counts while product 1 has base_quantity
    first, last, wrong_data, timeouts, not_303 = [], [], 0, 0, 0
    bodies = {q: session.post_bytes(q) for q in (session.base_quantity, session.other_quantity)}
    quantity = session.base_quantity
    for index in range(warmup + changes):
        quantity = session.other_quantity if quantity == session.base_quantity else session.base_quantity
        expected = str(count_at_base + quantity - session.base_quantity)
        marks = [len(stream.events) for stream in streams]
        response = b""
        answered = False
        sent = time.perf_counter()
        post.sendall(bodies[quantity])
        deadline = sent + timeout
        while True:
            waiting = [s for s, mark in zip(streams, marks) if len(s.events) <= mark]
            if not waiting and answered:
                break
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                break
            for key, _ in selector.select(timeout=remaining):
                if key.data is None:
                    response += post.recv(65536)
                    end = response.find(b"\r\n\r\n")
                    if end >= 0:
                        length = re.search(rb"(?i)content-length:\s*(\d+)", response[:end])
                        if len(response) >= end + 4 + (int(length.group(1)) if length else 0):
                            answered = True
                            if not response.startswith(b"HTTP/1.1 303"):
                                not_303 += 1
                    continue
                stream = key.data
                data = stream.sock.recv(65536)
                now = time.perf_counter()
                if not data:
                    raise RuntimeError("a measured stream was closed by the server")
                stream.feed(data, now)
        arrivals = [s.events[mark][0] for s, mark in zip(streams, marks) if len(s.events) > mark]
        if len(arrivals) < len(streams) or not answered:
            timeouts += 1
            continue
        if any(s.events[-1][1] != expected for s in streams):
            wrong_data += 1
        if index >= warmup:
            first.append((min(arrivals) - sent) * 1000)
            last.append((max(arrivals) - sent) * 1000)
            if timeline is not None:
                timeline.append((round(time.time(), 4), round(last[-1], 3)))
        time.sleep(pause * random.uniform(0.5, 1.5))
    selector.close()
    post.setblocking(True)
    usage = meter.read() if meter else {}
    return usage | {
        "changes": len(last),
        "warmup": warmup,
        "streams": len(streams),
        "timeouts": timeouts,
        "wrong_data": wrong_data,
        "not_303": not_303,
        "first_p50_ms": percentile(first, 0.50),
        "first_p99_ms": percentile(first, 0.99),
        "last_p50_ms": percentile(last, 0.50),
        "last_p90_ms": percentile(last, 0.90),
        "last_p99_ms": percentile(last, 0.99),
        "last_max_ms": max(last) if last else float("nan"),
    }


def session_streams(host, port, session, count):
    held, failed, _ = open_streams(host, port, [session.cookie] * count, concurrency=count)
    if failed or len(held) != count:
        raise RuntimeError(f"could not open {count} streams for one session: {failed[:3]}")
    return held


def still_open(streams):
    """How many of `streams` are still connected (readable with data, or not readable)."""
    selector = selectors.DefaultSelector()
    for stream in streams:
        selector.register(stream.sock, selectors.EVENT_READ, stream)
    gone = set()
    for key, _ in selector.select(timeout=0):
        try:
            data = key.fileobj.recv(65536, socket.MSG_PEEK)
        except (BlockingIOError, InterruptedError):
            continue
        except OSError:
            data = b""
        if not data:
            gone.add(key.fileobj)
    selector.close()
    return len(streams) - len(gone)


def reported_stream_count(host, metrics_port):
    """Open streams, as the server's operator metrics (its --metrics listener) count them."""
    connection = HTTPConnection(host, metrics_port)
    status, _, body = connection.request("GET", "/metrics")
    connection.close()
    match = re.search(rb"^quickcart_event_streams_open (\d+)$", body, re.M)
    return int(match.group(1)) if status == 200 and match else None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--metrics-port", type=int, required=True, help="the server's --metrics port, for its open-stream count")
    parser.add_argument("--pid", type=int, required=True, help="the server's process id, for /proc/PID/status")
    parser.add_argument("--streams", type=int, default=10000, help="idle streams, one session each")
    parser.add_argument("--fanout", type=int, default=16, help="streams of one session in step 1")
    parser.add_argument("--changes", type=int, default=300, help="timed changes per latency figure")
    parser.add_argument("--warmup", type=int, default=10, help="untimed changes before each latency figure")
    parser.add_argument("--pause", type=float, default=0.005, help="seconds between changes (jittered +-50%%)")
    parser.add_argument("--cookie-file", help="reuse/save the idle sessions' cookies here")
    parser.add_argument("--cookie-workers", type=int, default=4)
    parser.add_argument("--timeline", help="write the one-stream figure's samples here: unix time, latency ms")
    parser.add_argument("--server-cpu", type=int, help="the CPU the server is pinned to, to report others' use of it")
    parser.add_argument("--per-address", type=int, default=100,
                        help="idle streams per loopback source address (QuickCart limits connections per address)")
    options = parser.parse_args()
    host, port = options.host, options.port

    limit = raise_open_file_limit(options.streams + options.fanout + 256)
    if limit < options.streams + options.fanout + 64:
        log(f"open-file limit is {limit}: too low for {options.streams} streams; run under `ulimit -n 65536`")
    result = {"streams_wanted": options.streams, "open_file_limit": limit}

    def meter():
        return CPUMeter(options.server_cpu, options.pid) if options.server_cpu is not None else None

    # 1. Sixteen streams of one session.
    try:
        fanout_session = Session(host, port)
        fanout_streams = session_streams(host, port, fanout_session, options.fanout)
        log(f"{options.fanout} streams of one session open; timing {options.changes} changes")
        result["fanout"] = time_changes(fanout_session, fanout_streams, options.changes, options.warmup, options.pause,
                                        meter=meter())
        for stream in fanout_streams:
            reset_close(stream.sock)
        fanout_session.connection.close()
    except (OSError, RuntimeError, ValueError) as error:
        log(f"fan-out figure failed: {error}")
        result["fanout"] = {"error": str(error)}

    # 2. Held streams, one per session, and what they cost the server.
    cookies = []
    if options.cookie_file and os.path.exists(options.cookie_file):
        with open(options.cookie_file) as file:
            cookies = [line.strip() for line in file if line.strip()][:options.streams]
    if len(cookies) < options.streams:
        started = time.perf_counter()
        cookies += gather_cookies(host, port, options.streams - len(cookies), options.cookie_workers)
        log(f"{len(cookies)} session cookies from GET / in {time.perf_counter() - started:.1f} s")
        if options.cookie_file:
            with open(options.cookie_file, "w") as file:
                file.write("\n".join(cookies) + "\n")
    single_session = Session(host, port)
    time.sleep(0.5)
    rss_before = rss_kib(options.pid)
    held, failed, seconds = open_streams(host, port, cookies, per_address=options.per_address)
    time.sleep(0.5)
    rss_after = rss_kib(options.pid)
    log(f"{len(held)} of {len(cookies)} streams held, opened in {seconds:.1f} s; "
        f"RSS {rss_before} -> {rss_after} KiB")
    result.update({
        "held": len(held),
        "failed": len(failed),
        "failures": sorted(set(failed))[:5],
        "open_seconds": seconds,
        "rss_before_kib": rss_before,
        "rss_after_kib": rss_after,
        "rss_per_stream_kib": (rss_after - rss_before) / max(1, len(held)),
    })

    # 3. One stream of another session while the others sit idle.
    single_streams = []
    try:
        single_streams = session_streams(host, port, single_session, 1)
        log(f"timing {options.changes} changes on one stream, {len(held)} others idle")
        samples = [] if options.timeline else None
        result["single"] = time_changes(single_session, single_streams, options.changes, options.warmup, options.pause,
                                        meter=meter(), timeline=samples)
        if samples is not None:
            with open(options.timeline, "w") as file:
                file.write("".join(f"{at} {ms}\n" for at, ms in samples))
        result["single"]["idle_streams"] = len(held)
    except (OSError, RuntimeError, ValueError) as error:
        log(f"one-stream figure failed: {error}")
        result["single"] = {"error": str(error), "idle_streams": len(held)}

    # 4. Are they all still there?
    result["still_open"] = still_open(held)
    try:
        result["server_reports_streams"] = reported_stream_count(host, options.metrics_port)
    except (OSError, ValueError) as error:
        result["server_reports_streams"] = None
        log(f"/metrics failed: {error}")
    result["rss_end_kib"] = rss_kib(options.pid)
    log(f"{result['still_open']} idle streams still open; server reports {result['server_reports_streams']} streams")
    for stream in held + single_streams:
        reset_close(stream.sock)
    single_session.connection.close()
    print("STREAMS " + json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
