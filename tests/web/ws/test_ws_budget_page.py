"""A page whose websocket is closed with 1008 says why and does not reconnect (static/fichas.js).

Chromium runs in a process of its own (page_after_1008.py): see there why.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from web.ws.endpoint import TOO_FAST

pytestmark = pytest.mark.browser
SCRIPT = Path(__file__).with_name("page_after_1008.py")


def test_a_page_cut_off_for_flooding_shows_the_reason_and_stays_disconnected(make_server):
    server = make_server(START_CLOCK=False, PING_SECONDS=1)
    host = server.player()
    url = host.create("Ana", "block", 2)
    result = subprocess.run([sys.executable, str(SCRIPT), server.url + url, "5"], capture_output=True,
                            text=True, timeout=60)
    if result.returncode == 3:
        if os.environ.get("FICHAS_REQUIRE_BROWSER") == "1":
            pytest.fail("FICHAS_REQUIRE_BROWSER=1 but Chromium is missing or does not start")
        pytest.skip("no Chromium (install Debian's `chromium`, or set FICHAS_CHROMIUM)")
    assert result.returncode == 0, result.stderr
    shown = json.loads(result.stdout)
    assert shown == {"text": TOO_FAST, "visible": True, "websockets": 1}
