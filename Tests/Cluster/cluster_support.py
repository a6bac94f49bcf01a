"""What the cluster tests share: a throwaway PostgreSQL, several quickcart processes on it,
and a reader of `/events` streams.

Standard library only, plus pytest for the fixtures at the end. The quickcart process and the
shopper come from Tests/Resilience/resilience_support.py. As there, no conftest.py: the test
modules import the fixtures from this module.
"""
from __future__ import annotations

import http.client
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Resilience"))

from resilience_support import HOST, COOKIE_NAME, ServerProcess, binary_path  # noqa: E402

STEPPER_FORM = re.compile(r"<form\b[^>]*\baction=\"(/cart/items/\d+/quantity)\"[^>]*>(.*?)</form>", re.S)
INPUT = re.compile(r"<input\b[^>]*>")
BUTTON = re.compile(r"<button\b[^>]*>")
ATTRIBUTE = re.compile(r"\b([a-z-]+)=\"([^\"]*)\"")
QUANTITY_OF = re.compile(r"<li\b[^>]*data-product=\"(\d+)\".*?<span data-quantity>(\d+)</span>", re.S)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


class PostgresServer:
    """Debian's PostgreSQL in a temporary folder on a free port of 127.0.0.1, `trust` login.

    PostgreSQL refuses to run as root: then the folder belongs to the `postgres` user and
    every server binary runs as that user (runuser), as Tests/PostgresTesting does.
    """

    def __init__(self):
        self.binaries = self.find_binaries()
        self.as_postgres = os.getuid() == 0
        base = "/tmp" if self.as_postgres else tempfile.gettempdir()
        self.folder = Path(base) / f"quickcart-cluster-{uuid.uuid4().hex[:8]}"
        self.folder.mkdir(mode=0o700)
        if self.as_postgres:
            shutil.chown(self.folder, "postgres", "postgres")
        self.port = free_port()
        try:
            self.run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8",
                     "--locale=C.UTF-8", "--no-sync", "--no-instructions")
            self.start()
            self.run("createdb", "-h", HOST, "-p", str(self.port), "-U", "postgres", "quickcart")
        except BaseException:
            # No fixture will call remove(): stop a postmaster that started and delete the folder.
            self.remove()
            raise

    @property
    def data(self) -> Path:
        return self.folder / "data"

    @property
    def url(self) -> str:
        return f"postgresql://postgres@{HOST}:{self.port}/quickcart"

    @staticmethod
    def find_binaries() -> Path:
        for folder in sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name), reverse=True):
            if (folder / "initdb").exists():
                return folder
        for folder in os.environ.get("PATH", "").split(":") + ["/usr/local/bin"]:
            if folder and (Path(folder) / "initdb").exists():
                return Path(folder)
        pytest.fail("PostgreSQL's initdb was not found: install Debian's postgresql package")

    def run(self, name: str, *arguments: str) -> str:
        command = [str(self.binaries / name), *arguments]
        if self.as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        # Output to a file, not a pipe: the server pg_ctl leaves running would hold a pipe open.
        log = self.folder / f"{name}.out"
        with open(log, "wb") as output:
            status = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=output, stderr=output, timeout=60).returncode
        text = log.read_text(errors="replace")
        if status != 0:
            raise AssertionError(f"{name} {' '.join(arguments)} exited with {status}: {text}")
        return text

    def start(self) -> None:
        options = " ".join([
            f"-p {self.port}", f"-h {HOST}", f"-k {self.folder}", "-c max_connections=300",
            # A throwaway cluster: durability across a machine crash is beside the point.
            "-c fsync=off", "-c full_page_writes=off",
        ])
        self.run("pg_ctl", "start", "-D", str(self.data), "-w", "-t", "30", "-l", str(self.folder / "server.log"), "-o", options)

    def stop(self) -> None:
        """`pg_ctl stop -m fast`: every connection ends at once, as in an outage."""
        self.run("pg_ctl", "stop", "-D", str(self.data), "-m", "fast", "-w", "-t", "30")

    def remove(self) -> None:
        try:
            self.run("pg_ctl", "stop", "-D", str(self.data), "-m", "immediate", "-w", "-t", "30")
        except AssertionError:
            pass
        shutil.rmtree(self.folder, ignore_errors=True)


