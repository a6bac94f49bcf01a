"""With JavaScript off the shop still keeps your place (issue 13): the 303 leads back to the
row's anchor, the browser scrolls to it, and the next page says once what happened."""
import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request

from selenium.webdriver.common.by import By

from conftest import PHONE
from pages import press, wait_for


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def notice(driver):
    found = driver.find_elements(By.CSS_SELECTOR, "main [data-notice]")
    return found[0].text if found else ""


def in_view(driver, element_id):
    return driver.execute_script(
        "const r = document.getElementById(arguments[0]).getBoundingClientRect();"
        "return r.top >= 0 && r.bottom <= innerHeight", element_id)


def test_the_303_carries_the_row_anchor_and_a_one_shot_notice(server):
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirect)
    page = opener.open(server.url + "/search?q=tent", timeout=10).read().decode()
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    product = re.search(r'<li class="product" id="product-(\d+)"', page).group(1)
    form = urllib.parse.urlencode({"csrf": csrf, "return_to": "/search?q=tent", "product": product}).encode()
    request = urllib.request.Request(server.url + "/cart/items", data=form, headers={"Origin": server.url})
    try:
        opener.open(request, timeout=10)
        raise AssertionError("expected a 303 from Add")
    except urllib.error.HTTPError as answer:
        assert answer.code == 303
        assert answer.headers["Location"] == f"/search?q=tent#product-{product}"
        cookies = [c for c in answer.headers.get_all("Set-Cookie") if c.startswith("quickcart_notice=")]
    assert cookies, "expected the notice cookie on the 303"
    attributes = {part.strip().split("=")[0].lower() for part in cookies[0].split(";")[1:]}
    assert {"path", "max-age", "httponly", "samesite"} <= attributes, f"expected a short-lived HttpOnly cookie, saw {cookies[0]}"


def test_without_javascript_the_change_comes_back_to_its_row_with_a_notice(server, browser):
    driver = browser(size=PHONE, javascript=False)
    driver.get(server.url + "/search?q=a")
    cards = driver.find_elements(By.CSS_SELECTOR, ".product")
    card_id = cards[12].get_attribute("id")
    name = cards[12].find_element(By.CSS_SELECTOR, ".product__name").text
    press(driver, f"Add {name} to cart")
    wait_for(lambda: driver.current_url.endswith(f"/search?q=a#{card_id}"), what=f"the search again, at #{card_id}")
    assert notice(driver) == f"Added {name} — 1 in cart"
    assert in_view(driver, card_id), "expected the browser to scroll to the card that was added"

    driver.get(server.url + "/cart")
    first, second = [row.get_attribute("id") for row in driver.find_elements(By.CSS_SELECTOR, ".cart-item")][:2]
    assert notice(driver) == "", "expected the notice to show once"
    press(driver, "Increase quantity of Trail Running Shoes")
    wait_for(lambda: driver.current_url.endswith(f"/cart#{first}"), what=f"the cart again, at #{first}")
    assert notice(driver) == "Trail Running Shoes — 2 in cart"

    press(driver, "Remove Trail Running Shoes")
    wait_for(lambda: driver.current_url.endswith(f"/cart#{second}"), what=f"the next row, #{second}, after Remove")
    assert notice(driver) == "Removed Trail Running Shoes"
    driver.refresh()
    assert notice(driver) == "", "expected no notice when the page is loaded again"


def test_without_javascript_a_control_reached_going_back_up_is_not_under_the_sticky_notice(server, browser):
    driver = browser(size=(320, 568), javascript=False)
    driver.get(server.url + "/search?q=a")
    cards = driver.find_elements(By.CSS_SELECTOR, ".product")
    name = cards[10].find_element(By.CSS_SELECTOR, ".product__name").text
    press(driver, f"Add {name} to cart")
    wait_for(lambda: notice(driver).startswith("Added"), what="the sticky notice after Add")
    # From the bottom of the page, going back up as Shift+Tab would: each control the browser
    # scrolls into view stops below the notice (WCAG 2.2 Focus Not Obscured).
    driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    for button in reversed(driver.find_elements(By.CSS_SELECTOR, "main .product button")[:10]):
        driver.execute_script("arguments[0].focus()", button)
        covered = driver.execute_script(
            "const n = document.querySelector('main [data-notice]').getBoundingClientRect();"
            "const b = arguments[0].getBoundingClientRect(); return b.top < n.bottom - 1", button)
        assert not covered, f"{button.get_attribute('aria-label') or button.text} focused (partly) under the sticky notice"


def test_without_javascript_the_limits_three_line_notice_covers_no_stepper_reached_going_back_up(server, browser):
    """The longest notice a press gives ("You can have at most 10 of …", three lines at 320 px,
    a product's name in it cut to 40 characters): no control reached by Tab is even partly under it."""
    driver = browser(size=(320, 568), javascript=False)
    driver.get(server.url + "/search?q=a")
    names = [card.find_element(By.CSS_SELECTOR, ".product__name").text for card in driver.find_elements(By.CSS_SELECTOR, ".product")[:14]]
    for name in names:
        if name not in ("Trail Running Shoes", "Insulated Water Bottle"):
            press(driver, f"Add {name} to cart")
            wait_for(lambda: notice(driver).startswith(f"Added {name}"), what=f"the notice of adding {name}")
    driver.get(server.url + "/cart")
    for quantity in range(3, 11):
        press(driver, "Increase quantity of Insulated Water Bottle")
        said = wait_for(lambda: notice(driver).endswith(f"— {quantity} in cart") and notice(driver), what=f"the notice of {quantity}")
        if said.startswith("You can have at most 10 of"):
            break
    driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    for button in reversed(driver.find_elements(By.CSS_SELECTOR, "main .cart-item button:not([disabled])")):
        driver.execute_script("arguments[0].focus()", button)
        covered = driver.execute_script(
            "const n = document.querySelector('main [data-notice]').getBoundingClientRect();"
            "const b = arguments[0].getBoundingClientRect(); return b.top < n.bottom - 1", button)
        assert not covered, f"{button.get_attribute('aria-label') or button.text} focused (partly) under the sticky notice"
