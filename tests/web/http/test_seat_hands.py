"""Getting a seat back (issue 10, item 8): the private link, and the host handing a disconnected
seat to a spectator who asked. Nobody takes a seat that is not theirs; secrets are never shown to
others, never stored or logged in the clear, and a restart keeps the new owner."""

import hashlib
import random
import re

from helpers import Browser, open_table, version_of
from helpers.pages import (
    db_rows,
    hand_of,
    hand_texts,
    live_table,
    page,
    play_until,
    reopen,
    round_over,
    seat_panels,
    seat_secret,
    seat_up,
    shown_now,
    wait_new,
    wait_until,
)
from web.guard.security import CSRF_COOKIE, SEAT_COOKIE

NAMES = ("Ana", "Bea")
LINK = re.compile(r'id="seat-link-input" readonly value="([^"]+)"')
ASK = re.compile(r'"ask": "([^"]+)"')
YOU = re.compile(r'<main class="play" data-you="(\d*)"')


def you(browser, url) -> str:
    """The seat this browser's page is for ("" for a spectator)."""
    return YOU.search(page(browser, url)).group(1)


def link_of(browser, url) -> str:
    response = browser.post(f"{url}/seat-link")
    assert response.status_code == 200
    return LINK.search(response.get_data(as_text=True)).group(1)


def test_the_private_link_is_shown_to_its_own_seat_only_and_only_when_asked(app):
    url, players = open_table(app, "block", 2, names=NAMES)
    secret = seat_secret(players[1], url)
    link = link_of(players[1], url)
    assert link == f"http://localhost{url}/seat#{secret}"  # in the fragment: never sent to a server
    assert link_of(players[0], url).endswith("#" + seat_secret(players[0], url))
    for browser in (*players, Browser(app)):  # no page holds a secret, not even its own seat's
        html = page(browser, url)
        assert secret not in html and seat_secret(players[0], url) not in html
    assert "Your private link back to this seat" in page(players[1], url)
    spectator = Browser(app)
    assert spectator.post(f"{url}/seat-link").status_code == 403
    shown = page(spectator, url)
    assert 'id="seat-link"' not in shown and "Show my link" not in shown  # no panel, no offer
    assert 'id="way-back"' in shown  # only the words on how to get one's own seat here (issue 43)


def test_the_link_gives_a_new_browser_the_seat_and_the_old_one_loses_it(make_app):
    app = make_app()
    url, players = open_table(app, "block", 2, names=NAMES)
    secret = seat_secret(players[1], url)
    version = live_table(app, url).version
    newcomer = Browser(app)
    landing = newcomer.get(f"{url}/seat").get_data(as_text=True)  # what the link opens: no secret needed
    assert "Take my seat back" in landing and 'id="seat-secret"' in landing
    response = newcomer.post(f"{url}/seat", {"secret": secret})
    assert response.status_code == 303 and response.headers["Location"] == url
    left = page(players[1], url)
    assert you(newcomer, url) == "1" and YOU.search(left).group(1) == ""
    told = "Your seat was opened in another browser with its private link: this one can only watch now."
    assert told in left and told not in page(players[1], url)  # told once: its cookie opened nothing
    assert told not in page(newcomer, url) + page(Browser(app), url)
    assert seat_secret(newcomer, url) != secret  # a new secret: the old cookie and link are dead
    assert live_table(app, url).version == version + 1
    assert Browser(app).post(f"{url}/seat", {"secret": secret}).status_code == 403  # used already
    assert players[1].post(f"{url}/pass", {"version": version + 1}).status_code == 403
    assert link_of(newcomer, url).endswith("#" + seat_secret(newcomer, url))
    # Stored as a hash only, and the log says what happened without any secret.
    new_secret = seat_secret(newcomer, url)
    dump = "\n".join(str(row) for sql in ("SELECT * FROM seats", "SELECT * FROM actions")
                     for row in db_rows(app, sql))
    assert secret not in dump and new_secret not in dump
    assert [a["kind"] for a in app.extensions["fichas"].tables.store.actions(live_table(app, url).id)][-1] \
        == "reclaim"
    app.extensions["fichas"].close()
    again = make_app()  # a restart keeps the new owner
    assert you(reopen(newcomer, again, url), url) == "1" and you(reopen(players[1], again, url), url) == ""


