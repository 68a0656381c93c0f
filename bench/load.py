"""Load benchmark: many live tables in one server process, played at a human pace.

    python bench/load.py --tables N --seconds S [--port P] [--keep-db] [--shards N]
                         [--ramp-concurrency K] [--quiet-wait S] [--profile] [--probe] [--probe-parts]
                         [--no-deflate] [--bare]

Starts the server as the README's production command does (gunicorn, one gevent worker) on
127.0.0.1 with a temporary database, opens N tables of four players each exactly as browsers
would (a cookie session and a CSRF token per player, create or join, the table page, the
websocket with an Origin header, offering permessage-deflate), then plays whole Partnership
matches for S seconds: on every table a move every 1-3 s (random), sent over the player's
websocket as the page's ws-send buttons do, the host starting a new match when one ends. It stops by
itself, closes every socket, stops the server and reports:

- moves per second served;
- latency from sending a move until all four seats' websockets have its version (median,
  p95, p99, max);
- errors (unexpected HTTP answers, refused moves), dropped websockets and versions a seat
  never received (all must be 0);
- the server worker's peak RSS and RSS per table, its CPU use (% of one core);
- bytes pushed per move per seat, and the size of the first page load.

It prints a markdown table row and writes JSON to bench/results/. With --profile it samples
the server worker with py-spy during the measured window and prints the top functions; with
--probe the worker also times its own work and GC pauses (bench/server_probe.py), and with
--probe-parts the parts of each push as well. The machine's
other load during the window (others' CPU, stalls of a sleeping process) is reported too.
The generator runs on the same machine as the server: it competes with it for CPU.
With --shards N it starts N such servers (FICHAS_SHARD s1…sN, a database each, one shared
secret) behind an unprivileged nginx configured by `python -m deploy.nginx`, and the players
only use nginx's address: tables land on the shards nginx picks, and the server figures are
the shards' workers added up (nginx's own CPU is among "others").
With --bare the same players play the bare stack instead (bench/bare.py: the same gunicorn
command and web stack counting moves and pushing fixed bytes, none of Fichas's work), so that a
run of each minutes apart gives what Fichas's moves cost over the stack's in the same minutes.
Only 127.0.0.1 is ever contacted; every loop is bounded in count and time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import gc
import gzip
import html
import itertools
import json
import math
import os
import platform
import random
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import zlib
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

import aiohttp
import yarl

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
HOST = "127.0.0.1"
NAMES = ("Ana", "Bea", "Carl", "Dan")

CSRF = re.compile(r'<meta name="csrf-token" content="([^"]+)"')
# The version and phase lead every push: #table's, or the stamp of a push of changed pieces.
VERSION = re.compile(r'<(?:section id="table"[^>]*? data-version'
                     r'|input type="hidden" id="version" name="version" value)="(\d+)"')
PHASE = re.compile(r'data-phase="(\w+)"')
TURN = re.compile(r' data-turn="(\d*)"')  # the stamp (#version) of every push says whose turn it is
# A tile just drawn (Draw) that fits is marked "drawn" too.
FITS_BUTTON = re.compile(r'<button type="button" class="tile-btn fits(?: drawn)?" data-tile="\d-\d" ws-send '
                         r"hx-vals='([^']*)'")
FITS_LABEL = re.compile(r'<label class="tile-btn fits(?: drawn)?" data-tile="(\d-\d)"')
# #me comes whole or in pieces (web/push/own_part.py): the hand's tiles by id (start tags are enough to
# tell which fit and what they send), a played tile deleted, the actions whole.
HAND_TILE = re.compile(r'<(?:button type="button"|label|span) class="tile-btn[^"]*"'
                       r'[^>]*? id="h-(\d-\d)"[^>]*>')
TILE_GONE = re.compile(r'<span id="h-(\d-\d)" hx-swap-oob="delete">')
ACTIONS = re.compile(r'<div class="actions" id="actions">.*?</div>', re.S)
FORCED = re.compile(r"ws-send hx-vals='([^']*(?:draw|pass)[^']*)'")
REFUSAL = re.compile(r'<div id="flash"[^>]*>(.*?)</div>', re.S)
ASSETS = re.compile(r'<(?:link rel="stylesheet" href|script src)="(/[^"]+)"')

CLOCK = time.perf_counter
LOG_ERROR = re.compile(r"\[(?:error|crit|alert|emerg)\]", re.I)
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"  # Debian's; it runs unprivileged here
BENCH_SECRET = "fichas-bench-shared-secret"  # shards behind one nginx share it (README, FICHAS_SECRET_KEY)
RAMP_LIMIT = 600.0  # seconds to open every table
SETTLE_SECONDS = 2.0  # after the generator's last collection, before the window opens (see measure)


@dataclass
class Config:
    """One run's settings."""

    tables: int = 10
    seconds: float = 60.0
    port: int = 0
    keep_db: bool = False
    seed: int = 1
    pace: tuple[float, float] = (1.0, 3.0)  # seconds between moves at one table
    ramp_concurrency: int = 20  # tables being opened at once
    target: int = 100  # points per match: short matches, so new ones start during a run
    pause_seconds: float = 2.0
    turn_seconds: float = 45.0
    profile: bool = False  # sample the server with py-spy
    probe: bool = False  # time the server's own work (bench/server_probe.py)
    probe_parts: bool = False  # and the parts of each push (more timers: about 10 % more CPU)
    deflate: bool = True  # offer permessage-deflate, as browsers do
    write_json: bool = True
    quiet: bool = False
    settle_timeout: float = 10.0  # how long a move may take to reach every seat
    shards: int = 0  # 0: one server, as before; N: N shards behind nginx (deploy/nginx.py)
    bare: bool = False  # the bare stack (bench/bare.py) instead of Fichas

    def __post_init__(self):
        self.probe = self.probe or self.probe_parts  # the parts' timers come with the probe's


@dataclass
class Stats:
    """What the players saw."""

    latencies: list[float] = field(default_factory=list)  # send -> last of the four seats
    seat_latencies: list[float] = field(default_factory=list)  # send -> each seat
    timeline: list[tuple[float, float]] = field(default_factory=list)  # (sent, latency) per move
    moves: int = 0  # accepted moves sent in the measured window
    http_errors: int = 0
    error_samples: list[str] = field(default_factory=list)
    ramp_moves: int = 0  # moves played while tables were still being opened (not counted)
    missed: int = 0  # (move, seat) pairs whose version never arrived in time
    stuck: int = 0  # tables that stopped playing: the seats disagreed, or nobody could move
    stuck_samples: list[dict] = field(default_factory=list)
    kinds: Counter = field(default_factory=Counter)
    drops: Counter = field(default_factory=Counter)  # why sockets closed before the end

    def error(self, text: str) -> None:
        """Count an error (an HTTP answer not expected, a refused move) and keep the first few."""
        self.http_errors += 1
        if len(self.error_samples) < 20:
            self.error_samples.append(text[:300])


# -- the server ------------------------------------------------------------------


def raise_fd_limit() -> int:
    """Let this process (and the server it starts, which inherits it) open many sockets."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 65536
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def free_port() -> int:
    """A free TCP port on the loopback address."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def children(pid: int) -> list[int]:
    """The child processes of `pid`."""
    path = Path(f"/proc/{pid}/task/{pid}/children")
    with contextlib.suppress(OSError):
        return [int(p) for p in path.read_text().split()]
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
    return found


