"""The badge stays live in every open tab of a session, over one shared event stream."""
import time

from conftest import PHONE
from pages import badge, press, two_windows, wait_for


def test_a_change_in_one_window_shows_in_the_other(server, browser):
    driver = browser(size=PHONE)
    first, second = two_windows(driver, server.url, "/cart")

    driver.switch_to.window(first)
    press(driver, "Add Ultralight Tent to cart")
    wait_for(lambda: badge(driver) == "4", what="badge 4 in the window that changed")

    driver.switch_to.window(second)
    started = time.monotonic()
    wait_for(lambda: badge(driver) == "4", timeout=2.0, what="badge 4 in the other window within 2 s, without a reload")
    assert time.monotonic() - started < 2.0


def test_eight_tabs_stay_live_over_at_most_two_streams(server, browser):
    driver = browser(size=PHONE)
    before = server.event_stream_count()
    handles = []
    for index in range(8):
        if index:
            driver.switch_to.new_window("tab")
        driver.get(server.url + ("/cart" if index == 0 else "/"))
        handles.append(driver.current_window_handle)
    time.sleep(1.0)
    streams = server.event_stream_count() - before
    assert streams <= 2, f"expected the eight tabs to share at most two streams, the server holds {streams}"

    driver.switch_to.window(handles[0])
    press(driver, "Increase quantity of Trail Running Shoes")
    wait_for(lambda: badge(driver) == "4", what="badge 4 in the tab that changed")
    for index, handle in enumerate(handles):
        driver.switch_to.window(handle)
        wait_for(lambda: badge(driver) == "4", timeout=3.0, what=f"badge 4 in tab {index + 1} of 8")
