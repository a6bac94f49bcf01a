"""Long words wrap and short screens keep their room (issue 13): a 100-character unbroken
query never makes a page scroll sideways, the field stops at the server's limit, and on a
landscape phone the floating bar does not cover the page while scrolling."""
from selenium.webdriver.common.by import By

from conftest import PHONE
from pages import badge, press, wait_for

LONG_QUERY = "W" * 100


def widths(driver):
    return driver.execute_script("return [document.documentElement.scrollWidth, innerWidth]")


def test_a_100_character_query_never_scrolls_sideways(server, browser):
    for size in [(320, 640), PHONE]:
        driver = browser(size=size)
        # Only a stored session keeps its searches as Recent chips: store it first.
        driver.get(server.url + "/")
        press(driver, "Add Ultralight Tent to cart")
        wait_for(lambda: badge(driver) == "4", what="the badge after adding")
        for path in [f"/search?q={LONG_QUERY}", "/search", "/"]:
            driver.get(server.url + path)
            width, viewport = widths(driver)
            assert width == viewport, f"expected no sideways scrolling at {size[0]}px on {path[:30]}…, the page is {width}px wide"
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