STOP_SECONDS = 15  # how long gunicorn gets to stop before it is killed
PROBE_EXIT_SECONDS = 120  # ... when probed: bench/server_probe.py's graceful_timeout (90 s), and then some


def stop_server(process: subprocess.Popen, graceful: float = STOP_SECONDS) -> None:
    """Stop gunicorn's master (gracefully, then by force) and any worker that outlives it."""
    pids = [process.pid, *children(process.pid)]
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=graceful)
        except subprocess.TimeoutExpired:
            for pid in pids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            process.wait(timeout=10)
    for pid in pids[1:]:  # a worker that outlived its master
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def proc_status(pid: int, key: str) -> int:
    """A memory figure (VmRSS, VmHWM) of a process, in bytes; 0 if it is gone."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024
    return 0


def summed(figure, pids: list[int], *args) -> float:
    """A figure (proc_status, cpu_seconds) summed over processes: the shards' workers."""
    return sum(figure(pid, *args) for pid in pids)


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process so far."""
    with contextlib.suppress(OSError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return 0.0


class Server:
    """The production command in a subprocess: gunicorn, one gevent worker, a temporary database."""

    def __init__(self, config: Config, shard: str = ""):
        self.config = config
        self.shard = shard  # FICHAS_SHARD, behind nginx (--shards)
        self.port = free_port() if shard else config.port or free_port()
        self.base = f"http://{HOST}:{self.port}"
        self.dir = Path(tempfile.mkdtemp(prefix="fichas-load-"))
        self.db = self.dir / "fichas.sqlite3"
        self.log_path = self.dir / "server.log"
        self.process: subprocess.Popen | None = None
        self.worker = 0

    def command(self) -> list[str]:
        # --no-control-socket: two runs at once (a benchmark and the test) would share ~/.gunicorn.
        probe = ["-c", str(ROOT / "bench" / "server_probe.py")] if self.config.probe else []
        app = "bench.bare:create_app()" if self.config.bare else "app:create_app()"
        return [sys.executable, "-m", "gunicorn", "-k", "gevent", "-w", "1", "--worker-connections", "5000",
                "-b", f"{HOST}:{self.port}", "--no-control-socket", *probe, app]

    def environment(self) -> dict:
        env = dict(os.environ)
        env.update(FICHAS_DB=str(self.db), FICHAS_TURN_SECONDS=str(self.config.turn_seconds),
                   FICHAS_OFFLINE_SECONDS="5", FICHAS_PAUSE_SECONDS=str(self.config.pause_seconds),
                   FICHAS_GRACE_SECONDS="15", FICHAS_PING_SECONDS="5",
                   # Thousands of players from one address: per-client limits would refuse them.
                   FICHAS_LIMITS="off",
                   FICHAS_BENCH_PROBE=str(self.dir / "probe.json"))
        if self.config.probe_parts:
            env.update(FICHAS_BENCH_PROBE_PARTS="1")
        if self.shard:  # behind nginx, as the README's "Growing past one process" runs shards
            env.update(FICHAS_SHARD=self.shard, FICHAS_SECRET_KEY=BENCH_SECRET, FICHAS_PROXY_ADDRESSES=HOST)
        return env

    def start(self) -> None:
        """Start gunicorn; the worker is found once the server answers (see wait)."""
        raise_fd_limit()  # inherited by the server
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(self.command(), cwd=ROOT, env=self.environment(),
                                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)

    async def wait(self, session: aiohttp.ClientSession, timeout: float = 30.0) -> None:
        """Until the server answers GET / and its worker process is known."""
        end = CLOCK() + timeout
        while CLOCK() < end:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}:\n{self.log_tail()}")
            with contextlib.suppress(aiohttp.ClientError, OSError):
                async with session.get(self.base + "/") as response:
                    if response.status == 200:
                        await response.read()
                        workers = children(self.process.pid)
                        if workers:
                            self.worker = workers[0]
                            return
            await asyncio.sleep(0.1)
        raise RuntimeError(f"the server did not answer within {timeout} s:\n{self.log_tail()}")

    @property
    def workers(self) -> list[int]:
        return [self.worker]

    def probe_samples(self) -> dict:
        """What bench/server_probe.py wrote when the worker exited (empty without --probe)."""
        with contextlib.suppress(OSError, ValueError):
            return json.loads((self.dir / "probe.json").read_text())
        return {}

    def log_text(self) -> str:
        with contextlib.suppress(OSError):
            return self.log_path.read_text(errors="replace")
        return ""

    def log_tail(self, lines: int = 30) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])

    def stop(self) -> None:
        """Stop gunicorn (gracefully, then by force) and wait for both processes."""
        if self.process is not None:
            # A probed worker writes every timing it took as it exits: millions with --probe-parts.
            stop_server(self.process, PROBE_EXIT_SECONDS if self.config.probe else STOP_SECONDS)

    def cleanup(self) -> str | None:
        """Remove the temporary files, or keep them; returns the database kept, if any."""
        if self.config.keep_db:
            return str(self.db)
        shutil.rmtree(self.dir, ignore_errors=True)
        return None


class Shards:
    """--shards N: N production servers (FICHAS_SHARD s1…sN, a database each, one secret) behind nginx.

    It stands in for Server: the players only ever see nginx's address.
    """

    def __init__(self, config: Config):
        self.servers = [Server(config, shard=f"s{n + 1}") for n in range(config.shards)]
        # Two connections per websocket (the player's, the shard's), four websockets a table.
        self.nginx = Nginx({s.shard: f"{HOST}:{s.port}" for s in self.servers}, port=config.port,
                           connections=max(10000, 10 * config.tables))
        self.base = self.nginx.base

    @property
    def workers(self) -> list[int]:
        return [server.worker for server in self.servers]

    def start(self) -> None:
        for server in self.servers:
            server.start()

    async def wait(self, session: aiohttp.ClientSession, timeout: float = 30.0) -> None:
        """Until every shard answers directly; then nginx starts in front of them."""
        for server in self.servers:
            await server.wait(session, timeout)
        self.nginx.start()

    def probe_samples(self) -> dict:
        merged: dict = {}
        for server in self.servers:
            for name, pairs in server.probe_samples().items():
                if name == "at_exit":  # counts: summed over the shards
                    kept = merged.setdefault(name, {})
                    for key, count in pairs.items():
                        kept[key] = kept.get(key, 0) + count
                else:
                    merged.setdefault(name, []).extend(pairs)
        return merged

    def log_text(self) -> str:
        return "".join(server.log_text() for server in self.servers) + self.nginx.log()

    def stop(self) -> None:
        self.nginx.stop()
        for server in self.servers:
            server.stop()

    def cleanup(self) -> str | None:
        kept = [server.cleanup() for server in self.servers]
        return " ".join(kept) if all(kept) else None


class Nginx:
    """An unprivileged nginx on 127.0.0.1 in front of shards, configured by `python -m deploy.nginx`.

    Its pid, logs and temporary files live in a folder of its own (the generator's --standalone).
    """

    def __init__(self, shards: dict[str, str], port: int = 0, binary: str = NGINX, connections: int = 10000):
        self.shards = shards  # name -> host:port
        self.connections = connections
        self.port = port or free_port()
        self.base = f"http://{HOST}:{self.port}"
        self.binary = binary
        self.dir = Path(tempfile.mkdtemp(prefix="fichas-nginx-"))
        self.conf = self.dir / "nginx.conf"
        self.error_log = self.dir / "error.log"
        self.process: subprocess.Popen | None = None

    def config_text(self) -> str:
        shards = [f"--shard={name}={address}" for name, address in self.shards.items()]
        command = [sys.executable, "-m", "deploy.nginx", *shards, "--listen", f"{HOST}:{self.port}",
                   "--standalone", str(self.dir), "--worker-connections", str(self.connections)]
        done = subprocess.run(command, cwd=ROOT, check=True, capture_output=True, text=True, timeout=30)
        return done.stdout

    def start(self, timeout: float = 15.0) -> Nginx:
        """Start nginx in the foreground (daemon off) and wait until it accepts connections."""
        self.conf.write_text(self.config_text())
        with open(self.dir / "nginx.out", "wb") as out:
            self.process = subprocess.Popen([self.binary, "-c", str(self.conf), "-p", str(self.dir),
                                             "-e", str(self.error_log)], stdout=out, stderr=subprocess.STDOUT,
                                            start_new_session=True)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.process.poll() is not None:
                raise RuntimeError(f"nginx exited with {self.process.returncode}:\n{self.log()}")
            with contextlib.suppress(OSError), socket.create_connection((HOST, self.port), timeout=1):
                return self
            time.sleep(0.05)
        raise RuntimeError(f"nginx did not listen within {timeout} s:\n{self.log()}")

    def log(self) -> str:
        text = ""
        for path in (self.dir / "nginx.out", self.error_log):
            with contextlib.suppress(OSError):
                text += path.read_text(errors="replace")
        return text

    def stop(self) -> None:
        """Stop nginx (its master stops its worker), then remove its folder."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
        shutil.rmtree(self.dir, ignore_errors=True)


# -- the players -----------------------------------------------------------------


class Player:
    """One browser: its own cookies and CSRF token, and a websocket that records every version."""

    def __init__(self, table: Table, seat: int, http: aiohttp.BaseConnector, sample_wire: bool):
        self.table = table
        self.seat = seat
        self.session = aiohttp.ClientSession(connector=http, connector_owner=False,
                                             cookie_jar=aiohttp.CookieJar(unsafe=True))
        self.csrf = ""
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.reader: asyncio.Task | None = None
        self.closing = False
        self.dropped = False
        self.version = -1
        self.latest = ""
        self.phase = ""  # as the last push said
        self.turn: int | None = None  # the seat marked to play, as the pushes left it
        self.hand: dict[str, str] = {}  # this seat's tiles by name: each one's start tag, as shown
        self.actions = ""  # its #actions, as shown
        self.arrived: dict[int, float] = {}  # version -> when it first arrived
        self.messages = self.bytes = self.updates = self.update_bytes = 0
        self.gaps = self.out_of_order = 0
        # A browser asks for permessage-deflate; estimate the compressed size of what arrives.
        self.deflate = zlib.compressobj(wbits=-zlib.MAX_WBITS) if sample_wire else None
        self.wire_bytes = 0

    @property
    def base(self) -> str:
        return self.table.base

    async def request(self, method: str, path: str, expect: int, data: dict | None = None) -> str | None:
        """One HTTP request as htmx sends it; its body, or None (counted) on an unexpected answer."""
        headers = {"X-CSRF-Token": self.csrf, "HX-Request": "true"} if method == "POST" else None
        try:
            async with self.session.request(method, self.base + path, data=data, headers=headers,
                                            allow_redirects=False) as response:
                body = await response.text()
                if response.status != expect:
                    self.table.stats.error(f"{method} {path} -> {response.status}: {body.strip()[:200]}")
                    return None
                if response.status == 303:
                    return response.headers.get("Location", "")
                return body
        except (TimeoutError, aiohttp.ClientError, OSError) as error:
            self.table.stats.error(f"{method} {path} -> {type(error).__name__}: {error}")
            return None

    async def send(self, values: dict) -> bool:
        """A move as the page sends it: htmx's ws-send JSON (the button's values and headers)."""
        message = dict(values, HEADERS={"HX-Request": "true", "HX-Trigger": None, "HX-Trigger-Name": None,
                                        "HX-Target": "me", "HX-Current-URL": self.base + self.table.path})
        try:
            await self.ws.send_str(json.dumps(message))
        except (aiohttp.ClientError, OSError, ConnectionError) as error:
            self.table.stats.error(f"websocket send -> {type(error).__name__}: {error}")
            return False
        return True

    async def visit_home(self) -> bool:
        """GET / for the CSRF cookie and token."""
        body = await self.request("GET", "/", 200)
        found = CSRF.search(body or "")
        if found:
            self.csrf = found.group(1)
        return bool(found)

    async def connect(self, ws_session: aiohttp.ClientSession, path: str) -> bool:
        """Open the table's websocket with this browser's cookies and the page's origin."""
        url = self.base.replace("http", "ws", 1) + path + "/ws"
        cookies = self.session.cookie_jar.filter_cookies(yarl.URL(self.base + path + "/ws"))
        header = "; ".join(f"{name}={morsel.value}" for name, morsel in cookies.items())
        try:
            compress = 15 if self.table.deflate else 0
            self.ws = await ws_session.ws_connect(url, origin=self.base, compress=compress, heartbeat=None,
                                                  headers={"Cookie": header}, max_msg_size=1 << 20)
        except (TimeoutError, aiohttp.ClientError, OSError) as error:
            self.table.stats.error(f"websocket {path} -> {type(error).__name__}: {error}")
            return False
        self.reader = asyncio.get_running_loop().create_task(self.read())
        return True

    async def read(self) -> None:
        """Record every message; a socket that ends before we close it is a drop."""
        why = "ended"
        try:
            while True:
                message = await self.ws.receive()
                if message.type is aiohttp.WSMsgType.TEXT:
                    self.receive(message.data)
                elif message.type is not aiohttp.WSMsgType.BINARY:
                    why = f"{message.type.name} {message.data} {message.extra or ''}".strip()
                    break
        except (TimeoutError, aiohttp.ClientError, OSError) as error:
            why = f"{type(error).__name__}: {error}"
        finally:
            if not self.closing:
                self.dropped = True
                self.table.stats.drops[why[:120]] += 1
                self.table.changed.set()

    def receive(self, data: str) -> None:
        now = CLOCK()
        found = VERSION.search(data, 0, 300)
        if found is None:
            refusal = REFUSAL.match(data)
            if refusal:  # the server refused a move of ours: an error of the run
                self.table.stats.error(f"move refused: {refusal.group(1).strip()[:200]}")
            return
        version = int(found.group(1))
        size = len(data.encode())
        self.messages += 1
        self.bytes += size
        if self.deflate is not None:
            packed = self.deflate.compress(data.encode()) + self.deflate.flush(zlib.Z_SYNC_FLUSH)
            self.wire_bytes += len(packed) - 4  # permessage-deflate drops the flush's 00 00 ff ff
        if version > self.version:
            if self.version >= 0 and version != self.version + 1:
                self.gaps += version - self.version - 1
            self.version = version
            self.arrived[version] = now
            self.updates += 1
            self.update_bytes += size
        elif version < self.version:
            self.out_of_order += 1
        self.latest = data
        phase = PHASE.search(data, 0, 400)
        self.phase = phase.group(1) if phase else self.phase
        turn = TURN.search(data, 0, 800)
        if turn:
            self.turn = int(turn.group(1)) if turn.group(1) else None
        if 'id="h-' in data or '<div id="hand"' in data:  # #me whole, or the pieces of it that changed
            if '<div id="hand"' in data:
                self.hand = {}
            self.hand.update((found.group(1), found.group(0)) for found in HAND_TILE.finditer(data))
            for gone in TILE_GONE.findall(data):
                self.hand.pop(gone, None)
        actions = ACTIONS.search(data)
        if actions:
            self.actions = actions.group(0)
        self.table.changed.set()

    def me(self) -> str:
        """What this seat's #me offers now: its hand's tiles (their start tags) and its actions."""
        return "".join(self.hand.values()) + self.actions

    async def close(self) -> None:
        self.closing = True
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self.reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.reader, 5)
        await self.session.close()


