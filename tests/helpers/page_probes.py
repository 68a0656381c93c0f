"""What browser tests add to a page: axe, a CSP watch, a live-region listener, a language, a freeze."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from helpers.players import Player

AXE = Path(__file__).resolve().parents[1] / "e2e" / "vendor" / "axe.min.js"
SIZES = ({"width": 1280, "height": 800}, {"width": 360, "height": 640})  # desktop and phone


def with_axe(page: Page) -> Page:
    """The page, with axe loaded into every document it opens from now on."""
    page.context.add_init_script(path=str(AXE))
    return page


WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  var seen = e.violatedDirective + " blocked " + (e.blockedURI || "inline") + " at " +
             (e.sourceFile || document.location.pathname) + ":" + e.lineNumber;
  window.__violations.push(seen);
  if (window.fichasReportViolation) window.fichasReportViolation(seen);
});
"""


LATE_REPORT_SECONDS = 0.5  # how long a page's report may still take to reach the test


def watched(open_page, problems: list[str], phone: bool = False) -> Page:
    """A new page whose CSP violations, console errors and page errors land in `problems`."""
    page = open_page(phone=phone)
    page.expose_function("fichasReportViolation", lambda seen: problems.append(f"CSP: {seen}"))
    page.add_init_script(WATCH)

    def on_console(message) -> None:
        if message.type == "error" or "Content-Security-Policy" in message.text:
            problems.append(f"console {message.type}: {message.text}")

    page.on("console", on_console)
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    return page


# Records each sentence added to the live regions, in order (window.heard, window.alerted).
LISTEN = """
window.heard = []; window.alerted = [];
document.addEventListener("DOMContentLoaded", () => {
  for (const [id, list] of [["announcer", window.heard], ["alerts", window.alerted]]) {
    const region = document.getElementById(id);
    if (!region) continue;
    new MutationObserver(records => records.forEach(r => r.addedNodes.forEach(
      n => list.push(n.textContent)))).observe(region, {childList: true});
  }
});
"""


def speak(page: Page, url: str, lang: str) -> None:
    """The page's viewer chooses `lang` (the switch's cookie) and the page is loaded again."""
    if lang != "en":
        page.context.add_cookies([{"name": "lang", "value": lang, "url": url}])
        page.reload()
        expect(page.locator("html")).to_have_attribute("lang", lang)


def freeze(player: Player):
    """Freeze the player's page as a browser freezes a hidden one; returns the CDP session to thaw it.

    Page.setWebLifecycleState stops nothing in headless Chromium 156 (a page it calls frozen still runs
    its timers and gets no freeze event: the report of issue 43 has the evidence), so the page's
    scripts are also stopped in the debugger: no script runs, while the browser keeps the socket
    and answers its pings, as it does for a frozen page."""
    cdp = player.page.context.new_cdp_session(player.page)
    cdp.send("Page.setWebLifecycleState", {"state": "frozen"})
    cdp.send("Debugger.enable")
    cdp.send("Debugger.pause")
    return cdp


def thaw(cdp) -> None:
    """Let a frozen page run again."""
    cdp.send("Debugger.resume")
    cdp.send("Debugger.disable")
    cdp.send("Page.setWebLifecycleState", {"state": "active"})
