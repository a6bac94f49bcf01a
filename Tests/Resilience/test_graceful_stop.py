"""Graceful stop under load: SIGTERM (or SIGINT) while requests are in flight.

Twenty event streams (raw sockets, four per session) are open and shoppers post forms
continuously when the signal arrives. Two checkouts are deliberately half-sent at that moment
(headers and part of the body), their rest sent only after the streams have ended. Then:

- every event stream ends cleanly: the chunked body closes with the zero-length chunk
  `0\\r\\n\\r\\n` and then the connection closes with EOF (libmicrohttpd 0.9.75 gives exactly
  that; a reset, a timeout or a missing last chunk is a failure);
- a new connection is refused once the streams have ended (the server is still finishing the
  half-sent checkouts then) and after the process is gone;
- the half-sent checkouts are answered 303 (they were in flight);
- the process exits 0 within a few seconds and says "QuickCart stopped.";
- every order whose 303 a client received is in the file, with its lines and its session;
  `PRAGMA integrity_check` is ok and `PRAGMA foreign_key_check` is empty.
"""
from __future__ import annotations

import re
import signal
import socket
import sqlite3
import subprocess
import threading
import time
import urllib.parse

import pytest

from resilience_support import launch, quickcart_binary  # noqa: F401 (the pytest fixtures used below)
from resilience_support import (
    COOKIE_NAME, HOST, RESOURCES, TRANSPORT_ERRORS, SessionLost, Shopper, connection_refused,
    integrity_problems, open_database, order_id, orders_in_database,
)

SESSIONS = 5
STREAMS_PER_SESSION = 4
SLOW_CHECKOUTS = 2
LOAD_SECONDS = 1.0
EXIT_TIMEOUT = 15.0  # the server's grace period is 5 s; the rest is slack for a busy machine
STREAM_END_TIMEOUT = 3.0  # for the zero-length chunk after the signal


# MARK: - An event-stream client on a raw socket


def parse_chunked(data: bytes):
    """Decodes a chunked body: (payload, terminated by the zero-length chunk, bytes after it,
    error or None)."""
    payload, position = bytearray(), 0
    while True:
        line_end = data.find(b"\r\n", position)
        if line_end < 0:
            return bytes(payload), False, b"", None if position == len(data) else "incomplete chunk-size line"
        size_text = data[position:line_end].split(b";")[0].strip()
        try:
            size = int(size_text, 16)
        except ValueError:
            return bytes(payload), False, b"", f"bad chunk-size line {data[position:line_end][:40]!r}"
        position = line_end + 2
        if size == 0:
            # Optional trailer fields, then the empty line that ends the message.
            while True:
                line_end = data.find(b"\r\n", position)
                if line_end < 0:
                    return bytes(payload), False, b"", "last chunk without its closing CRLF"
                line, position = data[position:line_end], line_end + 2
                if not line:
                    return bytes(payload), True, data[position:], None
        if len(data) < position + size + 2:
            return bytes(payload), False, b"", None if len(data) <= position + size else "chunk cut short"
        if data[position + size:position + size + 2] != b"\r\n":
            return bytes(payload), False, b"", "chunk data not followed by CRLF"
        payload += data[position:position + size]
        position += size + 2


