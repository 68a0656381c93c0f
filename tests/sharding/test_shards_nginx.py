"""Two shards behind Debian's nginx, on loopback: tables land on both, play goes through, a shard may die.

Each shard is the README's production command (its own FICHAS_SHARD, FICHAS_DB and port, one
shared FICHAS_SECRET_KEY); nginx runs unprivileged with `python -m deploy.nginx --standalone`'s
configuration (tests/helpers/shards.py). Every player talks to nginx's address only.
"""

from __future__ import annotations

import json
import re
import sqlite3
from contextlib import closing

import pytest
import requests

from app import create_app
from helpers import FAST, LivePlayer, version_of
from helpers.remote import phase_of, play_round
from helpers.shards import Cluster
from helpers.wsclient import RawClient, Refused

pytestmark = pytest.mark.slow  # starts two shards behind nginx: out of the quick loop

SHARDED_ID = re.compile(r"(a|b)\.[A-Za-z0-9_-]{22}")
UNREACHABLE = "This table is not reachable right now"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    # Every player here is 127.0.0.1, and finding a table on a given shard takes a few tries.
    cluster = Cluster(tmp_path_factory.mktemp("shards"), FICHAS_TABLES_PER_MINUTE="600")
    try:
        yield cluster.start()
    finally:
        cluster.stop()


@pytest.fixture
def players(cluster):
    """Browser-like players of nginx's address, closed after the test."""
    made: list[LivePlayer] = []

    def make(n: int = 1) -> list[LivePlayer]:
        new = [LivePlayer(cluster.url) for _ in range(n)]
        made.extend(new)
        return new

    yield make
    for player in made:
        player.close()


def shard_of(url: str) -> str:
    return url.rsplit("/", 1)[1].partition(".")[0]


def table_on(shard: str, make, variant="block", seats=2) -> tuple[str, list[LivePlayer]]:
    """A table nginx put on `shard` (new tables go to a random shard), its seats all taken."""
    for _ in range(40):  # each try has an even chance
        host, *guests = make(seats)
        url = host.create("Ana", variant, seats)
        if shard_of(url) == shard:
            for guest, name in zip(guests, ("Bea", "Carl", "Dan"), strict=False):
                guest.join(url, name)
            return url, [host, *guests]
    raise AssertionError(f"no table landed on shard {shard} in 40 tries")


def ids_in(db) -> set[str]:
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        return {row[0] for row in conn.execute("SELECT id FROM tables")}


def test_new_tables_land_on_both_shards_each_in_its_own_file(cluster, players):
    made = []
    for _ in range(40):
        (host,) = players()
        made.append(host.create("Ana", "block", 2))
        if {shard_of(url) for url in made} == {"a", "b"}:
            break
    assert {shard_of(url) for url in made} == {"a", "b"}, made
    for url in made:
        table_id = url.rsplit("/", 1)[1]
        assert url.startswith("/t/") and SHARDED_ID.fullmatch(table_id), url
        mine, other = (cluster.shards[n].db for n in ("ab" if shard_of(url) == "a" else "ba"))
        assert table_id in ids_in(mine) and table_id not in ids_in(other)
        page = requests.get(cluster.url + url, timeout=5)
        share = f'value="{cluster.url}{url}"'  # the share link: nginx passed the browser's Host
        assert page.status_code == 200 and share in page.text


def test_one_shards_csrf_token_is_good_on_the_other(cluster):
    """The secret is shared (FICHAS_SECRET_KEY): a home page from one shard, a new table on the other."""
    player = LivePlayer(cluster.shards["a"].url)
    response = requests.post(cluster.shards["b"].url + "/tables", cookies=player.http.cookies,
                             data={"name": "Ana", "variant": "block", "seats": "2", "target": "100",
                                   "csrf_token": player.csrf}, allow_redirects=False, timeout=5)
    assert response.status_code == 303 and "/t/b." in response.headers["Location"]


