"""Layout at the sizes shoppers use, measured from bounding rectangles: nothing overlaps at
320 px, the cart's controls keep one line at the limit, the top bar does not move between
pages on a desktop with scroll bars, a 1440 px screen is used across its width, and rows
with photos and rows with icons line up."""
import time

import pytest
from axe_selenium_python import Axe
from selenium.webdriver.common.by import By

from checkout_steps import check_out
from conftest import BINARY, PHONE, SCREENSHOTS, TABLET, QuickCartServer
from pages import press, wait_for
from test_photos import photo_shop  # noqa: F401 (a fixture: a shop whose catalog mixes photos and icons)

SMALL = (320, 640)
DESKTOP = (1440, 900)


def rect(driver, element):
    return driver.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return {left: r.left, right: r.right, top: r.top, bottom: r.bottom};",
        element)


def overlap(a, b):
    """How far two rectangles overlap, in px along the narrower axis (0 when apart)."""
    width = min(a["right"], b["right"]) - max(a["left"], b["left"])
    height = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
    return max(0.0, min(width, height))


def same_line(a, b):
    """Whether two boxes share a line: each one's vertical middle lies within the other."""
    middle_a, middle_b = (a["top"] + a["bottom"]) / 2, (b["top"] + b["bottom"]) / 2
    return a["top"] <= middle_b <= a["bottom"] and b["top"] <= middle_a <= b["bottom"]


def test_the_in_cart_pill_never_overlaps_add_to_cart_at_320px(server, browser):
    for javascript in (True, False):
        driver = browser(size=SMALL, javascript=javascript)
        driver.get(server.url + "/")  # the demo cart holds one pair of shoes: its card says "1 in cart"
        cards = driver.find_elements(By.CSS_SELECTOR, ".product")
        pills = 0
        for card in cards:
            for pill in card.find_elements(By.CSS_SELECTOR, ".product__in-cart"):
                pills += 1
                add = card.find_element(By.CSS_SELECTOR, ".product__add .button")
                amount = overlap(rect(driver, pill), rect(driver, add))
                assert amount == 0, f"the “{pill.text}” pill overlaps Add to cart by {amount:.1f} px (JavaScript {javascript})"
                assert rect(driver, pill)["right"] <= rect(driver, card)["right"], "the pill leaves its card"
                lines = driver.execute_script("return arguments[0].getClientRects().length", pill)
                assert lines == 1, f"the “{pill.text}” pill breaks over {lines} lines (JavaScript {javascript})"
        assert pills >= 1, "expected a card saying how many are in the cart"
        width = driver.execute_script("return document.documentElement.scrollWidth")
        assert width <= SMALL[0], f"the page scrolls sideways at 320 px ({width} px wide)"


@pytest.fixture(scope="module")
def long_named_shop():
    shop = QuickCartServer(BINARY, ("--shop-name", "Mountain & Trail Outfitters Co."))
    yield shop
    shop.stop()


@pytest.mark.parametrize("width", [768, 800, 1024, 1280])
def test_the_shops_name_never_runs_under_the_centred_bar(server, long_named_shop, browser, width):
    """On tablets and desktops the bar floats centred at the top, beside the header's name: a
    name longer than the room there ends in an ellipsis (the title has it whole); the default
    one fits whole from 768 px."""
    for shop, whole in ((server, True), (long_named_shop, width >= 1280)):
        driver = browser(size=(width, 900))
        driver.get(shop.url + "/cart")
        brand = driver.find_element(By.CSS_SELECTOR, ".app-header__brand")
        bar = driver.find_element(By.CSS_SELECTOR, ".tab-bar__list")
        gap = rect(driver, bar)["left"] - rect(driver, brand)["right"]
        assert gap >= 4, f"“{brand.text}” runs {-gap:.0f} px under the bar at {width} px"
        clipped = driver.execute_script("return arguments[0].scrollWidth > arguments[0].clientWidth", brand)
        assert clipped != whole, f"“{brand.get_attribute('textContent')}” at {width} px: clipped {clipped}"
        assert driver.title.endswith(brand.get_attribute("textContent")), driver.title


