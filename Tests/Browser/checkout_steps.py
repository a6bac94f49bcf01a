"""Checkout's two steps as a shopper goes through them, with JavaScript on or off."""
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from pages import press, wait_for

ADA = {
    "name": "Ada Lovelace", "email": "ada@example.com", "phone": "+1 503 555 0100", "address_line1": "12 Analytical Row",
    "city": "Portland", "region": "OR", "postal_code": "97201",
}


def field(driver, name):
    return driver.find_element(By.CSS_SELECTOR, f'form.delivery-form [name="{name}"]')


def fill_delivery(driver, values=ADA, country="US", method="standard"):
    """Types `values` into the Delivery form (each field cleared first), picks the country and the method."""
    for name, value in values.items():
        element = field(driver, name)
        element.clear()
        if value:
            element.send_keys(value)
    if country is not None:
        Select(field(driver, "country")).select_by_value(country)
    if method is not None:
        # The keyboard, as a click could land on the tab bar drawn over the page's foot.
        driver.find_element(By.CSS_SELECTOR, f'input[name="method"][value="{method}"]').send_keys(Keys.SPACE)


def on_path(driver, path):
    return driver.current_url.split("?")[0].split("#")[0].endswith(path)


def check_out(driver, fill=True):
    """From the cart page: Checkout, Delivery (filled with Ada's details unless they are offered
    already), Review, Place order; returns the order's number from the confirmation."""
    press(driver, "Checkout")
    wait_for(lambda: on_path(driver, "/checkout"), what="the Delivery step")
    if fill:
        fill_delivery(driver)
    press(driver, "Continue to review")
    wait_for(lambda: on_path(driver, "/checkout/review"), what="the Review step")
    press(driver, "Place order")
    wait_for(lambda: "order=" in driver.current_url, what="the confirmation after Place order")
    return driver.current_url.split("order=")[1].split("#")[0].split("&")[0]
