"""Forms that keep your place (issue 13), with JavaScript: Add, +, − and Remove change the
page in place. Scroll position and focus stay on the control that was pressed (or the next
row when its row went), no history entry is added, and a message says what happened, on
screen and in the polite live region."""
import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import PHONE
from forms_support import (centre, focused_name, page_marker, press_and_hear, row_names, same_page, screen_top,
                           scroll_y, shown_message, spoken)
from pages import badge, button, press, wait_for
from checkout_steps import check_out

DEMO = ["Trail Running Shoes", "Insulated Water Bottle"]


def fill_cart(driver, server, rows):
    """Adds products from the search for "a" until the cart has `rows` rows, by its forms."""
    driver.get(server.url + "/search?q=a")
    names = [name for name in row_names(driver, ".product__name") if name not in DEMO]
    wanted = names[:rows - len(DEMO)]
    assert len(wanted) == rows - len(DEMO), f"expected enough products to fill {rows} rows, found {names}"
    for name in wanted:
        press_and_hear(driver, f"Add {name} to cart", f"Added {name} — 1 in cart")
    return DEMO + wanted


def test_steppers_and_remove_on_the_13th_row_keep_scroll_focus_and_history(server, browser):
    driver = browser(size=PHONE)
    names = fill_cart(driver, server, 15)
    driver.get(server.url + "/cart")
    assert row_names(driver, ".cart-item__name") == names, "expected the rows in the order they were added"
    page_marker(driver)
    history = driver.execute_script("return history.length")
    name, after = names[12], names[13]
    row = driver.find_elements(By.CSS_SELECTOR, ".cart-item")[12]
    place = centre(driver, row)
    assert place > 600, f"expected the 13th row well down the page, it is at {place}px"

    steps = [
        (f"Increase quantity of {name}", f"{name} — 2 in cart", f"Increase quantity of {name}"),
        (f"Decrease quantity of {name}", f"{name} — 1 in cart", f"Increase quantity of {name}"),  # − is disabled at 1
        (f"Increase quantity of {name}", f"{name} — 2 in cart", f"Increase quantity of {name}"),
        (f"Decrease quantity of {name}", f"{name} — 1 in cart", f"Increase quantity of {name}"),
        (f"Remove {name}", f"Removed {name}", f"Remove {after}"),  # the next row takes the place
    ]
    for pressed, message, focus in steps:
        press_and_hear(driver, pressed, message, heard=f"{message}. Undo available." if pressed.startswith("Remove") else None)
        assert scroll_y(driver) == place, f"expected the page to stay at {place}px after {pressed!r}, it is at {scroll_y(driver)}px"
        assert focused_name(driver) == focus, f"expected focus on {focus!r} after {pressed!r}, it is on {focused_name(driver)!r}"

    assert driver.execute_script("return history.length") == history, "expected no history entry for five presses"
    assert same_page(driver), "expected the cart to change in place, not to load again"
    assert name not in row_names(driver, ".cart-item__name"), f"expected {name} gone from the cart"
    # 15 rows of one each, the bottles two; one row removed.
    assert badge(driver) == str(len(names)), f"expected the badge to follow, saw {badge(driver)!r}"


def test_the_message_after_a_press_leaves_the_row_pressed_in_sight(server, browser):
    """WCAG 2.4.11: the capsule above the tab bar says what a press did; on a row a thumb
    reaches, just above the bar, the page moves up so that it covers neither the row nor focus."""
    driver = browser(size=(320, 640))
    names = fill_cart(driver, server, 8)
    driver.get(server.url + "/cart")
    row = driver.find_elements(By.CSS_SELECTOR, ".cart-item")[5]
    row_id, name = row.get_attribute("id"), names[5]
    driver.execute_script("arguments[0].scrollIntoView({block: 'end'})", row)
    press_and_hear(driver, f"Increase quantity of {name}", f"{name} — 2 in cart")
    time.sleep(0.5)  # the capsule's rise into place (0.35 s)
    overlap = driver.execute_script("""
        const row = document.getElementById(arguments[0]).getBoundingClientRect();
        const capsule = document.querySelector('.flash--visible').getBoundingClientRect();
        return row.bottom - capsule.top;""", row_id)
    assert overlap <= 0, f"the message covers {overlap}px of the row just pressed"
    assert focused_name(driver) == f"Increase quantity of {name}"