def test_a_seat_taken_back_meanwhile_does_not_make_a_move_in_flight_stale(app):
    """A reclaim raises the table's version, but changes nothing of the play: a move made on the version
    before it still stands (each reclaim made the others' moves stale: red team). A move does make
    an older version stale."""
    url, players = open_table(app, "block", 2, names=NAMES)
    table = live_table(app, url)
    rnd = table.match.round
    mover = rnd.turn
    seen = table.version  # what the mover's page shows when the move is sent
    other = Browser(app)  # meanwhile the other seat is taken back with its private link, twice
    for _ in range(2):
        assert other.post(f"{url}/seat", {"secret": seat_secret(players[1 - mover], url)}).status_code == 303
        players[1 - mover] = other
        other = Browser(app)
    assert table.version == seen + 2 and version_of(page(players[mover], url)) == seen + 2
    move = {"tile": rnd.playable(mover)[0][0].text, "end": "", "version": seen}
    assert players[mover].post(f"{url}/play", move).status_code == 204
    assert len(rnd.line) == 1 and table.version == seen + 3
    late = {"version": seen + 2}  # made before that move: refused
    refused = players[rnd.turn].post(f"{url}/pass", late)
    assert refused.status_code == 409 and "table changed" in refused.get_data(as_text=True)
    assert table.version == seen + 3


def test_how_a_seat_was_lost_is_read_from_the_tables_latest_seat_changes_only(app):
    """Every visit with a seat cookie that opens nothing reads how its seat was lost: a client taking a
    seat back in a loop made those reads grow without end (87-137 ms a page after 33,000 reclaims)."""
    from live.store import LOST_SEATS_READ

    url, players = open_table(app, "block", 2, names=NAMES)
    table, tables = live_table(app, url), app.extensions["fichas"].tables
    secrets_held = [seat_secret(players[1], url)]
    for _ in range(LOST_SEATS_READ + 5):
        secrets_held.append(tables.reclaim(table, secrets_held[-1])[1])
    hashed = [hashlib.sha256(secret.encode()).hexdigest() for secret in secrets_held]
    assert tables.store.lost_seat(table.id, hashed[-2])["kind"] == "reclaim"  # the latest loser is told
    assert tables.store.lost_seat(table.id, hashed[0]) is None  # long ago: read no more
    assert tables.store.lost_seat(table.id, hashed[-1]) is None  # it holds the seat


def test_a_forged_link_or_another_seats_link_takes_nothing(app):
    url, players = open_table(app, "block", 2, names=NAMES)
    other_url, others = open_table(app, "block", 2, names=NAMES)
    table = live_table(app, url)
    before = (table.version, list(table.secret_hashes))
    stranger = Browser(app)
    secret = seat_secret(players[1], url)
    for forged in ("", "x" * 43, secret[:-1], secret + "x", seat_secret(others[1], other_url), "é" * 10):
        response = stranger.post(f"{url}/seat", {"secret": forged})
        assert response.status_code == 403, forged
        assert "does not open a seat" in response.get_data(as_text=True)
    assert stranger.post(f"{url}/seat", {}).status_code == 403
    # The host's browser holds seat 0: seat 1's link gives it nothing (one seat per browser).
    response = players[0].post(f"{url}/seat", {"secret": secret})
    assert response.status_code == 409 and "another seat" in response.get_data(as_text=True)
    assert stranger.post(f"{url}/seat", {"secret": secret}, csrf=False).status_code == 403  # CSRF
    assert (table.version, table.secret_hashes) == before
    assert you(players[1], url) == "1" and you(players[0], url) == "0" and you(stranger, url) == ""
    # A seat's own link in its own browser changes nothing.
    assert players[1].post(f"{url}/seat", {"secret": secret}).status_code == 303
    assert seat_secret(players[1], url) == secret and table.version == before[0]