def test_the_tab_order_names_stay_whole_in_a_320px_desktop_window_with_scroll_bars(server, browser):
    """Customize tab bar at 320 CSS px as a narrow desktop window (or 400% zoom) draws it: a
    classic scroll bar takes 15 px, and no tab's name may be cut to "Sea…"."""
    driver = browser(size=SMALL, scrollbars=True)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": SMALL[0], "height": SMALL[1], "deviceScaleFactor": 1, "mobile": False})
    driver.get(server.url + "/profile")
    titles = driver.execute_script("""return [...document.querySelectorAll('.tab-order__title')]
        .map((title) => [title.textContent, title.scrollWidth, title.clientWidth]);""")
    assert len(titles) == 4, titles
    cut = [name for name, needed, shown in titles if needed > shown]
    assert not cut, f"names cut at 320 px with a scroll bar: {cut} ({titles})"


@pytest.mark.parametrize("javascript, text", [(True, 100), (False, 100), (True, 200)], ids=["js", "no-js", "text-200"])
def test_at_320px_no_page_scrolls_sideways_and_the_code_field_shows_the_whole_code(server, browser, javascript, text):
    """Every page, in the states that add controls: saved delivery details (two buttons side by
    side on Profile), a code shown and a code to join (a field beside a long button), an order;
    also with the browser's text at 200%."""
    driver = browser(size=SMALL, javascript=javascript)
    if text == 200:
        driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 26}})
    driver.get(server.url + "/cart")
    order = check_out(driver)
    driver.get(server.url + "/profile/code")
    press(driver, "Show a code")
    wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "[data-join-code] strong"), what="a code on the page")
    code = driver.find_element(By.CSS_SELECTOR, "[data-join-code] strong").text.strip()
    for path in ["/", "/search?q=tent", "/cart", "/profile", "/profile/code", "/profile/delivery", "/checkout",
                 f"/orders/{order}", "/join", f"/join?code={code}", "/nowhere"]:
        driver.get(server.url + path)
        width = driver.execute_script("return document.documentElement.scrollWidth")
        assert width <= SMALL[0], f"{path} scrolls sideways at 320 px ({width} px wide, JavaScript {javascript}, text {text}%)"
    driver.get(server.url + "/join")
    field = driver.find_element(By.ID, "join-code")
    field.send_keys(code)
    hidden = driver.execute_script("return arguments[0].scrollWidth - arguments[0].clientWidth", field)
    assert hidden <= 0, f"the code field hides {hidden} px of “{code}” at 320 px"


def raise_the_shoes_to_the_limit(driver, server):
    """The demo cart's first row, Trail Running Shoes, raised from 1 to the cart's limit of 10."""
    driver.get(server.url + "/cart")
    def quantity():
        return driver.find_element(By.CSS_SELECTOR, ".cart-item [data-quantity]").get_attribute("textContent")

    for shown in range(1, 10):
        wait_for(lambda: quantity() == str(shown), what=f"quantity {shown}")
        press(driver, "Increase quantity of Trail Running Shoes")
    wait_for(lambda: quantity() == "10", what="quantity 10")


