"""Feedback a shopper hears and sees: saving the display name says so and shows the name;
moving a tab in "Tab order" is announced and focus stays on the moved row's controls."""
from selenium.webdriver.common.by import By

from conftest import PHONE
from forms_support import focused_name, press_and_hear, spoken
from pages import press, wait_for


def test_saving_the_display_name_says_so_and_shows_the_name(server, browser):
    driver = browser(size=PHONE)
    driver.get(server.url + "/profile")
    field = driver.find_element(By.ID, "display-name")
    field.clear()
    field.send_keys("Ada Lovelace")
    press_and_hear(driver, "Save", "Display name saved: Ada Lovelace")
    greeting = driver.find_element(By.CSS_SELECTOR, "[data-greeting]")
    assert greeting.text == "Hi, Ada Lovelace", f"expected Profile to greet by the new name, saw {greeting.text!r}"


def test_saving_the_display_name_without_javascript_shows_a_notice(server, browser):
    driver = browser(size=PHONE, javascript=False)
    driver.get(server.url + "/profile")
    field = driver.find_element(By.ID, "display-name")
    field.clear()
    field.send_keys("Grace")
    press(driver, "Save")
    wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "main [data-notice]"), what="the notice")
    assert driver.find_element(By.CSS_SELECTOR, "main [data-notice]").text == "Display name saved: Grace"
    assert driver.find_element(By.CSS_SELECTOR, "[data-greeting]").text == "Hi, Grace"


def test_moving_a_tab_is_announced_and_focus_stays_on_its_row(server, browser):
    driver = browser(size=PHONE)
    driver.get(server.url + "/profile")
    button = driver.find_element(By.CSS_SELECTOR, 'button[aria-label="Move Home down"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'}); arguments[0].focus()", button)
    press_and_hear(driver, "Move Home down", "Moved Home down. Tab bar: Search, Home, Cart, Profile.")
    assert focused_name(driver) == "Move Home down", f"expected focus on Move Home down, it is on {focused_name(driver)!r}"
    # The last move: Home is last, so its "down" is disabled and focus goes to its "up", not the heading.
    press_and_hear(driver, "Move Home down", "Moved Home down. Tab bar: Search, Profile, Cart, Home.")
    assert focused_name(driver) == "Move Home up", f"expected focus on Move Home up, it is on {focused_name(driver)!r}"
    rows = [row.get_attribute("data-tab") for row in driver.find_elements(By.CSS_SELECTOR, ".tab-order__item")]
    assert rows == ["search", "profile", "cart", "home"], f"the list is in the order {rows}"
    assert "Home" in spoken(driver)
