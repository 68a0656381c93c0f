"""What a table page does when the server closes its websocket with 1008: run in a process of its own.

    python tests/web/ws/page_after_1008.py TABLE_URL WAIT_SECONDS

Playwright's sync API runs once per process, and in a whole test run the browser tests
(tests/e2e) hold that one; so test_ws_budget_page.py starts this script instead. It opens the
page in Debian's Chromium (tests/helpers/chromium.py's launch), makes the page send more than its websocket's
budget, waits, and prints as JSON what the page shows in #connection and how many websockets
it opened in all. Exit status 3: Chromium is not there or does not start.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the project, for tests.helpers and web

from tests.helpers.chromium import CHROMIUM, launch_chromium

# The page's own socket wrapper (htmx-ext-ws keeps it in the element's internal data), sending
# as a ws-send button would: what a stuck key or a runaway script would do.
FLOOD = """count => {
  const socket = document.querySelector("[ws-connect]")["htmx-internal-data"].webSocket;
  for (let i = 0; i < count; i++) socket.send(JSON.stringify({action: "pass", version: "0"}), null);
}"""


def main(url: str, wait: float) -> dict:
    from playwright.sync_api import Error, sync_playwright

    if not Path(CHROMIUM).is_file():
        sys.exit(3)
    with sync_playwright() as playwright:
        try:
            browser = launch_chromium(playwright)
        except Error:
            sys.exit(3)
        page = browser.new_page()
        opened = []
        page.on("websocket", lambda socket: opened.append(socket.url))
        page.goto(url)
        page.wait_for_function("() => document.getElementById('connection').hidden"
                               " && document.querySelector('#table') !== null")
        page.wait_for_timeout(300)  # the socket is open (#connection is hidden once it is)
        page.evaluate(FLOOD, 200)
        page.wait_for_function("() => !document.getElementById('connection').hidden", timeout=10_000)
        page.wait_for_timeout(wait * 1000)  # past fichas.js's 4 s and htmx's retry delays
        connection = page.locator("#connection")
        shown = {"text": connection.inner_text(), "visible": connection.is_visible(),
                 "websockets": len(opened)}
        browser.close()
        return shown


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], float(sys.argv[2]))))
