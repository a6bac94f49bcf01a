"""Presses on a slow network (issue 26, item 2): over emulated slow 3G, three taps on "+"
300 ms apart all count, and the page never shows two different counts: the badge and the
cart's "Items" agree at every moment sampled, while the posts are on their way and after."""
from selenium.webdriver.common.by import By

from conftest import PHONE
from pages import wait_for
from test_slow_network import slow_3g

# Every 20 ms, in the page itself, the badge's number and the "Items" cell are compared.
SAMPLER = """
window.__samples = [];
const read = () => {
  const link = document.querySelector('nav a[data-role="prominent"]');
  const badge = /\\d+/.exec(link.getAttribute('aria-label') || '');
  const items = document.querySelector('[data-count]:not(.cart)');
  window.__samples.push([badge ? Number(badge[0]) : -1, items ? Number(items.textContent) : -1,
                         Number(document.querySelector('.cart-item [data-quantity]').textContent)]);
};
read();
window.__sampler = setInterval(read, 20);
"""

TAP_THREE_TIMES = """
const press = () => document.querySelector('button[aria-label="Increase quantity of Trail Running Shoes"]').click();
press(); setTimeout(press, 300); setTimeout(press, 600);
"""


def test_three_taps_300ms_apart_on_slow_3g_all_count_and_the_counts_agree(server, browser):
    driver = browser(size=PHONE)
    driver.get(server.url + "/cart")
    wait_for(lambda: driver.execute_script("return document.querySelector('nav.tab-bar').dataset.liveUrl !== undefined"),
             what="the page script")
    quantity = lambda: driver.find_element(By.CSS_SELECTOR, ".cart-item [data-quantity]").get_attribute("textContent")
    assert quantity() == "1"
    slow_3g(driver)
    driver.execute_script(SAMPLER)
    driver.execute_script(TAP_THREE_TIMES)
    wait_for(lambda: quantity() == "4", timeout=20, what="quantity 4 after three taps on +")
    # Go on sampling a while after: a late stream event must not make them part either.
    samples = driver.execute_script("""
        return new Promise((done) => setTimeout(() => { clearInterval(window.__sampler); done(window.__samples); }, 1500));""")
    disagreements = [sample for sample in samples if sample[0] != sample[1]]
    assert not disagreements, f"the badge and Items disagreed in {len(disagreements)} of {len(samples)} samples: {disagreements[:5]}"
    assert [s[2] for s in samples][-1] == 4, f"the quantity ended at {samples[-1]}"
    assert quantity() == "4" and driver.find_element(By.CSS_SELECTOR, "td[data-count]").text == "6"
