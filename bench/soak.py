"""A soak run: honest tables play for an hour while abusive clients flood, hoard sockets and vanish.

    python bench/soak.py [--tables 100] [--minutes 60]

It starts the README's production command (gunicorn, one gevent worker) with the per-client
limits on at their defaults, opens `--tables` Partnership tables of four honest players
(bench/load.py's players; each table from an address of its own, 127.0.1.x) and, after a
minute of honest play (the baseline), lets three kinds of abusive client loose, from another
address (127.0.0.2) and in a process of their own, until two minutes before the end:

- flooders: a spectator socket that sends moves as fast as it can (the server closes it, 1008),
  then reconnects in a loop for a few seconds (the server answers 429 past its limit);
- hoarders: 1,500 spectator sockets at once (past FICHAS_CONNECTS_PER_SECOND they get 429,
  past FICHAS_SOCKETS_PER_CLIENT 1008),
  held ten seconds, then half closed cleanly and half dropped without a word;
- vanishers: a socket every half second that reads its first push and then resets the
  connection (SO_LINGER 0), as a phone losing its network does.

The worker's RSS and open file descriptors are sampled every five minutes; its greenlets and
tracked objects are counted (bench/soak_probe.py) at the baseline, after the first five minutes
of abuse ("warm") and at the end, once the abuse has been over for 90 s. The end should be
back at the baseline within 10 %, but for the memory the allocator keeps from the first burst
of connections: RSS is compared with the warm floor too, which shows any growth over the hour.
The honest players' latencies, and any move that never reached a seat, are reported too.
Results go to bench/results/soak-*.json.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import multiprocessing
import os
import random
import socket
import struct
import sys
import time
from collections import Counter
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load

ABUSER = "127.0.0.2"  # the abusive clients' own address: the limits count per address
CLOSED = (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSING, aiohttp.WSMsgType.CLOSED,
          aiohttp.WSMsgType.ERROR)
HOARD = 1500  # sockets a hoarder tries to open at once (FICHAS_SOCKETS_PER_CLIENT is 300)


class Household(load.Table):
    """A table whose four players share an address of their own (127.0.1.x), as a household does."""

    def __init__(self, number: int, base: str, stats: load.Stats, rng: random.Random):
        address = (f"127.0.{1 + number // 250}.{1 + number % 250}", 0)
        self.http = aiohttp.TCPConnector(limit=8, keepalive_timeout=1.0, local_addr=address)
        self.ws_session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0, local_addr=address),
                                                cookie_jar=aiohttp.DummyCookieJar())
        super().__init__(number, base, stats, rng, self.http, False, True)

    async def open(self, ws_session: aiohttp.ClientSession, target: int) -> bool:
        return await super().open(self.ws_session, target)

    async def complete(self, ws_session: aiohttp.ClientSession) -> bool:
        return await super().complete(self.ws_session)

    async def close(self) -> None:
        await super().close()
        await self.ws_session.close()
        await self.http.close()


class SoakServer(load.Server):
    """The production command with the limits on (at their defaults) and the greenlet counter loaded."""

    def command(self) -> list[str]:
        command = super().command()
        return [*command[:-1], "-c", str(load.ROOT / "bench" / "soak_probe.py"), command[-1]]

    def environment(self) -> dict:
        env = super().environment()
        env.update(FICHAS_LIMITS="on", FICHAS_SOAK_PROBE=str(self.dir / "soak.jsonl"))
        return env

    async def greenlets(self) -> dict:
        """Ask the worker to count its greenlets; its answer (a dict), once written."""
        path = self.dir / "soak.jsonl"
        before = path.read_text().count("\n") if path.exists() else 0
        (self.dir / "soak.jsonl.ask").touch()
        for _ in range(120):
            await asyncio.sleep(0.5)
            if path.exists() and path.read_text().count("\n") > before:
                return json.loads(path.read_text().splitlines()[-1])
        return {}


def resources(pid: int) -> dict:
    """The worker's resident memory (MB) and open file descriptors, now."""
    return {"rss_mb": round(load.proc_status(pid, "VmRSS") / 2**20, 1),
            "fds": len(os.listdir(f"/proc/{pid}/fd"))}


def ratios(end: dict, start: dict) -> dict:
    """end / start for each resource measured in both."""
    return {key: round(end[key] / start[key], 3) for key in ("rss_mb", "fds", "greenlets", "tracked")
            if start.get(key) and key in end}


