"""What the tests of forms that keep your place read off a page (issue 13)."""
from selenium.webdriver.common.by import By

from pages import press, wait_for


def spoken(driver):
    """The polite live region's text."""
    return driver.execute_script("return document.getElementById('live-status').textContent")


def shown_message(driver):
    """The on-screen message of the last form post, '' when none is showing."""
    return driver.execute_script(
        "const m = document.querySelector('.flash.flash--visible'); return m ? m.textContent.trim() : ''")


def press_and_hear(driver, name, message, timeout=5.0, heard=None):
    """Presses the button `name` and waits until the live region says `message` (or `heard`,
    where it says more than the screen), which it must then also show on screen."""
    heard = heard or message
    driver.execute_script("document.getElementById('live-status').textContent = ''")
    press(driver, name)
    wait_for(lambda: spoken(driver) == heard, timeout=timeout,
             what=f"the live region to say {heard!r} after pressing {name!r} (it says {spoken(driver)!r})")
    assert shown_message(driver) == message, \
        f"expected the message {message!r} on screen after pressing {name!r}, saw {shown_message(driver)!r}"


def focused_name(driver):
    """The focused element's accessible name (aria-label or text), or its tag."""
    return driver.execute_script("""
        const e = document.activeElement;
        if (!e || e === document.body) return 'body';
        return (e.getAttribute('aria-label') || e.textContent || e.localName).replace(/\\s+/g, ' ').trim();""")


def scroll_y(driver):
    return driver.execute_script("return Math.round(scrollY)")


def row_names(driver, selector):
    return [e.get_attribute("textContent").strip() for e in driver.find_elements(By.CSS_SELECTOR, selector)]


def centre(driver, element):
    """Scrolls `element` to the middle of the screen and returns the scroll position."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    return scroll_y(driver)


def screen_top(driver, element_id):
    """How far the element with `element_id` is from the top of the screen, in whole pixels."""
    return round(driver.execute_script("return document.getElementById(arguments[0]).getBoundingClientRect().top", element_id))


def page_marker(driver):
    """Marks the document, so a test can tell it was not reloaded."""
    driver.execute_script("window.quickcartTestMarker = 'same page'")


def same_page(driver):
    return driver.execute_script("return window.quickcartTestMarker === 'same page'")
