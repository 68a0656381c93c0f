"""FICHAS_SHARD: a shard's new tables carry its name (`<shard>.<token>`) and play as any other;
FICHAS_PROXY_ADDRESSES: X-Forwarded-* count only from the proxy in front of the shards."""

from __future__ import annotations

import re

import pytest

from app import env_config
from helpers import Browser, open_table
from helpers.bench import ROOT
from helpers.pages import handshake, seat_up, table_id
from web.http.routes import TABLE_ID_MAX

TOKEN = r"[A-Za-z0-9_-]{22}"  # secrets.token_urlsafe(16)


def test_a_shards_tables_carry_its_name_and_play_as_any_other(make_server):
    server = make_server(SHARD="b7")
    url, (host, _) = seat_up(server, "block", 2, names=("Ana", "Bea"))
    assert re.fullmatch(rf"/t/b7\.{TOKEN}", url), url
    assert host.http.get(server.url + url).status_code == 200
    assert handshake(server.url, f"{url}/ws", {"Origin": server.url})[0] == 101
    assert host.http.get(f"{server.url}{url}/record.json").json()["format"] == "domino-match/1"
    link = host.post(f"{url}/seat-link")
    assert link.status_code == 200 and f"{url}/seat#" in link.text  # the private link names the same id


def test_without_a_shard_ids_are_as_before(app):
    url, _ = open_table(app, "block", 2, names=("Ana", "Bea"))
    assert re.fullmatch(TOKEN, table_id(url)), url


def test_the_longest_shard_name_keeps_ids_within_the_routes_limit(make_app):
    app = make_app(SHARD="z" * 16)
    url, (host, _) = open_table(app, "block", 2, names=("Ana", "Bea"))
    assert len(table_id(url)) == 16 + 1 + 22 <= TABLE_ID_MAX
    assert host.get(url).status_code == 200


def test_a_table_made_before_sharding_is_still_served_by_the_shard_that_has_its_file(make_app):
    before = make_app()
    url, _ = open_table(before, "block", 2, names=("Ana", "Bea"))
    before.extensions["fichas"].close()
    after = make_app(SHARD="a")  # the same file, now the default shard
    page = Browser(after).get(url)
    assert page.status_code == 200 and "Ana" in page.get_data(as_text=True)
    new_url, _ = open_table(after, "block", 2, names=("Cy", "Di"))
    assert table_id(new_url).startswith("a.")


def test_the_shard_is_read_from_the_environment(monkeypatch):
    monkeypatch.setenv("FICHAS_SHARD", "a1")
    assert env_config()["SHARD"] == "a1"
    monkeypatch.delenv("FICHAS_SHARD")
    assert "SHARD" not in env_config()


@pytest.mark.parametrize("name", ["A", "a.b", "a-b", "x" * 17, " a"])
def test_a_shard_name_nginx_could_not_route_is_refused_at_start(monkeypatch, name):
    monkeypatch.setenv("FICHAS_SHARD", name)
    with pytest.raises(ValueError, match="FICHAS_SHARD"):
        env_config()


# -- the proxy's addresses -------------------------------------------------------------------------

PROXY = "10.0.0.5"
AROUND = "192.0.2.7"  # a client that reaches the shard directly, not through the proxy


def get_home(app, remote: str, **headers):
    return app.test_client().get("/", headers=headers, environ_base={"REMOTE_ADDR": remote})


@pytest.mark.parametrize("remote", [PROXY, f"::ffff:{PROXY}"])
def test_x_forwarded_proto_counts_from_the_proxy(make_app, remote):
    app = make_app(TRUSTED_PROXIES=1, PROXY_ADDRESSES=["10.0.0.0/24"])
    response = get_home(app, remote, **{"X-Forwarded-Proto": "https"})
    assert response.headers["Strict-Transport-Security"] == "max-age=31536000"
    assert "Secure" in response.headers["Set-Cookie"]


def test_x_forwarded_proto_is_nobodys_word_around_the_proxy(make_app):
    app = make_app(TRUSTED_PROXIES=1, PROXY_ADDRESSES=[PROXY])
    response = get_home(app, AROUND, **{"X-Forwarded-Proto": "https"})
    assert "Strict-Transport-Security" not in response.headers
    assert "Secure" not in response.headers["Set-Cookie"]


def create_tables(app, remote: str, count: int) -> list[int]:
    """`count` new tables from one client at `remote`, each claiming another address; their statuses."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = remote
    csrf = re.search(r'name="csrf-token" content="([^"]+)"', client.get("/").get_data(as_text=True)).group(1)
    return [client.post("/tables", data={"name": "Ana", "variant": "block", "seats": 2, "target": 100,
                                         "csrf_token": csrf},
                        headers={"X-Forwarded-For": f"198.51.100.{n}"}).status_code for n in range(count)]


def test_a_client_around_the_proxy_cannot_choose_the_address_limits_count(make_app):
    app = make_app(TRUSTED_PROXIES=1, PROXY_ADDRESSES=[PROXY], TABLES_PER_MINUTE=2)
    assert create_tables(app, AROUND, 3) == [303, 303, 429]
    # Through the proxy, each X-Forwarded-For is another client, with a limit of its own.
    assert create_tables(app, PROXY, 3) == [303, 303, 303]


def test_the_proxys_addresses_are_read_from_the_environment(monkeypatch):
    monkeypatch.setenv("FICHAS_PROXY_ADDRESSES", " 127.0.0.1, 10.0.0.0/8 ,")
    config = env_config()
    assert config["PROXY_ADDRESSES"] == ["127.0.0.1", "10.0.0.0/8"]
    assert config["TRUSTED_PROXIES"] == 1  # naming the proxy means there is one
    monkeypatch.setenv("FICHAS_TRUSTED_PROXIES", "2")
    assert env_config()["TRUSTED_PROXIES"] == 2
    monkeypatch.setenv("FICHAS_PROXY_ADDRESSES", "127.0.0.1, nginx.local")
    with pytest.raises(ValueError, match=re.escape("FICHAS_PROXY_ADDRESSES: 'nginx.local'")):
        env_config()


def test_the_sharding_settings_are_in_the_readme():
    readme = (ROOT / "README.md").read_text()
    for name in ("FICHAS_SHARD", "FICHAS_PROXY_ADDRESSES"):
        assert f"| `{name}` |" in readme, name
    assert "## Growing past one process" in readme
