"""deploy/nginx.py: the example is its output, nginx accepts what it writes, bad lists are refused."""

from __future__ import annotations

import re
import shlex
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from deploy.nginx import PAGES, generate
from helpers.shards import nginx_or_skip

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "deploy" / "nginx.conf.example"


def made_by(text: str) -> list[str]:
    """The arguments the header of a generated file says made it."""
    return shlex.split(re.search(r"^#   python -m deploy\.nginx (.*)$", text, re.M).group(1))


def test_the_example_is_what_its_command_makes():
    text = EXAMPLE.read_text()
    assert generate(made_by(text)) == text, "run the command in deploy/nginx.conf.example's header again"


def test_the_readmes_command_makes_the_example():
    """The README's "Growing past one process" command, run from a checkout in /srv/fichas."""
    readme = (ROOT / "README.md").read_text().split("## Growing past one process", 1)[1]
    block = readme.split("```sh", 1)[1].split("```", 1)[0].replace("\\\n", " ")
    command = shlex.split(block[block.index("python -m deploy.nginx"):].split(">", 1)[0])[3:]
    assert [*command, "--pages", "/srv/fichas/deploy/pages"] == made_by(EXAMPLE.read_text())


def test_tables_go_to_their_shard_and_old_ids_to_the_default():
    text = generate(["--shard", "a=127.0.0.1:8001", "--shard", "bb7=10.0.0.2:8000", "--default", "bb7"])
    assert "~^/t/a\\.  fichas_a;" in text and "~^/t/bb7\\.  fichas_bb7;" in text
    assert "default  fichas_bb7;" in text
    spread = "upstream fichas_any {\n    random;\n    server 127.0.0.1:8001;\n    server 10.0.0.2:8000;\n"
    assert spread in text
    for header in ("Host $http_host", "X-Forwarded-For $proxy_add_x_forwarded_for",
                   "X-Forwarded-Proto $scheme", "Upgrade $http_upgrade", "Connection $fichas_connection"):
        assert f"proxy_set_header {header};" in text


@pytest.mark.parametrize("argv", [
    [],  # no shard
    ["--shard", "A=127.0.0.1:8001"],  # upper case
    ["--shard", "a.b=127.0.0.1:8001"],  # the separator of ids
    ["--shard", "abcdefghijklmnopq=127.0.0.1:8001"],  # 17 characters
    ["--shard", "a=127.0.0.1"],  # no port
    ["--shard", "a=127.0.0.1:8001; evil"],  # nginx syntax smuggled in
    ["--shard", "a=127.0.0.1:8001", "--shard", "a=127.0.0.1:8002"],  # one name twice
    ["--shard", "a=127.0.0.1:8001", "--default", "b"],  # a default that is not a shard
    ["--shard", "a=127.0.0.1:8001", "--tls-cert", "/etc/fichas.pem"],  # no key
    ["--shard", "a=127.0.0.1:8001", "--server-name", "x; include /etc/passwd"],  # a directive smuggled in
    ["--shard", "a=127.0.0.1:8001", "--pages", "/srv/my pages"],  # a space nginx would split at
    ["--shard", "a=127.0.0.1:8001", "--tls-cert", "c.pem", "--tls-key", "k.pem", "--listen", "443"],  # no ssl
])
def test_a_bad_list_of_shards_is_refused(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        generate(argv)
    assert exit_.value.code == 2 and capsys.readouterr().err


@pytest.mark.parametrize("extra", [[], ["--conns-per-client", "300", "--server-name", "fichas.example.com"]])
def test_nginx_accepts_the_configuration(tmp_path, extra):
    binary = nginx_or_skip()
    text = generate(["--shard", "a=127.0.0.1:8001", "--shard", "b=unix:/run/fichas-b.sock",
                     "--listen", "127.0.0.1:8080", "--standalone", str(tmp_path), *extra])
    conf = tmp_path / "nginx.conf"
    conf.write_text(text)
    assert nginx_test(binary, conf) == ""
    if extra:
        assert "limit_conn fichas_conns 300;" in text


def test_with_a_certificate_nginx_serves_https_and_says_so_to_the_shards(tmp_path):
    """nginx loads the certificate in `nginx -t`: a real one, made by openssl (CI installs it)."""
    binary = nginx_or_skip()
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    made = subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                           "-subj", "/CN=fichas.example.com", "-keyout", str(key), "-out", str(cert)],
                          capture_output=True, text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    text = generate(["--shard", "a=127.0.0.1:8001", "--server-name", "fichas.example.com",
                     "--tls-cert", str(cert), "--tls-key", str(key), "--standalone", str(tmp_path)])
    assert "    listen 443 ssl;\n" in text and f"ssl_certificate {cert};" in text
    assert "proxy_set_header X-Forwarded-Proto $scheme;" in text  # https, from nginx itself
    conf = tmp_path / "nginx.conf"
    conf.write_text(text.replace("listen 443 ssl;", "listen 127.0.0.1:8443 ssl;"))  # unprivileged
    assert nginx_test(binary, conf) == ""


def test_the_example_is_accepted_by_nginx_inside_an_http_block(tmp_path):
    binary = nginx_or_skip()
    body = EXAMPLE.read_text().replace("listen 80;", "listen 127.0.0.1:8080;")  # no privileged port needed
    conf = tmp_path / "nginx.conf"
    conf.write_text(f"pid {tmp_path}/nginx.pid;\nevents {{}}\nhttp {{\n{body}\n}}\n")
    assert nginx_test(binary, conf) == ""


def nginx_test(binary: str, conf: Path) -> str:
    """`nginx -t` on a file, unprivileged (its prefix and error log beside it): its complaint, or ""."""
    folder = str(conf.parent)
    done = subprocess.run([binary, "-t", "-c", str(conf), "-p", folder, "-e", f"{folder}/error.log"],
                          capture_output=True, text=True, timeout=30)
    return "" if done.returncode == 0 else done.stderr


class Page(HTMLParser):
    """What a page holds: its tags, attributes and heading."""

    def __init__(self):
        super().__init__()
        self.tags: list[str] = []
        self.attributes: set[str] = set()
        self.h1 = ""
        self._in_h1 = False

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attributes.update(name for name, _ in attrs)
        self._in_h1 = tag == "h1"

    def handle_endtag(self, tag):
        self._in_h1 = False

    def handle_data(self, data):
        if self._in_h1:
            self.h1 += data


@pytest.mark.parametrize(("name", "heading"), [
    ("table-unreachable.html", "This table is not reachable right now"),
    ("unreachable.html", "Fichas is not reachable right now"),
])
def test_the_not_reachable_pages_are_plain_and_fit_a_phone(name, heading):
    page = Page()
    page.feed((PAGES / name).read_text())
    assert page.h1 == heading
    assert "meta" in page.tags and "viewport" in (PAGES / name).read_text()
    assert not {"script", "style", "link", "img", "iframe"} & set(page.tags)  # one file, nothing to fetch
    assert "style" not in page.attributes and not any(a.startswith("on") for a in page.attributes)
