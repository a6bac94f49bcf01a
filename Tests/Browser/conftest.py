"""Fixtures for driving a real QuickCart server with a real Chromium.

Each test gets its own browser (so its own session cookie) against one server started on a
free port with a fresh SQLite file. Failures print what was expected, what was seen, and the
path of a screenshot taken at that moment.
"""
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import urllib.request
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

ROOT = Path(__file__).resolve().parents[2]
# The quickcart under test: make test's debug build, unless QUICKCART_BINARY names another.
BINARY = Path(os.environ.get("QUICKCART_BINARY", ROOT / ".build" / "debug" / "quickcart"))
SCREENSHOTS = ROOT / ".build" / "screenshots"
PHONE = (390, 844)
TABLET = (1024, 1366)

# Never let Selenium Manager reach for the network: the browser and driver are Debian's.
os.environ["SE_OFFLINE"] = "true"


def stop_process(process):
    """Stops a quickcart as its supervisor would: SIGTERM, then SIGKILL after 10 s."""
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


class QuickCartServer:
    """The quickcart executable on a free port, with its own database file."""

    def __init__(self, binary: Path, extra_args=()):
        self.folder = tempfile.mkdtemp(prefix="quickcart-browser-")
        # The access log goes to stderr: a file, not a pipe nobody reads, so it never fills and blocks.
        self.stderr_path = os.path.join(self.folder, "quickcart.stderr")
        self.stderr = open(self.stderr_path, "wb")
        self.process = subprocess.Popen(
            [str(binary), "--port", "0", "--db", os.path.join(self.folder, "shop.sqlite"),
             "--resources", str(ROOT), "--metrics", "127.0.0.1:0", *extra_args],
            stdout=subprocess.PIPE, stderr=self.stderr, text=True,
        )
        line = self.process.stdout.readline()
        match = re.search(r"http://([\d.]+):(\d+)/", line)
        if not match:
            self.process.kill()
            self.process.wait()
            self.stderr.close()
            with open(self.stderr_path, errors="replace") as log:
                error = log.read()
            raise RuntimeError(f"quickcart did not start: {line!r} {error}")
        self.url = f"http://{match.group(1)}:{match.group(2)}"
        # The operator's metrics are on a listener of their own, named on the next line.
        metrics = re.search(r"metrics on (http://[\d.]+:\d+/metrics)", self.process.stdout.readline())
        self.metrics_url = metrics.group(1) if metrics else None

    def stop(self):
        stop_process(self.process)
        self.stderr.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    def metrics(self) -> str:
        """The operator's /metrics text."""
        with urllib.request.urlopen(self.metrics_url, timeout=5) as response:
            return response.read().decode()

    def event_stream_count(self) -> int:
        """Open event streams, as the operator's metrics report them (the shop tells no stranger)."""
        return int(re.search(r"^quickcart_event_streams_open (\d+)$", self.metrics(), re.MULTILINE).group(1))


@pytest.fixture(scope="session")
def server():
    if not BINARY.exists():
        pytest.fail(f"no quickcart binary at {BINARY}: run `swift build` first (make test does)")
    instance = QuickCartServer(BINARY)
    yield instance
    instance.stop()


def make_driver(size=PHONE, javascript=True, dark=False, scrollbars=False, profile=None, network_log=False, arguments=()):
    """A Chromium. `profile` is a folder that keeps its state (service workers, caches) across
    drivers; `network_log` keeps the DevTools Protocol's network events for `get_log("performance")`;
    `arguments` are more command-line switches."""
    options = Options()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--no-first-run", "--disable-extensions",
                     f"--window-size={size[0]},{size[1]}", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    if not scrollbars:  # as phones draw them: over the page, taking no width
        options.add_argument("--hide-scrollbars")
    for argument in arguments:
        options.add_argument(argument)
    if profile:
        options.add_argument(f"--user-data-dir={profile}")
    if network_log:
        options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    if dark:
        options.add_argument("--force-dark-mode")
        options.add_argument("--blink-settings=preferredColorScheme=0")
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    service = Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_page_load_timeout(20)
    driver.set_script_timeout(20)
    # Headless windows include no browser chrome: make the viewport exactly the size asked.
    resize(driver, size)
    return driver


def resize(driver, size):
    """Makes the viewport (of the current tab) exactly `size`; a phone below 600 px wide."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": size[0] < 600})


# The last test's Chromiums, quitting while the next test's first one starts (each takes about
# half a second, mostly waiting); joined before that test's browser is handed over.
quitting = []


def finish_quitting():
    while quitting:
        quitting.pop().join()


@pytest.fixture
def browser(request):
    """A phone-sized Chromium with JavaScript, and a fresh session."""
    drivers = []
    with_profile = []

    def factory(**kwargs):
        driver = make_driver(**kwargs)
        finish_quitting()  # so no earlier test's browser is still open while this test runs
        drivers.append(driver)
        if kwargs.get("profile"):
            with_profile.append(driver)
        return driver

    request.node.drivers = drivers
    yield factory
    for driver in drivers:
        if driver in with_profile:  # its fixture removes the folder next: the browser must be gone by then
            driver.quit()
        else:
            quitting.append(threading.Thread(target=driver.quit))
            quitting[-1].start()


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "alone: a timed check (a first paint against its budget) that needs the machine to itself; "
        "make test leaves it out of the two-worker run (-m 'not alone') and runs it afterwards, alone")


def pytest_sessionfinish(session):
    finish_quitting()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" and report.failed:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        for index, driver in enumerate(getattr(item, "drivers", [])):
            path = SCREENSHOTS / f"FAILED-{item.name}-{index}.png"
            try:
                driver.save_screenshot(str(path))
                report.sections.append(("screenshot", f"screenshot of the failing page: {path}"))
                report.longrepr = f"{report.longrepr}\nscreenshot: {path}"
            except Exception as error:  # the browser itself may be what failed
                report.sections.append(("screenshot", f"no screenshot: {error}"))
