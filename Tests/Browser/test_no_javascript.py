"""With JavaScript off, every change still works by plain form posts and page loads."""
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import PHONE
from pages import badge, press, subtotal, wait_for
from checkout_steps import check_out


def test_everything_works_without_javascript(server, browser):
    driver = browser(size=PHONE, javascript=False)
    driver.get(server.url + "/cart")
    assert badge(driver) == "3"

    press(driver, "Increase quantity of Trail Running Shoes")
    wait_for(lambda: subtotal(driver) == "$305.00", what="subtotal $305.00 after increasing without JavaScript")
    assert badge(driver) == "4"

    press(driver, "Decrease quantity of Trail Running Shoes")
    wait_for(lambda: subtotal(driver) == "$177.00", what="subtotal back to $177.00")

    press(driver, "Remove Insulated Water Bottle")
    wait_for(lambda: badge(driver) == "1", what="badge 1 after removing the bottles")

    driver.get(server.url + "/search")
    field = driver.find_element(By.CSS_SELECTOR, "input[name=q]")
    field.send_keys("tent", Keys.ENTER)
    wait_for(lambda: "q=tent" in driver.current_url, what="the search results page")
    press(driver, "Add Ultralight Tent to cart")
    wait_for(lambda: badge(driver) == "2", what="badge 2 after adding a tent from Search")

    driver.get(server.url + "/cart")
    check_out(driver)
    assert "Order #" in driver.page_source
    assert badge(driver) == ""
