"""`python app.py`: the production server (gunicorn, one gevent worker), on FICHAS_HOST:FICHAS_PORT."""

from __future__ import annotations

import os
import sys


def production_argv(host: str, port: str) -> list[str]:
    """The README's production command, bound to host:port."""
    return [sys.executable, "-m", "gunicorn", "-k", "gevent", "-w", "1", "--worker-connections", "5000",
            "-b", f"{host}:{port}", "app:create_app()"]


def main() -> None:
    """Replace this process with gunicorn: gevent patches only the worker it starts, never an import."""
    argv = production_argv(os.environ.get("FICHAS_HOST", "127.0.0.1"), os.environ.get("FICHAS_PORT", "8000"))
    print(f"Fichas on http://{argv[-2]} (Ctrl-C stops it)", flush=True)
    os.execv(sys.executable, argv)
