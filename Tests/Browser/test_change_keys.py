"""One press, one change (README "One change per press"): every cart change the page script
posts carries a fresh key, and when a post reaches the shop but its answer is lost with the
connection, Chromium's own resends of it change the cart no more than the press did."""
import json
import re
import select
import socket
import struct
import threading
from urllib.parse import parse_qs, urlparse

from selenium.webdriver.common.by import By

from conftest import PHONE
from pages import press, wait_for


def posted_forms(driver):
    """The bodies of the POSTs the page sent since the last call, from the DevTools Protocol's log."""
    forms = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            request = message["params"]["request"]
            if request["method"] == "POST":
                forms.append(parse_qs(request.get("postData", ""), keep_blank_values=True))
    return forms


def shoes_quantity(driver):
    """The quantity the cart page shows of Trail Running Shoes."""
    return driver.execute_script("""
        const row = [...document.querySelectorAll('.cart-item')]
          .find((r) => r.querySelector('.cart-item__name').textContent === 'Trail Running Shoes');
        return row ? row.querySelector('[data-quantity]').textContent : null;""")


def shoes_in_cart(driver):
    """What Home's card of Trail Running Shoes says is in the cart ("2 in cart"), or ''."""
    return driver.execute_script("""
        const card = [...document.querySelectorAll('.product')]
          .find((c) => c.querySelector('.product__name').textContent === 'Trail Running Shoes');
        const pill = card && card.querySelector('.product__in-cart');
        return pill ? pill.textContent : '';""")


def script_started(driver):
    wait_for(lambda: driver.execute_script("return document.querySelector('nav.tab-bar').dataset.liveUrl !== undefined"),
             what="the page script")


def test_each_press_of_add_and_a_stepper_posts_a_fresh_key(server, browser):
    driver = browser(size=PHONE, network_log=True)
    driver.get(server.url + "/")
    script_started(driver)
    posted_forms(driver)
    press(driver, "Add Trail Running Shoes to cart")
    wait_for(lambda: shoes_in_cart(driver) == "2 in cart", what="2 in cart on Home")
    driver.get(server.url + "/cart")
    script_started(driver)
    for expected in ("3", "4"):
        press(driver, "Increase quantity of Trail Running Shoes")
        wait_for(lambda: shoes_quantity(driver) == expected, what=f"quantity {expected}")
    forms = posted_forms(driver)
    assert len(forms) == 3, f"expected three posts (Add, +, +), saw {forms}"
    keys = [form.get("change", []) for form in forms]
    assert all(len(key) == 1 and re.fullmatch(r"[A-Za-z0-9_-]{22}", key[0]) for key in keys), \
        f"each post should carry one key of 16 bytes in base64url: {keys}"
    assert len({key[0] for key in keys}) == 3, f"each press should carry a key of its own: {keys}"


class AnswerCutter:
    """A TCP proxy to the shop that, while `cutting`, passes each POST on but resets the
    connection instead of passing its answer back: the post arrived, its 303 is lost."""

    def __init__(self, target_port):
        self.target_port = target_port
        self.cutting = True
        self.posts = 0
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self):
        self.listener.close()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client):
        # One thread per connection, both directions in one select loop, so that closing the
        # client's socket with a reset leaves no other thread holding it open.
        upstream = socket.create_connection(("127.0.0.1", self.target_port))
        try:
            while True:
                readable, _, _ = select.select([client, upstream], [], [])
                if client in readable:
                    data = client.recv(65536)
                    if not data:
                        return
                    if data.startswith(b"POST "):
                        self.posts += 1
                    upstream.sendall(data)
                if upstream in readable:
                    data = upstream.recv(65536)
                    if not data:
                        return
                    if self.cutting and data.startswith(b"HTTP/1.1 303"):
                        # The answer is dropped and the connection reset (RST, before any answer byte).
                        client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                        return
                    client.sendall(data)
        except OSError:
            pass
        finally:
            client.close()
            upstream.close()


def test_a_post_whose_answer_is_lost_counts_once_however_often_chromium_resends_it(server, browser):
    cutter = AnswerCutter(urlparse(server.url).port)
    try:
        driver = browser(size=PHONE)
        driver.get(f"http://127.0.0.1:{cutter.port}/cart")
        script_started(driver)
        assert shoes_quantity(driver) == "1"
        press(driver, "Increase quantity of Trail Running Shoes")
        # Chromium resends the post on its own, then gives up: the page says the post failed.
        wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, ".form-error"), timeout=20, what="the failed post's message")
        assert cutter.posts >= 2, f"Chromium did not resend the post ({cutter.posts} seen): the test shows nothing"
        cutter.cutting = False
        # Cookies do not depend on the port: the shop itself shows the session's cart.
        driver.get(server.url + "/cart")
        assert shoes_quantity(driver) == "2", f"{cutter.posts} copies of one press reached the shop"
    finally:
        cutter.close()
