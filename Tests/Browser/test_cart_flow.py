"""A shopper on a phone changes quantities, removes an item and checks out."""
from conftest import PHONE
from pages import badge, press, subtotal, wait_for
from checkout_steps import check_out


def test_steppers_remove_and_checkout(server, browser):
    driver = browser(size=PHONE)
    driver.get(server.url + "/cart")
    assert badge(driver) == "3" and subtotal(driver) == "$177.00", \
        f"expected the demo cart (badge 3, $177.00), saw badge {badge(driver)!r}, subtotal {subtotal(driver)!r}"

    press(driver, "Increase quantity of Trail Running Shoes")
    wait_for(lambda: badge(driver) == "4" and subtotal(driver) == "$305.00", what="badge 4 and subtotal $305.00")

    press(driver, "Remove Insulated Water Bottle")
    wait_for(lambda: badge(driver) == "2", what="badge 2 after removing the bottles")
    assert subtotal(driver) == "$256.00", f"expected $256.00 after removing the bottles, saw {subtotal(driver)}"

    check_out(driver)
    assert "Order #" in driver.page_source and "$256.00" in driver.page_source, "expected the order with its total on Profile"
    assert badge(driver) == "", f"expected the badge hidden after checkout, saw {badge(driver)!r}"
    driver.get(server.url + "/cart")
    assert "Your cart is empty" in driver.page_source, "expected the empty cart after checkout"


def test_add_from_home_and_search(server, browser):
    driver = browser(size=PHONE)
    driver.get(server.url + "/")
    press(driver, "Add Ultralight Tent to cart")
    wait_for(lambda: badge(driver) == "4", what="badge 4 after adding a tent from Home")
    assert driver.current_url.rstrip("/") == server.url, f"expected to stay on Home, saw {driver.current_url}"

    driver.get(server.url + "/search?q=bottle")
    press(driver, "Add Insulated Water Bottle to cart")
    wait_for(lambda: badge(driver) == "5", what="badge 5 after adding a bottle from Search")
    assert "q=bottle" in driver.current_url, f"expected to come back to the search, saw {driver.current_url}"
