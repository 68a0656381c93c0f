"""Names written right to left (Hebrew, Arabic) inside the page's sentences: each is set apart by
Unicode isolates, or it reorders the words and numbers around it ("Round 7 to 17+ :Miriam")."""

import random
import re

from game.views import shown_name
from helpers import Browser, open_table
from helpers.pages import page, play_until, round_over

MIRIAM, ABD = "מרים בת-שבע", "عبد الرحمن"
NAMES = ("Ana", MIRIAM, "Carl", ABD)
FSI, PDI = "\u2068", "\u2069"


def test_a_name_is_isolated_only_when_it_holds_right_to_left_letters():
    assert shown_name(MIRIAM) == FSI + MIRIAM + PDI and shown_name("שרה 2") == FSI + "שרה 2" + PDI
    for name in ("Ana", "Ana 👩‍💻", "José", "Ünal 2", "李雷"):
        assert shown_name(name) == name


def test_every_right_to_left_name_on_the_page_is_isolated_and_the_record_keeps_it_plain(app):
    url, players = open_table(app, "partnership", 4, target=500, names=NAMES)
    play_until(app, url, players, random.Random(2), round_over)
    for browser in (players[0], players[1], Browser(app)):  # the host, Miriam herself, a spectator
        html = page(browser, url)
        for name in (MIRIAM, ABD):
            shown = html.count(name)
            assert shown >= 6, (name, shown)  # seats, scores, sheet, result, log, hands shown
            assert html.count(FSI + name + PDI) == shown, re.findall(rf".{{12}}{name}.{{12}}", html)
        assert f"{FSI}{MIRIAM}{PDI} &amp; {FSI}{ABD}{PDI}" in html  # a team's name: each name apart
    tables = app.extensions["fichas"].tables
    tables.connect(tables.get(url.rsplit("/", 1)[1]), 1)  # Miriam's page is open: her name is hers
    taken = Browser(app).post(f"{url}/ask", {"name": MIRIAM})  # a refusal names her too
    assert taken.status_code == 409 and f"{FSI}{MIRIAM}{PDI}" in taken.get_data(as_text=True)
    record = players[0].get(f"{url}/record.json").get_json()
    assert record["players"] == list(NAMES) and FSI not in str(record)