class Abuse:
    """The abusive clients and what the server answered them."""

    def __init__(self, base: str, paths: list[str], rng: random.Random):
        self.base, self.paths, self.rng = base, paths, rng
        self.counts: Counter = Counter()
        connector = aiohttp.TCPConnector(limit=0, local_addr=(ABUSER, 0))
        self.session = aiohttp.ClientSession(connector=connector, cookie_jar=aiohttp.DummyCookieJar())

    def url(self) -> str:
        return self.base.replace("http", "ws", 1) + self.rng.choice(self.paths) + "/ws"

    async def until(self, end: float, every: float, job) -> None:
        """Run `job` every `every` seconds (and once at once) until `end`."""
        while load.CLOCK() < end:
            started = load.CLOCK()
            try:
                await job()
            except Exception as error:  # an abuser's own failure is counted, never fatal
                self.counts[f"{job.__name__} failed: {type(error).__name__}"] += 1
            await asyncio.sleep(max(0.0, every - (load.CLOCK() - started)))

    async def flood(self) -> None:
        """One socket sends moves as fast as it can; then reconnects in a loop."""
        try:
            ws = await self.session.ws_connect(self.url(), origin=self.base, heartbeat=None)
        except aiohttp.WSServerHandshakeError as refused:
            self.counts[f"flood refused {refused.status}"] += 1
            return
        move = json.dumps({"action": "pass", "version": "1"})

        async def close_code() -> int | None:  # the server's close, read while flooding
            while (await ws.receive()).type not in CLOSED:
                pass
            return ws.close_code

        answer = asyncio.ensure_future(close_code())
        end = load.CLOCK() + 5
        with contextlib.suppress(ConnectionError, RuntimeError):
            while not answer.done() and load.CLOCK() < end:
                await ws.send_str(move)
                await asyncio.sleep(0)
        await asyncio.wait({answer}, timeout=2)  # (wait_for would cancel it)
        closed = answer.result() if answer.done() and not answer.cancelled() else "no"
        self.counts[f"flood closed {closed}"] += 1
        answer.cancel()
        await ws.close()
        end = load.CLOCK() + 3
        while load.CLOCK() < end:
            try:
                again = await self.session.ws_connect(self.url(), origin=self.base, heartbeat=None)
                self.counts["reconnect 101"] += 1
                await again.close()
            except aiohttp.WSServerHandshakeError as refused:
                self.counts[f"reconnect {refused.status}"] += 1

    async def hoard(self) -> None:
        """Open HOARD sockets at once, hold them, close half and drop the other half."""
        async def one() -> aiohttp.ClientWebSocketResponse | None:
            try:
                ws = await self.session.ws_connect(self.url(), origin=self.base, heartbeat=None)
            except aiohttp.WSServerHandshakeError as refused:
                self.counts[f"hoard refused {refused.status}"] += 1
                return None
            first = await ws.receive()
            if first.type == aiohttp.WSMsgType.CLOSE:
                self.counts[f"hoard closed {ws.close_code}"] += 1
                return None
            self.counts["hoard held"] += 1
            return ws

        sockets = [ws for ws in await asyncio.gather(*(one() for _ in range(HOARD)), return_exceptions=True)
                   if isinstance(ws, aiohttp.ClientWebSocketResponse)]
        await asyncio.sleep(10)
        for n, ws in enumerate(sockets):
            connection = ws._response.connection if ws._response is not None else None
            if n % 2 and connection is not None and connection.transport is not None:
                connection.transport.abort()  # gone without a close frame
            else:  # (or the server closed it already)
                await ws.close()

    async def vanish(self) -> None:
        """A socket that reads its first push and resets the connection."""
        path = self.rng.choice(self.paths) + "/ws"
        host, port = self.base.split("//")[1].split(":")
        reader, writer = await asyncio.open_connection(host, int(port), local_addr=(ABUSER, 0))
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                      f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                      f"Origin: {self.base}\r\n\r\n").encode())
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(reader.read(8192), 5)
        raw = writer.get_extra_info("socket")
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        writer.transport.abort()
        self.counts["vanished"] += 1

    async def run(self, end: float) -> None:
        await asyncio.gather(self.until(end, 20, self.flood), self.until(end, 60, self.hoard),
                             self.until(end, 0.5, self.vanish))

    async def close(self) -> None:
        await self.session.close()


def abuse_elsewhere(base: str, paths: list[str], seed: int, seconds: float, results) -> None:
    """The abusive clients in a process of their own: like real ones, they cannot slow the honest
    players' event loop down (a late pong would get an honest socket cut off by the server)."""
    abuse = None

    async def main() -> None:
        nonlocal abuse
        abuse = Abuse(base, paths, random.Random(seed))
        try:
            await abuse.run(load.CLOCK() + seconds)
        finally:
            await abuse.close()

    try:
        asyncio.run(main())
    finally:  # whatever happened, the soak gets the counts so far
        results.put(dict(abuse.counts) if abuse else {"abuse failed to start": 1})


