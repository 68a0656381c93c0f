"""Which language a page is in: the browser's Accept-Language, or the switch remembered in a cookie."""

from __future__ import annotations

import re

import pytest

from helpers import Browser

LANG = re.compile(r'<html lang="(\w+)">')


def lang_of(response) -> str:
    return LANG.search(response.get_data(as_text=True)).group(1)


@pytest.mark.parametrize(("header", "lang"), [
    (None, "en"),
    ("es-ES,es;q=0.9", "es"),
    ("es-MX", "es"),
    ("da", "da"),
    ("de-DE,da;q=0.8,en;q=0.5", "da"),
    ("fr-FR,fr;q=0.9", "en"),
    ("en-US,en;q=0.9", "en"),
])
def test_the_browser_s_languages_choose_the_page_s(app, header, lang):
    headers = {"Accept-Language": header} if header else {}
    response = app.test_client().get("/", headers=headers)
    assert lang_of(response) == lang


def test_the_switch_is_on_every_page_and_its_choice_is_remembered(app):
    browser = Browser(app)
    home = browser.get("/", headers={"Accept-Language": "es"}).get_data(as_text=True)
    for code in ("en", "es", "da"):
        assert f'href="/lang/{code}?next=/"' in home
    assert 'aria-current="true"><span class="lang-name">Español' in home
    for page in ("/rules", "/t/nowhere"):
        assert 'href="/lang/da?next=' in browser.get(page).get_data(as_text=True)
    switched = browser.get("/lang/da?next=/rules", headers={"Accept-Language": "es"})
    assert switched.status_code == 303 and switched.headers["Location"].endswith("/rules")
    assert "lang=da" in switched.headers["Set-Cookie"] and "HttpOnly" in switched.headers["Set-Cookie"]
    page = browser.get("/rules", headers={"Accept-Language": "es"})  # the cookie wins over the browser
    assert lang_of(page) == "da" and "Reglerne ved bordet" in page.get_data(as_text=True)


@pytest.mark.parametrize("back", ["//evil.example/", "https://evil.example/", "rules", "/\\evil.example"])
def test_the_switch_never_leads_off_the_site(app, back):
    response = app.test_client().get("/lang/es", query_string={"next": back})
    assert response.status_code == 303
    assert response.headers["Location"] in ("/", "http://localhost/")


def test_switching_on_a_form_s_answer_opens_the_home_page_in_the_new_language(app):
    """The home form answered with its errors lives at POST /tables: going back there by GET was a 405."""
    browser = Browser(app)
    answer = browser.post("/tables", data={"name": ""}).get_data(as_text=True)
    assert 'href="/lang/es?next=/tables"' in answer
    switched = browser.get("/lang/es?next=/tables")
    assert switched.status_code == 303 and switched.headers["Location"] in ("/", "http://localhost/")
    assert "lang=es" in switched.headers["Set-Cookie"]
    assert browser.get("/lang/es?next=/t/nowhere").headers["Location"].endswith("/t/nowhere")  # its own 404


def test_an_unknown_language_changes_nothing(app):
    client = app.test_client()
    response = client.get("/lang/xx?next=/")
    assert response.status_code == 303
    assert "lang=" not in response.headers.get("Set-Cookie", "")
    client.set_cookie("lang", "xx")
    assert lang_of(client.get("/", headers={"Accept-Language": "da"})) == "da"


@pytest.mark.parametrize(("lang", "words"), [("es", "Se han abierto demasiadas mesas"),
                                             ("da", "Der er åbnet for mange borde")])
def test_the_429_page_is_in_the_viewer_s_language(make_app, lang, words):
    app = make_app(LIMITS=True, TABLES_PER_MINUTE=1)
    browser = Browser(app)
    browser.client.set_cookie("lang", lang)
    form = {"name": "Ana", "variant": "block", "seats": 2, "target": 100, "csrf_token": browser.csrf}
    assert browser.client.post("/tables", data=form).status_code == 303
    refused = browser.client.post("/tables", data=form)
    assert refused.status_code == 429
    assert lang_of(refused) == lang and words in refused.get_data(as_text=True)