def test_add_on_the_13th_search_result_keeps_the_place_and_shows_the_pill(server, browser):
    driver = browser(size=PHONE)
    driver.get(server.url + "/search?q=a")
    page_marker(driver)
    cards = driver.find_elements(By.CSS_SELECTOR, ".product")
    assert len(cards) >= 13, f"expected at least 13 results for “a”, saw {len(cards)}"
    card = cards[12]
    name = card.find_element(By.CSS_SELECTOR, ".product__name").get_attribute("textContent").strip()
    centre(driver, card)
    history = driver.execute_script("return history.length")

    card_id = card.get_attribute("id")
    top = screen_top(driver, card_id)
    press_and_hear(driver, f"Add {name} to cart", f"Added {name} — 1 in cart")
    # The first change stores the session, so its search now shows under Recent above the
    # results: the page may scroll, but the card must stay where it was on screen.
    assert screen_top(driver, card_id) == top, \
        f"expected the card to stay {top}px from the top of the screen, it is at {screen_top(driver, card_id)}px"
    assert focused_name(driver) == f"Add {name} to cart", f"expected focus to stay on Add, it is on {focused_name(driver)!r}"
    pill = driver.find_element(By.CSS_SELECTOR, f"#{card_id} .product__in-cart")
    assert pill.get_attribute("textContent").strip() == "1 in cart", "expected the card to say 1 in cart"

    press_and_hear(driver, f"Add {name} to cart", f"Added {name} — 2 in cart")
    assert driver.execute_script("return history.length") == history and same_page(driver), \
        "expected Add to change the page in place, without a history entry"


def test_the_limit_is_said_and_plus_says_max_10(server, browser):
    driver = browser(size=PHONE)
    driver.get(server.url + "/")
    shoes = "Trail Running Shoes"
    for quantity in range(2, 10):
        press_and_hear(driver, f"Add {shoes} to cart", f"Added {shoes} — {quantity} in cart")
    press_and_hear(driver, f"Add {shoes} to cart", f"You can have at most 10 of {shoes} — 10 in cart")
    press_and_hear(driver, f"Add {shoes} to cart", f"You can have at most 10 of {shoes}")
    assert focused_name(driver) == f"Add {shoes} to cart"

    driver.get(server.url + "/cart")
    plus = button(driver, f"Increase quantity of {shoes}")
    assert plus.get_attribute("disabled") is not None, "expected + disabled at 10"
    hint = driver.find_element(By.ID, plus.get_attribute("aria-describedby"))
    assert hint.is_displayed() and hint.text == "Max 10", f"expected a visible “Max 10” beside +, saw {hint.text!r}"

    press_and_hear(driver, f"Decrease quantity of {shoes}", f"{shoes} — 9 in cart")
    assert not driver.find_elements(By.CSS_SELECTOR, ".stepper__hint"), "expected no “Max 10” below the limit"
    press_and_hear(driver, f"Increase quantity of {shoes}", f"You can have at most 10 of {shoes} — 10 in cart")
    # "+" is disabled now: focus goes to the row's other stepper, not to the top of the page.
    assert focused_name(driver) == f"Decrease quantity of {shoes}", f"focus went to {focused_name(driver)!r}"
    assert shown_message(driver) == spoken(driver)


