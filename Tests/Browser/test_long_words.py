"""Long words wrap and short screens keep their room (issue 13): a 100-character unbroken
query, or a product named with a 100-character word, never makes a page scroll sideways, the
field stops at the server's limit, and on a landscape phone the floating bar does not cover
the page while scrolling."""
from selenium.webdriver.common.by import By

from checkout_steps import fill_delivery, on_path
from conftest import PHONE, ROOT
from pages import badge, press, wait_for
from test_checkout import import_catalog, own_shop, shop_sells  # noqa: F401 (own_shop is a fixture)

LONG_QUERY = "W" * 100


def page_width(driver):
    return driver.execute_script("return document.documentElement.scrollWidth")


def test_a_100_character_query_never_scrolls_sideways(server, browser):
    for size in [(320, 640), PHONE]:
        driver = browser(size=size)
        # Only a stored session keeps its searches as Recent chips: store it first.
        driver.get(server.url + "/")
        press(driver, "Add Ultralight Tent to cart")
        wait_for(lambda: badge(driver) == "4", what="the badge after adding")
        for path in [f"/search?q={LONG_QUERY}", "/search", "/"]:
            driver.get(server.url + path)
            # Against the screen's width, not innerWidth: an emulated phone widens its layout
            # viewport to fit a page that overflows, so innerWidth would always match.
            width = page_width(driver)
            assert width <= size[0], f"expected no sideways scrolling at {size[0]}px on {path[:30]}…, the page is {width}px wide"
        driver.get(server.url + "/search")
        chip = driver.find_element(By.CSS_SELECTOR, "a.chip[href*='WWWW']").rect
        assert chip["x"] >= 0 and chip["x"] + chip["width"] <= size[0], f"expected the Recent chip within {size[0]}px, saw {chip}"


def test_the_search_field_stops_at_the_servers_limit(server, browser):
    driver = browser(size=PHONE)
    driver.get(server.url + "/search")
    field = driver.find_element(By.CSS_SELECTOR, "input[name=q]")
    assert field.get_attribute("maxlength") == "100", f"expected maxlength 100, saw {field.get_attribute('maxlength')!r}"
    field.send_keys(LONG_QUERY + "XYZ")
    assert len(field.get_attribute("value")) == 100, "expected typing to stop at 100 characters"


def test_on_a_landscape_phone_the_bar_scrolls_away(server, browser):
    driver = browser(size=(844, 390))
    driver.get(server.url + "/search?q=a")
    driver.execute_script("window.scrollTo(0, 600)")
    covered = driver.execute_script(
        "const r = document.querySelector('nav.tab-bar').getBoundingClientRect();"
        "return Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0))")
    assert covered <= 20, f"expected the bar out of the way while scrolling at 844×390, it covers {covered}px"
    driver.execute_script("window.scrollTo(0, 0)")
    bar = driver.find_element(By.CSS_SELECTOR, "nav.tab-bar").rect
    assert bar["y"] >= 0 and bar["height"] > 40, f"expected the bar at the top of the page, saw {bar}"


def test_a_product_named_with_a_100_character_word_never_scrolls_sideways(own_shop, browser):
    """The catalog takes names of 120 characters: every page that shows one wraps it, through
    checkout to the order's pages."""
    name = "Trail Running Shoes " + ("Supercalifragilisticexpialidocious" * 3)[:100]
    assert len(name) == 120
    demo = (ROOT / "Catalog" / "demo.csv").read_text()
    import_catalog(own_shop, demo + f"long-word-shoes,{name},Shoes with a long name.,Running,99.00,,shoe,true,true\n")
    wait_for(lambda: shop_sells(own_shop, name), timeout=10, what="the shop to take the long name")
    driver = browser(size=(320, 640))
    driver.get(own_shop.url + "/")
    before = badge(driver)
    press(driver, f"Add {name} to cart")
    wait_for(lambda: badge(driver) != before, what="the badge after adding")
    for path in ["/", f"/search?q={name.split()[-1][:30]}", "/cart"]:
        driver.get(own_shop.url + path)
        assert_wraps(driver, name, path)
    press(driver, "Checkout")
    wait_for(lambda: on_path(driver, "/checkout"), what="the Delivery step")
    fill_delivery(driver)
    press(driver, "Continue to review")
    wait_for(lambda: on_path(driver, "/checkout/review"), what="the Review step")
    assert_wraps(driver, name, "Review")
    press(driver, "Place order")
    wait_for(lambda: "order=" in driver.current_url, what="the confirmation after Place order")
    assert_wraps(driver, name, "the confirmation")
    order = driver.current_url.split("order=")[1].split("#")[0].split("&")[0]
    for path in ["/profile", f"/orders/{order}"]:
        driver.get(own_shop.url + path)
        assert_wraps(driver, name, path)


def assert_wraps(driver, name, page):
    """The long name is on `page` and nothing there is wider than the 320 px screen. (A phone
    widens its layout viewport to fit the page, so innerWidth is no measure here.)"""
    assert name.split()[-1] in driver.find_element(By.TAG_NAME, "main").text, f"expected the long name on {page}"
    width = driver.execute_script("return document.documentElement.scrollWidth")
    wide = driver.execute_script(
        "return [...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right > 320.5)"
        ".map(e => `${e.localName}.${e.className} ${Math.round(e.getBoundingClientRect().width)}px`)")
    assert width <= 320 and not wide, f"expected {page} within 320px, it is {width}px wide: {wide}"
