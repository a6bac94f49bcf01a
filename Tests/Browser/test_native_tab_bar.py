"""A tab bar as good as the native one (issue 4): it minimises while you scroll, floats at
the top of a tablet and turns into a sidebar, follows the chosen theme, takes the order you
give it (Cart pinned), keeps each tab's place, tells you when the cart changed in another
tab, and stays usable at 320 px, with large text and with fingers."""
import time

from axe_selenium_python import Axe
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import PHONE, SCREENSHOTS, TABLET, resize
from forms_support import focused_name, spoken
from pages import press, tab_links, two_windows, wait_for

PAGES = ["/", "/search?q=a", "/cart", "/profile"]
LONG_PAGE = "/search?q=a"  # two dozen results: room to scroll on any phone
STANDARD_ORDER = ["Home", "Search", "Cart", "Profile"]


# ---- what the tests read off a page ---------------------------------------------------

def tab_labels(driver):
    """The tab bar's labels in order (their text, even while the bar shows icons only)."""
    return driver.execute_script(
        "return [...document.querySelectorAll('nav[aria-label=Tabs] a .tab__label')].map(e => e.textContent.trim())")


def badge(driver):
    """The badge's text, '' when hidden, None while a page is still arriving (no badge yet).
    Read in one script so a navigation between finding and reading cannot fail the test."""
    return driver.execute_script(
        "const b = document.querySelector('[data-badge]');"
        "return !b ? null : (b.hidden || !b.getClientRects().length ? '' : b.textContent.trim())")


def rect(driver, selector):
    return driver.execute_script(
        "const e = document.querySelector(arguments[0]); if (!e) return null;"
        "const r = e.getBoundingClientRect();"
        "return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height};",
        selector)


def minimized(driver):
    return driver.execute_script("return document.querySelector('nav.tab-bar').classList.contains('tab-bar--minimized')")


def layout(driver):
    return driver.execute_script("return document.documentElement.dataset.layout")


def theme(driver):
    return driver.execute_script("return document.documentElement.dataset.theme")


def luminance(driver, selector):
    """Relative luminance (0 black … 1 white) of an element's computed background colour."""
    return driver.execute_script("""
        const [r, g, b] = getComputedStyle(document.querySelector(arguments[0])).backgroundColor
            .match(/[\\d.]+/g).slice(0, 3).map(Number).map(c => c / 255)
            .map(c => c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;""", selector)


def content_position(driver):
    """Where the content sits in the document, and how tall the document is."""
    return driver.execute_script("""
        const main = document.getElementById('main');
        return {mainTop: main.getBoundingClientRect().top + scrollY, height: document.documentElement.scrollHeight,
                padding: getComputedStyle(document.body).paddingBottom};""")


def loaded(driver):
    """The page and its script are in: the load event has fired."""
    return driver.execute_script("return document.readyState") == "complete"


def next_frames(driver):
    """Returns after the page has painted twice (scroll handlers run on animation frames)."""
    driver.execute_async_script("const done = arguments[0]; requestAnimationFrame(() => requestAnimationFrame(done));")


def serious_axe_violations(driver):
    axe = Axe(driver)
    axe.inject()
    return [f"{driver.current_url}: {v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
            for v in axe.run()["violations"] if v["impact"] in ("serious", "critical")]


def emulate_media(driver, **features):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "features": [{"name": name.replace("_", "-"), "value": value} for name, value in features.items()]})
    # A new colour scheme starts the page's colour transitions (a fifth of a second): anything
    # that reads colours, axe-core's contrast check above all, must wait for them to end.
    # getAnimations() brings styles up to date first, so transitions just started are counted.
    wait_for(lambda: driver.execute_script(
        "return document.getAnimations().every(a => !(a instanceof CSSTransition) || a.playState !== 'running')"),
        what="the colour transitions after a media change to end")