class Table:
    """Four players at one table, and the loop that plays it at a human pace."""

    def __init__(self, number: int, base: str, stats: Stats, rng: random.Random, http: aiohttp.BaseConnector,
                 sample_wire: bool, deflate: bool = True):
        self.number = number
        self.base = base
        self.stats = stats
        self.rng = rng
        self.changed = asyncio.Event()
        self.path = ""
        self.deflate = deflate
        self.players = [Player(self, seat, http, sample_wire and seat == 1) for seat in range(4)]
        self.ready = False
        self.moves = 0

    # -- opening the table -------------------------------------------------------

    async def open(self, ws_session: aiohttp.ClientSession, target: int) -> bool:
        """The host creates the table and two guests join by its link; each loads the page and connects."""
        host = self.players[0]
        if not await host.visit_home():
            return False
        location = await host.request("POST", "/tables", 303, {"name": NAMES[0], "variant": "partnership",
                                                               "seats": "4", "target": str(target)})
        if not location:
            return False
        self.path = location.replace(self.base, "")
        if await host.request("GET", self.path, 200) is None or not await host.connect(ws_session, self.path):
            return False
        for guest in self.players[1:3]:
            if not await self.seat(guest, ws_session):
                return False
        return True

    async def complete(self, ws_session: aiohttp.ClientSession) -> bool:
        """The fourth player joins, which starts the match."""
        self.ready = await self.seat(self.players[3], ws_session)
        return self.ready

    async def seat(self, guest: Player, ws_session: aiohttp.ClientSession) -> bool:
        """A guest opens the site, joins, loads the table's page and connects its websocket."""
        join = {"name": NAMES[guest.seat]}
        return (await guest.visit_home()
                and await guest.request("POST", self.path + "/join", 204, join) is not None
                and await guest.request("GET", self.path, 200) is not None
                and await guest.connect(ws_session, self.path))

    # -- waiting for pushes ------------------------------------------------------

    async def wait_until(self, predicate, timeout: float) -> bool:
        """Until predicate() holds (re-checked after every message to this table) or timeout."""
        end = CLOCK() + timeout
        while not predicate():
            remaining = end - CLOCK()
            if remaining <= 0 or any(p.dropped for p in self.players):
                return predicate()
            self.changed.clear()
            try:
                async with asyncio.timeout(remaining):
                    await self.changed.wait()
            except TimeoutError:
                return predicate()
        return True

    def settled(self) -> bool:
        """Every seat has seen the same, latest version."""
        first = self.players[0].version
        return first >= 0 and all(p.version == first for p in self.players)

    def arrived(self, version: int) -> bool:
        return all(version in p.arrived for p in self.players)

    # -- playing -----------------------------------------------------------------

    def next_move(self) -> tuple[Player, dict] | None:
        """Who acts now and what their page would send (its ws-send values), read from the pushes."""
        host = self.players[0]
        phase = host.phase
        version = str(host.version)
        if phase == "over":
            return host, {"action": "next_round", "version": version}
        if phase != "playing":
            return None
        if host.turn is None:
            return None
        player = self.players[host.turn]
        me = player.me()
        # A tile that fits both ends is chosen (its radio), then an end target is clicked.
        options = [{"action": "play", "end": "left", "tile": t} for t in FITS_LABEL.findall(me)]
        # A tile's button sends its own values merged with #hand's (the action).
        options += [{"action": "play", **json.loads(html.unescape(vals))} for vals in FITS_BUTTON.findall(me)]
        if not options:
            options = [json.loads(html.unescape(vals)) for vals in FORCED.findall(me)]
        if not options:
            return None
        return player, dict(self.rng.choice(options), version=version)

    async def play(self, run: Run, config: Config) -> None:
        """Move at a human pace from now (the table is open) until the run's end.

        Every accepted move must reach all four seats. Moves sent before the measured window
        (while other tables are still being opened) are played but not counted.
        """
        stats = self.stats
        await asyncio.sleep(self.rng.uniform(0, config.pace[1]))
        limit = int((RAMP_LIMIT + config.seconds) / config.pace[0]) + 10
        while not run.over() and self.moves < limit:
            if not await self.wait_until(self.settled, config.settle_timeout):
                self.stuck("the seats did not reach the same version")
                return
            version = self.players[0].version
            move = self.next_move()
            if move is None:  # a round's pause: the server starts the next round by itself
                if not await self.wait_until(lambda v=version: self.players[0].version > v,
                                             config.pause_seconds + config.settle_timeout):
                    self.stuck("nobody could move and the table did not change")
                    return
                continue
            await asyncio.sleep(self.rng.uniform(*config.pace))
            if run.over():
                return
            if any(p.version != version for p in self.players):
                continue  # the table changed meanwhile (the clock): look again
            player, data = move
            sent = CLOCK()
            if not await player.send(data):
                continue
            counted = run.counts(sent)
            self.moves += 1
            if counted:
                stats.moves += 1
                stats.kinds[data["action"]] += 1
            else:
                stats.ramp_moves += 1
            new = version + 1
            if await self.wait_until(lambda v=new: self.arrived(v), config.settle_timeout):
                times = [p.arrived[new] - sent for p in self.players]
                if counted:
                    stats.latencies.append(max(times))
                    stats.timeline.append((sent, max(times)))
                    stats.seat_latencies.extend(times)
            else:
                stats.missed += sum(new not in p.arrived for p in self.players)
            for p in self.players:
                p.arrived = {v: t for v, t in p.arrived.items() if v > new}

    def stuck(self, why: str) -> None:
        """Count a table that stopped playing, with what its seats last saw."""
        self.stats.stuck += 1
        if len(self.stats.stuck_samples) < 10:
            host = self.players[0]
            turn = host.turn
            self.stats.stuck_samples.append({
                "why": why, "versions": [p.version for p in self.players],
                "phase": host.phase, "turn": turn,
                "seat_classes": re.findall(r'<article class="([^"]*)" data-seat', host.latest),
                "me_of_turn": self.players[turn].me()[:1500] if turn is not None else None})

    async def close(self) -> None:
        await asyncio.gather(*(p.close() for p in self.players))