def test_the_host_hands_a_disconnected_seat_to_a_spectator_between_rounds(make_app):
    app = make_app(TABLES_OPTIONS={"rng": random.Random(3)})
    url, players = open_table(app, "block", 2, target=500, names=NAMES)
    table = live_table(app, url)
    newcomer = Browser(app)
    response = newcomer.post(f"{url}/ask", {"name": "Zoe"})
    assert response.status_code == 204 and response.headers["HX-Redirect"] == url
    assert you(newcomer, url) == ""  # asked: still watching
    ask = next(iter(table.asks))
    fields = {"seat": 1, "ask": ask, "version": table.version}
    refused = players[0].post(f"{url}/hand-over", fields)  # a round is being played
    assert refused.status_code == 409 and "between rounds" in refused.get_data(as_text=True)
    play_until(app, url, players, random.Random(3), round_over)
    assert table.phase == "pause"
    host_page = page(players[0], url)
    assert "Give Bea's seat to Zoe" in host_page and ASK.search(host_page).group(1) == ask
    assert "Give " not in page(players[1], url)  # only the host is offered it
    fields["version"] = table.version
    assert players[1].post(f"{url}/hand-over", fields).status_code == 403  # not the host
    assert newcomer.post(f"{url}/hand-over", fields).status_code == 403
    assert players[0].post(f"{url}/hand-over", {**fields, "seat": 0}).status_code == 400  # their own
    assert players[0].post(f"{url}/hand-over", {**fields, "seat": 5}).status_code == 400
    assert players[0].post(f"{url}/hand-over", {**fields, "ask": "forged"}).status_code == 409
    assert players[0].post(f"{url}/hand-over", {**fields, "version": 1}).status_code == 409  # stale
    tables = app.extensions["fichas"].tables
    tables.connect(table, 1)  # Bea's page is open: her seat is not free
    refused = players[0].post(f"{url}/hand-over", fields)
    assert refused.status_code == 409 and "Bea is connected" in refused.get_data(as_text=True)
    tables.disconnect(table, 1)
    assert you(newcomer, url) == "" and table.version == fields["version"]

    bea_secret = seat_secret(players[1], url)
    assert players[0].post(f"{url}/hand-over", fields).status_code == 204
    assert you(newcomer, url) == "1"  # (Bea's page is below: she is told why once)
    assert table.players == ["Ana", "Zoe"] and table.match.players == ["Ana", "Zoe"] and not table.asks
    assert "Zoe" in page(players[0], url)
    assert players[0].post(f"{url}/hand-over", fields).status_code == 409  # done once
    assert tables.store.actions(table.id)[-1] | {"at": 0} == {
        "kind": "hand_over", "seat": 1, "by": 0, "name": "Zoe", "was": "Bea", "at": 0,
        "was_holder": hashlib.sha256(bea_secret.encode()).hexdigest()}  # a hash only, as the seats keep
    told = "While you were away, the host gave your seat to Zoe. You can watch from here."
    assert all(told not in page(b, url) for b in (players[0], newcomer, Browser(app)))
    version = table.version
    app.extensions["fichas"].close()
    again = make_app()  # persisted: the new owner keeps the seat, under the new name
    newcomer, host = reopen(newcomer, again, url), reopen(players[0], again, url)
    assert you(newcomer, url) == "1" and live_table(again, url).players == ["Ana", "Zoe"]
    bea = reopen(players[1], again, url)
    assert told in page(bea, url)  # Bea, back after a restart even, learns why she only watches
    assert told not in page(bea, url) and you(bea, url) == ""  # once: her cookie opened nothing
    assert host.post(f"{url}/next-round", {"version": version}).status_code == 204


def test_the_hosts_seat_is_never_asked_for_and_a_host_away_is_said(make_app):
    """"Ana is away. Ask the host for a seat" was shown when Ana was the host: her seat never changes
    hands (the host hands seats over), and a spectator asking while the host is gone is told so."""
    app = make_app()
    url, _ = open_table(app, "block", 3, names=("Ana", "Bea", "Carl"))
    table, tables = live_table(app, url), app.extensions["fichas"].tables
    for seat in range(3):
        tables.connect(table, seat)
    spectator = Browser(app)
    tables.disconnect(table, 0)  # only the host away: nothing to ask for
    watching = page(spectator, url)
    assert 'id="ask-name"' not in watching and "Ana is away" not in watching
    tables.disconnect(table, 2)
    asking = page(spectator, url)
    assert "Carl is away. Ask the host for a seat, as" in asking and "Ana, Carl are away" not in asking
    assert "The host is away too: a seat can change hands once the host is back." in asking
    tables.connect(table, 0)
    asking = page(spectator, url)
    assert "The host is away too" not in asking and "The host can hand you a seat between rounds." in asking