def test_a_whole_round_through_nginx_over_http_and_websockets(cluster, players):
    url, seated = table_on("b", players, "partnership", 4)
    for player in seated:
        player.connect(url)
    first = version_of(seated[0].wait_for(lambda m: 'id="table"' in m))
    for player in seated:
        player.wait_version(first)
    assert phase_of(seated[0]) == "playing"

    moves = play_round(seated)

    assert moves >= 8  # a Partnership round: at least the shortest domino
    assert phase_of(seated[0]) in ("pause", "over")
    record = requests.get(cluster.url + url + "/record.json", timeout=5).json()
    assert record["format"] == "domino-match/1" and len(record["rounds"]) == 1
    # The Origin check still holds behind nginx: another site's page cannot open the socket.
    with pytest.raises(Refused) as refused:
        RawClient(cluster.url, url + "/ws", {"Origin": "http://evil.example"})
    assert refused.value.status == 403


def test_a_shard_down_gives_its_tables_a_page_and_the_others_play_on(cluster, players):
    down, up = cluster.shards["a"], cluster.shards["b"]
    lost_url, lost = table_on("a", players)
    kept_url, kept = table_on("b", players)
    lost_page, kept_page = cluster.url + lost_url, cluster.url + kept_url
    lost_version = version_of(requests.get(lost_page, timeout=5).text)
    for player in kept:
        player.connect(kept_url)
    version = version_of(kept[0].wait_for(lambda m: 'id="table"' in m))

    down.kill()
    try:
        page = requests.get(lost_page, timeout=5)
        assert page.status_code == 503 and UNREACHABLE in page.text
        assert "<script" not in page.text and page.headers["Cache-Control"] == "no-store"
        move = lost[0].post(lost_url + "/pass", {"version": lost_version})
        assert move.status_code == 503 and UNREACHABLE in move.text
        with pytest.raises(Refused) as refused:
            RawClient(cluster.url, lost_url + "/ws", {"Origin": cluster.url})
        assert refused.value.status == 503

        # The other shard's table plays on, and new tables open (on the shard that is up).
        play_round(kept)
        assert version_of(requests.get(kept_page, timeout=5).text) > version
        for _ in range(4):
            (host,) = players()
            assert shard_of(host.create("Eve", "block", 2)) == "b"
        assert requests.get(cluster.url + "/", timeout=5).status_code == 200
        # A table made before sharding (its id has no shard name) lives in the default shard's file.
        old = create_app({"DATABASE": str(down.db), "START_CLOCK": False, **FAST})
        old_id = old.extensions["fichas"].tables.create("Old", "block", 2)[0].id
        old.extensions["fichas"].close()
        assert "." not in old_id
        assert requests.get(f"{cluster.url}/t/{old_id}", timeout=5).status_code == 503  # routed to a
    finally:
        down.start()

    # Back from its SQLite file: the same table at the same version, its seats, a working socket.
    page = requests.get(lost_page, timeout=5)
    assert page.status_code == 200 and version_of(page.text) == lost_version
    for player in lost:
        player.connect(lost_url)
    for player in lost:
        player.wait_version(lost_version)
    assert play_round(lost) >= 1
    old_page = requests.get(f"{cluster.url}/t/{old_id}", timeout=5)
    assert old_page.status_code == 200 and "Old" in old_page.text
    assert json.loads(requests.get(f"{cluster.url}/t/{old_id}/record.json", timeout=5).text)["rounds"] == []
    assert up.process.poll() is None


def test_a_record_of_up_to_256_kb_passes_nginx_to_replay(cluster, players):
    """nginx lets /replay's records through (every other request stays at 16 KB); past 256 KB, a 413."""
    import random

    from game.record import dumps, export_match
    from game.simulate import play_match

    (visitor,) = players()
    record = dumps(export_match(play_match("draw", 2, 100, random.Random(1), 0.2)))
    large = record + " " * (200_000 - len(record))
    answer = visitor.http.post(cluster.url + "/replay", data={"csrf_token": visitor.csrf},
                               files={"record": ("match.json", large.encode())}, timeout=10)
    assert answer.status_code == 200 and 'id="replay"' in answer.text
    too_large = visitor.http.post(cluster.url + "/replay", data={"csrf_token": visitor.csrf},
                                  files={"record": ("match.json", b" " * 300_000)}, timeout=10)
    assert too_large.status_code == 413
    assert visitor.post("/tables", data={"name": "x" * 20_000}).status_code == 413  # elsewhere: 16 KB
