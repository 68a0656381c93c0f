"""`python -m deploy.nginx`: the nginx configuration for shards of Fichas, from the list of shards.

    python -m deploy.nginx --shard a=127.0.0.1:8001 --shard b=127.0.0.1:8002 --listen 80 > fichas.conf

A table's id starts with its shard's name (`a.Xr3…`, FICHAS_SHARD), so nginx routes `/t/<id>…`
(pages, moves, the websocket) by that prefix with no lookup; ids made before sharding have no
prefix and go to the default shard. Everything else (the home page, a new table, static files)
goes to any shard that answers. A shard that is down gives its tables a plain page that says so
(deploy/pages/), and the others go on. The output goes in nginx's http block (conf.d); with
--standalone DIR it is a whole nginx.conf that runs unprivileged with its files in DIR.
"""

from __future__ import annotations

import argparse
import re
import shlex
import sys
from pathlib import Path

SHARD_NAME = re.compile(r"[a-z0-9]{1,16}")  # as app.py checks FICHAS_SHARD
ADDRESS = re.compile(r"(?:unix:/\S+|\[[0-9a-fA-F:.]+\]:\d{1,5}|[A-Za-z0-9.-]+:\d{1,5})")
UNSAFE = re.compile(r"[;{}\"'#$\\\s]")  # what would end or change an nginx directive
PAGES = Path(__file__).resolve().parent / "pages"
KEEPALIVE_SECONDS = 1  # under gunicorn's 2 s, so nginx never reuses a connection the shard is closing
SOCKET_TIMEOUT = "1h"  # the app pings every few seconds; this only bounds a connection gone silent


def parse_shard(text: str) -> tuple[str, str]:
    """`name=host:port` (or `name=unix:/path`) as a pair, or an argparse error."""
    name, _, address = text.partition("=")
    if not SHARD_NAME.fullmatch(name):
        raise argparse.ArgumentTypeError(f"{text!r}: a shard's name is 1 to 16 of a-z and 0-9")
    if not ADDRESS.fullmatch(address):
        raise argparse.ArgumentTypeError(f"{text!r}: write name=host:port or name=unix:/path")
    return name, address


def upstream(name: str, addresses: list[str], method: str = "") -> str:
    servers = "".join(f"    server {address};\n" for address in addresses)
    return (f"upstream {name} {{\n{method}{servers}    keepalive 16;\n"
            f"    keepalive_timeout {KEEPALIVE_SECONDS}s;\n}}\n")


def server_config(shards: list[tuple[str, str]], default: str, listen: str, server_name: str,
                  pages: str, conns_per_client: int, tls: tuple[str, str] | None = None) -> str:
    """The upstreams, maps and server block: what goes in nginx's http block."""
    out = ["# One upstream per shard, for its tables; and all of them, for everything else.\n"]
    out += [upstream(f"fichas_{name}", [address]) for name, address in shards]
    # Random, not round robin: a steady pattern (a home page, then a new table) would otherwise
    # put every new table on the same shard.
    out.append(upstream("fichas_any", [address for _, address in shards], "    random;\n"))
    routes = "".join(f"    ~^/t/{name}\\.  fichas_{name};\n" for name, _ in shards)
    out.append("\n# A table's shard is the part of its id before the '.': `/t/a.Xr3…` is shard a's.\n"
               "# Ids from before sharding (no '.') and unknown shards go to the default shard.\n"
               f"map $uri $fichas_table_shard {{\n{routes}    default  fichas_{default};\n}}\n")
    # Prefixed, not the usual $connection_upgrade: a map of that name elsewhere would clash.
    out.append("\n# A websocket asks for an upgrade; any other request keeps its upstream connection open.\n"
               "map $http_upgrade $fichas_connection {\n    default  upgrade;\n    ''       '';\n}\n")
    if conns_per_client:
        out.append("\nlimit_conn_zone $binary_remote_addr zone=fichas_conns:10m;\n")
    out.append("\nserver {\n")
    out.append(f"    listen {listen};\n")
    if server_name:
        out.append(f"    server_name {server_name};\n")
    if tls:  # nginx is the TLS proxy: X-Forwarded-Proto says https, set FICHAS_PUBLIC_URL to match
        out.append(f"    ssl_certificate {tls[0]};\n    ssl_certificate_key {tls[1]};\n")
    if conns_per_client:
        out.append(f"    limit_conn fichas_conns {conns_per_client};  # per client address, all shards\n"
                   "    limit_conn_status 429;\n")
    out.append("    client_max_body_size 16k;  # as the app's own limit\n"
               "\n"
               "    # The shard sees the Host the browser sent (links, and the websocket's Origin check),\n"
               "    # the client's address and scheme; set FICHAS_PROXY_ADDRESSES on it to believe them.\n"
               "    proxy_http_version 1.1;\n"
               "    proxy_set_header Host $http_host;\n"
               "    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;\n"
               "    proxy_set_header X-Forwarded-Proto $scheme;\n"
               "    proxy_set_header Upgrade $http_upgrade;\n"
               "    proxy_set_header Connection $fichas_connection;\n"
               "\n"
               "    location /t/ {  # a table: its pages, moves, record and websocket\n"
               "        proxy_pass http://$fichas_table_shard;\n"
               f"        proxy_read_timeout {SOCKET_TIMEOUT};\n"
               f"        proxy_send_timeout {SOCKET_TIMEOUT};\n"
               "        error_page 502 503 504 =503 /fichas-pages/table-unreachable.html;\n"
               "    }\n"
               "\n"
               "    location = /replay {  # a record to replay, at most 256 KB (web/http/replay.py)\n"
               "        client_max_body_size 272k;\n"
               "        client_body_buffer_size 272k;  # kept in memory: never a temporary file\n"
               "        proxy_pass http://fichas_any;\n"
               "        error_page 502 503 504 =503 /fichas-pages/unreachable.html;\n"
               "    }\n"
               "\n"
               "    location / {  # the home page, new tables, the rules, static files: any shard\n"
               "        proxy_pass http://fichas_any;\n"
               "        error_page 502 503 504 =503 /fichas-pages/unreachable.html;\n"
               "    }\n"
               "\n"
               "    location /fichas-pages/ {  # nginx's own pages for a shard that is down\n"
               "        internal;\n"
               f"        alias {pages.rstrip('/')}/;\n"
               "        default_type text/html;\n"
               "        charset utf-8;\n"
               "        add_header Cache-Control no-store always;\n"
               "        add_header Retry-After 30 always;\n"
               "        add_header Content-Security-Policy \"default-src 'none'\" always;\n"
               "    }\n"
               "}\n")
    return "".join(out)