# What shows the round just played: its log, result, hands shown, and what screen readers were told
# of it (but the scores after it, which go with the seats).
ROUND_PARTS = re.compile(r'<ol class="log" id="log".*?</ol>|<h2>.*?</h2>|<p class="(?:how|totals)">.*?</p>'
                         r'|<p id="announce-src".*?Round \d+ to \w+|aria-label="[^"]*\'s hand"', re.S)


def test_a_seat_handed_over_leaves_the_round_just_played_named_after_who_played_it(make_app):
    app = make_app(TABLES_OPTIONS={"rng": random.Random(3)})
    url, players = open_table(app, "block", 2, target=500, names=NAMES)
    table, spectator, zoe = live_table(app, url), Browser(app), Browser(app)
    assert zoe.post(f"{url}/ask", {"name": "Zoe"}).status_code == 204
    play_until(app, url, players, random.Random(3), round_over)
    played = {who: ROUND_PARTS.findall(page(who, url)) for who in (players[0], spectator)}
    assert all("Bea" in "".join(parts) and len(parts) >= 5 for parts in played.values())
    fields = {"seat": 1, "ask": next(iter(table.asks)), "version": table.version}
    assert players[0].post(f"{url}/hand-over", fields).status_code == 204

    # The seat is Zoe's now, and its score with it; the round she did not play still names Bea:
    # its log, its result, its hands shown and what screen readers were told.
    assert "Zoe" in seat_panels(page(players[0], url))[1][1]
    for who, parts in played.items():
        assert ROUND_PARTS.findall(page(who, url)) == parts
    told = page(zoe, url)
    assert "You have the seat Bea had, and its score." in told
    assert "Zoe" not in "".join(ROUND_PARTS.findall(told))
    assert "You have the seat" not in page(players[0], url)
    assert all("Zoe now has the seat Bea had." in page(b, url) for b in (players[0], spectator, zoe))
    record = players[0].get(f"{url}/record.json").get_json()
    assert record["players"] == ["Ana", "Zoe"] and record["rounds"][0]["players"] == ["Ana", "Bea"]

    version = table.version
    app.extensions["fichas"].close()
    again = make_app()  # stored: a restart still names who played the round
    host, watcher = reopen(players[0], again, url), reopen(spectator, again, url)
    assert ROUND_PARTS.findall(page(watcher, url)) == played[spectator]
    assert ROUND_PARTS.findall(page(host, url)) == played[players[0]]
    assert host.post(f"{url}/next-round", {"version": version}).status_code == 204
    table = live_table(again, url)
    assert table.match.players_of(table.match.round) == ["Ana", "Zoe"]  # the next round is dealt to Zoe
    assert "Bea" not in "".join(ROUND_PARTS.findall(page(host, url)))


def test_who_may_ask_for_a_seat(app):
    url, players = open_table(app, "block", 4, names=("Ana", "Bea", "Carl"))
    early = Browser(app)  # one seat is still free: take it instead
    assert early.post(f"{url}/ask", {"name": "Zoe"}).status_code == 409
    assert early.post(f"{url}/join", {"name": "Dan"}).status_code == 204
    table = live_table(app, url)
    assert players[0].post(f"{url}/ask", {"name": "Zoe"}).status_code == 409  # seated already
    spectator = Browser(app)
    tables = app.extensions["fichas"].tables
    tables.connect(table, 1)  # Bea's page is open: her name is hers
    taken = spectator.post(f"{url}/ask", {"name": "bea"})
    assert taken.status_code == 409 and "already called" in taken.get_data(as_text=True)
    tables.disconnect(table, 1)  # gone (no settle here): Bea on a second device may ask for her seat
    assert Browser(app).post(f"{url}/ask", {"name": "Bea"}).status_code == 204
    table.asks.clear()
    assert spectator.post(f"{url}/ask", {"name": ""}).status_code == 400
    assert spectator.post(f"{url}/ask", {"name": "Zoe"}).status_code == 204
    assert spectator.post(f"{url}/ask", {"name": "Zed"}).status_code == 204  # renamed, still one
    assert [a.name for a in table.asks.values()] == ["Zed"]
    assert Browser(app).post(f"{url}/ask", {"name": "zed"}).status_code == 409
    for n in range(7):  # from as many homes: one address holds two requests (test_seat_requests.py)
        home = {"REMOTE_ADDR": f"192.0.2.{n}"}
        assert Browser(app).post(f"{url}/ask", {"name": f"P{n}"}, environ_base=home).status_code == 204
    late = Browser(app).post(f"{url}/ask", {"name": "Late"}, environ_base={"REMOTE_ADDR": "192.0.2.99"})
    assert late.status_code == 409  # at most eight wait
    assert "Waiting for a seat: Zed, P0" in page(Browser(app), url)


