"""How much of the code one websocket move passes through: modules, functions, and hops between the layers.

    python bench/trace_move.py [--root PATH] [--moves N] [--against PATH]

A real app (app.create_app, a temporary database) served by werkzeug on loopback; four players open a
table over HTTP and connect their pages' websockets; the round's first moves are played untraced, then
one move is traced with sys.setprofile, from the websocket action's entry (`websocket_action`, in
web/ws/endpoint.py or, before web/ went into rooms, web/socket.py) until it returns: the table's lock,
the engine, the store, the push rendered for the four pages and queued on their sockets.

It counts the project's distinct modules (a file of game/, live/, web/, or app.py; every template
counts as one, "templates"), its distinct functions, and the switches between the groups game, live,
web and templates along the sequence of calls (calls into anything else are skipped; app.py counts as
web; code made at run time, a dataclass's __init__, as its class's module). `--root` counts
another checkout with this same script (a `git worktree` of an older commit); `--against PATH` counts
that one first, in its own process, then this one. The deal is seeded, so both trace the same move:

    git worktree add /tmp/before ba3bf07 && python bench/trace_move.py --against /tmp/before
"""

from __future__ import annotations

import argparse
import itertools
import json
import logging
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

VERSION = re.compile(r'(?:data-version|id="version" name="version" value)="(\d+)"')
CSRF = re.compile(r'<meta name="csrf-token" content="([^"]+)"')
GROUPS = ("game", "live", "web")


class Page:
    """One player's browser: an HTTP session and the table's websocket, keeping the latest version shown."""

    def __init__(self, base: str):
        import requests

        self.base, self.http = base, requests.Session()
        self.csrf = CSRF.search(self.http.get(base + "/").text).group(1)
        self.version, self.shown = 0, threading.Condition()

    def post(self, path: str, data: dict):
        return self.http.post(self.base + path, data=data, allow_redirects=False,
                              headers={"X-CSRF-Token": self.csrf, "HX-Request": "true"})

    def connect(self, url: str) -> None:
        import simple_websocket

        self.url = url
        cookies = "; ".join(f"{c.name}={c.value}" for c in self.http.cookies)
        self.socket = simple_websocket.Client(self.base.replace("http", "ws", 1) + url + "/ws",
                                              headers={"Origin": self.base, "Cookie": cookies})
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        import simple_websocket

        try:
            while True:
                found = VERSION.search(self.socket.receive())
                if found:
                    with self.shown:
                        self.version = max(self.version, int(found.group(1)))
                        self.shown.notify_all()
        except simple_websocket.ConnectionClosed:
            pass

    def wait_version(self, version: int) -> None:
        with self.shown:
            assert self.shown.wait_for(lambda: self.version >= version, 10), f"no push of version {version}"

    def send(self, values: dict) -> None:
        """A move as the page sends it: htmx's ws-send JSON, the button's values and its headers."""
        headers = {"HX-Request": "true", "HX-Trigger": None, "HX-Trigger-Name": None, "HX-Target": "me",
                   "HX-Current-URL": self.base + self.url}
        self.socket.send(json.dumps({**values, "HEADERS": headers}))


