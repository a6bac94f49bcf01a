#!/usr/bin/env python3
"""Instructions per answer of a QuickCart build, counted by callgrind (Python standard library only).

    python3 Benchmarks/instructions.py --quickcart .build/release/quickcart [--requests 2000] [--out DIR]

Wall-clock requests per second need an idle machine; instructions do not. This starts the
given build under `valgrind --tool=callgrind` with one server thread, makes a stored session
as `make bench` does (streams.Session: GET /, GET /cart for the CSRF token, one quantity
POST), then for each answer below sends a warm-up, zeroes callgrind's counters
(`callgrind_control --zero`), sends REQUESTS requests one after the other on one keep-alive
connection, and dumps the counters (`callgrind_control --dump=NAME`):

    cart        GET /cart with the session's cookie
    home        GET / with the session's cookie
    post        POST /cart/items/1/quantity, quantity 2 and 3 alternating (each a commit, 303)
    static304   GET /static/css/app.css with If-None-Match (304)
    static200   GET /static/css/app.css (200, the plain copy)
    connection  a new connection per request, each a static 304 (the accept policy, the
                connection's start and close notifications, on top of static304)
    idle        nothing for as long as the cart phase took (timers; subtracted from none)

It prints one line per answer, instructions per request (the dump's total over REQUESTS,
every thread counted), and `INSTRUCTIONS {json}` on stdout. The dumps stay in DIR
(callgrind.out.PID.N) for `callgrind_annotate`; compare two builds' dumps of the same answer
to see where the difference is.
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import streams as sse  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STATIC_PATH = "/static/css/app.css"


def say(message):
    print(message, file=sys.stderr, flush=True)


def start(options, work):
    database = os.path.join(work, "instructions.sqlite")
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={work}/callgrind.out.%p",
               options.quickcart, "--port", "0", "--db", database, "--resources", options.resources,
               "--threads", "1"] + options.quickcart_arg
    log = open(os.path.join(work, "server.log"), "wb")
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=log)
    line = process.stdout.readline().decode()
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not match:
        process.kill()
        raise RuntimeError(f"QuickCart did not say where it serves (see {work}/server.log): {line!r}")
    return process, int(match.group(1))


def control(pid, *arguments):
    subprocess.run(["callgrind_control", *arguments, str(pid)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def newest_dump_total(work, pid, known):
    """The `totals:` (or `summary:`) line of the dump that appeared since `known`."""
    dumps = set(glob.glob(os.path.join(work, f"callgrind.out.{pid}.*"))) - known
    if len(dumps) != 1:
        raise RuntimeError(f"expected one new dump, found {sorted(dumps)}")
    path = dumps.pop()
    with open(path) as dump:
        for line in dump:
            if line.startswith(("totals:", "summary:")):
                return int(line.split()[1]), path
    raise RuntimeError(f"no totals in {path}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quickcart", required=True, help="the quickcart executable (a release build)")
    parser.add_argument("--resources", default=ROOT, help="the folder holding Views/ and Public/")
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--warmup", type=int, default=200)
    parser.add_argument("--out", help="where the dumps go (default: a new temporary folder)")
    parser.add_argument("--only", action="append", help="measure only these answers (repeatable)")
    parser.add_argument("--quickcart-arg", action="append", default=[], help="one more argument for QuickCart")
    options = parser.parse_args()
    work = options.out or tempfile.mkdtemp(prefix="quickcart-instructions-")
    os.makedirs(work, exist_ok=True)

    process, port = start(options, work)
    results = {}
    try:
        session = sse.Session("127.0.0.1", port)
        connection = session.connection
        status, headers, _ = connection.request("GET", STATIC_PATH)
        etag = dict(headers).get("etag")
        if status != 200 or not etag:
            raise RuntimeError(f"GET {STATIC_PATH} gave {status} without an ETag")
        posts = [session.post_bytes(session.base_quantity), session.post_bytes(session.other_quantity)]

        def get(path, cookie=None, extra=b""):
            payload = connection.request_bytes("GET", path, cookie)
            return payload[:-2] + extra + b"\r\n"

        static304 = get(STATIC_PATH, extra=f"If-None-Match: {etag}\r\n".encode())
        plan = {
            "cart": (lambda index: get("/cart", session.cookie), 200),
            "home": (lambda index: get("/", session.cookie), 200),
            "post": (lambda index: posts[index % 2], 303),
            "static304": (lambda index: static304, 304),
            "static200": (lambda index: get(STATIC_PATH), 200),
        }

        def run(count, payload, expected):
            for index in range(count):
                connection.sock.sendall(payload(index))
                status, _, _ = connection.read_response()
                if status != expected:
                    raise RuntimeError(f"expected {expected}, got {status}")

        def fresh(count, payload, expected):
            for index in range(count):
                other = sse.HTTPConnection("127.0.0.1", port)
                other.sock.sendall(payload(index))
                status, _, _ = other.read_response()
                other.close()
                if status != expected:
                    raise RuntimeError(f"expected {expected}, got {status}")

        phases = [(name, run, *plan[name]) for name in plan]
        phases.append(("connection", fresh, *plan["static304"]))
        cart_seconds = None
        for name, runner, payload, expected in phases:
            if options.only and name not in options.only:
                continue
            runner(options.warmup, payload, expected)
            known = set(glob.glob(os.path.join(work, f"callgrind.out.{process.pid}.*")))
            control(process.pid, "--zero")
            started = time.monotonic()
            runner(options.requests, payload, expected)
            elapsed = time.monotonic() - started
            control(process.pid, f"--dump={name}")
            total, path = newest_dump_total(work, process.pid, known)
            results[name] = {"instructions": total, "per_request": total / options.requests,
                             "seconds": elapsed, "dump": path}
            cart_seconds = cart_seconds or elapsed
            say(f"  {name:10} {total / options.requests:12,.0f} instructions per request ({elapsed:.1f} s)")
        if not options.only or "idle" in options.only:
            known = set(glob.glob(os.path.join(work, f"callgrind.out.{process.pid}.*")))
            control(process.pid, "--zero")
            time.sleep(cart_seconds or 2.0)
            control(process.pid, "--dump=idle")
            total, path = newest_dump_total(work, process.pid, known)
            results["idle"] = {"instructions": total, "per_request": total / options.requests,
                               "seconds": cart_seconds or 2.0, "dump": path}
            say(f"  {'idle':10} {total / options.requests:12,.0f} instructions per request's share of "
                f"{cart_seconds or 2.0:.1f} s of timers")
    finally:
        process.terminate()
        process.wait(120)
    if "connection" in results and "static304" in results:
        results["connection_only"] = results["connection"]["per_request"] - results["static304"]["per_request"]
        say(f"  a connection's own cost: {results['connection_only']:,.0f} instructions")
    print("INSTRUCTIONS " + json.dumps({"requests": options.requests, "work": work, "results": results}))


if __name__ == "__main__":
    main()
