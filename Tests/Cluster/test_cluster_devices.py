"""Continue on another device across three instances on one PostgreSQL: a code shown through
one, the join posted through another, the cart changed through the third; every client's
streams, on every instance, follow; signing the other device out through any instance ends its
stream on the instance that holds it."""
from __future__ import annotations

import re
import threading

from cluster_support import cluster, postgres  # noqa: F401 (the pytest fixtures used below)
from cluster_support import EventStream
from resilience_support import Shopper, cookie_value, csrf_token

CODE = re.compile(rb"[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}")
TENT = 3
RAIN_SHELL = 5


def new_code(shopper, port):
    """Shows a new code on `shopper`'s device through `port`, and reads it off its page."""
    assert shopper.post(port, "/profile/code", {}).status == 303
    return CODE.search(shopper.request(port, "GET", "/profile/code").body).group().decode()


def join(shopper, port, code):
    """Posts Join as a browser would: a browser stored already goes on under the new cookie the
    answer sets (against session fixation), with its pages' new CSRF token."""
    answer = shopper.request(port, "POST", "/join", {"csrf": shopper.csrf, "code": code})
    cookie = cookie_value(answer.set_cookie)
    if cookie is not None:
        shopper.cookie = cookie
        shopper.csrf = csrf_token(shopper.request(port, "GET", "/cart").body)
    return answer


def ends(stream, what):
    try:
        stream.next(timeout=5)
        raise AssertionError(what)
    except EOFError:
        pass


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
    # The laptop's own tabs, open before the join: one on the instance that takes it, one not.
    laptop_here, laptop_elsewhere = EventStream(second.port, laptop.cookie), EventStream(first.port, laptop.cookie)
    assert laptop_here.next() == 4 and laptop_elsewhere.next() == 4
    old_cookie = laptop.cookie
    joined = join(laptop, second.port, code.group().decode())
    assert joined.status == 303 and joined.location.startswith("/cart?joined=4."), joined
    assert laptop.cookie != old_cookie, "the stored laptop kept its cookie across the join"
    assert phone_stream.next(timeout=5) == 7, "the phone's stream on the third instance missed the join"
    # The laptop's old identity is spent with the join: its streams end on every instance, and
    # its pages open new ones with the new cookie.
    ends(laptop_here, "the laptop's old stream on the joining instance stayed open")
    ends(laptop_elsewhere, "the laptop's old stream on another instance stayed open")
    assert EventStream(second.port, laptop.cookie).next() == 7
    again = laptop.post(second.port, "/join", {"code": code.group().decode()})
    assert again.status == 303 and again.location == "/cart", f"a second press of Join: {again}"

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
    ends(laptop_stream, "the signed-out laptop's stream on the first instance stayed open")
    for server in (first, second, third):
        page = laptop.request(server.port, "GET", "/cart")
        assert cookie_value(page.set_cookie) not in (None, laptop.cookie), "the signed-out cookie is still a session"
        assert b"8 items" not in page.body


def test_changes_racing_a_join_through_another_instance_all_land(cluster):
    """The joining browser's other tab adds to its cart through another instance while the join
    commits: each add lands once, before the join (and is merged), or comes after it and is
    refused with 403 (the join spent the cookie the tab still sends); none acknowledged is lost."""
    first, second = cluster(2)
    for _ in range(6):
        phone = Shopper()
        phone.begin(first.port)
        code = new_code(phone, first.port)
        laptop = Shopper()
        laptop.begin(second.port)
        assert laptop.post(second.port, "/cart/items", {"product": str(RAIN_SHELL)}).status == 303
        before = EventStream(first.port, phone.cookie).next() + EventStream(second.port, laptop.cookie).next()
        other_tab, statuses = Shopper(cookie=laptop.cookie, csrf=laptop.csrf), []

        def add_three():
            for _ in range(3):
                fields = {"csrf": other_tab.csrf, "product": str(RAIN_SHELL)}
                statuses.append(other_tab.request(second.port, "POST", "/cart/items", fields).status)

        adding = threading.Thread(target=add_three)
        adding.start()
        joined = join(laptop, first.port, code)
        adding.join()
        assert joined.status == 303 and all(status in (303, 403) for status in statuses), (joined, statuses)
        assert statuses == sorted(statuses), f"an add after a refused one landed: {statuses}"
        landed = statuses.count(303)
        assert EventStream(second.port, phone.cookie).next() == before + landed, f"an acknowledged add was lost at the join: {statuses}"


