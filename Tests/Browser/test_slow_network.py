"""Home is quick on a slow phone: first contentful paint within 1.5 s on emulated slow 3G.

A fresh Chromium (so a cold cache) at phone size, with the network slowed through the DevTools
Protocol to 400 ms of latency and 400 kbit/s each way, loads Home; the page's own paint timing
says when the first text or image appeared. On failure the message lists every resource the
page fetched, with its size on the wire and timing, to show what held the paint up.
"""
import json

import pytest

from conftest import PHONE
from pages import wait_for

LATENCY_MS = 400
KILOBITS_PER_SECOND = 400
FCP_BUDGET_MS = 1500


def slow_3g(driver):
    bytes_per_second = KILOBITS_PER_SECOND * 1000 // 8
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.clearBrowserCache", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False,
        "latency": LATENCY_MS,
        "downloadThroughput": bytes_per_second,
        "uploadThroughput": bytes_per_second,
    })


def resources(driver):
    """What the page fetched: name, bytes on the wire, decoded bytes, start and end (ms)."""
    return driver.execute_script("""
        return performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))
            .map(e => ({name: e.name, transfer: e.transferSize, decoded: e.decodedBodySize,
                        encoded: e.encodedBodySize, start: Math.round(e.startTime),
                        end: Math.round(e.responseEnd), blocking: e.renderBlockingStatus}));
    """)


@pytest.mark.alone
def test_home_paints_within_budget_on_slow_3g_with_a_cold_cache(server, browser):
    driver = browser(size=PHONE)
    slow_3g(driver)
    driver.get(server.url + "/")
    paint = wait_for(
        lambda: driver.execute_script(
            "const e = performance.getEntriesByName('first-contentful-paint'); return e.length ? e[0].startTime : null;"),
        timeout=15.0, what="a first-contentful-paint entry")
    fetched = resources(driver)
    assert paint <= FCP_BUDGET_MS, (
        f"first contentful paint of Home at {paint:.0f} ms on slow 3G, over the {FCP_BUDGET_MS} ms budget; "
        f"fetched: {json.dumps(fetched, indent=1)}")
    # The render-blocking style sheet came compressed, which is what keeps the paint early.
    style = [entry for entry in fetched if "/static/css/" in entry["name"]]
    assert style and all(entry["encoded"] < entry["decoded"] for entry in style), (
        f"the style sheet was not sent compressed: {json.dumps(style, indent=1)}")