def standalone(body: str, folder: str, connections: int) -> str:
    """A whole nginx.conf for an unprivileged nginx: its pid, logs and temporary files in `folder`."""
    folder = folder.rstrip("/")
    temp = "".join(f"    {kind}_temp_path {folder}/{kind};\n"
                   for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    inner = "".join(f"    {line}\n" if line else "\n" for line in body.splitlines())
    return ("daemon off;\n"
            f"pid {folder}/nginx.pid;\n"
            f"error_log {folder}/error.log warn;\n"
            "worker_processes 1;\n"
            f"events {{\n    worker_connections {connections};\n}}\n"
            "http {\n"
            "    access_log off;\n"
            f"{temp}\n{inner}}}\n")


def generate(argv: list[str]) -> str:
    """The configuration for these arguments (see --help), headed by the command that made it."""
    parser = argparse.ArgumentParser(prog="python -m deploy.nginx", description=__doc__.split("\n\n")[0])
    parser.add_argument("--shard", action="append", type=parse_shard, required=True, metavar="NAME=HOST:PORT",
                        help="a shard (FICHAS_SHARD=NAME) and where it listens; repeat for each")
    parser.add_argument("--default", help="the shard of table ids without a shard name (default: the first)")
    parser.add_argument("--listen", help="nginx's listen parameters (default: 80, or 443 ssl with TLS)")
    parser.add_argument("--tls-cert", metavar="FILE", help="the certificate (chain): nginx serves https")
    parser.add_argument("--tls-key", metavar="FILE", help="the certificate's private key")
    parser.add_argument("--server-name", default="", help="nginx's server_name (default: none)")
    parser.add_argument("--pages", default=str(PAGES),
                        help="the folder of the 'not reachable' pages (default: deploy/pages here)")
    parser.add_argument("--conns-per-client", type=int, default=0, metavar="N",
                        help="connections one client address may hold at once, all shards (0: no limit)")
    parser.add_argument("--standalone", metavar="DIR",
                        help="a whole nginx.conf with its pid, logs and temporary files in DIR")
    parser.add_argument("--worker-connections", type=int, default=10000, metavar="N",
                        help="with --standalone: connections nginx holds at once (two per websocket)")
    args = parser.parse_args(argv)
    names = [name for name, _ in args.shard]
    if len(set(names)) != len(names):
        parser.error("each shard needs its own name")
    default = args.default or names[0]
    if default not in names:
        parser.error(f"--default {default!r} is not one of the shards")
    words = {"--listen": (args.listen or "").replace(" ", ""), "--pages": args.pages,
             "--server-name": args.server_name.replace(" ", ""), "--tls-cert": args.tls_cert or "",
             "--tls-key": args.tls_key or "", "--standalone": args.standalone or ""}
    for option, value in words.items():  # several listen parameters or server names: spaces between
        if UNSAFE.search(value):
            parser.error(f"{option}: no spaces (in a path), quotes, ';', '{{', '}}', '#', '$' or '\\'")
    if bool(args.tls_cert) != bool(args.tls_key):
        parser.error("--tls-cert and --tls-key go together")
    tls = (args.tls_cert, args.tls_key) if args.tls_cert else None
    listen = args.listen or ("443 ssl" if tls else "80")
    if tls and "ssl" not in listen.split():
        parser.error(f"--listen {listen!r} needs ssl to serve https with --tls-cert")
    if args.conns_per_client < 0:
        parser.error("--conns-per-client must be 0 or more")
    head = ("# Fichas behind nginx, made by (edit the command, not this file):\n"
            f"#   python -m deploy.nginx {shlex.join(argv)}\n\n")
    body = server_config(args.shard, default, listen, args.server_name, args.pages, args.conns_per_client,
                         tls)
    return head + (standalone(body, args.standalone, args.worker_connections) if args.standalone else body)


if __name__ == "__main__":
    sys.stdout.write(generate(sys.argv[1:]))