def join_while_signing_out(first, second, signing_out, bring=None):
    """A phone shows a code through `first`; a laptop (stored, with one `bring` added, or never
    stored without one) posts the join through `second` while `signing_out` (the phone, or another tab of the
    laptop) signs itself out through `first`. Returns the phone, the laptop, the two
    answers' statuses and the cookie the join's answer set, if any."""
    phone = Shopper()
    phone.begin(first.port)
    code = new_code(phone, first.port)
    laptop = Shopper()
    if bring is None:
        # A browser that never changed anything: its join stores it.
        page = laptop.request(second.port, "GET", "/cart")
        laptop.cookie, laptop.csrf = cookie_value(page.set_cookie), csrf_token(page.body)
    else:
        laptop.begin(second.port)
        assert laptop.post(second.port, "/cart/items", {"product": str(bring)}).status == 303
    who = signing_out(phone, laptop)
    answers = {}
    thread = threading.Thread(target=lambda: answers.update(out=who.request(first.port, "POST", "/profile/sign-out", {"csrf": who.csrf}).status))
    thread.start()
    joined = laptop.request(second.port, "POST", "/join", {"csrf": laptop.csrf, "code": code})
    thread.join()
    return phone, laptop, answers["out"], joined.status, cookie_value(joined.set_cookie)


def test_the_showing_device_signing_out_while_its_code_is_joined_loses_nothing(cluster):
    """The phone signs out through one instance while the laptop joins its code through another:
    either the join comes first, and the cart it made stays the laptop's (the phone's sign-out
    takes only the phone), or the sign-out does, and the join is refused."""
    first, second = cluster(2)
    for _ in range(6):
        _, laptop, out, joined, join_cookie = join_while_signing_out(first, second, lambda phone, _: phone, bring=RAIN_SHELL)
        assert out == 303 and joined in (303, 400), (out, joined)
        # A join goes on under the cookie its answer set, as the browser does.
        laptop.cookie = join_cookie or laptop.cookie
        page = laptop.request(second.port, "GET", "/cart")
        assert cookie_value(page.set_cookie) is None, f"the laptop lost its session (join answered {joined})"
        assert b"Rain Shell Jacket" in page.body, "the laptop's cart is gone"


def test_a_browser_signing_out_while_it_joins_stays_signed_out(cluster):
    """One tab signs the laptop out through one instance while another joins a code through
    the other: whichever commits first, the laptop's cookie reaches no cart afterwards, and the
    phone's Devices card does not list it."""
    first, second = cluster(2)
    for round in range(8):
        # Half the rounds with a laptop that never changed anything, which its join stores.
        phone, laptop, out, joined, join_cookie = join_while_signing_out(
            first, second, lambda _, laptop: Shopper(cookie=laptop.cookie, csrf=laptop.csrf), bring=None if round % 2 else RAIN_SHELL
        )
        if out == 403:
            # The join came first and gave the laptop a new cookie (storing the never-stored one,
            # or spending the stored one's id): the old cookie signs nothing out (it may be one
            # planted from outside), so the tab is refused, and a reload gives it the new cookie,
            # with which it signs out.
            assert joined == 303 and join_cookie, (round, out, joined)
            tab = Shopper(cookie=join_cookie)
            tab.csrf = csrf_token(tab.request(first.port, "GET", "/profile").body)
            out = tab.request(first.port, "POST", "/profile/sign-out", {"csrf": tab.csrf}).status
            page = Shopper(cookie=join_cookie).request(second.port, "GET", "/cart")
            assert cookie_value(page.set_cookie) not in (None, join_cookie), "the cookie the join set still reaches a cart"
        assert out == 303 and joined in (303, 400, 403), (out, joined)
        page = Shopper(cookie=laptop.cookie).request(second.port, "GET", "/cart")
        assert cookie_value(page.set_cookie) not in (None, laptop.cookie), f"the signed-out cookie still reaches a cart (join: {joined})"
        profile = phone.request(first.port, "GET", "/profile")
        assert not re.findall(rb'name="device" value="([0-9a-f]+)"', profile.body), "the phone still lists the signed-out laptop"


def test_signing_out_everywhere_while_a_device_joins_leaves_no_one_in(cluster):
    """The phone's second device presses "Sign out everywhere" through one instance while a
    laptop joins the phone's code through the other: the laptop is either one of the devices
    signed out, or refused (the device that showed the code is gone). Either way the second
    device is alone in its cart."""
    first, second = cluster(2)
    for _ in range(6):
        phone = Shopper()
        phone.begin(first.port)
        tablet_code = new_code(phone, first.port)
        tablet = Shopper()
        tablet.begin(first.port)
        assert join(tablet, first.port, tablet_code).status == 303
        code = new_code(phone, first.port)
        laptop = Shopper()
        laptop.begin(second.port)
        answers = {}
        thread = threading.Thread(
            target=lambda: answers.update(out=tablet.request(first.port, "POST", "/profile/devices/sign-out-others", {"csrf": tablet.csrf}).status)
        )
        thread.start()
        joined = laptop.request(second.port, "POST", "/join", {"csrf": laptop.csrf, "code": code})
        thread.join()
        assert answers["out"] == 303 and joined.status in (303, 400), (answers, joined)
        profile = tablet.request(first.port, "GET", "/profile")
        assert not re.findall(rb'name="device" value="([0-9a-f]+)"', profile.body), f"a device is still in the cart (join: {joined.status})"