def choose_theme(driver, label):
    """Picks a theme segment on Profile the way a person does (a click), which saves it."""
    segment = next((choice for choice in driver.find_elements(By.CSS_SELECTOR, "label.choice")
                    if choice.get_attribute("textContent").strip() == label), None)
    assert segment, f"expected a theme choice named {label!r} on Profile"
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", segment)
    segment.click()
    # With the page script the choice is saved as it is made; Save theme is for pages without it.
    wait_for(lambda: theme(driver) == label.lower() and driver.execute_script(
        "return !document.querySelector('form[aria-busy]')"), what=f"html[data-theme={label.lower()}] saved")


def shoot(driver, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SCREENSHOTS / f"{name}.png"))


# ---- minimise on scroll ---------------------------------------------------------------

def test_scrolling_down_minimises_the_bar_and_scrolling_up_restores_it(server, browser):
    driver = browser(size=PHONE)
    driver.get(server.url + LONG_PAGE)
    full = rect(driver, "nav.tab-bar")["height"]
    before = content_position(driver)
    assert not minimized(driver), "expected the full tab bar at the top of the page"

    driver.execute_script("window.scrollTo(0, 700)")
    wait_for(lambda: minimized(driver), what="the tab bar minimised after scrolling down")
    compact = wait_for(lambda: (h := rect(driver, "nav.tab-bar")["height"]) <= full - 8 and h,
                       what=f"the minimised bar shorter than the full one ({full}px)")
    shoot(driver, "minimised-phone-light")
    circle = rect(driver, ".tab--prominent .tab__icon")
    viewport = driver.execute_script("return innerHeight")
    assert circle["width"] >= 44 and circle["height"] >= 44, \
        f"expected the minimised Cart circle at least 44×44, saw {circle['width']}×{circle['height']}"
    assert circle["top"] >= 0 and circle["bottom"] <= viewport, f"expected the Cart circle on screen, saw {circle}"
    hit = driver.execute_script(
        "const r = document.querySelector('.tab--prominent .tab__icon').getBoundingClientRect();"
        "return !!document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2).closest('a[data-role=prominent]')")
    assert hit, "expected a tap on the minimised Cart circle to land on the Cart link"
    assert badge(driver) == "3", f"expected the badge still showing 3 on the minimised bar, saw {badge(driver)!r}"
    after = content_position(driver)
    assert after == before, f"expected the content not to move when the bar shrank ({full}px → {compact}px): {before} → {after}"

    driver.execute_script("window.scrollBy(0, -200)")
    wait_for(lambda: not minimized(driver), what="the full tab bar back after scrolling up")
    wait_for(lambda: abs(rect(driver, "nav.tab-bar")["height"] - full) < 1, what=f"the bar back at {full}px")

    driver.execute_script("window.scrollBy(0, 300)")
    wait_for(lambda: minimized(driver), what="the bar minimised again after scrolling down")
    driver.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
    wait_for(lambda: not minimized(driver), what="the full tab bar back at the end of the page")
    assert content_position(driver) == before, "expected the content never to move while the bar changed size"


def test_with_reduced_motion_the_bar_neither_animates_nor_shrinks(server, browser):
    driver = browser(size=PHONE)
    emulate_media(driver, prefers_reduced_motion="reduce")
    driver.get(server.url + LONG_PAGE)
    moving = driver.execute_script("""
        const nav = document.querySelector('nav.tab-bar');
        return [nav, ...nav.querySelectorAll('*')].flatMap(e => {
            const s = getComputedStyle(e);
            const times = (s.transitionDuration + ',' + s.animationDuration).split(',').map(parseFloat);
            return times.some(t => t > 0) ? [e.getAttribute('class') || e.localName] : [];
        });""")
    assert moving == [], f"expected no transition or animation in the tab bar with reduced motion, saw them on {moving}"
    driver.execute_script("window.scrollTo(0, 700)")
    next_frames(driver)
    assert not minimized(driver), "expected the bar to keep its size while scrolling with reduced motion"