# -- measuring -------------------------------------------------------------------


class Sampler:
    """The server worker's memory every half second, the generator's event-loop lag, and every
    second the machine's CPU and the worker's (to tell a slow second of the server's own making
    from one the machine took from it: steal is CPU time the hypervisor gave someone else)."""

    def __init__(self, workers: list[int]):
        self.workers = workers
        self.peak_rss = 0
        self.lags: list[float] = []
        self.readings: list[tuple[float, tuple[float, float, float], float]] = []
        self.task: asyncio.Task | None = None

    async def run(self) -> None:
        while True:
            self.peak_rss = max(self.peak_rss, summed(proc_status, self.workers, "VmRSS"))
            if len(self.lags) % 2 == 0:
                self.readings.append((CLOCK(), machine_cpu(), summed(cpu_seconds, self.workers)))
            before = CLOCK()
            await asyncio.sleep(0.5)
            self.lags.append(CLOCK() - before - 0.5)

    def per_second(self, start: float) -> list[tuple[int, float, float | None]]:
        """From `start` (CLOCK), each second: the server's CPU (% of one core) and steal (% of all cores)."""
        rows = []
        for (t0, machine0, server0), (t1, machine1, server1) in itertools.pairwise(self.readings):
            if t0 >= start:
                _, steal, total = (b - a for a, b in zip(machine0, machine1, strict=True))
                rows.append((int(t0 - start), round(100 * (server1 - server0) / (t1 - t0), 1),
                             round(100 * steal / total, 1) if total else None))
        return rows

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self.run())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task


