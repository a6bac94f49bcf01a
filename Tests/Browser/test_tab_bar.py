"""The tab bar on a phone: at the bottom, four tabs in order, Cart visibly prominent."""
from conftest import PHONE
from pages import badge, cart_tab, tab_links


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
