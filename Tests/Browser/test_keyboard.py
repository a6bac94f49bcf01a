"""Keyboard only: Tab reaches every stepper and every tab link, in order, with a visible focus."""
import pytest

from conftest import PHONE
from pages import tab_through


def focused_description(driver):
    """The focused element's name, and whether focus changes how it (or a child) is drawn."""
    return driver.execute_script("""
        const e = document.activeElement;
        const parts = [e, ...e.children];
        const look = () => parts.map(p => { const s = getComputedStyle(p); return [s.outlineStyle, s.outlineWidth, s.boxShadow].join(' '); }).join('|');
        const focused = look();
        e.blur();
        const unfocused = look();
        e.focus({focusVisible: true});
        return [e.getAttribute('aria-label') || e.textContent.trim().replace(/\\s+/g, ' '), focused !== unfocused];
    """)


def test_tab_key_reaches_steppers_and_tabs_in_order_with_visible_focus(server, browser):
    driver = browser(size=PHONE)
    driver.get(server.url + "/cart")
    seen = []
    for name, visible in tab_through(driver, 30, focused_description):
        assert visible, f"expected a visible focus ring on {name!r}"
        seen.append(name)
    steppers = [name for name in seen if name.startswith(("Decrease quantity", "Increase quantity"))]
    assert steppers[:2] == ["Increase quantity of Trail Running Shoes", "Decrease quantity of Insulated Water Bottle"], \
        f"expected the enabled steppers in order, saw {steppers}"
    tabs = [name for name in seen if name in ("Home", "Search", "Cart, 3 items", "Profile")]
    assert tabs[:4] == ["Home", "Search", "Cart, 3 items", "Profile"], f"expected the four tab links in order, saw {tabs}"


# How much of the focused control the tab bar hides, as a percentage of its height: the
# bar's painted boxes (the phone's bar and its raised Cart circle; the floating capsule and
# its layout button) where they cross the control. A control of the bar, or one fixed above
# it (the skip link), is never under it.
COVERED_BY_THE_BAR = """
    const e = document.activeElement;
    const nav = document.querySelector('nav.tab-bar');
    const fixed = (el) => getComputedStyle(el).position === 'fixed';
    if (e === document.body || nav.contains(e) || fixed(e) || !fixed(nav)) return [e.localName, 0];
    const r = e.getBoundingClientRect();
    const name = e.getAttribute('aria-label') || e.name || e.textContent.trim().replace(/\\s+/g, ' ');
    const painted = (box) => getComputedStyle(box).backgroundColor !== 'rgba(0, 0, 0, 0)';
    let covered = 0;
    for (const box of [nav, ...nav.querySelectorAll('.tab-bar__list, .tab--prominent, .tab--prominent .tab__icon, .tab-bar__layout-button')].filter(painted)) {
        const b = box.getBoundingClientRect();
        const across = Math.min(r.right, b.right) - Math.max(r.left, b.left);
        const down = Math.min(r.bottom, b.bottom) - Math.max(r.top, b.top);
        if (across > 0 && down > 0) covered = Math.max(covered, down / r.height);
    }
    return [name, Math.round(covered * 100)];
"""


@pytest.mark.parametrize("size", [(320, 640), (800, 600), (1280, 720)], ids=["320", "800", "1280"])
def test_the_tab_bar_never_hides_the_focused_control(server, browser, size):
    """WCAG 2.2 Focus Not Obscured: Tab forwards and Shift+Tab back through each long page;
    the page scrolls each control into view clear of the bar, at the bottom or the top."""
    driver = browser(size=size)
    for path in ["/", "/search?q=a", "/checkout", "/profile"]:
        driver.get(server.url + path)
        for backwards in (False, True):
            hidden = [(name, covered) for name, covered in tab_through(
                driver, 120, lambda d: d.execute_script(COVERED_BY_THE_BAR), backwards=backwards) if covered > 0]
            direction = "Shift+Tab" if backwards else "Tab"
            assert not hidden, f"at {size[0]}px on {path}, {direction} left focus under the tab bar (name, % hidden): {hidden}"
