"""The OpenAPI document is true: every route and every status it lists is exercised against a
real server, and each answer is checked against the document (status, media type, body
schema, headers). The document itself passes openapi-spec-validator."""
import json
import os
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from openapi_spec_validator import validate

from api_document import Client, Document
from conftest import BINARY, ROOT, QuickCartServer

# Answers no single request can bring about here: storage out of reach (the Swift and cluster
# suites take storage away), and checkout's 412, which needs a change between its read and its
# placing (a race; the store tests cover the refusal it comes from).
NOT_EXERCISED = {("checkout-race", "/api/v1/checkout", "post", "412")}
UNREACHABLE_STATUSES = {"503"}

DELIVERY = {"name": "Dana Reyes", "email": "dana@example.com", "addressLine1": "12 Trail Street", "city": "Portland",
            "region": "OR", "postalCode": "97201", "country": "US", "method": "express"}


@pytest.fixture(scope="module")
def shop():
    instance = QuickCartServer(BINARY)
    yield instance
    instance.stop()


def web_code(base):
    """A join code shown by a fresh web session (through its forms, as a browser would)."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    page = opener.open(base + "/profile").read().decode()
    csrf = page.split('name="csrf" value="')[1].split('"')[0]
    opener.open(urllib.request.Request(base + "/profile/code", data=f"csrf={csrf}".encode(), method="POST"))
    page = opener.open(base + "/profile/code").read().decode()
    import re
    return re.search(r"[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}", page).group(0)


def deactivate(shop, slug):
    """Imports the demo catalog without `slug` (the running shop takes it within two seconds)."""
    lines = (ROOT / "Catalog" / "demo.csv").read_text().splitlines()
    path = Path(shop.folder) / "catalog.csv"
    path.write_text("\n".join(line for line in lines if not line.startswith(slug + ",")) + "\n")
    subprocess.run([str(BINARY), "catalog", "import", str(path), "--db", os.path.join(shop.folder, "shop.sqlite"),
                    "--resources", str(ROOT)], check=True, capture_output=True)


def test_every_route_and_status_answers_as_the_document_says(shop):
    raw = json.loads(urllib.request.urlopen(shop.url + "/api/v1/openapi.json").read())
    validate(raw)
    document = Document(raw)
    anyone = Client(shop.url, document)
    status, _, created = anyone.send("POST", "/api/v1/clients", {"device": "iPhone"})
    assert status == 201
    app = Client(shop.url, document, created["token"])
    other = Client(shop.url, document, anyone.send("POST", "/api/v1/clients")[2]["token"])

    # Reads without a token.
    anyone.send("GET", "/api/v1/openapi.json")
    assert anyone.send("GET", "/api/v1/problems/stale-cart")[0] == 200
    assert anyone.send("GET", "/api/v1/problems/nothing")[0] == 404
    assert anyone.send("GET", "/api/v1/catalog")[0] == 200
    assert anyone.send("GET", "/api/v1/catalog/3")[0] == 200
    assert anyone.send("GET", "/api/v1/catalog/999")[0] == 404
    assert anyone.send("GET", "/api/v1/search?q=tent")[0] == 200
    assert anyone.send("GET", "/api/v1/search?q=" + "a" * 101)[0] == 422
    assert anyone.send("GET", "/api/v1/delivery-methods")[0] == 200

    # The cart and its changes, each with its failures.
    status, headers, cart = app.send("GET", "/api/v1/cart")
    assert status == 200 and headers["ETag"] == '"0"' and cart["count"] == 3
    assert app.send("POST", "/api/v1/cart/lines", {"productId": "4", "quantity": 2})[0] == 200
    deactivate(shop, "daypack-22l")
    for _ in range(50):
        if not anyone.send("GET", "/api/v1/catalog/4", check=False)[2]["available"]:
            break
        time.sleep(0.1)
    for method, path, body in [("POST", "/api/v1/cart/lines", {"productId": "3"}), ("PUT", "/api/v1/cart/lines/3", {"quantity": 2}),
                               ("PATCH", "/api/v1/cart/lines/3", {"difference": 1})]:
        assert app.send(method, path, body)[0] == 200
        assert app.send(method, path, body=b'{"quantity": ')[0] == 400
        assert app.send(method, path, body=b"{" + b" " * 17_000 + b"}")[0] == 413
        assert app.send(method, path, body=b"quantity=2", content_type="text/plain")[0] == 415
        assert app.send(method, path, body, headers={"If-Match": '"1"'})[0] == 412
        assert Client(shop.url, document, "nope").send(method, path, body)[0] == 401
    assert app.send("POST", "/api/v1/cart/lines", {"productId": "999"})[0] == 422
    assert app.send("POST", "/api/v1/cart/lines", {"productId": "4"})[0] == 409
    assert app.send("PUT", "/api/v1/cart/lines/3", {"quantity": 11})[0] == 422
    assert app.send("PUT", "/api/v1/cart/lines/4", {"quantity": 3})[0] == 409
    assert app.send("PUT", "/api/v1/cart/lines/5", {"quantity": 3})[0] == 404
    assert app.send("PATCH", "/api/v1/cart/lines/3", {"difference": 0})[0] == 422
    assert app.send("PATCH", "/api/v1/cart/lines/4", {"difference": 1})[0] == 409
    assert app.send("PATCH", "/api/v1/cart/lines/5", {"difference": 1})[0] == 404
    assert app.send("DELETE", "/api/v1/cart/lines/4")[0] == 200
    assert app.send("DELETE", "/api/v1/cart/lines/x")[0] == 404
    assert app.send("DELETE", "/api/v1/cart/lines/3", headers={"If-Match": '"1"'})[0] == 412
    assert Client(shop.url, document).send("DELETE", "/api/v1/cart/lines/3")[0] == 401
    assert Client(shop.url, document).send("GET", "/api/v1/cart")[0] == 401

    # Pairing with the web's code.
    assert app.send("POST", "/api/v1/client/join", {"code": "BBBB-BBBB"})[0] == 422
    assert app.send("POST", "/api/v1/client/join", body=b"[")[0] == 400
    assert app.send("POST", "/api/v1/client/join", body=b'"' + b"x" * 17_000 + b'"')[0] == 413
    assert app.send("POST", "/api/v1/client/join", body=b"code=x", content_type="application/x-www-form-urlencoded")[0] == 415
    assert Client(shop.url, document, "nope").send("POST", "/api/v1/client/join", {"code": "BBBB-BBBB"})[0] == 401
    status, headers, joined = other.send("POST", "/api/v1/client/join", {"code": web_code(shop.url)})
    assert status == 200 and joined["added"] == 0

    # Checkout, once per key, and orders.
    assert app.send("POST", "/api/v1/checkout")[0] == 422
    bad = dict(DELIVERY, country="ZZ")
    assert app.send("POST", "/api/v1/checkout", {"delivery": bad})[0] == 422
    key = {"Idempotency-Key": "conformance-1"}
    status, headers, placed = app.send("POST", "/api/v1/checkout", {"delivery": DELIVERY}, headers=key)
    assert status == 201
    assert app.send("POST", "/api/v1/checkout", {"delivery": DELIVERY}, headers=key)[0] == 200
    assert app.send("POST", "/api/v1/checkout", {"delivery": DELIVERY})[0] == 409
    assert app.send("POST", "/api/v1/checkout", body=b"{,}")[0] == 400
    assert app.send("POST", "/api/v1/checkout", body=b"{" + b" " * 17_000 + b"}")[0] == 413
    assert app.send("POST", "/api/v1/checkout", body=b"x", content_type="text/plain")[0] == 415
    assert Client(shop.url, document).send("POST", "/api/v1/checkout")[0] == 401
    order = placed["order"]["id"]
    assert app.send("GET", "/api/v1/orders")[0] == 200
    assert app.send("GET", f"/api/v1/orders/{order}")[0] == 200
    assert other.send("GET", f"/api/v1/orders/{order}")[0] == 404
    assert Client(shop.url, document).send("GET", "/api/v1/orders")[0] == 401
    assert Client(shop.url, document).send("GET", f"/api/v1/orders/{order}")[0] == 401

    # The live stream, devices and signing out.
    assert app.send("GET", "/api/v1/events", stream=True)[0] == 200
    assert Client(shop.url, document).send("GET", "/api/v1/events")[0] == 401
    status, _, devices = other.send("GET", "/api/v1/devices")
    assert status == 200 and len(devices["devices"]) == 2
    assert Client(shop.url, document).send("GET", "/api/v1/devices")[0] == 401
    assert other.send("DELETE", "/api/v1/devices/000000000000000000000000")[0] == 404
    web = next(device["id"] for device in devices["devices"] if not device["current"])
    assert other.send("DELETE", f"/api/v1/devices/{web}")[0] == 204
    assert Client(shop.url, document).send("DELETE", f"/api/v1/devices/{web}")[0] == 401

    # Limits, last: wrong codes, then new clients, from this address.
    for _ in range(25):
        if app.send("POST", "/api/v1/client/join", {"code": "BBBB-BBBB"})[0] == 429:
            break
    assert app.send("POST", "/api/v1/client/join", {"code": "BBBB-BBBB"})[0] == 429
    assert anyone.send("POST", "/api/v1/clients", body=b"{")[0] == 400
    assert anyone.send("POST", "/api/v1/clients", body=b"{" + b" " * 17_000 + b"}")[0] == 413
    assert anyone.send("POST", "/api/v1/clients", body=b"device=x", content_type="text/plain")[0] == 415
    assert anyone.send("POST", "/api/v1/clients", {"device": "x" * 61})[0] == 422
    for _ in range(25):
        if anyone.send("POST", "/api/v1/clients")[0] == 429:
            break
    assert anyone.send("POST", "/api/v1/clients")[0] == 429

    # A malformed address is 400 on every operation, before anything is looked at.
    concrete = {"/api/v1/catalog/{id}": "/api/v1/catalog/3", "/api/v1/cart/lines/{productId}": "/api/v1/cart/lines/3",
                "/api/v1/orders/{id}": f"/api/v1/orders/{order}", "/api/v1/devices/{id}": "/api/v1/devices/x",
                "/api/v1/problems/{slug}": "/api/v1/problems/stale-cart"}
    for template, item in raw["paths"].items():
        for method in item:
            if method in ("get", "put", "post", "patch", "delete"):
                assert app.send(method.upper(), concrete.get(template, template) + "?q=%ZZ", stream=template.endswith("events"))[0] == 400

    # Every other method of a path is 405 with Allow, as a problem.
    for path in ["/api/v1/cart", "/api/v1/catalog", "/api/v1/cart/lines/3", "/api/v1/clients"]:
        status, headers, problem = Client(shop.url, document, created["token"]).send("OPTIONS", path, check=False)
        assert status == 405 and headers["Allow"] and problem["type"] == "/api/v1/problems/method-not-allowed"

    missing = sorted(entry for entry in document.operations()
                     if entry not in document.seen and entry[2] not in UNREACHABLE_STATUSES
                     and not any(entry == exempt[1:] for exempt in NOT_EXERCISED))
    assert not missing, f"listed in the document but never answered: {missing}"
