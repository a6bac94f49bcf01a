"""The shop as an installable app, as Chromium judges it through the DevTools Protocol.

Chromium finds no installability errors on Home and parses the manifest with its icons; the
committed icons are what `rsvg-convert` renders from the shop's SVG artwork (`make icons`).
"""
import json
import subprocess
import tempfile
from pathlib import Path

from conftest import ROOT

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
