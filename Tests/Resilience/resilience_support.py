"""What the resilience tests share: the quickcart process, a shopper's session, raw sockets.

Standard library only (http.client, socket, subprocess, sqlite3), plus pytest for the two
fixtures at the end, so the tests run in any Python 3.11 that has pytest, including the browser
suite's venv. Every connection goes to 127.0.0.1.

There is deliberately no conftest.py here: Tests/Browser's modules `from conftest import …`,
and a second module named `conftest` in the same pytest session would shadow theirs. The test
modules import the fixtures from this module instead.
"""
from __future__ import annotations

import hashlib
import http.client
import os
import re
import signal
import socket
import sqlite3
import subprocess
import time
import urllib.parse
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# The folder holding Views/ and Public/: this checkout, unless $QUICKCART_RESOURCES says otherwise.
RESOURCES = Path(os.environ.get("QUICKCART_RESOURCES", ROOT))
HOST = "127.0.0.1"
# Delivery details the Delivery step takes, for checkouts under load.
DELIVERY = {"name": "Ada Lovelace", "email": "ada@example.com", "address_line1": "12 Analytical Row", "city": "Portland",
            "postal_code": "97201", "country": "US", "method": "standard"}
COOKIE_NAME = "quickcart_session"
SERVING_LINE = re.compile(r"http://127\.0\.0\.1:(\d+)/")
ORDER_LOCATION = re.compile(r"^/profile\?order=(\d+)#order-confirmation$")
CSRF_INPUT = re.compile(r"<input\b[^>]*\bname=\"csrf\"[^>]*>")
VALUE_ATTRIBUTE = re.compile(r"\bvalue=\"([^\"]+)\"")
# Any failure of a request that did not get its whole answer: the client cannot know whether
# the server committed it, so it is simply "not acknowledged".
TRANSPORT_ERRORS = (OSError, http.client.HTTPException)


def binary_path() -> Path:
    """The executable under test: $QUICKCART_BINARY, else the debug build in this checkout."""
    return Path(os.environ.get("QUICKCART_BINARY", ROOT / ".build" / "debug" / "quickcart"))


