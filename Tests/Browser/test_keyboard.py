"""Keyboard only: Tab reaches every stepper and every tab link, in order, with a visible focus."""
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
