"""Every open window follows the cart, not just its badge (issue 13): "N in cart" on Home and
Search and the cart's rows change in place when the cart changes in another window; and a
server that goes away shows an Offline bar, a press then an inline message that cannot say
whether the change was made, and when the server is back the bar goes and the page shows the
cart as the server holds it, with Retry."""
import os
import re
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from conftest import PHONE, ROOT
from forms_support import focused_name, page_marker, press_and_hear, row_names, same_page, scroll_y, spoken
from pages import badge, button, outside_landmarks, press, wait_for


def pill(driver, product_id):
    """The "N in cart" text on a product's card, '' when it has none."""
    return driver.execute_script(
        "const p = document.querySelector(`#product-${arguments[0]} .product__in-cart`);"
        "return p ? p.textContent.trim() : ''", product_id)


def product_id(driver, name):
    for card in driver.find_elements(By.CSS_SELECTOR, ".product"):
        if card.find_element(By.CSS_SELECTOR, ".product__name").get_attribute("textContent").strip() == name:
            return card.get_attribute("id").removeprefix("product-")
    raise AssertionError(f"expected a card for {name!r} on {driver.current_url}")


def add_the_tent_from(driver, kind, url):
    """Opens `url` in a new window or tab (`kind`) of the same session and adds the Ultralight
    Tent there, hearing it announced; stays in that window."""
    driver.switch_to.new_window(kind)
    driver.get(url)
    press_and_hear(driver, "Add Ultralight Tent to cart", "Added Ultralight Tent — 1 in cart")


def test_a_second_windows_pills_and_rows_follow(server, browser):
    driver = browser(size=PHONE)
    driver.get(server.url + "/search?q=tent")
    tent = product_id(driver, "Ultralight Tent")
    watching = driver.current_window_handle
    assert pill(driver, tent) == "", "expected no tent in the cart yet"
    driver.execute_script("window.scrollTo(0, 60)")
    place = scroll_y(driver)
    page_marker(driver)

    driver.switch_to.new_window("window")
    driver.get(server.url + "/cart")
    cart = driver.current_window_handle
    page_marker(driver)

    add_the_tent_from(driver, "window", server.url + "/")

    driver.switch_to.window(watching)
    wait_for(lambda: pill(driver, tent) == "1 in cart", timeout=3.0, what="the tent's pill to say 1 in cart in the other window")
    assert same_page(driver) and scroll_y(driver) == place, "expected the search to change in place, where it was scrolled"
    assert badge(driver) == "4"

    driver.switch_to.window(cart)
    wait_for(lambda: "Ultralight Tent" in row_names(driver, ".cart-item__name"), timeout=3.0,
             what="the tent's row in the other window's cart")
    assert same_page(driver), "expected the cart to change in place"
    assert driver.find_element(By.CSS_SELECTOR, "[data-subtotal]").text == "$526.00"

    # And back: a change made on the cart page reaches the search's pill.
    press_and_hear(driver, "Increase quantity of Ultralight Tent", "Ultralight Tent — 2 in cart")
    driver.switch_to.window(watching)
    wait_for(lambda: pill(driver, tent) == "2 in cart", timeout=3.0, what="the pill to say 2 in cart")
    assert spoken(driver) != "Ultralight Tent — 2 in cart", "a window that changed nothing should not claim the change"


def test_a_hidden_tab_catches_up_when_it_is_shown(server, browser):
    driver = browser(size=PHONE)
    driver.get(server.url + "/")
    home = driver.current_window_handle
    tent = product_id(driver, "Ultralight Tent")
    page_marker(driver)

    add_the_tent_from(driver, "tab", server.url + "/search?q=tent")

    driver.switch_to.window(home)
    wait_for(lambda: pill(driver, tent) == "1 in cart", timeout=3.0, what="Home's tent pill once its tab is shown again")
    assert same_page(driver), "expected Home to change in place"


class RestartableServer:
    """quickcart on one port and database that a test can stop and start again."""

    def __init__(self):
        self.folder = tempfile.mkdtemp(prefix="quickcart-offline-")
        self.binary = Path(os.environ.get("QUICKCART_BINARY", ROOT / ".build" / "debug" / "quickcart"))
        self.port = 0
        self.process = None
        self.url = self.start()

    def start(self):
        log = open(os.path.join(self.folder, "quickcart.stderr"), "ab")
        self.process = subprocess.Popen(
            [str(self.binary), "--port", str(self.port), "--db", os.path.join(self.folder, "shop.sqlite"),
             "--resources", str(ROOT)],
            stdout=subprocess.PIPE, stderr=log, text=True)
        log.close()
        match = re.search(r"http://([\d.]+):(\d+)/", self.process.stdout.readline())
        if not match:
            self.stop()
            raise RuntimeError("quickcart did not start")
        self.port = int(match.group(2))
        return f"http://{match.group(1)}:{self.port}"

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


@pytest.fixture
def restartable():
    instance = RestartableServer()
    yield instance
    instance.stop()
    shutil.rmtree(instance.folder, ignore_errors=True)


def offline_bar(driver):
    """The Offline bar's text while it is shown, else ''."""
    return driver.execute_script(
        "const b = document.querySelector('.offline-bar[role=status]');"
        "return b && b.getClientRects().length ? b.textContent.trim() : ''")


def inline_error(driver):
    return driver.execute_script(
        "const e = document.querySelector('.form-error'); return e ? e.textContent.replace(/\\s+/g, ' ').trim() : ''")


def test_a_stopped_server_shows_offline_and_an_honest_message_and_coming_back_shows_the_cart_with_retry(restartable, browser):
    driver = browser(size=PHONE)
    driver.get(restartable.url + "/cart")
    wait_for(lambda: badge(driver) == "3", what="the demo cart")
    page_marker(driver)
    assert offline_bar(driver) == "", "expected no Offline bar while the server is up"

    restartable.stop()
    wait_for(lambda: offline_bar(driver) == "Offline — changes will not be saved", timeout=10.0,
             what="the Offline bar a few seconds after the server stopped")
    assert not outside_landmarks(driver), "the Offline bar's words are outside every landmark"
    press(driver, "Increase quantity of Trail Running Shoes")
    # The browser is online, so the post may have reached the shop before the connection broke.
    wait_for(lambda: "may or may not have been done" in inline_error(driver),
             what="an inline message after a press while the server is gone")
    assert same_page(driver) and driver.execute_script("return document.body.dataset.page") == "cart", \
        "expected the cart to stay, not the browser's error page"
    assert focused_name(driver) == "Increase quantity of Trail Running Shoes", "expected focus to stay on the control pressed"
    assert not driver.find_elements(By.CSS_SELECTOR, ".form-error button"), "no Retry while what the shop holds is unknown"

    restartable.start()
    wait_for(lambda: offline_bar(driver) == "" and "now shows what it holds" in inline_error(driver), timeout=15.0,
             what="the Offline bar gone and the message saying the page shows the server's cart once it is back")
    rows = dict(zip(row_names(driver, ".cart-item__name"), row_names(driver, "[data-quantity]")))
    assert rows["Trail Running Shoes"] == "1", f"the server never had the post: {rows}"
    press_and_hear(driver, "Retry", "Trail Running Shoes — 2 in cart")
    assert inline_error(driver) == ""
    assert same_page(driver)