@pytest.mark.parametrize("size", [SMALL, PHONE, TABLET], ids=["320", "phone", "tablet"])
def test_max_10_leaves_remove_on_the_steppers_line(server, browser, size):
    driver = browser(size=size, javascript=False)
    raise_the_shoes_to_the_limit(driver, server)
    row = driver.find_element(By.CSS_SELECTOR, ".cart-item")
    assert row.find_element(By.CSS_SELECTOR, "[data-quantity]").get_attribute("textContent") == "10"
    stepper = rect(driver, row.find_element(By.CSS_SELECTOR, ".stepper"))
    hint = rect(driver, row.find_element(By.CSS_SELECTOR, ".stepper__hint"))
    remove = rect(driver, row.find_element(By.CSS_SELECTOR, ".cart-item__remove .button"))
    assert same_line(stepper, remove) and same_line(stepper, hint), \
        f"at {size[0]} px “Max 10” pushed Remove off the stepper's line: stepper {stepper}, hint {hint}, Remove {remove}"
    assert hint["right"] <= remove["left"] and stepper["right"] <= hint["left"], "the three overlap"
    assert remove["right"] <= rect(driver, row)["right"], f"at {size[0]} px Remove runs out of its row: {remove}"


@pytest.mark.parametrize("text", [150, 200])
def test_at_320px_with_large_text_the_carts_controls_stay_in_their_rows(server, browser, text):
    """1.4.10 Reflow: with the browser's text at 150% or 200%, a row at the limit (stepper,
    “Max 10”, Remove) and one below it keep every control inside the row and the screen;
    what does not fit beside the stepper goes under it."""
    driver = browser(size=SMALL, javascript=False)
    raise_the_shoes_to_the_limit(driver, server)
    driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 16 * text // 100, "fixed": 13 * text // 100}})
    driver.get(server.url + "/cart")
    width = driver.execute_script("return Math.max(innerWidth, document.documentElement.scrollWidth)")
    assert width <= SMALL[0], f"the cart is {width} px wide at 320 px with text at {text}%"
    rows = driver.find_elements(By.CSS_SELECTOR, ".cart-item")
    assert len(rows) >= 2 and rows[0].find_elements(By.CSS_SELECTOR, ".stepper__hint"), "expected the shoes at the limit and another row"
    for row in rows:
        box = rect(driver, row)
        name = row.find_element(By.CSS_SELECTOR, ".cart-item__name").text
        parts = [row.find_element(By.CSS_SELECTOR, ".stepper")] + row.find_elements(By.CSS_SELECTOR, ".stepper__hint") \
            + [row.find_element(By.CSS_SELECTOR, ".cart-item__remove .button")]
        shown = [rect(driver, part) for part in parts]
        for part, place in zip(parts, shown):
            assert box["left"] <= place["left"] and place["right"] <= box["right"], \
                f"{part.text or part.get_attribute('aria-label')!r} of {name} leaves its row at {text}%: {place} in {box}"
        for index, first in enumerate(shown):
            for second in shown[index + 1:]:
                assert overlap(first, second) == 0, f"the controls of {name} overlap at {text}%: {shown}"


def test_the_top_bar_stays_put_between_long_and_short_pages_on_a_desktop_with_scroll_bars(server, browser):
    driver = browser(size=(1280, 720), scrollbars=True)
    places = {}
    for path in ("/search", "/profile", "/cart", "/"):
        driver.get(server.url + path)
        scrolls = driver.execute_script("return document.documentElement.scrollHeight > innerHeight")
        places[path] = (scrolls, rect(driver, driver.find_element(By.CSS_SELECTOR, ".app-header__brand"))["left"],
                        rect(driver, driver.find_element(By.CSS_SELECTOR, ".tab-bar__list"))["left"])
    assert {scrolls for scrolls, _, _ in places.values()} == {True, False}, f"expected long and short pages: {places}"
    assert len({(brand, bar) for _, brand, bar in places.values()}) == 1, f"the top bar moved between pages: {places}"


