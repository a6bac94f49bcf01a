"""--log-format json: the access and error lines of a real server, each one JSON object, with the
text lines' fields, whatever a client sends."""
import json
import os
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from conftest import ROOT, QuickCartServer

BINARY = Path(os.environ.get("QUICKCART_BINARY", ROOT / ".build" / "debug" / "quickcart"))


def raw_get(url, target):
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(f"GET {target} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
        while connection.recv(65536):
            pass


def test_access_lines_are_json_objects_with_every_field():
    shop = QuickCartServer(BINARY, extra_args=("--log-format", "json"))
    try:
        raw_get(shop.url, "/cart")
        # A decoded %22, %0A and ESC must stay inside their JSON string.
        raw_get(shop.url, "/x%22%0A%1B[2J%E2%80%AEgpj.exe")
        deadline = time.monotonic() + 10
        lines = []
        while time.monotonic() < deadline:
            lines = Path(shop.stderr_path).read_text(encoding="utf-8").splitlines()
            if sum('"kind":"access"' in line for line in lines) >= 2:
                break
            time.sleep(0.05)
    finally:
        shop.stop()
    objects = [json.loads(line) for line in lines]
    assert all(isinstance(o, dict) for o in objects), lines
    access = [o for o in objects if o["kind"] == "access"]
    cart = next(o for o in access if o["path"] == "/cart")
    assert cart["method"] == "GET" and cart["status"] == 200 and cart["sent"] is True
    assert cart["client"] == "127.0.0.1" and cart["bytes"] > 0 and cart["ms"] >= 0
    assert cart["session"] == "-", "no cookie was sent"
    hostile = next(o for o in access if o["path"].startswith("/x"))
    assert hostile["path"] == '/x"\n\x1b[2J\u202egpj.exe' and hostile["status"] == 404
    for line in lines:
        assert "\x1b" not in line and "\u202e" not in line, f"unprintable text in {line!r}"


def test_a_failed_start_is_a_json_error_line():
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    folder = tempfile.mkdtemp(prefix="quickcart-json-")
    try:
        result = subprocess.run(
            [str(BINARY), "--port", str(taken.getsockname()[1]), "--db", os.path.join(folder, "shop.sqlite"),
             "--resources", str(ROOT), "--log-format", "json"], capture_output=True, text=True, timeout=30)
    finally:
        taken.close()
    assert result.returncode == 1
    errors = [json.loads(line) for line in result.stderr.splitlines()]
    assert errors and errors[-1]["kind"] == "error" and "cannot listen" in errors[-1]["message"], result.stderr
