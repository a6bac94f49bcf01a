"""Continue on another device across three instances on one PostgreSQL: a code shown through
one, the join posted through another, the cart changed through the third; every client's
streams, on every instance, follow; signing the other device out through any instance ends its
stream on the instance that holds it."""
from __future__ import annotations

import re

from cluster_support import cluster, postgres  # noqa: F401 (the pytest fixtures used below)
from cluster_support import EventStream
from resilience_support import Shopper, cookie_value

CODE = re.compile(rb"[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}")
TENT = 3


def test_a_join_through_one_instance_and_a_change_through_another_reach_every_stream(cluster):
    first, second, third = cluster(3)
    phone = Shopper()
    phone.begin(first.port)
    assert phone.post(first.port, "/profile/code", {}).status == 303
    page = phone.request(second.port, "GET", "/profile/code")
    code = CODE.search(page.body)
    assert page.status == 200 and code, page.body[:400]
    phone_stream = EventStream(third.port, phone.cookie)
    assert phone_stream.next() == 3

    laptop = Shopper()
    laptop.begin(third.port)
    assert laptop.post(third.port, "/cart/items", {"product": str(TENT)}).status == 303
    joined = laptop.post(second.port, "/join", {"code": code.group().decode()})
    assert joined.status == 303 and joined.location == "/cart?joined=4", joined
    assert phone_stream.next(timeout=5) == 7, "the phone's stream on the third instance missed the join"

    laptop_stream = EventStream(first.port, laptop.cookie)
    assert laptop_stream.next() == 7
    assert laptop.post(third.port, "/cart/items", {"product": str(TENT)}).status == 303
    assert phone_stream.next(timeout=5) == 8, "a change through the laptop missed the phone's stream"
    assert laptop_stream.next(timeout=5) == 8

    profile = phone.request(first.port, "GET", "/profile")
    handles = re.findall(rb'name="device" value="([0-9a-f]+)"', profile.body)
    assert len(handles) == 1, profile.body[:400]
    signed_out = phone.post(second.port, "/profile/devices/sign-out", {"device": handles[0].decode()})
    assert signed_out.status == 303, signed_out
    try:
        laptop_stream.next(timeout=5)
        raise AssertionError("the signed-out laptop's stream on the first instance stayed open")
    except EOFError:
        pass
    for server in (first, second, third):
        page = laptop.request(server.port, "GET", "/cart")
        assert cookie_value(page.set_cookie) not in (None, laptop.cookie), "the signed-out cookie is still a session"
        assert b"8 items" not in page.body
