"""Static files and compression: content-hashed URLs cached for a year, responses compressed."""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from flask import Flask, Response, current_app, request
from flask_compress import Compress

from web.templating.cache import Cache

YEAR = 60 * 60 * 24 * 365
# Text types only: images are compressed already.
COMPRESS_CONFIG = {
    "COMPRESS_MIMETYPES": ["text/html", "text/css", "text/javascript", "application/javascript",
                           "application/json", "application/manifest+json", "image/svg+xml"],
    "COMPRESS_ALGORITHM": ["br", "gzip"],
    "COMPRESS_BR_LEVEL": 5,
}
# Our comments are for readers of the repository, not for every phone that loads a table: whole-line
# comments leave our stylesheet and scripts as they are served (no build step; vendored files as they
# came). A comment after code on its line stays (taking it out safely would need a parser).
WHOLE_LINE_COMMENTS = {
    ".js": re.compile(rb"^[ \t]*//[^\n]*\n", re.M),
    ".css": re.compile(rb"^[ \t]*/\*(?:(?!\*/).)*\*/[ \t]*\n", re.M | re.S),  # never past its own */
}


def init_assets(app: Flask) -> None:
    """Hash static URLs, cache hashed files for a year, and compress what browsers accept (static
    files once each)."""
    for key, value in COMPRESS_CONFIG.items():
        app.config.setdefault(key, value)
    app.config.setdefault("COMPRESS_CACHE_BACKEND", CompressedFiles)
    app.config.setdefault("COMPRESS_CACHE_KEY", compressed_file_key)
    Compress(app)

    @app.url_defaults
    def hashed_static_url(endpoint: str, values: dict) -> None:
        if endpoint == "static" and "filename" in values:
            values["v"] = content_hash(Path(app.static_folder, values["filename"]))

    @app.after_request  # runs before Compress's own (Flask calls them in reverse order)
    def cache_hashed_files(response: Response) -> Response:
        if request.endpoint != "static":
            return response
        # Read the file into memory: Flask-Compress then compresses it whole (its streaming path
        # never closes the file, and leaves gzip out). Our assets are a few tens of KB.
        file, response.direct_passthrough = response.response, False
        response.set_data(b"".join(file))
        if hasattr(file, "close"):
            file.close()
        # Only the URL naming the file's current content may be kept: a changed file gets a new URL.
        if response.status_code == 200:
            filename = (request.view_args or {}).get("filename", "")
            if not filename.startswith("vendor/"):
                response.set_data(without_comments(Path(filename).suffix, response.get_data()))
            if request.args.get("v") == content_hash(Path(app.static_folder, filename)):
                response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
        return response

    @app.get("/favicon.ico")
    def favicon() -> Response:  # browsers ask for it whatever the page links
        icon = Path(app.static_folder, "favicon.svg").read_bytes()
        return Response(icon, mimetype="image/svg+xml", headers={"Cache-Control": "public, max-age=86400"})


class CompressedFiles:
    """Flask-Compress's cache, for static files only: compressing htmx with brotli for every new
    visitor is costly (and an address asking for it in a loop would take a core). Pages
    (their keys are empty) are compressed each time: each holds its own CSRF token and table."""

    MAX = 256  # files × encodings × versions; more means files changing under a running server

    def __init__(self):
        self.kept: dict[str, bytes] = {}

    def get(self, key: str) -> bytes | None:
        return self.kept.get(key)

    def set(self, key: str, value: bytes) -> None:
        if key.endswith(";"):  # not a static file (compressed_file_key)
            return
        if len(self.kept) >= self.MAX:
            self.kept.clear()
        self.kept[key] = value


def compressed_file_key(request) -> str:
    """A static file's path and content, which its compressed bytes depend on; "" for anything else
    (Flask-Compress prefixes the encoding: "br;")."""
    if request.endpoint != "static" or request.range is not None:  # a part of a file: not the file
        return ""
    filename = (request.view_args or {}).get("filename", "")
    return f"{filename}@{content_hash(Path(current_app.static_folder, filename))}"


def content_hash(path: Path) -> str:
    """A short hash of a file's content, read again only when the file changes."""
    try:
        stat = os.stat(path)
    except OSError:
        return ""
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    found = HASHES.get(key)
    if found is None:
        found = HASHES.keep(key, hashlib.sha256(path.read_bytes()).hexdigest()[:12])
    return found


HASHES = Cache(256)  # (a static file, its time of change, its size) -> the hash of its content
SERVED = Cache(32)  # (suffix, a static file's content) -> its content as served


def without_comments(suffix: str, data: bytes) -> bytes:
    """A stylesheet or script as served: its whole-line comments left out (anything else as it is)."""
    pattern = WHOLE_LINE_COMMENTS.get(suffix)
    if not pattern:
        return data
    found = SERVED.get((suffix, data))
    return found if found is not None else SERVED.keep((suffix, data), pattern.sub(b"", data))
