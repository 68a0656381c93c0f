"""GET /rules: the rules page for players, with an anchor for every rule ID of the spec."""

import re

# Every rule ID of the specification (its file lives outside this repository).
RULE_IDS = (
    *(f"T{n}" for n in range(1, 13)),
    *(f"S{n}" for n in range(1, 5)),
    *(f"P{n}" for n in range(1, 10)),
    *(f"D{n}" for n in range(1, 9)),
)
VISIBLE_ID = re.compile(r"\b[TSPD]\d+\b")
HEAD = re.compile(r"<head>.*?</head>", re.S)
TAG = re.compile(r"<[^>]*>")
MAIN = re.compile(r"<main\b.*?</main>", re.S)


def rules_page(app) -> str:
    response = app.test_client().get("/rules")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_rules_page_answers_with_one_h1(app):
    html = rules_page(app)
    assert '<main class="rules">' in html
    assert len(re.findall(r"<h1\b", html)) == 1
    assert "<title>Rules — Fichas</title>" in html


def test_every_rule_has_an_anchor_on_the_paragraph_that_states_it(app):
    html = rules_page(app)
    for rule in RULE_IDS:
        anchors = re.findall(rf'<(\w+)\b[^>]*\bid="{rule.lower()}"', html)
        assert anchors in (["p"], ["li"]), (rule, anchors)


def test_no_rule_id_is_visible_text(app):
    text = TAG.sub(" ", HEAD.sub(" ", rules_page(app)))
    assert VISIBLE_ID.findall(text) == []


def test_rules_page_has_no_inline_style_script_or_handler(app):
    main = MAIN.search(rules_page(app)).group(0)
    assert not re.search(r"\sstyle=|<script|\son\w+=", main, re.I)


def test_home_page_links_to_the_rules(app):
    html = app.test_client().get("/").get_data(as_text=True)
    assert re.search(r'href="/rules(#[^"]*)?"', html)


def test_the_rules_page_says_the_times_this_server_gives(make_app):
    """The spec's times (45 s a turn, 5 s away, a 30 s pause, 15 s after a restart) are the defaults;
    a server set otherwise said them all the same, against its own home page."""
    text = TAG.sub(" ", rules_page(make_app(GRACE_SECONDS=15)))  # the tests' restart grace is 0
    for said in ("You have 45 seconds for each turn", "you get only 5 seconds of your turn",
                 "after a pause of 30 seconds", "for the first 15 seconds after a restart"):
        assert said in text
    app = make_app(TURN_SECONDS=60, OFFLINE_SECONDS=1, PAUSE_SECONDS=10, GRACE_SECONDS=20)
    text = TAG.sub(" ", rules_page(app))
    for said in ("You have 60 seconds for each turn", "you get only 1 second of your turn",
                 "never later than the usual 60 seconds", "after a pause of 10 seconds",
                 "for the first 20 seconds after a restart"):
        assert said in text
    assert "45 seconds" not in text and "Each turn lasts 60 seconds" in app.test_client().get("/").get_data(
        as_text=True)
    spanish = app.test_client().get("/rules", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert "Tienes 60 segundos por turno" in spanish and "solo tienes 1 segundo de tu turno" in spanish
