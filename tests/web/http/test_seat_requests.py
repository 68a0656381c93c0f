"""Requests for a seat and hand-overs attacked as an outsider would (issue 48, holes 1-3): a seat is
handed over once, never to a browser that sat down meanwhile, and one address cannot fill a table's
requests for good: a request lasts while its page is open, one address holds two, the host can turn
one down."""

import random
import threading

from helpers import Browser, open_table
from helpers.pages import (
    db_rows,
    flash_text,
    live_table,
    page,
    play_until,
    round_over,
    seat_secret,
    seat_up,
    shown_now,
    twin,
    wait_new,
    wait_until,
    you_of,
)
from live.table import ASK_ALONE_SECONDS, Ask
from web.guard.security import CSRF_COOKIE, SEAT_COOKIE

NAMES = ("Ana", "Bea", "Carl")
TAKEN = "That seat has just changed hands"
AWAY_TOLD = "While you were away, the host gave your seat to"


class FakeClock:
    """The tables' time, moved by the test."""

    def __init__(self, start: float = 1_800_000_000.0):
        self.at = start

    def __call__(self) -> float:
        return self.at


def test_client_of(app, url, player) -> Browser:
    """A test client with a real-server player's cookies: its moves are played without a socket."""
    browser = Browser(app)
    browser.client.set_cookie(SEAT_COOKIE, player.http.cookies.get(SEAT_COOKIE, path=url), path=url)
    browser.client.set_cookie(CSRF_COOKIE, player.http.cookies.get(CSRF_COOKIE))
    browser.csrf = player.csrf
    return browser


test_client_of.__test__ = False  # a helper, not a test


def to_the_pause(server, url, players, seed=3):
    """Play the first round out over HTTP (its players' pages closed): the table is between rounds."""
    app = server.app
    play_until(app, url, [test_client_of(app, url, p) for p in players], random.Random(seed), round_over)
    assert live_table(app, url).phase == "pause"


def ask_id(table, name) -> str:
    return next(key for key, ask in table.asks.items() if ask.name == name)