class EventStream:
    """`GET /events` (or `path`, e.g. `/events?texts`) of one session on one instance, or with
    `token` an app's `GET /api/v1/events`; `next()` returns the next badge count, `next_event()`
    the next (event, data) of any kind."""

    def __init__(self, port: int, cookie: str | None = None, timeout: float = 5.0, path: str = "/events", token: str | None = None):
        self.connection = http.client.HTTPConnection(HOST, port, timeout=timeout)
        if token is not None:
            path, headers = "/api/v1/events", {"Authorization": f"Bearer {token}"}
        else:
            headers = {"Cookie": f"{COOKIE_NAME}={cookie}"}
        self.connection.request("GET", path, headers=headers)
        self.response = self.connection.getresponse()
        if self.response.status != 200:
            raise AssertionError(f"GET {path} on port {port}: {self.response.status}")

    def next_event(self) -> tuple[str, str | None]:
        """The next event's name and data; comment lines are skipped."""
        event, data = None, None
        while True:
            line = self.response.readline()
            if not line:
                raise EOFError("the stream ended")
            line = line.decode().rstrip("\r\n")
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:"):
                data = line[5:].strip()
            elif line == "" and event is not None:
                return event, data

    def next(self, timeout: float | None = None) -> int:
        """The count of the next `event: badge`; other events are skipped."""
        if timeout is not None:
            self.connection.sock.settimeout(timeout)
        while True:
            event, data = self.next_event()
            if event == "badge" and data is not None:
                return int(data)

    def close(self) -> None:
        self.connection.close()


def stepper(html: bytes, product: int, direction: str) -> tuple[str, dict]:
    """The action and fields a press of Increase/Decrease of `product` on this page sends."""
    for action, body in STEPPER_FORM.findall(html.decode()):
        if action != f"/cart/items/{product}/quantity":
            continue
        fields = {}
        for tag in INPUT.findall(body):
            attributes = dict(ATTRIBUTE.findall(tag))
            if "name" in attributes:
                fields[attributes["name"]] = attributes.get("value", "")
        for tag in BUTTON.findall(body):
            attributes = dict(ATTRIBUTE.findall(tag))
            if attributes.get("aria-label", "").startswith(direction):
                fields[attributes["name"]] = attributes["value"]
                return action, fields
    raise AssertionError(f"no {direction} stepper for product {product} on the page")


def quantities(html: bytes) -> dict[int, int]:
    """The cart page's quantities by product id."""
    return {int(product): int(quantity) for product, quantity in QUANTITY_OF.findall(html.decode())}


# MARK: - Fixtures (imported by the test modules)


@pytest.fixture
def postgres():
    """A PostgreSQL server of the test's own, removed when the test ends."""
    server = PostgresServer()
    try:
        yield server
    finally:
        server.remove()


@pytest.fixture
def cluster(postgres, tmp_path):
    """Starts `count` quickcart processes on the test's database; SIGKILLs what still runs
    when the test ends."""
    binary = binary_path()
    if not binary.exists():
        pytest.fail(f"no quickcart binary at {binary}: run `swift build --product quickcart` first, or set QUICKCART_BINARY")
    started: list[ServerProcess] = []

    def start(count: int = 3) -> list[ServerProcess]:
        for index in range(count):
            server = ServerProcess(binary, postgres.url, tmp_path, f"instance-{len(started) + 1}", ["--no-access-log"])
            started.append(server)
            server.start()
        return started[-count:]

    try:
        yield start
    finally:
        for server in started:
            server.kill()