def test_a_double_press_adds_once(server, browser):
    driver = browser(size=PHONE)
    driver.get(server.url + "/")
    driver.execute_script("document.getElementById('live-status').textContent = ''")
    add = button(driver, "Add Ultralight Tent to cart")
    driver.execute_script("arguments[0].click(); arguments[0].click(); arguments[0].click()", add)
    wait_for(lambda: spoken(driver) == "Added Ultralight Tent — 1 in cart", what="the tent added once")
    driver.get(server.url + "/cart")
    rows = dict(zip(row_names(driver, ".cart-item__name"), row_names(driver, "[data-quantity]")))
    assert rows.get("Ultralight Tent") == "1", f"expected one tent after three quick presses, saw {rows}"


def test_a_refused_post_stays_on_the_page_with_the_servers_reason(server, browser):
    driver = browser(size=PHONE)
    driver.get(server.url + "/cart")
    page_marker(driver)
    driver.execute_script("for (const f of document.querySelectorAll('input[name=csrf]')) f.value = 'stale'")
    before = driver.find_element(By.CSS_SELECTOR, "[data-subtotal]").text
    button(driver, "Increase quantity of Trail Running Shoes").click()
    error = wait_for(lambda: driver.execute_script(
        "const e = document.querySelector('.form-error'); return e && e.textContent.trim()"), what="an inline error")
    assert same_page(driver), "expected the cart to stay, not the error page"
    assert "Reload" in error, f"expected a way forward in {error!r}"
    assert driver.find_element(By.CSS_SELECTOR, "[data-subtotal]").text == before, "expected nothing changed"
    wait_for(lambda: spoken(driver) and spoken(driver) in error, what=f"the live region to say the error ({spoken(driver)!r})")


def test_checkout_still_leads_to_the_confirmation(server, browser):
    driver = browser(size=PHONE)
    driver.get(server.url + "/cart")
    check_out(driver)
    wait_for(lambda: driver.current_url.endswith("#order-confirmation"), what="Profile at the order's confirmation")
    confirmation = driver.find_element(By.ID, "order-confirmation")
    assert "$177.00" in confirmation.text, f"expected the order's total in the confirmation, saw {confirmation.text!r}"
    assert badge(driver) == "", "expected the badge hidden after checkout"


def focused_radio(driver):
    """The focused theme radio's value and whether it is checked, or None."""
    return driver.execute_script(
        "const e = document.activeElement; return e.name === 'theme' ? [e.value, e.checked] : null")


def test_arrow_keys_on_the_theme_radios_keep_focus_on_the_chosen_one(server, browser):
    driver = browser(size=(1280, 800))
    driver.get(server.url + "/profile")
    system = driver.find_element(By.CSS_SELECTOR, 'input[name="theme"][value="system"]')
    assert system.is_selected(), "expected System chosen for a new visitor"
    driver.execute_script("arguments[0].focus()", system)
    for expected in ("light", "dark"):
        ActionChains(driver).send_keys(Keys.ARROW_DOWN).perform()
        wait_for(lambda: driver.execute_script(
            "return document.documentElement.dataset.theme === arguments[0] && !document.querySelector('form[aria-busy]')",
            expected), what=f"the {expected} theme saved")
        assert focused_radio(driver) == [expected, True], \
            f"expected focus on the checked {expected!r} radio after Down, it is on {focused_radio(driver) or focused_name(driver)!r}"
    driver.get(server.url + "/profile")
    assert driver.find_element(By.CSS_SELECTOR, 'input[name="theme"][value="dark"]').is_selected(), "expected Dark saved"


def test_the_layout_button_keeps_focus_as_its_name_turns(server, browser):
    driver = browser(size=(1280, 800))
    driver.get(server.url + "/search")
    for pressed, layout, now in [("Show sidebar", "sidebar", "Show tab bar"), ("Show tab bar", "bar", "Show sidebar")]:
        press(driver, pressed)
        wait_for(lambda: driver.execute_script(
            "return document.documentElement.dataset.layout === arguments[0] && !document.querySelector('form[aria-busy]')",
            layout), what=f"the {layout} layout after {pressed!r}")
        assert focused_name(driver) == now, f"expected focus on the layout button, now {now!r}, after {pressed!r}; it is on {focused_name(driver)!r}"