def percentile(values: list[float], q: float) -> float | None:
    """The nearest-rank percentile (q in 0..1) of values, or None for none."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def histogram(values: list[float]) -> dict[str, int]:
    """How many values fall in each latency band (ms)."""
    bands = (5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000)
    counts = Counter(next((f"<={b}" for b in bands if v * 1000 <= b), f">{bands[-1]}") for v in values)
    return {label: counts[label] for label in [f"<={b}" for b in bands] + [f">{bands[-1]}"] if counts[label]}


def per_second(timeline: list[tuple[float, float]]) -> list[tuple[int, int, float, float]]:
    """For each second of the window: moves sent, their median and worst latency (ms)."""
    if not timeline:
        return []
    first = min(t for t, _ in timeline)
    seconds: dict[int, list[float]] = {}
    for sent, latency in timeline:
        seconds.setdefault(int(sent - first), []).append(latency)
    return [(second, len(values), ms(percentile(values, 0.5)), ms(max(values)))
            for second, values in sorted(seconds.items())]


STOLEN_PERCENT = 5.0  # a second in which the hypervisor took more of the machine is not a quiet one


def unstolen(timeline: list[tuple[float, float]], machine: list[tuple[int, float, float | None]]) -> dict:
    """Latency of the moves sent in seconds when the hypervisor took under STOLEN_PERCENT of the CPU.

    A shared virtual machine loses a core now and then for tens of seconds (steal): the server and
    the generator both slow down, and that is the machine's doing, not the server's.
    """
    quiet = {second for second, _, steal in machine if steal is not None and steal < STOLEN_PERCENT}
    if not timeline or not quiet:
        return {}
    first = min(t for t, _ in timeline)
    lat = [latency for sent, latency in timeline if int(sent - first) in quiet]
    return {"seconds": len(quiet), "of_seconds": len(machine), "samples": len(lat),
            "median": ms(percentile(lat, 0.5)), "p95": ms(percentile(lat, 0.95)),
            "p99": ms(percentile(lat, 0.99)), "max": ms(max(lat, default=None))}


def ms(value: float | None) -> float | None:
    return None if value is None else round(value * 1000, 2)


async def page_load(player: Player, path: str) -> dict:
    """The first load of a table page: its HTML and the CSS and JS files it references."""
    html = await player.request("GET", path, 200) or ""
    files = {"html": html.encode()}
    for asset in ASSETS.findall(html):
        async with player.session.get(player.base + asset) as response:
            files[asset] = await response.read()
    sizes = {name: len(body) for name, body in files.items()}
    return {"files": sizes, "total": sum(sizes.values()),
            "total_gzip": sum(len(gzip.compress(body)) for body in files.values())}


def machine() -> dict:
    """The CPU, cores and memory this ran on, and the Python (the server runs on the same)."""
    model = platform.processor() or platform.machine()
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    return {"cpu": model, "cores": os.cpu_count(), "memory_gib": round(memory / 2**30, 1),
            "python": platform.python_version(), "kernel": platform.release(),
            # Which build: a distribution's optimised one and a default pyenv build differ by about
            # a tenth of the server's CPU a move (BENCHMARKS.md, session 26).
            "interpreter": os.path.realpath(sys.executable)}


def log(config: Config, text: str) -> None:
    if not config.quiet:
        print(f"[load {time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


# -- the run ---------------------------------------------------------------------


class Run:
    """The measured window: it starts once every table is open and lasts config.seconds."""

    def __init__(self):
        self.start: float | None = None
        self.deadline: float | None = None

    def begin(self, seconds: float) -> None:
        self.start = CLOCK()
        self.deadline = self.start + seconds

    def over(self) -> bool:
        return self.deadline is not None and CLOCK() >= self.deadline

    def counts(self, sent: float) -> bool:
        """Whether a move sent then is part of the measured window."""
        return self.start is not None and sent >= self.start


async def open_tables(tables: list[Table], ws_session: aiohttp.ClientSession, config: Config,
                      run: Run) -> tuple[float, list[asyncio.Task]]:
    """Open every table, a bounded number at once; each starts to play once its fourth player is in.

    Three players sit at every table first, then the fourth players join: a match (and its turn
    clock) starts with the fourth, so the tables' matches start within a short time of each
    other, and the games already running do not slow the opening of the others down.
    Returns how long opening took and the tables' play tasks.
    """
    gate = asyncio.Semaphore(config.ramp_concurrency)
    begun = CLOCK()
    done = 0
    players: list[asyncio.Task] = []
    loop = asyncio.get_running_loop()
    opened: list[Table] = []

    async def three(table: Table) -> None:
        nonlocal done
        async with gate:
            if await table.open(ws_session, config.target):
                opened.append(table)
        done += 1
        if done % 100 == 0:
            log(config, f"{done} tables with three players")

    async def fourth(table: Table) -> None:
        async with gate:
            if await table.complete(ws_session):
                players.append(loop.create_task(table.play(run, config)))

    try:
        async with asyncio.timeout(RAMP_LIMIT):
            await asyncio.gather(*(three(t) for t in tables))
            await asyncio.gather(*(fourth(t) for t in opened))
    except TimeoutError:
        log(config, f"opening the tables took over {RAMP_LIMIT} s: measuring those that are open")
    return CLOCK() - begun, players


STALL_MONITOR = """
import sys, time
end = time.monotonic() + float(sys.argv[1])
last, stalls = time.monotonic(), []
while time.monotonic() < end:
    time.sleep(0.01)
    now = time.monotonic()
    if now - last > 0.06:
        stalls.append(round(now - last - 0.01, 3))
    last = now
