"""The README's production command (gunicorn, one gevent worker) on a free port, as bench/load.py runs it."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import requests

from helpers.bench import load_generator

ROOT = Path(__file__).resolve().parents[2]
LOAD = load_generator()  # its children() and stop_server() stop a gunicorn as the benchmark does


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Production:
    """`gunicorn -k gevent -w 1 ... 'app:create_app()'` on a free port with a temporary database."""

    def __init__(self, folder: Path, **env: str):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = folder / "gunicorn.log"
        self.env = {**os.environ, "FICHAS_DB": str(folder / "fichas.sqlite3"), **env}
        self.process: subprocess.Popen | None = None
        self.worker = 0

    def start(self, timeout: float = 30.0) -> Production:
        # --no-control-socket: two servers at once (a benchmark and this test) would share ~/.gunicorn.
        command = [sys.executable, "-m", "gunicorn", "-k", "gevent", "-w", "1", "--worker-connections",
                   "1000", "-b", f"127.0.0.1:{self.port}", "--no-control-socket", "app:create_app()"]
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=log,
                                            stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process.poll() is None, f"gunicorn exited:\n{self.log()}"
            with contextlib.suppress(requests.RequestException):
                workers = LOAD.children(self.process.pid)
                if requests.get(self.url + "/", timeout=2).status_code == 200 and workers:
                    self.worker = workers[0]
                    return self
            time.sleep(0.1)
        raise AssertionError(f"gunicorn did not answer within {timeout} s:\n{self.log()}")

    def workers(self) -> list[int]:
        return LOAD.children(self.process.pid)

    def log(self) -> str:
        with contextlib.suppress(OSError):
            return self.log_path.read_text(errors="replace")
        return ""

    def stop(self) -> None:
        if self.process is not None:
            LOAD.stop_server(self.process)

