"""The shop as an installable app, as Chromium judges it through the DevTools Protocol.

Chromium finds no installability errors on Home and parses the manifest with its icons; the
committed icons are what `rsvg-convert` renders from the shop's SVG artwork (`make icons`);
nothing is asked at a first visit, and Profile offers "Install the app" where the browser
allows installing.
"""
import json
import time
import subprocess
import tempfile
from pathlib import Path

from selenium.webdriver.common.by import By

from conftest import ROOT
from pages import wait_for

APP_ICONS = ROOT / "Public" / "icons" / "app"


def test_home_is_installable_and_its_manifest_parses_with_its_icons(server, browser):
    driver = browser()
    driver.get(server.url + "/")
    errors = driver.execute_cdp_cmd("Page.getInstallabilityErrors", {})["installabilityErrors"]
    assert errors == [], f"expected no installability errors on Home; saw {json.dumps(errors, indent=1)}"
    manifest = driver.execute_cdp_cmd("Page.getAppManifest", {})
    assert manifest["url"] == server.url + "/manifest.webmanifest"
    assert manifest["errors"] == [], f"the manifest did not parse cleanly: {manifest['errors']}"
    data = json.loads(manifest["data"])
    assert data["display"] == "standalone" and data["start_url"] == "/" and data["scope"] == "/"
    kinds = {(icon["sizes"], icon["purpose"]) for icon in data["icons"]}
    assert kinds == {("192x192", "any"), ("512x512", "any"), ("192x192", "maskable"), ("512x512", "maskable")}, kinds
    assert [shortcut["url"] for shortcut in data["shortcuts"]] == ["/cart", "/search"]
    # Every icon loads as an image of the size it claims, in the page's own origin.
    sizes = driver.execute_async_script("""
        const [icons, done] = arguments;
        Promise.all(icons.map((src) => new Promise((resolve) => {
          const image = new Image();
          image.onload = () => resolve(`${image.naturalWidth}x${image.naturalHeight}`);
          image.onerror = () => resolve('failed');
          image.src = src;
        }))).then(done);
    """, [icon["src"] for icon in data["icons"]])
    assert sizes == [icon["sizes"] for icon in data["icons"]], f"icons loaded at {sizes}"


def test_the_committed_icons_are_what_make_icons_renders_from_the_artwork():
    with tempfile.TemporaryDirectory() as folder:
        result = subprocess.run(["make", "-s", "icons", f"APP_ICONS={folder}"], cwd=ROOT, capture_output=True, text=True)
        assert result.returncode == 0, f"make icons failed: {result.stdout}{result.stderr}"
        rendered = sorted(path.name for path in Path(folder).glob("*.png"))
        committed = sorted(path.name for path in APP_ICONS.glob("*.png"))
        assert rendered == committed, f"make icons renders {rendered}; Public/icons/app/ holds {committed}"
        for name in rendered:
            assert (Path(folder) / name).read_bytes() == (APP_ICONS / name).read_bytes(), (
                f"Public/icons/app/{name} is not what make icons renders from the artwork: run make icons")


def install_offers(driver):
    return driver.execute_script(
        "return [...document.querySelectorAll('button')].map((b) => b.textContent.trim()).filter((t) => /Install/.test(t));")


def test_nothing_is_asked_at_a_first_visit_and_profile_offers_install_the_app(server, browser):
    # Chromium offers installing at once with this switch, instead of after some engagement.
    driver = browser(arguments=["--bypass-app-banner-engagement-checks"])
    driver.get(server.url + "/")
    wait_for(lambda: driver.execute_script("return document.readyState") == "complete", what="Home loaded")
    time.sleep(2)
    assert install_offers(driver) == [], "Home asks for nothing"
    assert driver.execute_script("return Notification.permission") == "default", "no notification prompt either"
    driver.get(server.url + "/profile")
    wait_for(lambda: install_offers(driver) == ["Install the app"], timeout=10.0, what="Profile's “Install the app”")
    section = driver.find_element(By.CSS_SELECTOR, "section.install-app")
    assert section.find_element(By.CSS_SELECTOR, "h2").text == "App"
