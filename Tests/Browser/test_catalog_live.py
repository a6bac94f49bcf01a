"""Open pages during a catalog import (issue 26, item 6): an import reaches an open page as a
cart change does — the stream brings `event: catalog` and the page re-reads itself — so its
prices and counts change without a reload."""
import os
import subprocess
import tempfile
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from conftest import PHONE, ROOT, QuickCartServer
from pages import press, wait_for


@pytest.fixture
def own_shop():
    """A server of this test's own, since the test changes its catalog."""
    shop = QuickCartServer(Path(os.environ.get("QUICKCART_BINARY", ROOT / ".build" / "debug" / "quickcart")))
    yield shop
    shop.stop()


def import_catalog(shop, text):
    folder = Path(tempfile.mkdtemp(prefix="quickcart-catalog-"))
    path = folder / "catalog.csv"
    path.write_text(text)
    binary = Path(os.environ.get("QUICKCART_BINARY", ROOT / ".build" / "debug" / "quickcart"))
    result = subprocess.run([str(binary), "catalog", "import", str(path), "--db", str(Path(shop.folder) / "shop.sqlite"),
                             "--resources", str(ROOT)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, f"the import failed: {result.stdout}{result.stderr}"


@pytest.mark.parametrize("path", ["/cart", "/"])
def test_an_import_reaches_an_open_page_without_a_reload(own_shop, browser, path):
    driver = browser(size=PHONE)
    driver.get(own_shop.url + path)
    wait_for(lambda: "$128.00" in driver.find_element(By.CSS_SELECTOR, "main").text, what="the demo price")
    if path == "/cart":
        # A change stores the cart (an untouched demo cart goes with the demo catalog).
        press(driver, "Increase quantity of Trail Running Shoes")
        wait_for(lambda: driver.find_element(By.CSS_SELECTOR, "[data-subtotal]").text == "$305.00", what="two pairs")
    driver.execute_script("window.__notReloaded = true")
    import_catalog(own_shop, "slug,name,summary,category,price,featured\n"
                             "trail-running-shoes,Trail Running Shoes,Grippy shoes.,Running,150.00,true\n"
                             "insulated-water-bottle,Insulated Water Bottle,Cold for a day.,Hydration,24.50,true\n")
    wait_for(lambda: "$150.00" in driver.find_element(By.CSS_SELECTOR, "main").text, timeout=8,
             what=f"the new price on the open {path} page")
    assert driver.execute_script("return window.__notReloaded === true"), "the page was reloaded rather than updated"
    if path == "/cart":
        assert driver.find_element(By.CSS_SELECTOR, "[data-subtotal]").text == "$349.00"
