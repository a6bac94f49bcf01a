"""The tab bar on a phone: at the bottom, four tabs in order, Cart visibly prominent, the
current tab marked by more than its colour."""
import pytest

from checkout_steps import fill_delivery, on_path
from conftest import PHONE, TABLET
from pages import badge, cart_tab, press, tab_links, wait_for
from test_quality import contrast


def test_tab_bar_sits_at_the_bottom_and_stays_there_while_scrolling(server, browser):
    driver = browser(size=PHONE)
    driver.get(server.url + "/")
    nav = driver.find_element("css selector", 'nav[aria-label="Tabs"]')
    viewport = driver.execute_script("return window.innerHeight")
    bottom = nav.rect["y"] + nav.rect["height"]
    assert abs(bottom - viewport) <= 2, f"expected the tab bar's bottom at the viewport's bottom ({viewport}px), saw {bottom}px"
    driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    after = driver.execute_script("return arguments[0].getBoundingClientRect().bottom", nav)
    assert abs(after - viewport) <= 2, f"expected the tab bar to stay at the bottom after scrolling, saw bottom {after}px of {viewport}px"


def test_four_tabs_in_order_with_the_current_one_marked(server, browser):
    driver = browser(size=PHONE)
    for path, current in [("/", "Home"), ("/search", "Search"), ("/cart", "Cart"), ("/profile", "Profile")]:
        driver.get(server.url + path)
        links = tab_links(driver)
        labels = [link.find_element("css selector", ".tab__label").text for link in links]
        hrefs = [link.get_attribute("href").removeprefix(server.url) for link in links]
        assert labels == ["Home", "Search", "Cart", "Profile"], f"expected the four tabs in order on {path}, saw {labels}"
        assert hrefs == ["/", "/search", "/cart", "/profile"], f"expected tab links to the four pages, saw {hrefs}"
        marked = [label for label, link in zip(labels, links) if link.get_attribute("aria-current") == "page"]
        assert marked == [current], f"expected only {current} marked current on {path}, saw {marked}"


def test_cart_tab_is_measurably_larger_and_shows_the_badge(server, browser):
    driver = browser(size=PHONE)
    driver.get(server.url + "/")
    cart = cart_tab(driver)
    circle = cart.find_element("css selector", ".tab__icon")
    others = [link.find_element("css selector", ".tab__icon") for link in tab_links(driver) if link != cart]
    for other in others:
        assert circle.rect["width"] >= 1.3 * other.rect["width"], \
            f"expected the Cart tab's icon area ≥1.3× its neighbours', saw {circle.rect['width']} vs {other.rect['width']}"
    assert badge(driver) == "3", f"expected the badge to read 3 for a new session, saw {badge(driver)!r}"
    assert cart.get_attribute("aria-label") == "Cart, 3 items"


# The current tab's mark (its ::after) and the colour it is drawn on: the tab's own fill
# over the bar's over the page's, each laid on the one below by its alpha.
MARK = """
const parse = (text) => (text.match(/[\\d.]+/g) || []).map(Number);
const mark = getComputedStyle(arguments[0], '::after');
if (mark.content === 'none' || mark.display === 'none') return null;
let under = [255, 255, 255];
const layers = [];
for (let node = arguments[0]; node; node = node.parentElement) layers.unshift(parse(getComputedStyle(node).backgroundColor));
for (const [r, g, b, a = 1] of layers) under = [r, g, b].map((part, i) => part * a + under[i] * (1 - a));
return {colour: parse(mark.backgroundColor).slice(0, 3), under, width: parseFloat(mark.width), height: parseFloat(mark.height)};
"""


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("size,layout", [(PHONE, "bar"), (TABLET, "bar"), (TABLET, "sidebar")], ids=["phone", "tablet", "sidebar"])
def test_the_current_tab_is_marked_by_more_than_its_hue(server, browser, size, layout, theme):
    """WCAG 1.4.1: the current tab, the Cart included, carries a mark the others do not, at
    3:1 or more against what it is drawn on (its hue alone was 1.08:1 from the others'); a
    page deeper in a tab marks the tab too. In the sidebar too, where the Cart capsule's label
    is always heavy."""
    driver = browser(size=size, dark=theme == "dark")
    if layout == "sidebar":
        driver.get(server.url + "/")
        press(driver, "Show sidebar")
        wait_for(lambda: driver.execute_script("return document.documentElement.dataset.layout") == "sidebar", what="the sidebar")
    for path, current in [("/", "Home"), ("/search", "Search"), ("/cart", "Cart"), ("/profile", "Profile"),
                          ("/profile/code", "Profile")]:
        driver.get(server.url + path)
        marks = {link.find_element("css selector", ".tab__label").get_attribute("textContent"): driver.execute_script(MARK, link)
                 for link in tab_links(driver)}
        assert [name for name, mark in marks.items() if mark] == [current], f"marked tabs on {path}: {marks}"
        mark = marks[current]
        assert max(mark["width"], mark["height"]) >= 12 and min(mark["width"], mark["height"]) >= 2, \
            f"the {current} tab's mark is too small to see: {mark}"
        ratio = contrast(mark["colour"], mark["under"])
        assert ratio >= 3, f"the {current} tab's mark is {ratio:.2f}:1 against what is under it ({theme}): {mark}"


def test_deeper_in_a_tab_its_tab_is_current_but_not_the_current_page(server, browser):
    """aria-current="page" says the link is the page shown: on Delivery, Review, an order, the
    code and join pages, the tab they belong to is current as their section ("true"); its own
    pages, a search included, stay "page"."""
    driver = browser(size=PHONE, javascript=False)

    def marks():
        return {link.find_element("css selector", ".tab__label").get_attribute("textContent"): link.get_attribute("aria-current")
                for link in tab_links(driver) if link.get_attribute("aria-current") is not None}

    driver.get(server.url + "/cart")
    press(driver, "Checkout")
    wait_for(lambda: on_path(driver, "/checkout"), what="the Delivery step")
    seen = {"/checkout": marks()}
    fill_delivery(driver)
    press(driver, "Continue to review")
    wait_for(lambda: on_path(driver, "/checkout/review"), what="the Review step")
    seen["/checkout/review"] = marks()
    press(driver, "Place order")
    wait_for(lambda: "order=" in driver.current_url, what="the confirmation")
    order = driver.current_url.split("order=")[1].split("#")[0].split("&")[0]
    expected = {"/checkout": {"Cart": "true"}, "/checkout/review": {"Cart": "true"}}
    for path, tab in [(f"/orders/{order}", "Profile"), ("/profile/code", "Profile"), ("/profile/delivery", "Profile"),
                      ("/join", "Profile"), ("/search?q=tent", "Search"), ("/", "Home"), ("/cart", "Cart"), ("/profile", "Profile")]:
        driver.get(server.url + path)
        seen[path] = marks()
        expected[path] = {tab: "page" if path in ("/search?q=tent", "/", "/cart", "/profile") else "true"}
    assert seen == expected