def test_the_bar_is_glass_and_solid_when_less_transparency_is_asked(server, browser):
    driver = browser(size=PHONE)
    driver.get(server.url + LONG_PAGE)
    look = lambda: driver.execute_script(
        "const s = getComputedStyle(document.querySelector('nav.tab-bar'));"
        "return [s.backdropFilter, s.backgroundColor, s.borderTopWidth]")
    blur, fill, edge = look()
    assert "blur" in blur and fill.startswith("rgba"), f"expected a translucent, blurred bar, saw {blur!r} over {fill!r}"
    assert edge not in ("0px", ""), f"expected a hairline edge on the bar, saw {edge!r}"
    emulate_media(driver, prefers_reduced_transparency="reduce")
    blur, fill, _ = look()
    assert blur == "none" and fill.startswith("rgb("), f"expected a solid bar with reduced transparency, saw {blur!r} over {fill!r}"


# ---- tablets: the floating bar and the sidebar ----------------------------------------

def test_on_a_tablet_the_bar_floats_at_the_top_and_the_sidebar_choice_is_remembered(server, browser):
    driver = browser(size=TABLET)
    driver.get(server.url + "/")
    bar = rect(driver, "nav.tab-bar")
    centre = (bar["left"] + bar["right"]) / 2
    assert bar["top"] <= 40, f"expected the tab bar near the top of a tablet, saw its top at {bar['top']}px"
    # Centred in the page's width: the window's, less the gutter kept for a scroll bar (scrollbar-gutter).
    width = driver.execute_script("return document.documentElement.getBoundingClientRect().width")
    assert abs(centre - width / 2) <= 2, f"expected the tab bar centred ({width / 2}px), saw its centre at {centre}px"
    toggle = rect(driver, ".tab-bar__layout-button")
    assert toggle and toggle["left"] >= bar["right"] and toggle["top"] <= 40, \
        f"expected the sidebar button just right of the bar, saw {toggle} beside {bar}"

    press(driver, "Show sidebar")
    wait_for(lambda: layout(driver) == "sidebar", what="html[data-layout=sidebar] after pressing Show sidebar")

    def assert_sidebar(where):
        side = rect(driver, "nav.tab-bar")
        main = rect(driver, "main")
        assert side["left"] == 0 and side["height"] >= TABLET[1] - 1 and 240 <= side["width"] <= 280, \
            f"expected a full-height sidebar 240–280px wide at the left edge {where}, saw {side}"
        assert main["left"] >= side["right"], f"expected the content right of the sidebar {where}, saw main at {main['left']}px"
        cart = rect(driver, "a[data-role=prominent]")
        others = [link.rect["height"] for link in tab_links(driver) if link.get_attribute("data-role") != "prominent"]
        filled = driver.execute_script("return getComputedStyle(document.querySelector('a[data-role=prominent]')).backgroundColor")
        assert cart["height"] > max(others) and filled not in ("rgba(0, 0, 0, 0)", "transparent"), \
            f"expected Cart a filled, taller row in the sidebar {where}, saw {cart['height']}px vs {others}, fill {filled}"
        labels = [link.find_element(By.CSS_SELECTOR, ".tab__label").is_displayed() for link in tab_links(driver)]
        assert all(labels), f"expected every tab's label shown in the sidebar {where}"
        # Where Tab reaches it: after the last tab (WCAG 2.4.3).
        toggle, last = rect(driver, ".tab-bar__layout-button"), tab_links(driver)[-1].rect
        assert toggle["top"] >= last["y"] + last["height"], f"expected the layout button under the tabs {where}, saw {toggle} and {last}"

    assert_sidebar("after pressing Sidebar")
    shoot(driver, "sidebar-tablet-light")
    problems = serious_axe_violations(driver)

    driver.refresh()
    assert layout(driver) == "sidebar", "expected the sidebar remembered after a reload"
    driver.switch_to.new_window("tab")
    resize(driver, TABLET)  # device metrics belong to a tab: give the new one the tablet's too
    driver.get(server.url + "/profile")
    assert_sidebar("in a new tab of the same session")
    emulate_media(driver, prefers_color_scheme="dark")
    shoot(driver, "sidebar-tablet-dark")
    problems += serious_axe_violations(driver)
    assert not problems, "expected no serious or critical axe-core violations in the sidebar; saw:\n" + "\n".join(problems)

    resize(driver, PHONE)
    phone_bar = rect(driver, "nav.tab-bar")
    assert abs(phone_bar["bottom"] - PHONE[1]) <= 2 and phone_bar["width"] >= PHONE[0] - 1, \
        f"expected the sidebar choice to change nothing on a phone (bar at the bottom), saw {phone_bar}"
    assert rect(driver, ".tab-bar__layout-button")["width"] == 0, "expected no layout button on a phone"
    resize(driver, TABLET)

    press(driver, "Show tab bar")
    wait_for(lambda: layout(driver) == "bar", what="html[data-layout=bar] after pressing Show tab bar")
    bar = rect(driver, "nav.tab-bar")
    width = driver.execute_script("return document.documentElement.getBoundingClientRect().width")
    assert bar["top"] <= 40 and abs((bar["left"] + bar["right"]) / 2 - width / 2) <= 2, \
        f"expected the floating bar back at the top centre, saw {bar}"