print(" ".join(map(str, stalls)))
"""


def machine_cpu() -> tuple[float, float, float]:
    """Busy, steal and total CPU seconds of the whole machine so far (all cores)."""
    with contextlib.suppress(OSError):
        values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        idle = values[3] + (values[4] if len(values) > 4 else 0)
        steal = values[7] if len(values) > 7 else 0
        tick = os.sysconf("SC_CLK_TCK")
        return (sum(values[:8]) - idle - steal) / tick, steal / tick, sum(values[:8]) / tick
    return 0.0, 0.0, 0.0


class Window:
    """The measured stretch of a run: CPU of the server, the generator and the whole machine.

    A separate process that only sleeps 10 ms at a time records how often the machine let it
    wait more than 50 ms longer: those stalls come from whatever else runs on the machine.
    """

    def __init__(self, workers: list[int], seconds: float):
        self.workers = workers
        self.monitor = subprocess.Popen([sys.executable, "-c", STALL_MONITOR, str(seconds)],
                                        stdout=subprocess.PIPE, text=True)
        self.start = time.monotonic()
        self.server_cpu = summed(cpu_seconds, workers)
        self.own_cpu = own_cpu()
        self.machine = machine_cpu()
        self.load = os.getloadavg()[0]
        self.end = self.start
        self.figures: dict = {}

    def close(self) -> dict:
        """The window's figures; stops the stall monitor."""
        if self.figures:
            return self.figures
        self.end = time.monotonic()
        elapsed = max(self.end - self.start, 1e-9)
        busy, steal, total = (b - a for a, b in zip(self.machine, machine_cpu(), strict=True))
        server = summed(cpu_seconds, self.workers) - self.server_cpu
        own = own_cpu() - self.own_cpu
        try:
            out, _ = self.monitor.communicate(timeout=5)
        except subprocess.TimeoutExpired:
            self.monitor.kill()
            out, _ = self.monitor.communicate()
        stalls = [float(s) for s in out.split()]
        cores = os.cpu_count() or 1
        self.figures = {
            "seconds": elapsed,
            "server_cpu_percent": round(100 * server / elapsed, 1),
            "generator_cpu_percent": round(100 * own / elapsed, 1),
            "machine_busy_percent_of_all_cores": round(100 * busy / total, 1) if total else None,
            "others_cpu_percent_of_one_core": round(100 * max(0.0, busy - server - own) / elapsed, 1),
            "steal_percent": round(100 * steal / total, 1) if total else None,
            "load_average_1min": [round(self.load, 2), round(os.getloadavg()[0], 2)],
            "cores": cores,
            "stalls_over_50ms": len(stalls),
            "stall_max_ms": round(1000 * max(stalls, default=0.0)),
        }
        return self.figures

    def kill(self) -> None:
        if self.monitor.poll() is None:
            self.monitor.kill()
        self.monitor.communicate()


async def measure(config: Config) -> dict:
    """Start the server, open the tables, play for config.seconds, close everything; the figures."""
    raise_fd_limit()
    server = Shards(config) if config.shards else Server(config)
    rng = random.Random(config.seed)
    stats = Stats()
    http = aiohttp.TCPConnector(limit=200, keepalive_timeout=1.0)  # gunicorn closes idle ones after 2 s
    ws_connector = aiohttp.TCPConnector(limit=0)
    ws_session = aiohttp.ClientSession(connector=ws_connector, cookie_jar=aiohttp.DummyCookieJar())
    probe = aiohttp.ClientSession(connector=http, connector_owner=False)
    tables: list[Table] = []
    sampler: Sampler | None = None
    profiler: subprocess.Popen | None = None
    window: Window | None = None
    result: dict = {}
    try:
        server.start()
        await server.wait(probe)
        log(config, f"server up on {server.base}, worker pids {server.workers}")
        idle_rss = summed(proc_status, server.workers, "VmRSS")
        sampler = Sampler(server.workers)
        sampler.start()
        tables = [Table(n, server.base, stats, random.Random(rng.random()), http, n < 25 and config.deflate,
                        config.deflate) for n in range(config.tables)]
        run = Run()
        ramp, playing = await open_tables(tables, ws_session, config, run)
        ready = [t for t in tables if t.ready]
        log(config, f"{len(ready)}/{len(tables)} tables open in {ramp:.1f} s")
        first_load = await page_load(tables[0].players[0], tables[0].path) if ready else {}
        ramp_errors = stats.http_errors
        for p in (p for t in tables for p in t.players):
            p.bytes = p.messages = p.updates = p.update_bytes = p.wire_bytes = 0
        # The generator's own garbage collections would pause its event loop and show up as
        # server latency: none while measuring (what the players keep is small). The last one
        # pauses the players too, and the moves that fell due meanwhile then go all at once: the
        # window opens once the server has played that burst (it made the maximum of the runs'
        # first second, 158-198 ms at 1,000 tables, against at most ~100 afterwards).
        gc.collect()
        gc.disable()
        await asyncio.sleep(SETTLE_SECONDS)
        if config.profile:
            profiler = start_profiler(server.workers[0], config)  # with shards: the first one
        sampler.lags.clear()
        window = Window(server.workers, config.seconds)
        run.begin(config.seconds)
        try:
            await asyncio.gather(*playing)
        finally:
            gc.enable()
        figures = window.close()
        log(config, f"played {stats.moves} moves in {figures['seconds']:.1f} s")
        profile = stop_profiler(profiler, config) if profiler else None
        profiler = None
        await asyncio.sleep(0.5)  # late pushes (a round that started by itself) reach every seat
        rss = summed(proc_status, server.workers, "VmRSS")
        memory = {"idle": idle_rss, "peak": max(sampler.peak_rss, rss),
                  "hwm": summed(proc_status, server.workers, "VmHWM")}
        result = report(config, stats, tables, ramp, ramp_errors, figures, memory, sampler, first_load,
                        profile)
    finally:
        if profiler is not None:
            profiler.kill()
            profiler.wait()
        if window is not None:
            window.kill()
        if sampler is not None:
            await sampler.stop()
        await close_all(tables)
        drops = sum(p.dropped for t in tables for p in t.players)
        await ws_session.close()
        await probe.close()
        await http.close()
        server.stop()
        log_text = server.log_text()
        probed = server.probe_samples()
        kept = server.cleanup()
    if result:
        result["errors"]["dropped_sockets"] = drops
        result["errors"]["server_log_errors"] = sum(  # gunicorn's [ERROR], nginx's [error] and worse
            1 for line in log_text.splitlines() if "Traceback" in line or LOG_ERROR.search(line))
        result["errors"]["server_log_sample"] = [
            line for line in log_text.splitlines() if "Error" in line or "[ERROR]" in line][:10]
        result["server_probe"] = summarise_probe(probed, window.start, window.end) if probed else None
        result["database_kept"] = kept
    return result