def test_asking_again_under_the_same_name_changes_nothing_anyone_sees_and_pushes_nothing(app, monkeypatch):
    """Asking for a seat pushes to every page at the table: a spectator asking again and again under
    one name flooded its players' pages (red team: 8,200 pushes each in 20 s). Asked as before, only
    the browser's secret is new; the host's form keeps its request. Another name is pushed."""
    url, _ = open_table(app, "block", 2, names=NAMES)
    table, tables = live_table(app, url), app.extensions["fichas"].tables
    pushes = []
    publish = tables._publish
    monkeypatch.setattr(tables, "_publish", lambda t: (pushes.append(t.id), publish(t)))
    spectator = Browser(app)
    assert spectator.post(f"{url}/ask", {"name": "Zoe"}).status_code == 204
    (ask,) = table.asks
    assert len(pushes) == 1
    for _ in range(3):
        assert spectator.post(f"{url}/ask", {"name": "Zoe"}).status_code == 204
    assert len(pushes) == 1 and list(table.asks) == [ask]
    secret = seat_secret(spectator, url)  # the newest: the seat, once handed over, is this browser's
    assert table.asks[ask].secret_hash == hashlib.sha256(secret.encode()).hexdigest()
    assert spectator.post(f"{url}/ask", {"name": "Zed"}).status_code == 204
    assert len(pushes) == 2 and [a.name for a in table.asks.values()] == ["Zed"]


def test_the_name_field_holds_the_name_asked_under_as_typed_and_asking_again_with_it_works(app):
    """A right-to-left name is set apart by invisible marks in sentences; in the field they made
    asking again a 400 ("A name cannot contain control characters")."""
    url, _ = open_table(app, "block", 2, names=NAMES)  # no page open: both seats are away
    spectator = Browser(app)
    for name in ("Zoe", "מרים"):
        assert spectator.post(f"{url}/ask", {"name": name}).status_code == 204
        field = re.search(r'<input id="ask-name"[^>]*value="([^"]*)"', page(spectator, url)).group(1)
        assert field == name
        assert spectator.post(f"{url}/ask", {"name": field}).status_code == 204


def test_the_old_browsers_open_page_is_cut_off_and_never_shown_the_seat_again(make_server):
    server = make_server(START_CLOCK=False)
    url, players = seat_up(server, "block", 2, names=NAMES)
    old = players[1]
    old.connect(url)
    table = live_table(server.app, url)
    old.wait_version(table.version)
    secret = old.http.cookies.get(SEAT_COOKIE, path=url)
    newcomer = server.player()
    assert newcomer.post(f"{url}/seat", {"secret": secret}).status_code == 303
    wait_until(lambda: not old.socket.connected)  # cut off before the change was pushed to anyone
    with old.arrived:
        assert all(version_of(m) < table.version for m in old.messages)
    old.messages.clear()
    old.connect(url)  # it reconnects (as htmx does): a spectator now, with no hand, told why
    screen = old.wait_version(table.version)
    assert hand_of(screen) is None and 'data-you=""' in screen
    assert "Your seat was opened in another browser with its private link" in screen
    newcomer.connect(url)
    assert hand_of(newcomer.wait_version(table.version)) == hand_texts(table.match.round, 1)