# ---- themes ---------------------------------------------------------------------------

def test_choosing_dark_on_profile_overrides_a_light_system(server, browser):
    driver = browser(size=PHONE)
    driver.get(server.url + "/profile")
    assert luminance(driver, "body") > 0.8, "expected a light page with a light system and the System theme"
    choose_theme(driver, "Dark")
    for path in ("/profile", "/"):
        driver.get(server.url + path)
        assert theme(driver) == "dark", f"expected the Dark theme kept on {path}"
        page, bar = luminance(driver, "body"), luminance(driver, "nav.tab-bar")
        assert page < 0.05 and bar < 0.05, f"expected a dark page and tab bar on {path}, saw luminance {page:.2f} and {bar:.2f}"
    driver.get(server.url + "/profile")
    choose_theme(driver, "System")
    assert luminance(driver, "body") > 0.8, "expected the light page back with System"


def test_choosing_light_overrides_a_dark_system(server, browser):
    driver = browser(size=PHONE, dark=True)
    driver.get(server.url + "/profile")
    assert luminance(driver, "body") < 0.05, "expected a dark page with a dark system and the System theme"
    choose_theme(driver, "Light")
    page, bar = luminance(driver, "body"), luminance(driver, "nav.tab-bar")
    assert page > 0.8 and bar > 0.8, f"expected a light page and tab bar despite the dark system, saw luminance {page:.2f} and {bar:.2f}"
    shoot(driver, "profile-phone-light-on-dark-system")
    problems = serious_axe_violations(driver)
    assert not problems, "expected no serious or critical axe-core violations with Light forced; saw:\n" + "\n".join(problems)


# ---- a customisable order, Cart pinned ------------------------------------------------

def test_moving_profile_up_without_javascript_reorders_the_tab_bar_everywhere(server, browser):
    driver = browser(size=PHONE, javascript=False)
    driver.get(server.url + "/profile")
    press(driver, "Move Profile up")
    wanted = ["Home", "Profile", "Cart", "Search"]
    wait_for(lambda: tab_labels(driver) == wanted, what=f"the tab bar in the order {wanted} after Move Profile up")
    for path in ("/", "/search", "/cart", "/profile"):
        driver.get(server.url + path)
        assert tab_labels(driver) == wanted, f"expected the tab bar in the order {wanted} on {path}, saw {tab_labels(driver)}"
    rows = [row.get_attribute("data-tab") for row in driver.find_elements(By.CSS_SELECTOR, ".tab-order__item")]
    assert rows == ["home", "profile", "cart", "search"], f"expected Profile's list in the new order, saw {rows}"

    press(driver, "Reset")
    wait_for(lambda: tab_labels(driver) == STANDARD_ORDER, what="the standard order after Reset")
    driver.get(server.url + "/cart")
    assert tab_labels(driver) == STANDARD_ORDER, f"expected the standard order on /cart after Reset, saw {tab_labels(driver)}"


def test_reset_with_javascript_leaves_focus_on_the_sections_heading(server, browser):
    """Reset turns itself off with its press: focus goes to the heading of its section (where
    the answer without JavaScript leads), not to the page's title far above."""
    driver = browser(size=PHONE)
    driver.get(server.url + "/profile")
    press(driver, "Move Profile up")
    wait_for(lambda: tab_labels(driver) == ["Home", "Profile", "Cart", "Search"], what="Profile moved up")
    press(driver, "Reset")
    wait_for(lambda: tab_labels(driver) == STANDARD_ORDER, what="the standard order after Reset")
    wait_for(lambda: focused_name(driver) == "Customize tab bar", what=f"focus on the section's heading, not on {focused_name(driver)!r}")