class EventStreamClient:
    """`GET /events` on a raw socket. `open` reads the response head and the first event; a
    thread then reads until the server ends the connection, and records how it ended."""

    def __init__(self, port: int, cookie: str, name: str):
        self.name = name
        self.raw = bytearray()
        self.head = b""
        self.ending: str | None = None  # "eof", "reset", "timeout" or another error
        self.terminated_at: float | None = None  # when the zero-length chunk arrived
        self.ended_at: float | None = None  # when the connection ended
        self.done = threading.Event()
        self.socket = socket.create_connection((HOST, port), timeout=10)
        self.socket.sendall(
            f"GET /events HTTP/1.1\r\nHost: {HOST}:{port}\r\nAccept: text/event-stream\r\n"
            f"Cookie: {COOKIE_NAME}={cookie}\r\n\r\n".encode())
        self.thread = threading.Thread(target=self._read_rest, name=f"stream-{name}", daemon=True)

    def open(self):
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if b"\r\n\r\n" in self.raw:
                head, _, body = bytes(self.raw).partition(b"\r\n\r\n")
                self.head = head
                if re.search(rb"event: badge\ndata: \d+\n\n", parse_chunked(body)[0]):
                    break
            chunk = self.socket.recv(65536)
            if not chunk:
                raise AssertionError(f"stream {self.name}: expected a head and a first badge event, "
                                     f"the server closed after {bytes(self.raw)[:300]!r}")
            self.raw += chunk
        else:
            raise AssertionError(f"stream {self.name}: no first badge event within 10 s: {bytes(self.raw)[:300]!r}")
        status_line = self.head.split(b"\r\n", 1)[0]
        headers = self.head.decode("latin-1").lower()
        assert status_line.startswith(b"HTTP/1.1 200"), f"stream {self.name}: expected 200, saw {status_line!r}"
        assert "content-type: text/event-stream" in headers, f"stream {self.name}: head {self.head!r}"
        assert "transfer-encoding: chunked" in headers, \
            f"stream {self.name}: expected a chunked body, saw head {self.head!r}"
        self.socket.settimeout(STREAM_END_TIMEOUT + EXIT_TIMEOUT)
        self.thread.start()

    def _read_rest(self):
        try:
            while True:
                chunk = self.socket.recv(65536)
                if not chunk:
                    self.ending = "eof"
                    break
                self.raw += chunk
                if self.terminated_at is None and self.raw.endswith(b"0\r\n\r\n") \
                        and parse_chunked(self._body())[1]:
                    self.terminated_at = time.monotonic()
                    self.done.set()
        except ConnectionResetError:
            self.ending = "reset"
        except socket.timeout:
            self.ending = "timeout"
        except OSError as error:
            self.ending = f"{type(error).__name__}: {error}"
        finally:
            self.ended_at = time.monotonic()
            self.done.set()
            self.socket.close()

    def _body(self) -> bytes:
        """What arrived after the response head (still chunked)."""
        return bytes(self.raw).partition(b"\r\n\r\n")[2]

    def problems(self) -> list[str]:
        body = self._body()
        payload, terminated, after, error = parse_chunked(body)
        found = []
        if self.ending != "eof":
            found.append(f"expected the connection to end with EOF, saw {self.ending}")
        if error:
            found.append(f"malformed chunked body: {error}")
        if not terminated:
            found.append(f"expected the chunked body to end with the zero-length chunk 0\\r\\n\\r\\n, "
                         f"it ends with {body[-40:]!r}")
        if after:
            found.append(f"expected nothing after the last chunk, saw {after[:80]!r}")
        for block in payload.decode("utf-8", errors="replace").split("\n\n"):
            for line in filter(None, block.split("\n")):
                if not re.fullmatch(r"(:.*|retry: \d+|id: \d+|event: badge|data: \d+)", line):
                    found.append(f"unexpected event-stream line {line!r}")
        return [f"stream {self.name}: {problem}" for problem in found]

    def event_count(self) -> int:
        payload = parse_chunked(self._body())[0]
        return payload.count(b"event: badge\n")


# MARK: - Shoppers posting forms


class Poster(threading.Thread):
    """Adds a product and checks out, over and over, until the server process is gone."""

    def __init__(self, index, shopper, port, server, signalled):
        super().__init__(name=f"poster-{index}", daemon=True)
        self.shopper, self.port, self.server, self.signalled = shopper, port, server, signalled
        self.acked_orders: list[int] = []
        self.acked_after_signal = 0
        self.cut_off = 0
        self.refused = 0
        self.problems: list[str] = []

    def run(self):
        product, add_acked = 0, False
        try:
            while self.server.alive():
                product = product % 24 + 1
                for kind in ("add", "checkout"):
                    if not self.server.alive():
                        return
                    path = "/cart/items" if kind == "add" else "/checkout/place"
                    try:
                        fields = {"product": product, "return_to": "/"} if kind == "add" else self.shopper.review_fields(self.port)
                        answer = self.shopper.post(self.port, path, fields)
                    except SessionLost as lost:
                        self.problems.append(f"{self.name}: session not recognised: {lost}")
                        return
                    except TRANSPORT_ERRORS as error:
                        if not self.signalled.is_set():
                            self.problems.append(f"{self.name}: POST {path} failed before the signal was sent: "
                                                 f"{type(error).__name__}: {error}")
                        if isinstance(error, ConnectionRefusedError):
                            self.refused += 1  # a new connection after the stop began: never sent
                        else:
                            self.cut_off += 1  # sent, no (whole) answer: not acknowledged
                        add_acked = False
                        time.sleep(0.005)
                        break
                    if answer.status == 503 and self.signalled.is_set():
                        # A request that arrives once the stop began is refused, not run.
                        self.refused += 1
                        add_acked = False
                        break
                    if answer.status == 303 and kind == "add":
                        add_acked = True
                        continue
                    if answer.status == 303 and order_id(answer.location) is not None:
                        self.acked_orders.append(order_id(answer.location))
                        self.acked_after_signal += self.signalled.is_set()
                    elif not (kind == "checkout" and answer.status == 400 and not add_acked):
                        # (400 "cart is empty" is right only when the add before it was cut off)
                        self.problems.append(f"{self.name}: POST {path}: expected 303, saw {answer.status} "
                                             f"Location {answer.location!r}: {answer.body[:200]!r}")
                    add_acked = False
        except BaseException as error:
            self.problems.append(f"{self.name} crashed: {error!r}")