def test_a_spectators_page_handed_a_seat_reconnects_into_it(make_server):
    server = make_server(START_CLOCK=False, TABLES_OPTIONS={"rng": random.Random(3)})
    url, players = seat_up(server, "block", 2, names=NAMES)
    app = server.app
    table = live_table(app, url)
    watcher = server.player()
    assert watcher.post(f"{url}/ask", {"name": "Zoe"}).status_code == 204
    watcher.connect(url)  # the page reloaded: its websocket carries the cookie of the seat to be
    watcher.wait_version(table.version)
    browsers = []
    for player in players:  # the moves go through the test's HTTP client with the same cookies
        browser = Browser(app)
        browser.client.set_cookie(SEAT_COOKIE, player.http.cookies.get(SEAT_COOKIE, path=url), path=url)
        browser.client.set_cookie(CSRF_COOKIE, player.http.cookies.get(CSRF_COOKIE))
        browser.csrf = player.csrf
        browsers.append(browser)
    play_until(app, url, browsers, random.Random(3), round_over)
    ask = next(iter(table.asks))
    handed = browsers[0].post(f"{url}/hand-over", {"seat": 1, "ask": ask, "version": table.version})
    assert handed.status_code \
        == 204
    wait_until(lambda: not watcher.socket.connected)
    with watcher.arrived:  # nothing of seat 1's was pushed on the spectator's socket
        assert all(hand_of(m) is None for m in watcher.messages)
    watcher.messages.clear()
    watcher.connect(url)
    screen = watcher.wait_version(table.version)
    assert 'data-you="1"' in screen and hand_of(screen) == hand_texts(table.match.round, 1)


def test_a_spectator_who_asked_for_a_seat_is_told_so_on_its_own_pages_only(make_server):
    server = make_server(START_CLOCK=False)
    url, players = seat_up(server, "block", 3, names=("Ana", "Bea", "Carl"))
    table = live_table(server.app, url)
    asker, other = server.player(), server.player()
    assert asker.post(f"{url}/ask", {"name": "Zoe"}).status_code == 204
    mine, listed = "You asked for a seat as Zoe.", "Waiting for a seat: Zoe."
    for watcher in (asker, other):
        watcher.connect(url)
        watcher.wait_version(table.version)
    assert mine in shown_now(asker) and listed not in shown_now(asker)
    watching = shown_now(other)
    assert mine not in watching and listed in watching and "Bea, Carl are away" in watching
    assert "Every seat is taken" not in watching  # two may be asked for
    assert re.search(r'id="ask-name"[^>]*placeholder="Your name" value=""', watching)
    assert re.search(r'id="ask-name"[^>]*value="Zoe"', shown_now(asker))  # the field keeps the name asked as
    # A push both get (Carl's page opens: he is no longer away): each spectator's #me is its own.
    starts = len(asker.messages), len(other.messages)
    players[2].connect(url)
    wait_new(asker, starts[0], lambda m: "Bea is away" in m)
    wait_new(other, starts[1], lambda m: "Bea is away" in m)
    now = shown_now(asker)
    assert mine in now and listed not in now and "Bea, Carl are away" not in now
    assert mine not in shown_now(other) and listed in shown_now(other)
    # No seat free now (Bea's page opens too): the form goes, but the request stands and is said.
    starts = len(asker.messages), len(other.messages)
    players[1].connect(url)
    wait_new(asker, starts[0], lambda m: "Bea is away" not in m and "#me" not in m and 'id="me"' in m)
    assert mine in shown_now(asker) and "Ask for a seat" not in shown_now(asker)
    wait_new(other, starts[1], lambda m: 'id="me"' in m)
    assert "Ask for a seat" not in shown_now(other) and mine not in shown_now(other)
    assert "You are watching. Every seat is taken" in shown_now(other)
    players[1].close()  # Bea is away again
    wait_until(lambda: not table.connected(1))
    # Asking again changes the name; the page reloads (htmx follows HX-Redirect) and says the new one.
    assert asker.post(f"{url}/ask", {"name": "Zed"}).status_code == 204
    asker.close()  # the old page goes: its socket, which holds the old secret, may still get a push
    asker.messages.clear()
    asker.connect(url)
    asker.wait_version(table.version)
    wait_until(lambda: "You asked for a seat as Zed." in shown_now(asker))
    assert "Zoe" not in shown_now(asker)
    loaded = other.http.get(server.url + url).text  # and a page load, by HTTP
    assert "Waiting for a seat: Zed." in loaded and "You asked" not in loaded
    assert "You asked for a seat as Zed." in asker.http.get(server.url + url).text