class Tracer:
    """The project's function calls in one thread, in order: (group, module, function)."""

    def __init__(self, root: Path):
        self.root, self.calls, self.where = root, [], {}
        self.armed = False  # the next action is traced

    def place(self, frame) -> tuple[str, str] | None:
        """Where a call's code is, (group, module), if it is the project's; None for anything else."""
        filename = frame.f_code.co_filename
        if filename.startswith("<"):  # made at run time (a dataclass's __init__): its module's file
            filename = getattr(sys.modules.get(frame.f_globals.get("__name__")), "__file__", None) or filename
        if filename not in self.where:
            try:
                parts = Path(filename).resolve().relative_to(self.root).parts
            except ValueError:
                parts = ()
            if parts and parts[0] == "templates":
                self.where[filename] = ("templates", "templates")
            elif parts and ((parts[0] in GROUPS and len(parts) > 1) or parts == ("app.py",)):
                self.where[filename] = ("web" if parts == ("app.py",) else parts[0], "/".join(parts))
            else:
                self.where[filename] = None
        return self.where[filename]

    def profile(self, frame, event, arg) -> None:
        if event == "call":
            place = self.place(frame)
            if place is not None:
                code = frame.f_code
                self.calls.append((*place, f"{place[1]}:{code.co_firstlineno}:{code.co_qualname}"))

    def traced(self, action):
        """`action` (websocket_action), tracing its next call once armed, from entry to return."""

        def wrapper(*args, **kwargs):
            if not self.armed:
                return action(*args, **kwargs)
            self.armed = False
            sys.setprofile(self.profile)
            try:
                return action(*args, **kwargs)
            finally:
                sys.setprofile(None)

        return wrapper


def figures(calls: list[tuple[str, str, str]]) -> dict:
    """Distinct modules and functions, and switches between the groups along the calls."""
    groups = [group for group, _, _ in calls]
    switches = sum(1 for a, b in itertools.pairwise(groups) if a != b)
    return {"modules": sorted({module for _, module, _ in calls}), "functions": len({f for _, _, f in calls}),
            "switches": switches, "calls": len(calls)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=str(Path(__file__).resolve().parents[1]),
                        help="the checkout to trace")
    parser.add_argument("--moves", type=int, default=2, help="moves played untraced before the traced one")
    parser.add_argument("--against", help="another checkout to count first, the same way")
    args = parser.parse_args()
    if args.against:
        before = [sys.executable, __file__, "--root", args.against, "--moves", str(args.moves)]
        subprocess.run(before, check=True)
    root = Path(args.root).resolve()
    sys.path.insert(0, str(root))
    from werkzeug import serving

    import app as factory

    endpoint = __import__("web.ws.endpoint" if (root / "web" / "ws").is_dir() else "web.socket",
                          fromlist=["websocket_action"])
    with tempfile.TemporaryDirectory() as folder:
        app = factory.create_app({"TESTING": True, "DATABASE": f"{folder}/trace.sqlite3",
                                  "START_CLOCK": False, "LIMITS": False,
                                  "TABLES_OPTIONS": {"rng": random.Random(1)}})  # the same deal every run
        logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
        server = serving.make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}"
        pages = [Page(base) for _ in range(4)]
        url = pages[0].post("/tables", {"name": "Ana", "variant": "partnership", "seats": 4,
                                        "target": 100}).headers["Location"]
        for page, name in zip(pages[1:], ("Bea", "Carl", "Dan"), strict=True):
            assert page.post(f"{url}/join", {"name": name}).status_code == 204
        for page in pages:
            page.connect(url)
        table = app.extensions["fichas"].tables.get(url.rsplit("/", 1)[1])
        tracer = Tracer(root)
        endpoint.websocket_action = tracer.traced(endpoint.websocket_action)
        for n in range(args.moves + 1):
            for page in pages:
                page.wait_version(table.version)
            time.sleep(0.2)  # every page's writer done with the last push: the traced move waits for nothing
            tracer.armed = n == args.moves
            rnd, version = table.match.round, table.version
            tile, end = rnd.playable(rnd.turn)[0]
            move = {"action": "play", "tile": tile.text, "end": end or "", "version": str(version)}
            pages[rnd.turn].send(move)
            for page in pages:
                page.wait_version(version + 1)
        app.extensions["fichas"].close()
        server.shutdown()
    found = figures(tracer.calls)
    print(f"{root}: one websocket move touches {len(found['modules'])} modules, {found['functions']} "
          f"functions, {found['switches']} switches between game/live/web/templates ({found['calls']} calls)")
    print("modules:", ", ".join(found["modules"]))


if __name__ == "__main__":
    main()