class HalfSentCheckout:
    """A checkout whose headers and first body bytes are sent now, and the rest later."""

    def __init__(self, port, shopper: Shopper):
        body = urllib.parse.urlencode({"csrf": shopper.csrf, **shopper.review_fields(port)}).encode()
        shopper.close()
        self.rest = body[len(body) // 2:]
        self.socket = socket.create_connection((HOST, port), timeout=10)
        self.socket.sendall(
            f"POST /checkout/place HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
            f"Cookie: {COOKIE_NAME}={shopper.cookie}\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            f"Content-Length: {len(body)}\r\n\r\n".encode() + body[:len(body) // 2])
        self.session_id = shopper.session_id

    def finish(self) -> tuple[int | None, str]:
        """Sends the rest; returns (order id, what was received)."""
        received = bytearray()
        try:
            self.socket.sendall(self.rest)
            while b"\r\n\r\n" not in received:
                chunk = self.socket.recv(65536)
                if not chunk:
                    break
                received += chunk
        except OSError as error:
            return None, f"{type(error).__name__}: {error} after {bytes(received)[:200]!r}"
        finally:
            self.socket.close()
        head = bytes(received).partition(b"\r\n\r\n")[0].decode("latin-1")
        location = re.search(r"(?im)^location: *(\S+)", head)
        if head.startswith("HTTP/1.1 303") and location:
            return order_id(location.group(1)), head.split("\r\n")[0]
        return None, head[:300] or "nothing"


# MARK: - The test


@pytest.mark.parametrize("signal_number", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_stop_under_load_loses_nothing_answered(launch, tmp_path, signal_number):
    database = tmp_path / "graceful.sqlite"
    began = time.monotonic()
    server = launch(database, "server")
    port = server.port
    streams: list[EventStreamClient] = []
    posters: list[Poster] = []
    problems: list[str] = []
    signalled = threading.Event()
    try:
        shoppers = [Shopper() for _ in range(SESSIONS)]
        for shopper in shoppers:
            shopper.begin(port)
        for index, shopper in enumerate(shoppers):
            for copy in range(STREAMS_PER_SESSION):
                streams.append(EventStreamClient(port, shopper.cookie, f"{index}.{copy}"))
        for stream in streams:
            stream.open()

        # Sessions for the half-sent checkouts, each with something in its cart (acknowledged).
        slow_shoppers = [Shopper() for _ in range(SLOW_CHECKOUTS)]
        for shopper in slow_shoppers:
            shopper.begin(port)
            answer = shopper.post(port, "/cart/items", {"product": 7, "return_to": "/cart"})
            assert answer.status == 303, f"setup add: expected 303, saw {answer.status}"
            shopper.close()

        posters = [Poster(i, shopper, port, server, signalled) for i, shopper in enumerate(shoppers)]
        for poster in posters:
            poster.start()
        time.sleep(LOAD_SECONDS)

        half_sent = [HalfSentCheckout(port, shopper) for shopper in slow_shoppers]
        time.sleep(0.3)  # lets the server read their heads: they are requests in flight now
        signalled.set()
        signal_sent = time.monotonic()
        server.send(signal_number)

        # The streams end first (the zero-length chunk); the half-sent checkouts still hold
        # the server up then. The connections themselves close when the server lets go of them.
        deadline = signal_sent + STREAM_END_TIMEOUT
        for stream in streams:
            stream.done.wait(timeout=max(0.0, deadline - time.monotonic()))
        terminated = [s.terminated_at - signal_sent for s in streams if s.terminated_at is not None]
        if len(terminated) != len(streams):
            problems.append(f"expected all {len(streams)} streams to send their last chunk within "
                            f"{STREAM_END_TIMEOUT} s of the signal, {len(streams) - len(terminated)} did not "
                            f"({sum(s.ended_at is not None for s in streams)} connections ended meanwhile)")
        alive_while_probing = server.alive()
        refused, how = connection_refused(port)
        if not refused:
            problems.append(f"after the streams ended (server still running: {alive_while_probing}): "
                            f"expected a new connection to be refused, saw {how}")

        slow_orders = []
        for checkout in half_sent:
            order, seen = checkout.finish()
            if order is None:
                problems.append(f"half-sent checkout (in flight at the signal): expected 303 with an order, saw {seen}")
            else:
                slow_orders.append((checkout.session_id, order))

        try:
            status = server.process.wait(timeout=max(0.1, signal_sent + EXIT_TIMEOUT - time.monotonic()))
        except Exception:
            status = None
        exit_seconds = time.monotonic() - signal_sent
        if status != 0:
            problems.append(f"expected exit status 0 within {EXIT_TIMEOUT} s of {signal.Signals(signal_number).name}, "
                            f"saw {status if status is not None else 'still running'}")
        if "QuickCart stopped." not in server.stdout():
            problems.append("expected \"QuickCart stopped.\" on stdout")
        refused, how = connection_refused(port)
        if not refused:
            problems.append(f"after exit: expected a new connection to be refused, saw {how}")
        for poster in posters:
            poster.join(timeout=10)
            if poster.is_alive():
                problems.append(f"{poster.name} still running 10 s after the server exited")
        for stream in streams:
            stream.thread.join(timeout=5)
        closed = [s.ended_at - signal_sent for s in streams if s.ended_at is not None]
    finally:
        signalled.set()
        server.kill()
        for stream in streams:
            try:
                stream.socket.close()
            except OSError:
                pass

    for stream in streams:
        problems += stream.problems()
    for poster in posters:
        problems += poster.problems

    acked = [(poster.shopper.session_id, order) for poster in posters for order in poster.acked_orders] + slow_orders
    try:
        with open_database(database) as db:
            problems += integrity_problems(db)
            found = orders_in_database(db, [order for _, order in acked])
            seen = set()
            for session, order in acked:
                if order in seen:
                    problems.append(f"order {order}: acknowledged twice")
                seen.add(order)
                row = found.get(order)
                if row is None:
                    problems.append(f"order {order} of session {session[:8]}: acknowledged with 303, missing from the file")
                elif row["session"] != session or not row["lines"]:
                    problems.append(f"order {order}: expected session {session[:8]} with lines, saw {row}")
            # Orders committed whose 303 never arrived: a stop finishes what it started and
            # refuses the rest, so there must be none.
            sessions = {session for session, _ in acked}
            marks = ",".join("?" * len(sessions))
            in_file = db.execute(f"SELECT count(*) FROM orders o JOIN clients c ON c.shopper_id = o.shopper_id "
                                 f"WHERE c.id IN ({marks})", sorted(sessions)).fetchone()[0]
            unanswered = in_file - len(acked)
            if unanswered:
                problems.append(f"expected every committed order to have been answered, {unanswered} were committed without their 303")
    except sqlite3.DatabaseError as error:
        unanswered = "?"
        problems.append(f"reading {database} after the stop failed: {type(error).__name__}: {error}")

    name = signal.Signals(signal_number).name
    print(f"\ngraceful stop ({name}): {len(streams)} streams ({sum(s.event_count() for s in streams)} badge events, "
          f"last chunks by {max(terminated, default=float('nan')):.3f} s, connections closed by "
          f"{max(closed, default=float('nan')):.3f} s after the signal), {len(acked)} acknowledged orders "
          f"({sum(p.acked_after_signal for p in posters) + len(slow_orders)} answered after the signal, "
          f"{sum(p.cut_off for p in posters)} requests cut off, {sum(p.refused for p in posters)} connections "
          f"refused; {unanswered} orders committed without their answer), new connection refused while the server was "
          f"{'still running' if alive_while_probing else 'gone'}, exit {status} after {exit_seconds:.2f} s, "
          f"{time.monotonic() - began:.1f} s in all")
    assert not problems, "\n".join(problems[:50]) + f"\n\nserver output:\n{server.output()}"


# MARK: - A signal the instant the serving line appears


@pytest.mark.parametrize("attempt", range(10))
def test_sigterm_right_after_the_serving_line_stops_cleanly(quickcart_binary, tmp_path, attempt):
    """A tool that sends SIGTERM as soon as it reads the serving line gets a clean stop: the
    handlers are in place before the line is printed, so the exit is 0, not 143."""
    database = tmp_path / "instant.sqlite"
    process = subprocess.Popen(
        [str(quickcart_binary), "--host", HOST, "--port", "0", "--db", str(database),
         "--resources", str(RESOURCES)],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    try:
        line = process.stdout.readline()
        assert b"QuickCart is serving" in line, f"expected the serving line, saw {line!r}"
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=EXIT_TIMEOUT)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, \
        f"expected exit 0 after SIGTERM, saw {process.returncode}\n[stdout]\n{out!r}\n[stderr]\n{err!r}"
    assert b"QuickCart stopped." in out