def test_dragging_profile_above_home_reorders_the_tab_bar(server, browser):
    driver = browser(size=PHONE)
    driver.get(server.url + "/profile")
    rows = {row.get_attribute("data-tab"): row for row in driver.find_elements(By.CSS_SELECTOR, ".tab-order__item")}
    assert not rows["cart"].find_elements(By.CSS_SELECTOR, ".tab-order__handle"), "expected no drag grip on the pinned Cart row"
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", rows["search"])
    grip = rows["profile"].find_element(By.CSS_SELECTOR, ".tab-order__handle")
    distance = rows["home"].rect["y"] - rows["profile"].rect["y"]

    # Cart is pinned: pulling its row moves nothing.
    actions = ActionChains(driver, duration=30)
    actions.click_and_hold(rows["cart"]).move_by_offset(0, -40).move_by_offset(0, -40)
    actions.perform()
    dragging = driver.execute_script("return document.querySelector('[data-tab-order]').classList.contains('tab-order--dragging')")
    ActionChains(driver).release().perform()
    assert not dragging, "expected the pinned Cart row not to drag"

    actions = ActionChains(driver, duration=30)
    actions.click_and_hold(grip)
    for _ in range(6):
        actions.move_by_offset(0, round(distance / 6))
    actions.perform()
    shoot(driver, "drag-profile-phone-light")
    ActionChains(driver).release().perform()

    wanted = ["Profile", "Home", "Cart", "Search"]
    wait_for(lambda: tab_labels(driver) == wanted, what=f"the tab bar in the order {wanted} after the drop and reload")
    driver.get(server.url + "/")
    assert tab_labels(driver) == wanted, f"expected the new order on Home too, saw {tab_labels(driver)}"


# ---- each tab keeps its place ---------------------------------------------------------

def test_each_tab_keeps_its_place_and_tapping_it_again_goes_to_its_top(server, browser):
    driver = browser(size=(390, 460))  # a short phone, so one result still scrolls
    # Only a stored session keeps its searches, and so the Search tab's place: store it first.
    driver.get(server.url + "/")
    press(driver, "Add Ultralight Tent to cart")
    wait_for(lambda: driver.current_url.rstrip("/") == server.url.rstrip("/") and loaded(driver), what="Home after adding")
    driver.get(server.url + "/search")
    field = driver.find_element(By.CSS_SELECTOR, "input[name=q]")
    field.send_keys("tent", Keys.ENTER)
    wait_for(lambda: "q=tent" in driver.current_url and loaded(driver), what="the tent search")
    room = driver.execute_script("return document.documentElement.scrollHeight - innerHeight")
    assert room > 100, f"expected the tent search to scroll at this size, it has {room}px of room"
    driver.execute_script("window.scrollTo(0, arguments[0])", min(room - 20, 240))
    next_frames(driver)
    place = driver.execute_script("return scrollY")

    tab = lambda name: driver.find_element(By.CSS_SELECTOR, f'nav[aria-label="Tabs"] a[data-tab="{name}"]')

    def search_tab_from_home_leads_to(address):
        """Taps Home, and checks where the Search tab leads from there."""
        tab("home").click()
        wait_for(lambda: driver.execute_script("return document.body.dataset.page") == "home" and loaded(driver),
                 what="Home after its tab")
        href = tab("search").get_attribute("href")
        assert href.endswith(address), f"expected the Search tab to lead to {address}, where it was left, saw {href}"

    search_tab_from_home_leads_to("/search?q=tent")

    tab("search").click()
    wait_for(lambda: "q=tent" in driver.current_url and loaded(driver), what="the tent search again via the Search tab")
    wait_for(lambda: abs(driver.execute_script("return scrollY") - place) <= 2,
             what=f"the tent search scrolled back to {place}px")

    tab("search").click()
    wait_for(lambda: driver.current_url.endswith("/search"), what="the root of Search after tapping its tab again")
    assert driver.execute_script("return scrollY") == 0, "expected Search's root at the top"

    # Already at the root: tapping again stays on the page and scrolls to the top.
    driver.execute_script("window.stillHere = true; window.scrollTo(0, 120)")
    if driver.execute_script("return scrollY") > 0:
        tab("search").click()
        wait_for(lambda: driver.execute_script("return scrollY") == 0, what="Search's root scrolled to the top")
        assert driver.execute_script("return window.stillHere === true"), "expected no reload when tapping the current root tab"

    # Left at its root, the Search tab leads back to its root, not to the tent search.
    search_tab_from_home_leads_to("/search")
    tab("search").click()
    wait_for(lambda: driver.current_url.endswith("/search") and loaded(driver), what="Search's root again via the Search tab")
    # A search made there is the tab's place again.
    driver.find_element(By.CSS_SELECTOR, "input[name=q]").send_keys("lamp", Keys.ENTER)
    wait_for(lambda: "q=lamp" in driver.current_url and loaded(driver), what="the lamp search")
    search_tab_from_home_leads_to("/search?q=lamp")
    tab("search").click()
    wait_for(lambda: "q=lamp" in driver.current_url and loaded(driver), what="the lamp search via the Search tab")