def summarise_probe(samples: dict, start: float, end: float) -> dict:
    """The server's own timings (bench/server_probe.py) inside the measured window."""
    elapsed = end - start
    summary = {}
    samples = dict(samples)
    if "at_exit" in samples:  # counts, after the window (bench/server_probe.py)
        summary["at_exit"] = samples.pop("at_exit")
    for name, pairs in sorted(samples.items()):
        durations = [d for t, d in pairs if start <= t <= end]
        if durations:
            summary[name] = {"count": len(durations), "median_ms": ms(percentile(durations, 0.5)),
                             "p99_ms": ms(percentile(durations, 0.99)), "max_ms": ms(max(durations)),
                             "percent_of_window": round(100 * sum(durations) / elapsed, 1)}
    # Second by second (as in per_second): how long each kind of work took in all, in ms.
    summary["per_second_ms"] = {
        name: [round(1000 * sum(d for t, d in pairs if start + s <= t < start + s + 1), 1)
               for s in range(int(elapsed))]
        for name, pairs in sorted(samples.items())}
    return summary


async def close_all(tables: list[Table]) -> None:
    """Close every websocket and session, a few hundred at a time."""
    gate = asyncio.Semaphore(200)

    async def one(table: Table) -> None:
        async with gate:
            await table.close()

    await asyncio.gather(*(one(t) for t in tables))


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def report(config: Config, stats: Stats, tables: list[Table], ramp: float, ramp_errors: int, window: dict,
           memory: dict, sampler: Sampler, first_load: dict, profile: dict | None) -> dict:
    """The run's figures as a dict (the JSON file)."""
    players = [p for t in tables for p in t.players]
    machine_seconds = sampler.per_second(min(t for t, _ in stats.timeline)) if stats.timeline else []
    updates = sum(p.updates for p in players)
    sampled = [p for p in players if p.deflate is not None and p.updates]
    lat = stats.latencies
    elapsed = window["seconds"]
    peak = max(memory["peak"], memory["hwm"])
    return {
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine(),
        "config": {k: v for k, v in asdict(config).items() if k not in ("write_json", "quiet")},
        "command": server_command_text(config),
        "commit": git_commit(),
        "tables": config.tables, "players": 4 * config.tables,
        "tables_open": sum(t.ready for t in tables), "ramp_seconds": round(ramp, 1),
        # With --shards: where nginx put the tables (a table's id starts with its shard's name).
        "tables_per_shard": dict(Counter(t.path.split("/")[2].partition(".")[0] for t in tables if t.ready))
        if config.shards else None,
        "seconds": round(elapsed, 1), "moves": stats.moves,
        "moves_per_second": round(stats.moves / elapsed, 1),
        "move_kinds": dict(stats.kinds), "moves_during_ramp": stats.ramp_moves,
        "latency_ms": {"samples": len(lat), "median": ms(percentile(lat, 0.5)),
                       "p95": ms(percentile(lat, 0.95)), "p99": ms(percentile(lat, 0.99)),
                       "max": ms(max(lat, default=None))},
        "seat_latency_ms": {"median": ms(percentile(stats.seat_latencies, 0.5)),
                            "p99": ms(percentile(stats.seat_latencies, 0.99))},
        "latency_histogram_ms": histogram(lat),
        "per_second": per_second(stats.timeline),
        # (second, server CPU % of a core, steal % of all cores), seconds counted as in per_second
        "machine_per_second": machine_seconds,
        "latency_ms_unstolen": unstolen(stats.timeline, machine_seconds),
        "errors": {"http": stats.http_errors, "http_during_ramp": ramp_errors, "samples": stats.error_samples,
                   "missed_seat_updates": stats.missed, "version_gaps": sum(p.gaps for p in players),
                   "out_of_order": sum(p.out_of_order for p in players), "stuck_tables": stats.stuck,
                   "stuck_samples": stats.stuck_samples,
                   "dropped_sockets": sum(p.dropped for p in players), "drop_reasons": dict(stats.drops)},
        "server": {"worker_peak_rss_mb": round(peak / 2**20, 1),
                   "worker_idle_rss_mb": round(memory["idle"] / 2**20, 1),
                   "rss_per_table_kb": round((peak - memory["idle"]) / config.tables / 1024, 1),
                   "worker_vmhwm_mb": round(memory["hwm"] / 2**20, 1),
                   "cpu_percent_of_one_core": window["server_cpu_percent"],
                   # all of it (HTTP, rendering, sockets, pings, the store) divided by the moves served
                   "cpu_ms_per_move": round(10 * window["server_cpu_percent"] * elapsed / stats.moves, 2)
                   if stats.moves else None},
        "generator": {"cpu_percent_of_one_core": window["generator_cpu_percent"],
                      "loop_lag_ms_p99": ms(percentile(sampler.lags, 0.99)),
                      "loop_lag_ms_max": ms(max(sampler.lags, default=None))},
        "machine_load": {k: v for k, v in window.items() if k not in ("seconds", "server_cpu_percent",
                                                                        "generator_cpu_percent")},
        "push": {"updates_received": updates,
                 "bytes_per_move_per_seat":
                     round(sum(p.update_bytes for p in players) / updates) if updates else 0,
                 "messages_received": sum(p.messages for p in players),
                 "deflate_bytes_per_message_estimate":
                     round(sum(p.wire_bytes for p in sampled) / sum(p.messages for p in sampled))
                     if sampled else None},
        "first_page_load": first_load,
        "profile": profile,
    }


