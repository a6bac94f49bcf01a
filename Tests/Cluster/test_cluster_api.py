"""The native app's API across instances on one PostgreSQL: an app paired through one instance
with a browser on another; a change through the API reaches the browser's stream on the other
instance within 100 ms, a change through the web reaches the app's stream; the browser signs
the app out through its instance and the app's token is refused at once on the other, its
stream there ending."""
from __future__ import annotations

import http.client
import json
import re
import time

from cluster_support import cluster, postgres  # noqa: F401 (the pytest fixtures used below)
from cluster_support import HOST, EventStream
from resilience_support import Shopper

CODE = re.compile(rb"[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}")


def api(port, method, path, token=None, body=None, headers=None):
    """One API request; (status, parsed JSON or None)."""
    connection = http.client.HTTPConnection(HOST, port, timeout=10)
    fields = dict(headers or {})
    if token:
        fields["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    if data is not None:
        fields["Content-Type"] = "application/json"
    connection.request(method, path, body=data, headers=fields)
    response = connection.getresponse()
    text = response.read()
    connection.close()
    return response.status, (json.loads(text) if text else None)


def test_an_app_and_a_browser_on_two_instances_follow_each_other(cluster):
    first, second = cluster(2)
    browser = Shopper()
    browser.begin(second.port)
    assert browser.post(second.port, "/profile/code", {}).status == 303
    code = CODE.search(browser.request(second.port, "GET", "/profile/code").body).group().decode()

    status, created = api(first.port, "POST", "/api/v1/clients", body={"device": "iPhone"})
    assert status == 201, created
    token = created["token"]
    status, joined = api(first.port, "POST", "/api/v1/client/join", token, {"code": code})
    assert status == 200 and joined["cart"]["count"] == 3, joined

    web_stream = EventStream(second.port, browser.cookie)
    assert web_stream.next() == 3
    app_stream = EventStream(first.port, token=token)
    assert app_stream.next() == 3

    status, cart = api(first.port, "POST", "/api/v1/cart/lines", token, {"productId": "3", "quantity": 2})
    answered = time.monotonic()
    assert status == 200 and cart["count"] == 5, cart
    assert web_stream.next(timeout=5) == 5, "the browser's stream on the other instance missed the app's change"
    waited = time.monotonic() - answered
    assert waited < 0.1, f"the app's change reached the browser's stream {waited * 1000:.0f} ms after its answer"
    assert app_stream.next(timeout=5) == 5

    assert browser.post(second.port, "/cart/items", {"product": "1"}).status == 303
    assert app_stream.next(timeout=5) == 6, "the app's stream on the first instance missed the web's change"
    status, cart = api(first.port, "GET", "/api/v1/cart", token)
    assert status == 200 and cart["count"] == 6

    profile = browser.request(second.port, "GET", "/profile")
    handles = re.findall(rb'name="device" value="([0-9a-f]+)"', profile.body)
    assert len(handles) == 1 and b"QuickCart app on iPhone" in profile.body, profile.body[:400]
    assert browser.post(second.port, "/profile/devices/sign-out", {"device": handles[0].decode()}).status == 303
    assert api(first.port, "GET", "/api/v1/cart", token)[0] == 401, "the signed-out token still works on the other instance"
    try:
        app_stream.next(timeout=5)
        raise AssertionError("the signed-out app's stream on the first instance stayed open")
    except EOFError:
        pass