class ServerProcess:
    """One run of quickcart on a free port of 127.0.0.1, its output kept in files of `folder`.

    Output goes to files, not pipes, so a chatty server can never block on a full pipe and
    what it said is still there to show when a test fails.
    """

    def __init__(self, binary: Path, database: Path, folder: Path, name: str, extra_args=()):
        self.binary = binary
        self.database = database
        self.stdout_path = folder / f"{name}.stdout"
        self.stderr_path = folder / f"{name}.stderr"
        self.extra_args = list(extra_args)
        self.process: subprocess.Popen | None = None
        self.port: int | None = None

    def start(self, timeout: float = 60.0) -> int:
        """Starts the process and waits for its `http://127.0.0.1:PORT/` line; returns PORT."""
        with open(self.stdout_path, "wb") as out, open(self.stderr_path, "wb") as err:
            self.process = subprocess.Popen(
                [str(self.binary), "--host", HOST, "--port", "0", "--db", str(self.database),
                 "--resources", str(RESOURCES), *self.extra_args],
                stdin=subprocess.DEVNULL, stdout=out, stderr=err,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            match = SERVING_LINE.search(self.stdout())
            if match:
                self.port = int(match.group(1))
                return self.port
            if self.process.poll() is not None:
                raise AssertionError(
                    f"quickcart exited with status {self.process.returncode} before serving\n"
                    f"expected: a line with http://127.0.0.1:PORT/\nsaw: {self.output()}")
            time.sleep(0.01)
        self.kill()
        raise AssertionError(f"quickcart did not print its address within {timeout} s\nsaw: {self.output()}")

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def send(self, signum: int) -> None:
        if self.alive():
            self.process.send_signal(signum)

    def kill(self) -> None:
        """SIGKILL (kill -9), then reap. Safe to call on a process that already ended."""
        if self.process is None:
            return
        if self.process.poll() is None:
            try:
                os.kill(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass

    def stdout(self) -> str:
        try:
            return self.stdout_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def output(self) -> str:
        try:
            err = self.stderr_path.read_text(errors="replace")
        except FileNotFoundError:
            err = ""
        return f"[stdout]\n{self.stdout()[-4000:]}[stderr]\n{err[-4000:]}"


# MARK: - A shopper: one session, one keep-alive connection


@dataclass
class Answer:
    status: int
    location: str | None
    set_cookie: str | None
    body: bytes


class SessionLost(Exception):
    """The server no longer recognises the session (it set a new cookie or refused the token)."""


@dataclass
class Shopper:
    """A client with its own session cookie and CSRF token, over one keep-alive connection.

    `request` returns an ``Answer`` only when the whole response arrived; any other outcome
    raises one of ``TRANSPORT_ERRORS`` and the connection is dropped (a new one is made, to
    the current port, by the next request).
    """

    timeout: float = 15.0
    cookie: str | None = None
    csrf: str | None = None
    port: int | None = None
    connection: http.client.HTTPConnection | None = field(default=None, repr=False)

    @property
    def cookie_id(self) -> str | None:
        return self.cookie.split(".")[0] if self.cookie else None

    @property
    def session_id(self) -> str | None:
        """What the database knows the session by: the SHA-256 of its cookie's id."""
        return hashlib.sha256(self.cookie_id.encode()).hexdigest() if self.cookie else None

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    def request(self, port: int, method: str, path: str, fields: dict | None = None) -> Answer:
        if port != self.port:
            self.close()
            self.port = port
        if self.connection is None:
            self.connection = http.client.HTTPConnection(HOST, port, timeout=self.timeout)
        headers = {}
        if self.cookie:
            headers["Cookie"] = f"{COOKIE_NAME}={self.cookie}"
        body = None
        if fields is not None:
            body = urllib.parse.urlencode(fields).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            self.connection.request(method, path, body=body, headers=headers)
            response = self.connection.getresponse()
            data = response.read()  # raises IncompleteRead when the answer is cut short
        except BaseException:
            self.close()
            raise
        if response.will_close:
            self.close()
        return Answer(response.status, response.getheader("Location"), response.getheader("Set-Cookie"), data)

    def begin(self, port: int) -> None:
        """GET /cart: takes the session cookie (a new one unless the current is still good)
        and the CSRF token of the page's forms; then stores the session (a theme post), as the
        change that stores a session moves it to a new cookie, and the checks follow one id."""
        answer = self.request(port, "GET", "/cart")
        if answer.status != 200:
            raise AssertionError(f"GET /cart: expected 200, saw {answer.status}: {answer.body[:300]!r}")
        cookie = cookie_value(answer.set_cookie)
        if cookie is not None:
            self.cookie = cookie
        if self.cookie is None:
            raise AssertionError("GET /cart set no quickcart_session cookie")
        self.csrf = csrf_token(answer.body)
        answer = self.request(port, "POST", "/profile/theme", {"csrf": self.csrf, "theme": "system"})
        if answer.status != 303:
            raise AssertionError(f"POST /profile/theme: expected 303, saw {answer.status}: {answer.body[:300]!r}")
        cookie = cookie_value(answer.set_cookie)
        if cookie is not None:
            self.cookie = cookie

    def review_fields(self, port: int) -> dict:
        """The fields of Review's Place order form (what `POST /checkout/place` takes: the cart's
        version and lines, the delivery price, the details' version, how it is paid), saving delivery details
        first when the shopper has none; empty when there is nothing to check out."""
        answer = self.request(port, "GET", "/checkout/review")
        if answer.status == 303 and answer.location == "/checkout":
            saved = self.post(port, "/checkout/delivery", DELIVERY)
            if saved.status != 303:
                raise AssertionError(f"POST /checkout/delivery: expected 303, saw {saved.status}: {saved.body[:300]!r}")
            answer = self.request(port, "GET", "/checkout/review")
        if answer.status != 200:
            return {}
        return {name.decode(): value.decode() for name, value in re.findall(
            rb'<input type="hidden" name="(version|lines|delivery|details|payment)" value="([^"]*)"', answer.body)}

    def post(self, port: int, path: str, fields: dict) -> Answer:
        """A form post with the session's CSRF token. Raises ``SessionLost`` when the server
        answers with another session's cookie or 403: the caller starts a new session."""
        answer = self.request(port, "POST", path, {"csrf": self.csrf, **fields})
        cookie = cookie_value(answer.set_cookie)
        if answer.status == 403 or (cookie is not None and cookie.split(".")[0] != self.cookie_id):
            raise SessionLost(f"POST {path}: {answer.status}, Set-Cookie {answer.set_cookie!r}")
        if cookie is not None:
            self.cookie = cookie  # the same session, renewed
        return answer


def cookie_value(set_cookie: str | None) -> str | None:
    if not set_cookie:
        return None
    match = re.search(rf"(?:^|[,;]\s*){COOKIE_NAME}=([^;,\s]+)", set_cookie)
    return match.group(1) if match else None


def csrf_token(html: bytes) -> str:
    text = html.decode("utf-8", errors="replace")
    for tag in CSRF_INPUT.findall(text):
        value = VALUE_ATTRIBUTE.search(tag)
        if value:
            return value.group(1)
    raise AssertionError(f"no <input name=\"csrf\" value=…> in the page: {text[:300]!r}")


def order_id(location: str | None) -> int | None:
    match = ORDER_LOCATION.match(location or "")
    return int(match.group(1)) if match else None


# MARK: - After the run: the database file


@contextmanager
def open_database(path: Path):
    """Opens the file the server used (read-write, so SQLite can recover a leftover WAL), and
    closes it afterwards."""
    connection = sqlite3.connect(str(path), timeout=10, isolation_level=None)
    try:
        yield connection
    finally:
        connection.close()


def integrity_problems(db: sqlite3.Connection) -> list[str]:
    """What `PRAGMA integrity_check` and `PRAGMA foreign_key_check` report; empty when sound."""
    problems = []
    try:
        integrity = [row[0] for row in db.execute("PRAGMA integrity_check")]
    except sqlite3.DatabaseError as error:
        integrity = [f"{type(error).__name__}: {error}"]
    if integrity != ["ok"]:
        problems.append(f"PRAGMA integrity_check: expected ['ok'], saw {integrity[:20]}")
    try:
        foreign = db.execute("PRAGMA foreign_key_check").fetchall()
    except sqlite3.DatabaseError as error:
        foreign = [f"{type(error).__name__}: {error}"]
    if foreign:
        problems.append(f"PRAGMA foreign_key_check: expected no rows, saw {foreign[:20]}")
    return problems


def orders_in_database(db: sqlite3.Connection, ids) -> dict[int, dict]:
    """For each id that exists: its session (the client of its shopper) and its lines {product_id: quantity} and positions."""
    found: dict[int, dict] = {}
    ids = sorted(set(ids))
    for start in range(0, len(ids), 500):
        chunk = ids[start:start + 500]
        marks = ",".join("?" * len(chunk))
        for order, session in db.execute(
                f"SELECT o.id, c.id FROM orders o JOIN clients c ON c.shopper_id = o.shopper_id WHERE o.id IN ({marks})", chunk):
            found[order] = {"session": session, "lines": {}, "positions": []}
        for order, position, product, quantity in db.execute(
            f"SELECT order_id, position, product_id, quantity FROM order_lines WHERE order_id IN ({marks}) "
            "ORDER BY order_id, position", chunk):
            if order in found:
                found[order]["lines"][product] = quantity
                found[order]["positions"].append(position)
    return found


def connection_refused(port: int) -> tuple[bool, str]:
    """Whether a new TCP connection to the port is refused now (and what happened instead)."""
    try:
        probe = socket.create_connection((HOST, port), timeout=2)
    except ConnectionRefusedError:
        return True, "refused"
    except OSError as error:
        return False, f"{type(error).__name__}: {error}"
    probe.close()
    return False, "accepted"


# MARK: - Fixtures (imported by the test modules)


@pytest.fixture
def quickcart_binary():
    """The executable: $QUICKCART_BINARY, else .build/debug/quickcart."""
    binary = binary_path()
    if not binary.exists():
        pytest.fail(f"no quickcart binary at {binary}: run `swift build --product quickcart` "
                    "first, or set QUICKCART_BINARY")
    return binary


@pytest.fixture
def launch(quickcart_binary, tmp_path):
    """Starts quickcart processes with their output in the test's own temporary folder, and
    SIGKILLs any still running when the test ends, pass or fail."""
    started: list[ServerProcess] = []

    def start(database, name, extra_args=()):
        server = ServerProcess(quickcart_binary, database, tmp_path, name, extra_args)
        started.append(server)
        server.start()
        return server

    try:
        yield start
    finally:
        for server in started:
            server.kill()