# ---- notifications --------------------------------------------------------------------

def test_a_cart_change_in_another_window_shows_a_notice_unless_notifications_are_off(server, browser):
    driver = browser(size=PHONE)
    first, second = two_windows(driver, server.url, "/search?q=tent")
    time.sleep(0.3)  # let the second window's live badge sync before the cart changes

    toast_text = lambda: driver.execute_script(
        "const t = document.querySelector('.toast.toast--visible');"
        "return t && getComputedStyle(t).opacity > 0.5 ? t.textContent.trim() : ''")

    driver.switch_to.window(first)
    press(driver, "Add Ultralight Tent to cart")
    wait_for(lambda: badge(driver) == "4", what="badge 4 in the window that changed")
    assert toast_text() == "", "expected no notice in the window where the cart was changed"

    driver.switch_to.window(second)
    started = time.monotonic()
    text = wait_for(toast_text, timeout=2.0, what="a notice about the cart in the other window within 2 s")
    assert time.monotonic() - started < 2.0
    assert "4 items" in text, f"expected the notice to give the new count, saw {text!r}"
    shoot(driver, "notice-phone-light")
    toast, circle = rect(driver, ".toast"), rect(driver, ".tab--prominent .tab__icon")
    assert toast["bottom"] <= circle["top"], f"expected the notice clear of the Cart circle, saw {toast} over {circle}"
    wait_for(lambda: spoken(driver) == text, what=f"the live region to say the notice {text!r} politely")
    assert driver.execute_script("return document.activeElement === document.body"), "expected focus not to move"

    driver.get(server.url + "/profile")
    switch = driver.find_element(By.CSS_SELECTOR, "button.switch")
    assert switch.get_attribute("aria-pressed") == "true", "expected Notifications on for a new session"
    driver.execute_script("arguments[0].focus()", switch)
    switch.send_keys(Keys.ENTER)
    wait_for(lambda: driver.execute_script("const b = document.querySelector('button.switch'); return b && b.getAttribute('aria-pressed')") == "false",
             what="Notifications off after pressing the switch")

    driver.get(server.url + "/")
    press(driver, "Add Daypack 22L to cart")
    wait_for(lambda: badge(driver) == "5", what="badge 5 in the window that changed")
    driver.switch_to.window(first)
    wait_for(lambda: badge(driver) == "5", timeout=2.0, what="badge 5 in the other window")
    wait_for(lambda: driver.execute_script("return document.getElementById('live-status').textContent") == "Cart updated: 5 items",
             what="the badge change still announced")
    assert toast_text() == "", f"expected no notice with Notifications off, saw {toast_text()!r}"


# ---- small screens, large text, fingers ----------------------------------------------