def git_commit() -> str:
    """The repository's commit, with "+changes" when the work tree differs from it."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return head + ("+changes" if dirty else "")


def server_command_text(config: Config) -> str:
    probe = " -c bench/server_probe.py" if config.probe else ""
    parts = "FICHAS_BENCH_PROBE_PARTS=1 " if config.probe_parts else ""
    if config.shards:
        return (f"{config.shards} x {parts}FICHAS_SHARD=sN gunicorn -k gevent -w 1 --worker-connections 5000"
                f" -b 127.0.0.1:PORT --no-control-socket{probe} 'app:create_app()', behind nginx"
                " (python -m deploy.nginx --standalone)")
    app = "bench.bare:create_app()" if config.bare else "app:create_app()"
    return (f"{parts}gunicorn -k gevent -w 1 --worker-connections 5000 -b 127.0.0.1:PORT --no-control-socket"
            f"{probe} '{app}'")


# -- profiling ---------------------------------------------------------------------


def start_profiler(pid: int, config: Config) -> subprocess.Popen:
    """py-spy sampling the worker for the measured window (raw collapsed stacks)."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    out = RESULTS / f"profile-{config.tables}.txt"
    return subprocess.Popen(["py-spy", "record", "-p", str(pid), "-r", "100", "--nonblocking", "-f", "raw",
                             "-d", str(int(config.seconds) + 5), "-o", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def stop_profiler(profiler: subprocess.Popen, config: Config) -> dict | None:
    """Stop py-spy (it writes its file on SIGINT) and summarise the samples."""
    profiler.send_signal(signal.SIGINT)
    try:
        profiler.wait(timeout=30)
    except subprocess.TimeoutExpired:
        profiler.kill()
        profiler.wait()
    out = RESULTS / f"profile-{config.tables}.txt"
    if not out.exists():
        return None
    return summarise_profile(out.read_text())


def summarise_profile(raw: str, top: int = 30) -> dict:
    """Self and inclusive shares per function from collapsed stacks ("a;b;c count" lines)."""
    own: Counter = Counter()
    inclusive: Counter = Counter()
    total = 0
    for line in raw.splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        frames = [re.sub(r":\d+\)$", ")", f) for f in stack.split(";")]
        total += n
        own[frames[-1]] += n
        for frame in set(frames):
            inclusive[frame] += n

    def share(counts: Counter) -> list[tuple[str, float]]:
        return [(name, round(100 * n / total, 1)) for name, n in counts.most_common(top)] if total else []

    return {"samples": total, "self": share(own), "inclusive": share(inclusive)}


# -- the command line ------------------------------------------------------------


def markdown_row(result: dict) -> str:
    lat, server, errors = result["latency_ms"], result["server"], result["errors"]
    load = result["machine_load"]
    return (f"| {result['tables']:,} | {result['players']:,} | {result['seconds']:.0f} | "
            f"{result['moves']:,} | {result['moves_per_second']} | {lat['median']} | {lat['p95']} | "
            f"{lat['p99']} | {lat['max']} | "
            f"{errors['http']} | {errors['dropped_sockets']} | {errors['missed_seat_updates']} | "
            f"{server['worker_peak_rss_mb']} | {server['rss_per_table_kb']} | "
            f"{server['cpu_percent_of_one_core']} | {result['generator']['cpu_percent_of_one_core']} | "
            f"{result['push']['bytes_per_move_per_seat']:,} | {load['others_cpu_percent_of_one_core']} | "
            f"{load['stalls_over_50ms']} ({load['stall_max_ms']}) |")


HEADER = ("| tables | players | s | moves | moves/s | median ms | p95 ms | p99 ms | max ms "
          "| HTTP errors | dropped | missed | peak RSS MB | RSS/table KB | server CPU % | generator CPU % "
          "| bytes/move/seat | others' CPU % | stalls > 50 ms (max ms) |\n"
          + "| ---: " * 19 + "|")


def wait_for_quiet(limit: float, busy_below: float = 0.3) -> float:
    """Wait (at most `limit` s) until the machine's CPUs are mostly idle for 5 s; how long it took."""
    started = time.monotonic()
    while time.monotonic() - started < limit:
        before = machine_cpu()
        time.sleep(5)
        busy, _, total = (b - a for a, b in zip(before, machine_cpu(), strict=True))
        if total and busy / total < busy_below:
            break
    return time.monotonic() - started


def write_json(result: dict) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = RESULTS / f"load-{result['tables']}-{stamp}.json"
    path.write_text(json.dumps(result, indent=2) + "\n")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10, help="tables of four players (1-1250)")
    parser.add_argument("--seconds", type=float, default=60, help="how long to play (at most 1800)")
    parser.add_argument("--port", type=int, default=0,
                        help="the server's (with --shards, nginx's) port on 127.0.0.1 (0: a free one)")
    parser.add_argument("--shards", type=int, default=0, metavar="N",
                        help="N shards (FICHAS_SHARD) behind an unprivileged nginx, which the players"
                             " use; figures are the shards' workers together (0: one server, no nginx)")
    parser.add_argument("--keep-db", action="store_true", help="keep the temporary database")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ramp-concurrency", type=int, default=20, help="tables opened at once")
    parser.add_argument("--profile", action="store_true", help="sample the server with py-spy")
    parser.add_argument("--no-deflate", action="store_true",
                        help="do not offer permessage-deflate (browsers do; this shows what it costs)")
    parser.add_argument("--quiet-wait", type=float, default=0, metavar="S",
                        help="first wait up to S seconds for the machine to be mostly idle")
    parser.add_argument("--probe", action="store_true",
                        help="time the server's own work per move and its GC pauses (bench/server_probe.py)")
    parser.add_argument("--probe-parts", action="store_true",
                        help="as --probe, and each part of a push (its timers take about 10%% of the CPU)")
    parser.add_argument("--bare", action="store_true",
                        help="play the bare stack (bench/bare.py) instead of Fichas: a yardstick")
    args = parser.parse_args(argv)
    if args.bare and (args.shards or args.probe or args.probe_parts):
        parser.error("--bare runs one server without the probe (it times Fichas's own work)")
    if not 0 <= args.shards <= 16:
        parser.error("--shards must be 0 to 16")
    most = 1250 * max(1, args.shards)  # 5,000 websockets is a worker's connection limit
    if not 1 <= args.tables <= most:
        parser.error(f"--tables must be 1 to {most}")
    if not 1 <= args.seconds <= 1800:
        parser.error("--seconds must be 1 to 1800")
    config = Config(tables=args.tables, seconds=args.seconds, port=args.port, keep_db=args.keep_db,
                    seed=args.seed, ramp_concurrency=args.ramp_concurrency, profile=args.profile,
                    probe=args.probe, probe_parts=args.probe_parts,
                    deflate=not args.no_deflate, shards=args.shards, bare=args.bare)
    if args.quiet_wait > 0:
        waited = wait_for_quiet(min(args.quiet_wait, 3600))
        print(f"[load] waited {waited:.0f} s for a quiet machine", file=sys.stderr)
    result = asyncio.run(measure(config))
    print(HEADER)
    print(markdown_row(result))
    lat = result["latency_ms"]
    print(f"\nlatency per seat: median {result['seat_latency_ms']['median']} ms; all four seats: "
          f"median {lat['median']} / p95 {lat['p95']} / p99 {lat['p99']} / max {lat['max']} ms")
    if result["latency_ms_unstolen"]:
        quiet = result["latency_ms_unstolen"]
        print(f"in the {quiet['seconds']} of {quiet['of_seconds']} seconds with steal under "
              f"{STOLEN_PERCENT:g} %: median {quiet['median']} / p95 {quiet['p95']} / p99 {quiet['p99']}"
              f" / max {quiet['max']} ms")
    print(f"histogram {result['latency_histogram_ms']}")
    print(f"first page load: {result['first_page_load']}")
    print(f"push: {result['push']}")
    errors = dict(result["errors"], samples=[s[:160] for s in result["errors"]["samples"][:3]],
                  stuck_samples=len(result["errors"]["stuck_samples"]))
    print(f"errors: {json.dumps(errors)}")
    print(f"generator: {result['generator']}; ramp {result['ramp_seconds']} s")
    if result["tables_per_shard"]:
        print(f"tables per shard: {result['tables_per_shard']}")
    print(f"machine: {result['machine_load']}")
    if result["machine_per_second"]:
        stolen = sorted(result["machine_per_second"], key=lambda row: -(row[2] or 0))[:5]
        print("most stolen seconds (second, server CPU %, steal %): " + ", ".join(map(str, stolen)))
    if result.get("server_probe"):
        print("server's own timings in the window:")
        for name, figures in result["server_probe"].items():
            if name != "per_second_ms":  # in the JSON
                print(f"  {name:16} {figures}")
    if result["profile"]:
        print(f"\nprofile ({result['profile']['samples']} samples), self time:")
        for name, share in result["profile"]["self"][:20]:
            print(f"  {share:5.1f}%  {name}")
        print("inclusive:")
        for name, share in result["profile"]["inclusive"][:30]:
            print(f"  {share:5.1f}%  {name}")
    if result.get("database_kept"):
        print(f"database kept: {result['database_kept']}")
    if config.write_json:
        print(f"results: {write_json(result).relative_to(ROOT)}")
    errors = result["errors"]
    clean = not (errors["http"] or errors["dropped_sockets"] or errors["missed_seat_updates"]
                 or errors["version_gaps"] or errors["out_of_order"] or errors["stuck_tables"])
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main())
