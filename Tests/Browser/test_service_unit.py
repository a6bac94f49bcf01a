"""deploy/quickcart.service and the readiness protocol it relies on (Type=notify): the READY=1
datagram reaches a socket the test makes, only once the port accepts connections; the unit file
passes systemd-analyze verify and its sandbox scores as little exposure as it can."""
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import tempfile
from pathlib import Path

import pytest

from conftest import ROOT

BINARY = Path(os.environ.get("QUICKCART_BINARY", ROOT / ".build" / "debug" / "quickcart"))
UNIT = ROOT / "deploy" / "quickcart.service"


def start(folder, notify_socket, *extra):
    environment = dict(os.environ, NOTIFY_SOCKET=notify_socket)
    return subprocess.Popen(
        [str(BINARY), "--port", "0", "--db", os.path.join(folder, "shop.sqlite"), "--resources", str(ROOT), *extra],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=environment, text=True)


def receive(listener):
    """One datagram's NAME=value lines."""
    data = listener.recv(4096).decode()
    return dict(line.split("=", 1) for line in data.splitlines() if "=" in line)


@pytest.mark.parametrize("abstract", [False, True], ids=["path", "abstract"])
def test_ready_arrives_once_the_port_accepts_connections(abstract):
    folder = tempfile.mkdtemp(prefix="quickcart-notify-")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    if abstract:
        name = f"quickcart-test-{os.getpid()}"
        listener.bind("\0" + name)
        notify_socket = "@" + name
    else:
        notify_socket = os.path.join(folder, "notify")
        listener.bind(notify_socket)
    listener.settimeout(30)
    process = start(folder, notify_socket)
    try:
        ready = receive(listener)
        # Connect the moment READY=1 is read: the port must already accept.
        port = int(re.search(r":(\d+)/$", ready["STATUS"]).group(1))
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
        assert ready["READY"] == "1"
        assert int(ready["MAINPID"]) == process.pid
        assert f":{port}/" in process.stdout.readline(), "the serving line names the port READY names"
        process.send_signal(signal.SIGTERM)
        assert receive(listener).get("STOPPING") == "1"
        assert process.wait(timeout=10) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        listener.close()
        shutil.rmtree(folder, ignore_errors=True)


def test_no_ready_when_it_cannot_serve():
    folder = tempfile.mkdtemp(prefix="quickcart-notify-")
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(os.path.join(folder, "notify"))
    listener.settimeout(0.5)
    environment = dict(os.environ, NOTIFY_SOCKET=os.path.join(folder, "notify"))
    try:
        result = subprocess.run(
            [str(BINARY), "--port", str(taken.getsockname()[1]), "--db", os.path.join(folder, "shop.sqlite"),
             "--resources", str(ROOT)], env=environment, capture_output=True, text=True, timeout=30)
        assert result.returncode == 1, "a port in use is a failure, for Restart=on-failure"
        with pytest.raises(socket.timeout):
            listener.recv(4096)
    finally:
        taken.close()
        listener.close()
        shutil.rmtree(folder, ignore_errors=True)


def unit_with_binary(folder):
    """The unit, its ExecStart pointing at the binary built here (verify checks that it exists)."""
    text = UNIT.read_text().replace("/usr/local/bin/quickcart", str(BINARY))
    path = os.path.join(folder, "quickcart.service")
    Path(path).write_text(text)
    return path, text


def test_the_units_options_are_quickcarts():
    folder = tempfile.mkdtemp(prefix="quickcart-unit-")
    try:
        _, text = unit_with_binary(folder)
        command = shlex.split(re.search(r"^ExecStart=(.*)$", text, re.MULTILINE).group(1))
        assert command[0] == str(BINARY)
        # A database for the command below: serving creates it.
        database = os.path.join(folder, "x.sqlite")
        server = start(folder, os.path.join(folder, "no-notify"), "--db", database)
        server.stdout.readline()
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=10) == 0
        # Every option of ExecStart read by the same table serving reads, through an operator command.
        result = subprocess.run([str(BINARY), "catalog", "export", *command[1:], "--db", database],
                                capture_output=True, text=True, timeout=30)
        assert result.returncode == 0, result.stderr
        for setting in ("Type=notify", "Restart=on-failure", "User=quickcart", "StateDirectory=quickcart",
                        "ProtectSystem=strict", "NoNewPrivileges=yes", "PrivateTmp=yes", "ProtectHome=yes",
                        "RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX", "SystemCallFilter=@system-service"):
            assert re.search(rf"^{re.escape(setting)}$", text, re.MULTILINE), setting
    finally:
        shutil.rmtree(folder, ignore_errors=True)


systemd_analyze = shutil.which("systemd-analyze")
needs_systemd = pytest.mark.skipif(systemd_analyze is None,
                                   reason="systemd-analyze is not installed (Debian's systemd package; make test installs it)")


@needs_systemd
def test_systemd_analyze_verify_accepts_the_unit():
    folder = tempfile.mkdtemp(prefix="quickcart-unit-")
    try:
        path, _ = unit_with_binary(folder)
        result = subprocess.run([systemd_analyze, "verify", path], capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stderr
        assert "quickcart.service" not in result.stderr, f"verify complained: {result.stderr}"
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@needs_systemd
def test_systemd_analyze_security_rates_the_sandbox():
    folder = tempfile.mkdtemp(prefix="quickcart-unit-")
    try:
        path, _ = unit_with_binary(folder)
        result = subprocess.run([systemd_analyze, "security", "--offline=true", "--no-pager", path],
                                capture_output=True, text=True, timeout=60)
        match = re.search(r"Overall exposure level for quickcart\.service: ([\d.]+)", result.stdout)
        assert match, result.stdout + result.stderr
        # 0 is a unit that can do nothing; a network server that writes its database, in the host's
        # user namespace (so that it can be given ports 443 and 80), scores 1.4.
        assert float(match.group(1)) <= 1.5, result.stdout
    finally:
        shutil.rmtree(folder, ignore_errors=True)