def test_a_1440px_screen_shows_products_as_a_grid_and_the_cart_beside_its_summary(server, browser):
    driver = browser(size=DESKTOP)
    driver.get(server.url + "/")
    cards = [rect(driver, card) for card in driver.find_elements(By.CSS_SELECTOR, ".product-list .product")]
    rows = {}
    for card in cards:
        rows.setdefault(round(card["top"]), []).append(card)
    assert max(len(row) for row in rows.values()) >= 2, f"expected cards side by side on a 1440 px screen: {cards}"
    main = rect(driver, driver.find_element(By.CSS_SELECTOR, "main"))
    assert main["right"] - main["left"] >= 1000, f"expected the content to use the width, it is {main['right'] - main['left']:.0f} px"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SCREENSHOTS / "home-desktop-1440.png"))

    driver.get(server.url + "/cart")
    items = rect(driver, driver.find_element(By.CSS_SELECTOR, ".cart__items"))
    summary = rect(driver, driver.find_element(By.CSS_SELECTOR, ".cart-summary"))
    assert items["right"] <= summary["left"] and abs(items["top"] - summary["top"]) < 2, \
        f"expected the summary beside the rows: rows {items}, summary {summary}"
    driver.save_screenshot(str(SCREENSHOTS / "cart-desktop-1440.png"))


@pytest.mark.parametrize("size", [SMALL, PHONE, TABLET, DESKTOP], ids=["320", "phone", "tablet", "1440"])
def test_rows_with_photos_and_rows_with_icons_line_up(photo_shop, browser, size):  # noqa: F811
    driver = browser(size=size)
    driver.get(photo_shop.url + "/search?q=camping")
    starts = {}
    separators = set()
    for card in driver.find_elements(By.CSS_SELECTOR, ".product-list .product"):
        kind = "photo" if card.find_elements(By.CSS_SELECTOR, "img.product__photo") else "icon"
        name = card.find_element(By.CSS_SELECTOR, ".product__name")
        starts.setdefault(kind, set()).add(round(rect(driver, name)["left"] - rect(driver, card)["left"], 1))
        line = driver.execute_script(
            "const s = getComputedStyle(arguments[0], '::before');"
            "return s.content === 'none' ? null : arguments[0].getBoundingClientRect().left + parseFloat(s.left);", card)
        if line is not None:
            separators.add(round(line, 1))
    assert set(starts) == {"photo", "icon"}, f"expected both kinds of row: {starts}"
    assert len(starts["photo"] | starts["icon"]) == 1, f"text starts at different x: {starts}"
    assert len(separators) <= 1, f"the separators do not line up: {separators}"

    for index in range(2):
        driver.get(photo_shop.url + "/")
        driver.execute_script("arguments[0].click()", driver.find_elements(By.CSS_SELECTOR, ".product__add button")[-1 - index])
        time.sleep(0.3)
    driver.get(photo_shop.url + "/cart")
    rows = driver.find_elements(By.CSS_SELECTOR, ".cart-item")
    kinds = {("photo" if row.find_elements(By.CSS_SELECTOR, "img") else "icon"):
             round(rect(driver, row.find_element(By.CSS_SELECTOR, ".cart-item__name"))["left"], 1) for row in rows}
    assert set(kinds) == {"photo", "icon"} and len(set(kinds.values())) == 1, f"cart rows start their text at {kinds}"


@pytest.mark.parametrize("size", [SMALL, DESKTOP], ids=["320", "1440"])
def test_empty_states_undo_and_the_greeting_pass_axe(server, browser, size):
    driver = browser(size=size)
    problems = []

    def check(what):
        axe = Axe(driver)
        axe.inject()
        for violation in axe.run()["violations"]:
            if violation["impact"] in ("serious", "critical"):
                problems.append(f"{what}: {violation['id']}: {violation['help']} at {[n['target'] for n in violation['nodes']][:5]}")

    driver.get(server.url + "/search?q=" + "zq" * 50)
    check("no results")
    driver.get(server.url + "/cart")
    press(driver, "Remove Insulated Water Bottle")
    wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, ".notice--undo"), what="the Undo notice")
    check("Undo")
    press(driver, "Remove Trail Running Shoes")
    wait_for(lambda: "Your cart is empty." in driver.page_source, what="the empty cart")
    check("empty cart")
    assert problems == [], "\n".join(problems)
