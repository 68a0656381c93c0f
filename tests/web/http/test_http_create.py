"""GET / and POST /tables: the create form, its refusals (nothing created), the table's id."""

import re

import pytest

from helpers.pages import db_rows, flash_text, page, seat_panels, table_count, table_id, you_of
from web.guard.security import CSRF_COOKIE, SEAT_COOKIE

GOOD = {"name": "Ana", "variant": "block", "seats": "3", "target": "100"}
# Each field's control, then the control after it: a field's message must sit between them.
NEXT_CONTROL = {"name": 'name="variant"', "variant": 'name="seats"', "seats": 'name="target"',
                "target": 'type="submit"'}


def create(browser, **fields):
    return browser.post("/tables", {**GOOD, **fields})


def field_errors(html: str) -> list[str]:
    return re.findall(r'<p class="field-error"[^>]*>(.*?)</p>', html, re.S)


def assert_message_next_to(html: str, field: str, words: str):
    """Exactly one message, placed after the field's control and before the next field's."""
    errors = field_errors(html)
    assert len(errors) == 1, errors
    assert words.lower() in flash_text(html).lower(), errors
    at_message = html.index('class="field-error"')
    at_field = html.rindex(f'name="{field}"', 0, at_message)
    assert html.index(NEXT_CONTROL[field], at_field) > at_message


def test_home_offers_the_create_form_with_the_defaults(app):
    response = app.test_client().get("/")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert re.search(r'<meta name="csrf-token" content="[^"]+">', html)
    assert re.search(r'value="partnership"\s+checked', html)
    assert re.search(r'<option value="4"\s+selected>', html)
    assert re.search(r'<option value="100"\s+selected>', html)
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith(f"{CSRF_COOKIE}=") and "HttpOnly" in cookie and "SameSite=Lax" in cookie


@pytest.mark.parametrize(("seconds", "language", "said"), [
    (None, "en", "Each turn lasts 45 seconds;"), (60, "en", "Each turn lasts 60 seconds;"),
    (1, "en", "Each turn lasts 1 second;"), (0.2, "es", "Cada turno dura 1 segundo;"),
    (60, "es", "Cada turno dura 60 segundos;"), (30, "da", "Hver tur varer 30 sekunder;")])
def test_home_says_the_turn_this_server_gives(make_app, seconds, language, said):
    app = make_app(**({"TURN_SECONDS": seconds} if seconds else {}))
    html = app.test_client().get("/", headers={"Accept-Language": language}).get_data(as_text=True)
    assert said in html


def test_t11_target_choices(app, new_browser):
    """The host picks 50 to 500 in steps of 50 (100 by default); nothing else is accepted."""
    html = new_browser().get("/").get_data(as_text=True)
    targets = re.search(r'<select name="target">(.*?)</select>', html, re.S).group(1)
    assert [int(t) for t in re.findall(r'<option value="(\d+)"', targets)] == list(range(50, 501, 50))
    for target in ("50", "500"):
        assert create(new_browser(), target=target).status_code == 303
    # int() reads the last three as 100: no menu of ours sends them (a red team).
    for target in ("75", "550", "0", "-50", "100.0", "", "1_0_0", "\u0661\u0660\u0660", " 100"):
        response = create(new_browser(), target=target)
        assert response.status_code == 400, target
        assert_message_next_to(response.get_data(as_text=True), "target", "target")
    assert [row[0] for row in db_rows(app, "SELECT target FROM tables ORDER BY target")] == [50, 500]


@pytest.mark.parametrize("seats", ["\u0663", "3 ", "+3", "0_3"])
def test_seats_written_otherwise_than_the_menu_does_are_refused(app, new_browser, seats):
    response = create(new_browser(), seats=seats)
    assert response.status_code == 400
    assert_message_next_to(response.get_data(as_text=True), "seats", "seats")
    assert table_count(app) == 0


def test_s1_creator_is_host_at_seat_zero(app, new_browser):
    host = new_browser()
    response = create(host, name="Ana", variant="draw", seats="2", target="150")
    assert response.status_code == 303
    url = response.headers["Location"]
    assert re.fullmatch(r"/t/[^/]+", url)
    html = page(host, url)
    assert you_of(html) == "0"
    panels = seat_panels(html)
    assert sorted(panels) == [0, 1]
    assert "Ana" in panels[0][1] and "host" in panels[0][1]
    assert "waiting for a player" in panels[1][1]
    assert 'data-phase="waiting"' in html and "Draw · to 150" in html
    assert db_rows(app, "SELECT variant, seats, target FROM tables") == [("draw", 2, 150)]
    assert db_rows(app, "SELECT seat, name FROM seats") == [(0, "Ana")]
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith(f"{SEAT_COOKIE}=")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and f"Path={url}" in cookie


def test_table_id_has_at_least_96_random_bits(app, new_browser):
    ids = set()
    for _ in range(12):
        response = create(new_browser())
        ids.add(table_id(response.headers["Location"]))
    assert len(ids) == 12
    for tid in ids:
        assert re.fullmatch(r"[A-Za-z0-9_-]+", tid), tid  # base64url: 6 bits a character
        assert len(tid) * 6 >= 96, tid
    assert {row[0] for row in db_rows(app, "SELECT id FROM tables")} == ids


def test_table_page_shows_its_link_with_a_copy_button(new_browser):
    host = new_browser()
    url = create(host).headers["Location"]
    html = page(host, url)
    assert f'id="share-link" readonly value="http://localhost{url}"' in html
    assert 'data-copy="#share-link"' in html


