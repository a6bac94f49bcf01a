"""HTTPS in the server itself (--tls-cert/--tls-key): a real TLS client's handshake with a
certificate the test makes, TLS 1.2+ only, Secure and __Host- cookies, the HTTP → HTTPS redirect,
and a certificate reread on SIGHUP while an event stream stays open across it."""
import http.client
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from conftest import ROOT, QuickCartServer

BINARY = Path(os.environ.get("QUICKCART_BINARY", ROOT / ".build" / "debug" / "quickcart"))


def make_certificate(folder, name):
    """A self-signed ECDSA certificate for 127.0.0.1, made with the openssl command."""
    certificate, key = os.path.join(folder, f"{name}.pem"), os.path.join(folder, f"{name}.key")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                    "-keyout", key, "-out", certificate, "-days", "2", "-subj", f"/CN={name}",
                    "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
    return certificate, key


class HTTPSShop:
    def __init__(self):
        self.folder = tempfile.mkdtemp(prefix="quickcart-https-")
        first_certificate, first_key = make_certificate(self.folder, "first")
        self.certificate, self.key = os.path.join(self.folder, "shop.pem"), os.path.join(self.folder, "shop.key")
        shutil.copy(first_certificate, self.certificate)
        shutil.copy(first_key, self.key)
        self.stderr_path = os.path.join(self.folder, "stderr")
        self.stderr = open(self.stderr_path, "wb")
        self.process = subprocess.Popen(
            [str(BINARY), "--port", "0", "--db", os.path.join(self.folder, "shop.sqlite"), "--resources", str(ROOT),
             "--tls-cert", self.certificate, "--tls-key", self.key, "--http-redirect-port", "0"],
            stdout=subprocess.PIPE, stderr=self.stderr, text=True)
        serving = self.process.stdout.readline()
        self.port = int(re.search(r"https://127\.0\.0\.1:(\d+)/", serving).group(1))
        self.redirect_port = int(re.search(r"http://127\.0\.0\.1:(\d+)/", self.process.stdout.readline()).group(1))

    def context(self, trusting=None):
        context = ssl.create_default_context(cafile=trusting or self.certificate)
        return context

    def handshake(self, context):
        with socket.create_connection(("127.0.0.1", self.port), timeout=10) as raw:
            with context.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
                return tls.version(), tls.cipher(), tls.getpeercert()

    def request(self, method, path, headers=None, body=None, context=None):
        connection = http.client.HTTPSConnection("127.0.0.1", self.port, timeout=10, context=context or self.context())
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        response.body = response.read()
        connection.close()
        return response

    def log(self):
        return Path(self.stderr_path).read_text(errors="replace")

    def wait_for_log(self, text, timeout=10):
        deadline = time.monotonic() + timeout
        while text not in self.log() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert text in self.log(), self.log()[-2000:]

    # SIGTERM, then the folder goes: as for the plain-HTTP test server.
    stop = QuickCartServer.stop


@pytest.fixture
def shop():
    instance = HTTPSShop()
    yield instance
    instance.stop()


def common_name(certificate):
    return dict(pair[0] for pair in certificate["subject"])["commonName"]


def test_a_real_tls_handshake_with_a_modern_cipher(shop):
    version, cipher, certificate = shop.handshake(shop.context())
    assert version in ("TLSv1.3", "TLSv1.2")
    assert re.search(r"GCM|CHACHA20", cipher[0]), cipher
    assert common_name(certificate) == "first"
    twelve = shop.context()
    twelve.maximum_version = ssl.TLSVersion.TLSv1_2
    version, cipher, _ = shop.handshake(twelve)
    assert version == "TLSv1.2" and cipher[0].startswith("ECDHE-"), cipher


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize("old", [ssl.TLSVersion.TLSv1, ssl.TLSVersion.TLSv1_1], ids=["TLSv1.0", "TLSv1.1"])
def test_tls_1_0_and_1_1_are_refused(shop, old):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    # The client offers the old version for real (OpenSSL's own floor lowered), so the refusal is the server's.
    context.set_ciphers("ALL:@SECLEVEL=0")
    context.minimum_version = ssl.TLSVersion.TLSv1
    context.maximum_version = old
    with pytest.raises((ssl.SSLError, ConnectionResetError)) as refused:
        shop.handshake(context)
    assert "NO_PROTOCOLS_AVAILABLE" not in str(refused.value), "the client could not offer the version at all"


