"""A live page on a bad network (issue "Installable, and honest on a bad network"): a stream
that goes silent is noticed, the browser's offline and online are heeded, and a post whose
answer was lost is not said to have changed nothing.

A silent connection and a lost answer are made by a small TCP proxy between Chromium and the
shop (`tunnel_proxy.py`); the browser's offline and online by the DevTools Protocol. The
shop runs with `--test-heartbeat 1` (a keep-alive comment every second, not every 15), so a
silent stream is noticed in about 4.5 s rather than 25.5 s.
"""
import pytest
from selenium.webdriver.common.by import By

from conftest import BINARY, PHONE, QuickCartServer
from forms_support import page_marker, same_page
from pages import badge, button, press, wait_for
from test_live_pages import inline_error, offline_bar
from test_offline_app import network
from tunnel_proxy import TunnelProxy


@pytest.fixture
def shop():
    """A shop of its own with a keep-alive comment every second, behind a proxy."""
    server = QuickCartServer(BINARY, ("--test-heartbeat", "1"))
    proxy = TunnelProxy(int(server.url.rsplit(":", 1)[1]))
    yield server, proxy
    proxy.close()
    server.stop()


def other_client(browser, driver, server_url):
    """A second browser of the same session that reaches the shop directly, not through the proxy.

    The session is stored first (a post of the theme it has), and both browsers take the cookie
    that gives it, as two tabs of one browser would: the cookie before a first change only
    finishes what was in flight, and opens no stream once replaced."""
    other = browser(size=PHONE)
    other.get(server_url + "/healthz")
    for cookie in driver.get_cookies():
        other.add_cookie({"name": cookie["name"], "value": cookie["value"], "path": "/"})
    other.get(server_url + "/cart")
    stored = other.execute_script("""
        const body = new URLSearchParams({ csrf: document.querySelector('input[name="csrf"]').value, theme: 'system' });
        return fetch('/profile/theme', { method: 'POST', body, redirect: 'manual' }).then((answer) => answer.type);""")
    assert stored == "opaqueredirect", f"the theme post that stores the session: {stored}"
    session = other.get_cookie("quickcart_session")
    driver.add_cookie({"name": session["name"], "value": session["value"], "path": "/"})
    other.get(server_url + "/cart")
    return other


def cart_page(driver):
    """What the open cart page shows: each row's quantity, the Items count, the subtotal and the badge."""
    return driver.execute_script("""
        const rows = {};
        for (const row of document.querySelectorAll('main li[id^="item-"]')) {
          rows[row.querySelector('.cart-item__name').textContent.trim()] = row.querySelector('[data-quantity]').textContent.trim();
        }
        const badge = document.querySelector('[data-badge]');
        return { rows, items: document.querySelector('td[data-count]').textContent.trim(),
                 subtotal: document.querySelector('[data-subtotal]').textContent.trim(),
                 badge: badge.hidden ? '' : badge.textContent.trim() };
    """)


def stream_open(server):
    """Whether the page's event stream is open on the shop (so a change now reaches it)."""
    return server.event_stream_count() == 1


def test_a_stream_gone_silent_is_noticed_and_afterwards_the_badge_and_cart_are_right(shop, browser):
    server, proxy = shop
    driver = browser(size=PHONE)
    driver.get(proxy.url + "/cart")
    wait_for(lambda: stream_open(server), what="the cart page's stream, open")
    other = other_client(browser, driver, server.url)
    page_marker(driver)

    # The connections through the proxy go silent: no FIN, no RST, nothing more arrives.
    proxy.forget()
    wait_for(lambda: offline_bar(driver) == "Offline — changes will not be saved", timeout=12.0,
             what="the Offline bar once the stream has been silent longer than its keep-alives allow")
    press(other, "Increase quantity of Trail Running Shoes")
    wait_for(lambda: badge(other) == "4", what="the other client's badge after its increase")
    assert badge(driver) == "3", "nothing can reach the page in the tunnel"

    # The page asks again after 2, 4, 8 s (±30 %) of failures, so within about 11 s of the end.
    proxy.restore()
    expected = cart_page(other)
    wait_for(lambda: cart_page(driver) == expected and offline_bar(driver) == "", timeout=20.0,
             what=f"the page and its badge as the shop holds them ({expected}) after the tunnel, without a reload")
    assert same_page(driver), "the page recovered in place, not by a reload"


def test_offline_shows_the_bar_at_once_and_online_brings_the_page_and_badge_together(shop, browser):
    server, _ = shop
    driver = browser(size=PHONE)
    driver.get(server.url + "/cart")
    wait_for(lambda: stream_open(server), what="the cart page's stream, open")
    other = other_client(browser, driver, server.url)
    page_marker(driver)

    network(driver, online=False)
    wait_for(lambda: offline_bar(driver) == "Offline — changes will not be saved", timeout=2.0,
             what="the Offline bar as soon as the browser says it is offline")
    press(driver, "Remove Insulated Water Bottle")
    wait_for(lambda: inline_error(driver).startswith("You’re offline"), what="the post's own message that it was not sent")

    # Meanwhile the cart changes elsewhere; the page cannot read itself again while offline.
    press(other, "Increase quantity of Trail Running Shoes")
    wait_for(lambda: badge(other) == "4", what="the other client's badge after its increase")

    network(driver, online=True)
    expected = cart_page(other)
    wait_for(lambda: cart_page(driver) == expected, timeout=8.0,
             what=f"the page and its badge as the shop holds them ({expected}) once back online")
    assert offline_bar(driver) == "" and inline_error(driver) == "", \
        f"back online, no Offline bar ({offline_bar(driver)!r}) and no stale message ({inline_error(driver)!r})"
    assert same_page(driver), "the page recovered in place, not by a reload"


def test_a_post_whose_answer_was_lost_is_not_said_to_have_changed_nothing(shop, browser):
    server, proxy = shop
    driver = browser(size=PHONE)
    driver.get(proxy.url + "/cart")
    wait_for(lambda: stream_open(server), what="the cart page's stream, open")
    page_marker(driver)

    # The post reaches the shop; its answer does not reach the browser. The page's first
    # message is noted as it appears, as the page reads itself again at once.
    driver.execute_script("""
        window.firstError = null;
        new MutationObserver(() => {
          const box = document.querySelector('.form-error');
          if (box && !window.firstError) window.firstError = { text: box.textContent, retry: !!box.querySelector('button') };
        }).observe(document.body, { childList: true, subtree: true });
    """)
    proxy.cut_answers()
    press(driver, "Increase quantity of Trail Running Shoes")
    first = wait_for(lambda: driver.execute_script("return window.firstError"), what="the post's inline message")
    assert "nothing was changed" not in first["text"], f"the page cannot know that nothing changed: {first['text']!r}"
    assert "may or may not have been done" in first["text"], first["text"]
    assert not first["retry"], "no Retry before the page shows what the shop holds: the change may have been made"

    # The page reads itself again (the shop answers its GET), shows the cart as the shop holds
    # it, and only then offers Retry.
    wait_for(lambda: "now shows what it holds" in inline_error(driver), timeout=8.0,
             what="the message saying the page now shows what the shop holds")
    held = cart_page(other_client(browser, driver, server.url))
    shown = cart_page(driver)
    assert shown == held, f"the page shows {shown}; the shop holds {held}"
    assert int(shown["rows"]["Trail Running Shoes"]) >= 2, f"the increase reached the shop, so the page shows it: {shown}"
    assert button(driver, "Retry").is_displayed()
    assert same_page(driver)
