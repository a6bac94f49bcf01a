"""The operator's /metrics: Prometheus text on a listener of its own, read by prometheus_client's
parser, counting requests by route pattern (never the raw path) as they are made."""
import http.client
import os
import socket
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from conftest import ROOT, QuickCartServer
from pages import wait_for


@pytest.fixture
def shop():
    binary = Path(os.environ.get("QUICKCART_BINARY", ROOT / ".build" / "debug" / "quickcart"))
    instance = QuickCartServer(binary, extra_args=("--max-streams-per-ip", "1"))
    yield instance
    instance.stop()


def families(shop):
    """Every metric family, by name, as Prometheus' own parser reads the text."""
    return {family.name: family for family in text_string_to_metric_families(shop.metrics())}


def value(found, family, sample_name, **labels):
    for sample in found[family].samples:
        if sample.name == sample_name and all(sample.labels.get(k) == v for k, v in labels.items()):
            return sample.value
    return 0


def request(shop, method, path, headers=None, body=None):
    host, port = shop.url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    response.read()
    connection.close()
    return response


def test_metrics_are_served_only_on_their_own_listener(shop):
    assert request(shop, "GET", "/metrics").status == 404, "the shop's port must not show the metrics"
    health = urllib.request.urlopen(shop.url + "/healthz", timeout=5).read().decode()
    assert health == "ok\n", f"/healthz tells strangers nothing but ok: {health!r}"
    with urllib.request.urlopen(shop.metrics_url, timeout=5) as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(shop.metrics_url.removesuffix("/metrics") + "/cart", timeout=5)
    assert refused.value.code == 404, "the metrics listener serves nothing of the shop"


def test_names_follow_the_naming_guide(shop):
    found = families(shop)
    for name, family in found.items():
        assert name.startswith("quickcart_"), name
        if family.type == "counter":
            assert all(s.name.endswith("_total") for s in family.samples), name
    assert found["quickcart_http_request_duration_seconds"].type == "histogram"
    for name in ("quickcart_event_streams_open", "quickcart_catalog_version", "quickcart_process_resident_memory_bytes",
                 "quickcart_process_open_fds"):
        assert found[name].type == "gauge", name
    for name in ("quickcart_event_streams_refused", "quickcart_storage_unavailable", "quickcart_db_pool_waits",
                 "quickcart_http_requests"):
        assert found[name].type == "counter", name
    assert value(found, "quickcart_process_resident_memory_bytes", "quickcart_process_resident_memory_bytes") > 1 << 20
    assert value(found, "quickcart_process_open_fds", "quickcart_process_open_fds") > 3
    assert value(found, "quickcart_catalog_version", "quickcart_catalog_version") >= 1


def test_counts_move_by_route_pattern_and_status(shop):
    before = families(shop)
    for _ in range(3):
        assert request(shop, "GET", "/cart").status == 200
    assert request(shop, "GET", "/no-such-page-8271").status == 404
    # No CSRF token: 403, counted under the route's pattern, never under the raw path.
    assert request(shop, "POST", "/cart/items/4242/quantity", {"Content-Type": "application/x-www-form-urlencoded"},
                   "quantity=2").status == 403

    def moved(after, route, status):
        labels = {"route": route, "status": status}
        return (value(after, "quickcart_http_requests", "quickcart_http_requests_total", **labels)
                - value(before, "quickcart_http_requests", "quickcart_http_requests_total", **labels))

    # A request is counted when libmicrohttpd reports it completed, which can come a moment after
    # the client has read the whole answer (the last one went uncounted once, under the sanitizer):
    # the counts are read again until they have moved, for at most 5 s.
    expected = {("/cart", "200"): 3, ("unmatched", "404"): 1, ("/cart/items/:id/quantity", "403"): 1}

    def counted():
        snapshot = families(shop)
        return snapshot if {key: moved(snapshot, *key) for key in expected} == expected else None

    after = wait_for(counted, what=f"requests counted by route and status as {expected}")
    text = shop.metrics()
    assert "4242" not in text and "no-such-page" not in text, "raw paths must never become labels"

    histogram = "quickcart_http_request_duration_seconds"
    count = value(after, histogram, histogram + "_count", route="/cart")
    assert count - value(before, histogram, histogram + "_count", route="/cart") == 3
    buckets = [s for s in after[histogram].samples if s.name == histogram + "_bucket" and s.labels["route"] == "/cart"]
    assert [s.value for s in buckets] == sorted(s.value for s in buckets), "buckets are cumulative"
    assert buckets[-1].labels["le"] == "+Inf" and buckets[-1].value == count
    assert value(after, histogram, histogram + "_sum", route="/cart") > 0


def open_stream(shop, cookie):
    host, port = shop.url.removeprefix("http://").split(":")
    stream = socket.create_connection((host, int(port)), timeout=10)
    stream.sendall(f"GET /events HTTP/1.1\r\nHost: {host}\r\nCookie: {cookie}\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += stream.recv(4096)
    return stream, head.split(b"\r\n", 1)[0].decode()


def test_open_and_refused_streams(shop):
    response = request(shop, "GET", "/")
    cookie = response.getheader("Set-Cookie").split(";", 1)[0]
    first, status = open_stream(shop, cookie)
    assert " 200 " in status
    assert shop.event_stream_count() == 1
    second, status = open_stream(shop, cookie)
    assert " 503 " in status, "--max-streams-per-ip 1 refuses the second stream"
    second.close()
    found = families(shop)
    assert value(found, "quickcart_event_streams_refused", "quickcart_event_streams_refused_total") == 1
    first.close()
    deadline = time.monotonic() + 20
    while shop.event_stream_count() != 0 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert shop.event_stream_count() == 0
    found = families(shop)
    assert value(found, "quickcart_http_requests", "quickcart_http_requests_total", route="/events", status="200") == 1
    assert value(found, "quickcart_http_requests", "quickcart_http_requests_total", route="/events", status="503") == 1