def test_at_320_px_nothing_scrolls_sideways_and_all_four_tabs_fit(server, browser):
    driver = browser(size=(320, 640))
    for path in PAGES + ["/no-such-page"]:
        driver.get(server.url + path)
        width = driver.execute_script("return document.documentElement.scrollWidth")
        assert width <= 320, f"expected no horizontal scrolling at 320px on {path}, the page is {width}px wide"
        for link in tab_links(driver):
            box = link.rect
            assert box["x"] >= 0 and box["x"] + box["width"] <= 320, f"expected every tab within 320px on {path}, saw {box}"
    # The loop ends on the 404 page; the screenshot is of the page its name says.
    driver.get(server.url + "/profile")
    shoot(driver, "profile-320-light")


def test_with_text_at_200_percent_the_tab_bar_stays_usable(server, browser):
    driver = browser(size=PHONE)
    try:  # the browser's own text size setting, as a person would set it
        driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 26}})
        by_setting = True
    except Exception:
        by_setting = False
    for path in PAGES:
        driver.get(server.url + path)
        if not by_setting:
            driver.execute_script("document.documentElement.style.fontSize = '200%'")
        size = driver.execute_script("return getComputedStyle(document.documentElement).fontSize")
        assert size == "32px", f"expected text at 200% (32px) on {path}, saw {size}"
        viewport = driver.execute_script("return [innerWidth, innerHeight]")
        for link in tab_links(driver):
            box = link.rect
            assert box["x"] >= 0 and box["x"] + box["width"] <= viewport[0] and box["y"] + box["height"] <= viewport[1], \
                f"expected every tab within the viewport with 200% text on {path}, saw {box}"
            assert box["height"] >= 44, f"expected tabs at least 44px tall with 200% text on {path}, saw {box['height']}"
        width = driver.execute_script("return document.documentElement.scrollWidth")
        assert width <= viewport[0], f"expected no horizontal scrolling with 200% text on {path}, the page is {width}px wide"
        # A label that wraps ("Sign out of this browser") must not draw its lines over each other.
        cramped = driver.execute_script(
            "return [...document.querySelectorAll('.button, .chip')].filter(e => e.getClientRects().length)"
            ".map(e => [e.textContent.trim(), getComputedStyle(e)])"
            ".filter(([, s]) => parseFloat(s.lineHeight) < 1.15 * parseFloat(s.fontSize))"
            ".map(([text, s]) => `${text}: ${s.fontSize} text on ${s.lineHeight} lines`)")
        assert not cramped, f"expected buttons' lines at least 1.15 times their text with 200% text on {path}, saw {cramped}"
    shoot(driver, "profile-phone-text-200")


def test_touch_targets_are_at_least_44_by_44(server, browser):
    driver = browser(size=PHONE)
    targets = {
        "/": ['nav[aria-label="Tabs"] a'],
        "/cart": [".stepper__button"],
        "/profile": ["button.switch", ".tab-order__moves button", ".tab-order__reset button", "label.choice",
                     ".tab-order__handle"],
    }
    small = []
    for path, selectors in targets.items():
        driver.get(server.url + path)
        for selector in selectors:
            boxes = driver.execute_script(
                "return [...document.querySelectorAll(arguments[0])].map(e => {const r = e.getBoundingClientRect();"
                "return [e.getAttribute('aria-label') || e.textContent.trim() || e.className, r.width, r.height]})", selector)
            assert boxes, f"expected {selector} on {path}"
            small += [f"{path} {name!r}: {w:.0f}×{h:.0f}" for name, w, h in boxes if w < 44 or h < 44]
    resize(driver, TABLET)
    driver.get(server.url + "/")
    for selector in ('nav[aria-label="Tabs"] a', ".tab-bar__layout-button"):
        for name, w, h in driver.execute_script(
                "return [...document.querySelectorAll(arguments[0])].map(e => {const r = e.getBoundingClientRect();"
                "return [e.getAttribute('aria-label') || e.textContent.trim(), r.width, r.height]})", selector):
            if w < 44 or h < 44:
                small.append(f"tablet / {name!r}: {w:.0f}×{h:.0f}")
    assert not small, "expected every tab, stepper, switch and move button at least 44×44 CSS px; saw:\n" + "\n".join(small)
