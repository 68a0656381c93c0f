"""Fixtures: a fresh app and database per test, browser-like clients, a real server (tests/helpers)."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

from app import create_app
from helpers import FAST, Browser, LiveServer
from helpers.profiles import MAX_EXAMPLES, QUICK, THOROUGH

# Hypothesis profiles: a quick one by default for the edit-test loop, the thorough one in CI (.ci/run sets
# HYPOTHESIS_PROFILE=thorough). Tests write their counts for thorough through helpers.profiles.examples.
settings.register_profile(QUICK, max_examples=MAX_EXAMPLES[QUICK])
settings.register_profile(THOROUGH, max_examples=MAX_EXAMPLES[THOROUGH])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", QUICK))


def pytest_sessionfinish(session, exitstatus):
    """CI sets FICHAS_NO_SKIP=1: there a skipped test is a test nobody ran, so the run fails."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter else []
    if os.environ.get("FICHAS_NO_SKIP") == "1" and skipped and session.exitstatus == 0:
        reporter.write_line(f"FICHAS_NO_SKIP=1 but {len(skipped)} test(s) were skipped", red=True)
        session.exitstatus = 1


@pytest.fixture
def make_app(tmp_path):
    """Build apps on a fresh database file (the same file for every app of one test)."""
    apps = []

    def build(**config):
        settings = {"DATABASE": str(tmp_path / "fichas.sqlite3"), "TESTING": True, "START_CLOCK": False,
                    **FAST, **config}
        app = create_app(settings)
        apps.append(app)
        return app

    yield build
    for app in apps:
        app.extensions["fichas"].close()


@pytest.fixture
def app(make_app):
    """A fresh app whose clock does not run (tests drive time themselves)."""
    return make_app()


@pytest.fixture
def new_browser(app):
    """Make browser-like clients for the test's app (not named `browser`: pytest-playwright owns that)."""
    return lambda: Browser(app)


@pytest.fixture
def make_server(make_app):
    """Start real servers (werkzeug, threaded) for apps built with the given config."""
    servers = []

    def start(**config):
        # A short ping also flushes a first push that simple_websocket.Client can hold back.
        server = LiveServer(make_app(**{"START_CLOCK": True, "PING_SECONDS": 1, **config}))
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def live_server(make_server):
    """One real server with the table's normal times."""
    return make_server()
