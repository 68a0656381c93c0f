"""The table page's panels (details.panel: menu, score sheet, unseen tiles, moves), opened as players do."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def open_panel(page: Page, panel: str = "menu") -> None:
    """Open the panel with id `panel` by its button, unless it is open already."""
    details = page.locator(f"details.panel#{panel}")
    if details.get_attribute("open") is None:
        details.locator("> summary").click()
    expect(details).to_have_attribute("open", "")


def close_panels(page: Page) -> None:
    """Close whatever panel is open, as Escape does."""
    page.evaluate("document.querySelectorAll('details.panel[open]').forEach(d => { d.open = false; })")
