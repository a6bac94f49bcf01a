"""A shop of one's own with photos: a catalog imported with `quickcart catalog import`, its
photos shown on Home, Search and the cart at phone and tablet sizes, loaded from /media/ at
the size the page asks for, with no serious axe-core violations, and screenshots to look at."""
import os
import struct
import subprocess
import tempfile
import time
import urllib.request
import zlib
from pathlib import Path

import pytest
from axe_selenium_python import Axe
from selenium.webdriver.common.by import By

from conftest import PHONE, ROOT, SCREENSHOTS, TABLET, QuickCartServer

COLOURS = [(200, 80, 40), (40, 120, 200), (60, 160, 90), (220, 180, 40), (150, 60, 170), (90, 90, 90)]


def png(width, height, colour):
    """A PNG of one colour, written by hand (the images themselves are not under test here)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    row = b"\x00" + bytes(colour) * width
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(row * height)) + chunk(b"IEND", b""))


@pytest.fixture(scope="module")
def photo_shop():
    binary = Path(os.environ.get("QUICKCART_BINARY", ROOT / ".build" / "debug" / "quickcart"))
    folder = Path(tempfile.mkdtemp(prefix="quickcart-photos-"))
    media = folder / "media"
    media.mkdir()
    lines = ["slug,name,summary,category,price,image,featured"]
    for index, colour in enumerate(COLOURS, start=1):
        (media / f"photo-{index}.png").write_bytes(png(640 + 40 * index, 480, colour))
        lines.append(f"lantern-{index},Lantern {index},A warm light for the tent.,Camping,{index * 10}.00,photo-{index}.png,true")
    lines.append("camp-stove,Camp Stove,Boils water fast.,Camping,59.95,,true")
    catalog = folder / "catalog.csv"
    catalog.write_text("\n".join(lines) + "\n")
    shop = QuickCartServer(binary, extra_args=("--media", str(media)))
    result = subprocess.run([str(binary), "catalog", "import", str(catalog), "--db", str(Path(shop.folder) / "shop.sqlite"),
                             "--media", str(media), "--resources", str(ROOT)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, f"the import failed: {result.stdout}{result.stderr}"
    deadline = time.time() + 8
    while b"Lantern 6" not in urllib.request.urlopen(shop.url + "/", timeout=5).read():
        assert time.time() < deadline, "the running shop never showed the imported catalog"
        time.sleep(0.2)
    yield shop
    shop.stop()


@pytest.mark.parametrize("size", [PHONE, TABLET], ids=["phone", "tablet"])
def test_photos_on_every_page(photo_shop, browser, size):
    driver = browser(size=size)
    device = "phone" if size == PHONE else "tablet"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for index in range(3):
        driver.get(photo_shop.url + "/")
        driver.find_elements(By.CSS_SELECTOR, ".product__add button")[index].click()
        time.sleep(0.3)
    problems = []
    for name, path in {"home": "/", "search": "/search?q=lantern", "cart": "/cart"}.items():
        driver.get(photo_shop.url + path)
        photos = driver.find_elements(By.CSS_SELECTOR, "img.product__photo, img.cart-item__photo")
        if not photos:
            problems.append(f"{path}: no photos")
        for photo in photos:
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", photo)
        time.sleep(0.5)
        driver.execute_script("window.scrollTo(0, 0)")
        for photo in photos:
            # naturalWidth is in CSS pixels (the file's width over its srcset density): the file is
            # known by its address.
            loaded = driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0 && arguments[0].currentSrc", photo)
            box = photo.size
            if not loaded or not (loaded.endswith("-160.webp") or loaded.endswith("-320.webp")):
                problems.append(f"{path}: {photo.get_attribute('alt')} loaded {loaded!r}, not a thumbnail")
            if abs(box["width"] - 64) > 1 or abs(box["height"] - 64) > 1:
                problems.append(f"{path}: {photo.get_attribute('alt')} drawn {box}, not 64 × 64")
        driver.save_screenshot(str(SCREENSHOTS / f"photos-{name}-{device}.png"))
        axe = Axe(driver)
        axe.inject()
        for violation in axe.run()["violations"]:
            if violation["impact"] in ("serious", "critical"):
                problems.append(f"{path}: {violation['id']} ({violation['impact']}): {violation['help']}")
    driver.get(photo_shop.url + "/search?q=stove")
    if not driver.find_elements(By.CSS_SELECTOR, ".product__icon svg"):
        problems.append("the product without a photo shows no line icon")
    assert not problems, "expected every photo loaded at thumbnail size, drawn 64 px square, and no serious violations; saw:\n" + "\n".join(problems)
