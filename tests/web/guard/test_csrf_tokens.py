"""CSRF tokens the server issued: a signed cookie, and per answer a masked token in the page.

The cookie holds `nonce.signature` (HMAC with FICHAS_SECRET_KEY, or a secret made once and kept in
the database); pages carry it masked afresh (pad, pad XOR token), so no two answers show the same
token (BREACH) and a cookie the server did not sign is refused whatever the page sends.
"""

import base64
import re
import secrets

import pytest

from helpers import CSRF, Browser, open_table
from helpers.pages import db_rows, flash_text, reopen, table_count
from web.guard.security import CSRF_COOKIE

GOOD = {"name": "Ana", "variant": "block", "seats": 2, "target": 100}


def mask(token: str) -> str:
    """What the page would carry for `token` (any pad will do)."""
    raw = token.encode()
    pad = secrets.token_bytes(len(raw))
    return base64.urlsafe_b64encode(pad + bytes(a ^ b for a, b in zip(pad, raw, strict=True))).decode()


def tokens_of(html: str) -> set[str]:
    """The token in the meta tag, the htmx headers and the form field of one page."""
    found = set(CSRF.findall(html))
    found |= set(re.findall(r'"X-CSRF-Token": "([^"]+)"', html))
    found |= set(re.findall(r'name="csrf_token" value="([^"]+)"', html))
    return found


def create(browser: Browser, token: str | None = None):
    sent = browser.csrf if token is None else token
    return browser.client.post("/tables", data=GOOD, headers={"X-CSRF-Token": sent})


def test_the_cookie_is_signed_and_the_page_carries_it_masked_anew_each_time(app):
    client = app.test_client()
    first = client.get("/").get_data(as_text=True)
    cookie = client.get_cookie(CSRF_COOKIE).value
    nonce, signature = cookie.split(".")
    assert len(nonce) == 32 and len(signature) == 43
    second = client.get("/").get_data(as_text=True)
    assert client.get_cookie(CSRF_COOKIE).value == cookie  # the same browser keeps its token
    one, two = tokens_of(first), tokens_of(second)
    assert len(one) == 1 and len(two) == 1 and one != two  # one per answer, a new one every answer
    assert cookie not in first and cookie not in second and nonce not in first
    for token in (*one, *two):  # every answer's token works
        assert client.post("/tables", data=GOOD, headers={"X-CSRF-Token": token}).status_code == 303
    assert table_count(app) == 2


def test_a_cookie_the_server_did_not_sign_is_refused(app):
    browser = Browser(app)
    real = browser.client.get_cookie(CSRF_COOKIE).value
    forged = f"{secrets.token_urlsafe(24)}.{real.split('.')[1]}"
    unsigned = secrets.token_urlsafe(24)  # what older Fichas put in the cookie
    for cookie in (forged, unsigned, real + "x", real.upper(), "é" + real):
        browser.client.set_cookie(CSRF_COOKIE, cookie)
        for token in (mask(cookie), cookie, browser.csrf):
            response = create(browser, token)
            assert response.status_code == 403, (cookie, token)
            assert "open the page again" in flash_text(response.get_data(as_text=True))
    assert table_count(app) == 0


def test_after_a_refused_cookie_a_reload_gives_a_working_token(app):
    browser = Browser(app)
    browser.client.set_cookie(CSRF_COOKIE, secrets.token_urlsafe(24))  # an older Fichas's token
    assert create(browser).status_code == 403
    html = browser.get("/").get_data(as_text=True)  # the reload the message asks for
    assert create(browser, CSRF.search(html).group(1)).status_code == 303


def test_the_cookies_value_itself_or_another_browsers_token_is_refused(app):
    ana, bea = Browser(app), Browser(app)
    cookie = ana.client.get_cookie(CSRF_COOKIE).value
    for token in (cookie, bea.csrf, mask(bea.client.get_cookie(CSRF_COOKIE).value), "", "=", "AAAA",
                  ana.csrf[:-4], ana.csrf + "AAAA", "é" * 10):
        assert create(ana, token).status_code == 403, token
    assert table_count(app) == 0
    assert create(ana).status_code == 303


def test_the_secret_is_made_once_and_kept_across_restarts(make_app):
    app = make_app()
    url, players = open_table(app, "block", 2, names=("Ana", "Bea"))
    (secret,) = db_rows(app, "SELECT value FROM settings WHERE key='secret_key'")[0]
    assert len(secret) == 64
    app.extensions["fichas"].close()
    again = make_app()  # a restart: the same database
    returning = reopen(players[0], again, url)
    assert create(returning).status_code == 303  # the page it had before the restart still works
    assert db_rows(again, "SELECT value FROM settings") == [(secret,)]


def test_a_configured_secret_key_is_used_and_nothing_is_stored(make_app):
    app = make_app(SECRET_KEY="configured secret")
    browser = Browser(app)
    assert create(browser).status_code == 303
    assert db_rows(app, "SELECT COUNT(*) FROM settings") == [(0,)]
    app.extensions["fichas"].close()
    other = make_app(SECRET_KEY="another secret")  # tokens signed with the old key are not ours any more
    assert create(reopen(browser, other, "/")).status_code == 403


@pytest.mark.parametrize("field", [True, False])
def test_the_form_field_and_the_header_both_carry_the_token(app, field):
    browser = Browser(app)
    if field:
        response = browser.client.post("/tables", data={**GOOD, "csrf_token": browser.csrf})
    else:
        response = create(browser)
    assert response.status_code == 303