def test_cookies_are_secure_and_host_only_with_hsts(shop):
    response = shop.request("GET", "/")
    assert response.status == 200
    cookie = response.getheader("Set-Cookie")
    assert cookie.startswith("__Host-quickcart_session="), cookie
    assert "; Secure" in cookie and "; Path=/" in cookie and "Domain" not in cookie and "HttpOnly" in cookie
    assert response.getheader("Strict-Transport-Security", "").startswith("max-age=")


def test_the_redirect_port_answers_308_to_https_and_serves_nothing_else(shop):
    for method, path in (("GET", "/cart?q=a%20b"), ("POST", "/cart/items"), ("GET", "/static/css/app.css"), ("GET", "/healthz")):
        connection = http.client.HTTPConnection("127.0.0.1", shop.redirect_port, timeout=10)
        connection.request(method, path, body=b"" if method == "POST" else None)
        response = connection.getresponse()
        body = response.read()
        connection.close()
        assert response.status == 308, (method, path, response.status)
        assert response.getheader("Location") == f"https://127.0.0.1:{shop.port}{path}", response.getheader("Location")
        assert body == b"", "nothing of the shop is served over plain HTTP"


def read_event(stream, deadline=10):
    """The next `data:` line of an event stream on a TLS socket."""
    stream.settimeout(deadline)
    text = b""
    while True:
        chunk = stream.recv(4096)
        assert chunk, "the stream ended"
        text += chunk
        match = re.search(rb"event: badge\r?\ndata: (\d+)", text)
        if match:
            return int(match.group(1))


def test_sighup_rereads_the_certificate_and_an_open_stream_survives(shop):
    page = shop.request("GET", "/")
    cookie = page.getheader("Set-Cookie").split(";", 1)[0]
    raw = socket.create_connection(("127.0.0.1", shop.port), timeout=10)
    stream = shop.context().wrap_socket(raw, server_hostname="127.0.0.1")
    stream.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{shop.port}\r\nCookie: {cookie}\r\n\r\n".encode())
    assert read_event(stream) == 3, "the demo cart's count"

    second_certificate, second_key = make_certificate(shop.folder, "second")
    shutil.copy(second_certificate, shop.certificate)
    shutil.copy(second_key, shop.key)
    shop.process.send_signal(signal.SIGHUP)
    shop.wait_for_log("TLS certificate reloaded")
    _, _, certificate = shop.handshake(shop.context(trusting=second_certificate))
    assert common_name(certificate) == "second", "new handshakes see the new certificate"

    # The stream opened before the reload still carries news: add a product through a new connection.
    context = shop.context(trusting=second_certificate)
    home = shop.request("GET", "/", headers={"Cookie": cookie}, context=context).body.decode()
    csrf = re.search(r'name="csrf" value="([^"]+)"', home).group(1)
    product = re.search(r'name="product" value="(\d+)"', home).group(1)
    added = shop.request("POST", "/cart/items", headers={"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded",
                                                         "Origin": f"https://127.0.0.1:{shop.port}"},
                         body=f"csrf={csrf}&product={product}&return_to=/", context=context)
    assert added.status == 303, added.body[:300]
    assert read_event(stream) == 4, "the stream kept across the reload got the change"
    stream.close()

    # A key of another certificate is refused: the certificate in force stays.
    _, stray_key = make_certificate(shop.folder, "stray")
    shutil.copy(stray_key, shop.key)
    shop.process.send_signal(signal.SIGHUP)
    shop.wait_for_log("not reloaded")
    _, _, certificate = shop.handshake(shop.context(trusting=second_certificate))
    assert common_name(certificate) == "second"
