"""What tests read off a page, named as a person would name it."""
import time

from axe_selenium_python import Axe
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys


def button(driver, name):
    """The button whose accessible name is `name` (aria-label or text)."""
    for element in driver.find_elements(By.CSS_SELECTOR, "button"):
        label = element.get_attribute("aria-label") or element.text or element.get_attribute("textContent")
        if " ".join(label.split()) == name:
            return element
    raise AssertionError(f"expected a button named {name!r} on {driver.current_url}; saw "
                         f"{[b.get_attribute('aria-label') or b.text for b in driver.find_elements(By.CSS_SELECTOR, 'button')]}")


def press(driver, name):
    """Activates a button with the keyboard, which works with and without JavaScript."""
    element = button(driver, name)
    driver.execute_script("arguments[0].focus()", element) if driver_has_js(driver) else None
    element.send_keys(Keys.ENTER)


def driver_has_js(driver):
    try:
        return driver.execute_script("return true") is True
    except Exception:
        return False


def tab_links(driver):
    return driver.find_elements(By.CSS_SELECTOR, 'nav[aria-label="Tabs"] a')


def cart_tab(driver):
    return driver.find_element(By.CSS_SELECTOR, 'nav[aria-label="Tabs"] a[data-role="prominent"]')


def badge(driver):
    """The badge's text, or '' when it is hidden."""
    element = driver.find_element(By.CSS_SELECTOR, "[data-badge]")
    if element.get_attribute("hidden") is not None or not element.is_displayed():
        return ""
    return element.get_attribute("textContent").strip()


def subtotal(driver):
    return driver.find_element(By.CSS_SELECTOR, "[data-subtotal]").get_attribute("textContent").strip()


def outside_landmarks(driver):
    """What axe-core's `region` rule finds outside every landmark on the page as it is now
    (words a screen reader's landmark navigation would skip)."""
    axe = Axe(driver)
    axe.inject()
    return [node["target"] for violation in axe.run()["violations"] if violation["id"] == "region"
            for node in violation["nodes"]]


def wait_for(condition, timeout=5.0, what="condition"):
    """Polls `condition` until it returns a truthy value; fails naming `what` and the last value."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            last = condition()
            if last:
                return last
        except WebDriverException:
            pass  # the page is being replaced (post, redirect, load): look again
        time.sleep(0.05)
    raise AssertionError(f"waited {timeout}s for {what}; last saw {last!r}")


def two_windows(driver, url, second_path):
    """Opens Home, then `second_path` in a second window of the same session; returns both
    windows' handles once the second shows the new session's badge of 3."""
    driver.get(url + "/")
    first = driver.current_window_handle
    driver.switch_to.new_window("window")
    driver.get(url + second_path)
    second = driver.current_window_handle
    wait_for(lambda: badge(driver) == "3", what="badge 3 in the second window")
    return first, second


def tab_through(driver, presses, read, until=lambda seen: False, backwards=False):
    """Presses Tab (Shift+Tab when `backwards`) up to `presses` times and yields what
    `read(driver)` says of each element it focuses; stops after the first that `until` accepts,
    or once focus leaves the page after its last (or before its first) control."""
    for _ in range(presses):
        if backwards:
            ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
        else:
            ActionChains(driver).send_keys(Keys.TAB).perform()
        if driver.execute_script("return document.activeElement === document.body"):
            return
        seen = read(driver)
        yield seen
        if until(seen):
            return