async def soak(tables_wanted: int, minutes: float, seed: int) -> dict:
    """Play, abuse, and measure; the figures."""
    load.raise_fd_limit()
    config = load.Config(tables=tables_wanted, seconds=minutes * 60, write_json=False, seed=seed)
    server = SoakServer(config)
    rng = random.Random(seed)
    stats = load.Stats()
    http = aiohttp.TCPConnector(limit=200, keepalive_timeout=1.0)
    ws_session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0),
                                       cookie_jar=aiohttp.DummyCookieJar())
    probe = aiohttp.ClientSession(connector=http, connector_owner=False)
    tables: list[load.Table] = []
    abuse = None  # the abusive clients' process
    samples: list[dict] = []
    result: dict = {}
    try:
        server.start()
        await server.wait(probe)
        worker = server.worker
        started = load.CLOCK()

        def sample(label: str) -> dict:
            entry = {"label": label, "minute": round((load.CLOCK() - started) / 60, 1), **resources(worker)}
            samples.append(entry)
            print(json.dumps(entry), flush=True)
            return entry

        idle = {**sample("idle"), **await server.greenlets()}
        tables = [Household(n, server.base, stats, random.Random(rng.random())) for n in range(tables_wanted)]
        run = load.Run()
        ramp, playing = await load.open_tables(tables, ws_session, config, run)
        run.begin(config.seconds)
        await asyncio.sleep(60)
        baseline = {**sample("baseline: tables playing, before the abuse"), **await server.greenlets()}
        abuse_end = started + ramp + config.seconds - 120
        spawn = multiprocessing.get_context("spawn")  # a fresh interpreter: no copy of this event loop
        results = spawn.Queue()
        abuse = spawn.Process(target=abuse_elsewhere, args=(
            server.base, [t.path for t in tables if t.ready], seed, abuse_end - load.CLOCK(), results))
        abuse.start()
        lags = load.Sampler(worker)  # this process's event-loop lag: the honest players' own health
        lags.start()
        warm = {}
        while load.CLOCK() < abuse_end:
            await asyncio.sleep(min(300, max(1, abuse_end - load.CLOCK())))
            sample("abuse")
            if not warm:  # after the first waves: what the allocator keeps from them is the new floor
                warm = {**samples[-1], **await server.greenlets()}
        counts = await asyncio.get_running_loop().run_in_executor(None, results.get)
        abuse.join()
        abuse = None
        await lags.stop()
        await asyncio.sleep(90)  # the abusers' sockets are gone; lingering and pings are over
        end = {**sample("end: 90 s after the abuse, tables still playing"), **await server.greenlets()}
        await asyncio.gather(*playing)
        latencies = stats.latencies
        result = {
            "command": "python bench/soak.py " + " ".join(sys.argv[1:]), "machine": load.machine(),
            "commit": load.git_commit(), "tables": tables_wanted, "minutes": minutes,
            "ramp_seconds": round(ramp, 1),
            "idle": idle, "baseline": baseline, "warm": warm, "end": end,
            "end_vs_baseline": ratios(end, baseline), "end_vs_warm": ratios(end, warm),
            "abuse": counts, "samples": samples,
            "honest_loop_lag_ms_max": round(max(lags.lags, default=0) * 1000, 1),
            "honest": {"moves": stats.moves, "missed": stats.missed, "stuck": stats.stuck,
                       "drops": dict(stats.drops), "http_errors": stats.http_errors,
                       "errors": stats.error_samples[:5],
                       "latency_ms": {q: load.ms(load.percentile(latencies, p))
                                      for q, p in (("p50", 0.5), ("p99", 0.99), ("max", 1.0))}},
        }
    finally:
        if abuse is not None:
            abuse.kill()
        await load.close_all(tables)
        await ws_session.close()
        await probe.close()
        await http.close()
        server.stop()
        if result:
            result["server_log_errors"] = sum(1 for line in server.log_text().splitlines()
                                              if "Traceback" in line or "WORKER TIMEOUT" in line)
        server.cleanup()
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--minutes", type=float, default=60)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    result = asyncio.run(soak(args.tables, args.minutes, args.seed))
    load.RESULTS.mkdir(exist_ok=True)
    out = load.RESULTS / f"soak-{args.tables}-{time.strftime('%Y%m%d-%H%M%S')}.json"
    out.write_text(json.dumps(result, indent=1))
    print(json.dumps({k: result.get(k) for k in ("baseline", "warm", "end", "end_vs_baseline", "end_vs_warm",
                                                 "abuse", "honest", "server_log_errors")},
                     indent=1))
    print(f"results: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
