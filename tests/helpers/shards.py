"""Shards behind nginx on loopback: the README's production command per shard, and Debian's nginx.

Each shard is that command with its own FICHAS_SHARD, FICHAS_DB and port, all sharing
FICHAS_SECRET_KEY and believing X-Forwarded-* from nginx only (FICHAS_PROXY_ADDRESSES); nginx
runs unprivileged with the configuration `python -m deploy.nginx --standalone` writes.
Where nginx is missing the tests skip, unless FICHAS_NO_SKIP=1 (CI), where they fail.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from helpers.bench import ROOT, load_generator

LOAD = load_generator()  # its Nginx, children() and stop_server(), as the benchmark uses them
SECRET = "shared-by-every-shard-of-the-test"


def nginx_or_skip() -> str:
    """Debian's nginx, or a skip with the way to get it (a failure where FICHAS_NO_SKIP=1)."""
    if Path(LOAD.NGINX).is_file():
        return LOAD.NGINX
    reason = f"no nginx at {LOAD.NGINX}: the shards tests need it (apt-get install nginx)"
    if os.environ.get("FICHAS_NO_SKIP") == "1":
        pytest.fail(f"FICHAS_NO_SKIP=1 but {reason}", pytrace=False)
    pytest.skip(reason)


def production_command(port: int) -> list[str]:
    """The README's production command (from `gunicorn` on), bound to 127.0.0.1:port.

    --no-control-socket: servers of other tests at once would share ~/.gunicorn.
    """
    readme = (ROOT / "README.md").read_text()
    block = readme.split("<!-- ci:production -->", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    words = shlex.split(block.replace("\\\n", " "))
    command = words[words.index("gunicorn"):]
    command[command.index("-b") + 1] = f"127.0.0.1:{port}"
    return [*command[:-1], "--no-control-socket", command[-1]]


class Shard:
    """One shard: the production command with its name, its own SQLite file and port."""

    def __init__(self, name: str, folder: Path, **env: str):
        self.name = name
        self.port = LOAD.free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.db = folder / f"{name}.sqlite3"
        self.log_path = folder / f"{name}.log"
        self.env = {**os.environ, "FICHAS_SHARD": name, "FICHAS_DB": str(self.db),
                    "FICHAS_SECRET_KEY": SECRET, "FICHAS_PROXY_ADDRESSES": "127.0.0.1",
                    "FICHAS_GRACE_SECONDS": "0", "FICHAS_PING_SECONDS": "1", **env}
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 30.0) -> Shard:
        _, *arguments = production_command(self.port)  # gunicorn, from this environment
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen([sys.executable, "-m", "gunicorn", *arguments], cwd=ROOT,
                                            env=self.env, stdout=log, stderr=subprocess.STDOUT,
                                            start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process.poll() is None, f"shard {self.name} exited:\n{self.log()}"
            with contextlib.suppress(requests.RequestException):
                answered = requests.get(self.url + "/", timeout=2).status_code == 200
                if answered and LOAD.children(self.process.pid):
                    return self
            time.sleep(0.1)
        raise AssertionError(f"shard {self.name} did not answer within {timeout} s:\n{self.log()}")

    def kill(self) -> None:
        """A crash: gunicorn's master and worker killed at once, nothing shut down cleanly."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def log(self) -> str:
        with contextlib.suppress(OSError):
            return self.log_path.read_text(errors="replace")
        return ""

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            LOAD.stop_server(self.process)


class Cluster:
    """Shards a and b (a is the default shard) and nginx in front of them."""

    def __init__(self, folder: Path, names=("a", "b"), **env: str):
        self.binary = nginx_or_skip()
        self.shards = {name: Shard(name, folder, **env) for name in names}
        addresses = {name: f"127.0.0.1:{shard.port}" for name, shard in self.shards.items()}
        self.nginx = LOAD.Nginx(addresses, binary=self.binary)
        self.url = self.nginx.base

    def start(self) -> Cluster:
        for shard in self.shards.values():
            shard.start()
        self.nginx.start()
        return self

    def stop(self) -> None:
        self.nginx.stop()
        for shard in self.shards.values():
            shard.stop()