def test_two_hand_overs_of_one_seat_at_once_give_it_once(make_server):
    """Hole 1: the host's hand-over of seat 2 to Zoe and, on the same version, to Max both succeeded
    (together, or a second apart while Zoe's page had not reconnected): Zoe lost the seat at once
    and was told the host gave it away "while you were away"."""
    server = make_server(START_CLOCK=False, TABLES_OPTIONS={"rng": random.Random(3)})
    url, players = seat_up(server, "block", 3, names=NAMES)
    app, table = server.app, live_table(server.app, url)
    zoe, max_ = server.player(), server.player()
    for who, name in ((zoe, "Zoe"), (max_, "Max")):
        assert who.post(f"{url}/ask", {"name": name}).status_code == 204
    to_the_pause(server, url, players)
    version = table.version
    hosts = [twin(server, players[0]) for _ in range(2)]  # two tabs of the host's browser, or two clicks
    asks = [ask_id(table, "Zoe"), ask_id(table, "Max")]
    answers = [None, None]
    start = threading.Barrier(2)

    def hand_over(n):
        start.wait()
        answers[n] = hosts[n].post(f"{url}/hand-over", {"seat": 2, "ask": asks[n], "version": version})

    threads = [threading.Thread(target=hand_over, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert sorted(a.status_code for a in answers) == [204, 409]
    winner, loser = (0, 1) if answers[0].status_code == 204 else (1, 0)
    assert TAKEN in flash_text(answers[loser].text)
    given_to = ("Zoe", "Max")[winner]
    assert table.players == ["Ana", "Bea", given_to] and table.version == version + 1
    actions = app.extensions["fichas"].tables.store.actions(table.id)
    assert [action["kind"] for action in actions].count("hand_over") == 1
    # A second later, the same button again: the seat is not given twice either; nor on the version
    # the host's page now shows (the new owner's page has not opened yet): it is not even offered.
    again = hosts[0].post(f"{url}/hand-over", {"seat": 2, "ask": asks[loser], "version": version})
    assert again.status_code == 409 and TAKEN in flash_text(again.text)
    host_page = hosts[0].http.get(server.url + url).text
    assert f"Give {given_to}" not in host_page and "Give Carl" not in host_page
    assert "Give Bea's seat to " + ("Zoe", "Max")[loser] in host_page  # Bea's seat still may be
    again = hosts[0].post(f"{url}/hand-over", {"seat": 2, "ask": asks[loser], "version": table.version})
    assert again.status_code == 409 and TAKEN in flash_text(again.text)
    seated, watching = (zoe, max_) if winner == 0 else (max_, zoe)
    seated_page = seated.http.get(server.url + url).text
    assert you_of(seated_page) == "2" and AWAY_TOLD not in seated_page  # it keeps the seat, is told no lie
    assert you_of(watching.http.get(server.url + url).text) == ""
    assert table.players == ["Ana", "Bea", given_to]


def test_a_hand_over_to_someone_who_took_a_seat_by_its_private_link_is_refused(app):
    """Hole 2: Xena asked, then took seat 1 with its private link; the host's still-shown "Give
    Carl's seat to Xena" answered 500 (the store's one seat per browser), and again on every try."""
    app.extensions["fichas"].tables.rng = random.Random(3)
    url, players = open_table(app, "block", 3, target=500, names=NAMES)
    table = live_table(app, url)
    xena = Browser(app)
    assert xena.post(f"{url}/ask", {"name": "Xena"}).status_code == 204
    play_until(app, url, players, random.Random(3), round_over)
    asked = ask_id(table, "Xena")
    assert "Give Carl's seat to Xena" in page(players[0], url)
    assert xena.post(f"{url}/seat", {"secret": seat_secret(players[1], url)}).status_code == 303
    assert you_of(page(xena, url)) == "1"
    # The host's page, not yet pushed to, still shows the button: a clear refusal that changes nothing.
    version = table.version
    refused = players[0].post(f"{url}/hand-over", {"seat": 2, "ask": asked, "version": version})
    assert refused.status_code == 409 and "That request for a seat is gone" in flash_text(refused.text)
    assert table.players == ["Ana", "Bea", "Carl"] and table.version == version
    # Her request went as she sat down: nobody is offered it any more.
    assert "Xena" not in [ask.name for ask in table.asks.values()]
    assert "Give Carl" not in page(players[0], url) and "Waiting for a seat" not in page(Browser(app), url)
    # A request whose browser holds a seat all the same (left by a path that missed it) is refused, and goes.
    ((xenas_browser,),) = db_rows(app, "SELECT browser_hash FROM seats WHERE table_id = ? AND seat = 1",
                                  table.id)
    table.asks[asked] = Ask("Xena", "0" * 64, xenas_browser, app.extensions["fichas"].tables.now())
    refused = players[0].post(f"{url}/hand-over", {"seat": 2, "ask": asked, "version": version})
    assert refused.status_code == 409
    assert "Xena has taken a seat at this table already" in flash_text(refused.text)
    assert asked not in table.asks and "Give Carl" not in page(players[0], url)
    assert table.players == ["Ana", "Bea", "Carl"] and table.version == version
    assert you_of(page(xena, url)) == "1"


def test_one_address_cannot_fill_a_tables_requests_and_requests_lapse_with_their_pages(make_server):
    """Hole 3: ten fresh cookie jars from one address asked (eight got in); gone, they kept the
    table's list full for good, and their names on every page. Now one address holds two requests,
    a request lasts while its page is open (and ASK_ALONE_SECONDS after), and every page is told."""
    clock = FakeClock()
    server = make_server(START_CLOCK=False, TRUSTED_PROXIES=1, TABLES_OPTIONS={"now": clock,
                                                                               "rng": random.Random(3)})
    url, players = seat_up(server, "block", 3, names=NAMES)
    tables, table = server.app.extensions["fichas"].tables, live_table(server.app, url)
    to_the_pause(server, url, players)

    def from_address(address):
        player = server.player()
        player.http.headers["X-Forwarded-For"] = address
        return player

    host, watcher = players[0].connect(url), from_address("198.51.100.7").connect(url)
    version = table.version
    host.wait_version(version), watcher.wait_version(version)
    flood = [from_address("203.0.113.5").post(f"{url}/ask", {"name": f"Junk{n}"}) for n in range(10)]
    assert [answer.status_code for answer in flood] == [204] * 2 + [409] * 8
    assert "Two people on your network are already waiting" in flash_text(flood[-1].text)
    zoe = from_address("198.51.100.8")
    assert zoe.post(f"{url}/ask", {"name": "Zoe"}).status_code == 204  # a real spectator gets in
    zoe.connect(url)  # her page reloads and stays open
    zoe.wait_version(version)
    wait_until(lambda: table.asks[ask_id(table, "Zoe")].pages == 1)
    for player in (host, watcher):
        wait_until(lambda p=player: "Junk1" in shown_now(p) and "Zoe" in shown_now(p))
    assert "Give Bea's seat to Junk0" in shown_now(host)

    clock.at += ASK_ALONE_SECONDS - 1  # the flooders never opened a page: theirs lapse, hers stays
    assert tables.expire_asks() == 0
    starts = len(host.messages), len(watcher.messages)
    clock.at += 1
    assert tables.expire_asks() == 2
    for player, start in zip((host, watcher), starts, strict=True):
        wait_new(player, start, lambda m: 'id="me"' in m and "Junk" not in m)
        assert "Junk" not in shown_now(player) and "Zoe" in shown_now(player)
    assert [ask.name for ask in table.asks.values()] == ["Zoe"]
    assert from_address("203.0.113.5").post(f"{url}/ask", {"name": "Again"}).status_code == 204

    zoe.close()  # her page goes: her request lasts a while more, then lapses like theirs
    wait_until(lambda: table.asks[ask_id(table, "Zoe")].pages == 0)
    clock.at += ASK_ALONE_SECONDS - 1
    assert tables.expire_asks() == 0 and len(table.asks) == 2  # hers, and "Again" (no page either)
    start = len(watcher.messages)
    clock.at += 1
    assert tables.expire_asks() == 2 and not table.asks
    wait_new(watcher, start, lambda m: 'id="me"' in m and "Zoe" not in m)
    refused = host.post(f"{url}/hand-over", {"seat": 1, "ask": "gone", "version": table.version})
    assert refused.status_code == 409 and table.players == list(NAMES)


def test_the_host_turns_a_request_down_for_every_page(make_server):
    server = make_server(START_CLOCK=False, TABLES_OPTIONS={"rng": random.Random(3)})
    url, players = seat_up(server, "block", 3, names=NAMES)
    table = live_table(server.app, url)
    to_the_pause(server, url, players)
    junk, watcher = server.player(), server.player().connect(url)
    assert junk.post(f"{url}/ask", {"name": "Junk"}).status_code == 204
    host = players[0].connect(url)
    host.wait_for(lambda m: "Turn down Junk&#39;s request" in m or "Turn down Junk's request" in m)
    asked = ask_id(table, "Junk")
    assert players[1].post(f"{url}/dismiss", {"ask": asked}).status_code == 403  # the host only
    assert junk.post(f"{url}/dismiss", {"ask": asked}).status_code == 403
    forged = server.player()  # the host's seat cookie without the page's token (another site's form)
    forged.http.cookies.set(SEAT_COOKIE, players[0].http.cookies.get(SEAT_COOKIE, path=url), path=url)
    assert forged.http.post(server.url + f"{url}/dismiss", {"ask": asked}).status_code == 403
    assert asked in table.asks
    start, host_start = len(watcher.messages), len(host.messages)
    assert host.post(f"{url}/dismiss", {"ask": asked}).status_code == 204
    assert not table.asks
    wait_new(watcher, start, lambda m: 'id="me"' in m)
    wait_new(host, host_start, lambda m: 'id="me"' in m)  # each page's push comes in its own time
    assert "Junk" not in shown_now(watcher) and "Junk" not in shown_now(host)
    again = host.post(f"{url}/dismiss", {"ask": asked})
    assert again.status_code == 409 and "That request for a seat is gone" in flash_text(again.text)