@pytest.mark.parametrize(("field", "value", "words"), [
    ("name", "", "name"),
    ("name", "   ", "name"),
    ("name", "x" * 25, "24"),
    ("name", "  " + "x" * 25 + "  ", "24"),
    ("name", "An\x00a", "control"),
    ("name", "An\na", "control"),
    ("name", "An\x1ba", "control"),
    ("name", "An\u202ea", "control"),  # a right-to-left override (format character)
    ("name", "\x7fAna", "control"),
    ("name", "Ana\U000E0041\U000E007F", "control"),  # tags hiding text, with no flag to make
    ("variant", "poker", "Partnership, Block or Draw"),
    ("variant", "", "Partnership, Block or Draw"),
    ("variant", "Block", "Partnership, Block or Draw"),
    ("seats", "5", "2, 3 or 4"),
    ("seats", "1", "2, 3 or 4"),
    ("seats", "four", "2, 3 or 4"),
    ("target", "75", "50 to 500"),
    ("target", "550", "50 to 500"),
])
def test_create_refuses_a_bad_field_and_creates_nothing(app, new_browser, field, value, words):
    response = create(new_browser(), **{field: value})
    assert response.status_code == 400
    assert "Set-Cookie" not in response.headers or SEAT_COOKIE not in response.headers["Set-Cookie"]
    assert_message_next_to(response.get_data(as_text=True), field, words)
    assert table_count(app) == 0
    assert app.extensions["fichas"].tables._tables == {}


def test_p1_partnership_with_three_seats_is_refused(app, new_browser):
    response = create(new_browser(), variant="partnership", seats="3")
    assert response.status_code == 400
    assert_message_next_to(response.get_data(as_text=True), "seats", "4 players")
    assert table_count(app) == 0


def test_create_reports_every_bad_field_at_once(app, new_browser):
    response = create(new_browser(), name="x" * 25, variant="poker", seats="9", target="75")
    assert response.status_code == 400
    errors = " | ".join(field_errors(response.get_data(as_text=True)))
    for words in ("24", "Partnership, Block or Draw", "2, 3 or 4", "50 to 500"):
        assert words in errors
    assert table_count(app) == 0


def test_create_keeps_what_was_typed_when_refusing(new_browser):
    html = create(new_browser(), name="Bea", variant="draw", seats="2", target="75").get_data(as_text=True)
    assert 'name="name" value="Bea"' in html
    assert re.search(r'value="draw"\s+checked', html)
    assert re.search(r'<option value="2"\s+selected>', html)


def test_create_trims_the_name(app, new_browser):
    response = create(new_browser(), name="   " + "y" * 24 + "  ")
    assert response.status_code == 303
    assert db_rows(app, "SELECT name FROM seats") == [("y" * 24,)]


SCOTLAND = "\U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F"  # a flag of tags


@pytest.mark.parametrize("name", ["Ana 👩\u200d💻", "Ana 🏳\ufe0f\u200d🌈", "Nik\u200cnam",
                                  "Ailsa " + SCOTLAND, "\u200fשרה", "\u200eAna"])
def test_create_takes_names_with_joiners(app, new_browser, name):
    """The joiners are format characters, as a right-to-left override is: but common emoji ("a woman at
    a laptop") and Persian and Indic names hold them; so do a subdivision's flag (its tags) and a
    name typed on a right-to-left keyboard (its marks)."""
    assert create(new_browser(), name=name).status_code == 303
    assert db_rows(app, "SELECT name FROM seats") == [(name,)]


def test_refused_name_is_shown_escaped(app, new_browser):
    script = "<img src=x onerror=alert(1)>"  # 28 characters: refused, and shown back as text
    html = create(new_browser(), name=script).get_data(as_text=True)
    assert "<img" not in html
    assert 'value="&lt;img src=x onerror=alert(1)&gt;"' in html
    assert table_count(app) == 0


def test_create_without_csrf_token_is_refused(app, new_browser):
    visitor = new_browser()
    response = visitor.post("/tables", GOOD, csrf=False)
    assert response.status_code == 403
    assert "open the page again" in flash_text(response.get_data(as_text=True))
    forged = visitor.client.post("/tables", data={**GOOD, "csrf_token": "forged"},
                                 headers={"X-CSRF-Token": "forged"})
    assert forged.status_code == 403
    assert table_count(app) == 0


def test_create_with_the_token_as_a_form_field(app, new_browser):
    """The plain HTML form (no htmx) sends the token as a field and gets a 303."""
    visitor = new_browser()
    response = visitor.client.post("/tables", data={**GOOD, "csrf_token": visitor.csrf})
    assert response.status_code == 303
    assert table_count(app) == 1


def test_create_with_a_giant_payload_is_refused(app, new_browser):
    response = create(new_browser(), name="A" * (17 * 1024))
    assert response.status_code == 413
    assert "too large" in flash_text(response.get_data(as_text=True))
    assert table_count(app) == 0


def test_the_players_choice_is_described_by_why_partnership_is_four(app, new_browser):
    """Choosing Partnership sets Players to 4 (static/fichas.js): the hint saying why is the select's
    description, and a refusal joins it."""
    html = new_browser().get("/").get_data(as_text=True)
    assert '<select name="seats" aria-describedby="seats-hint">' in html
    assert '<p class="hint" id="seats-hint">Partnership is always 4 players' in html
    refused = create(new_browser(), variant="partnership", seats="2").get_data(as_text=True)
    assert 'aria-describedby="seats-hint seats-error" aria-invalid="true"' in refused
    assert 'id="seats-error"' in refused
