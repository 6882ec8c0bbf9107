"""Fixtures of the browser tests: a live server in a subprocess and Debian's chromium.

* ``live_url`` (session): ``uvicorn app.main:create_app`` on a free loopback port,
  with no bot delay and no deal pause, on the session's migrated database (the
  root conftest's ``database_url``: ``DATABASE_URL`` when the environment gives
  one, else a temporary SQLite file). One server for every browser test: a start
  costs 5 to 10 s on this kind of machine (the imports, the solver's warm-up), and
  each test makes its own guests, rooms and browser contexts anyway.
* ``browser`` (session): chromium from ``/usr/bin/chromium`` driven by Playwright's
  plain sync API. ``playwright install`` is never run: it downloads a browser and
  fails here. Without ``/usr/bin/chromium`` the browser tests are skipped.

Playwright's sync API keeps an event loop running in this thread while it is
open, which breaks async tests collected after it; the hook below moves every
browser test to the end of the run.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = ROOT / "screenshots"
E2E_DIR = Path(__file__).resolve().parent


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    """Run the browser tests after every other test (see the module docstring)."""
    browser_tests = [i for i in items if E2E_DIR in Path(str(i.fspath)).parents]
    others = [i for i in items if i not in browser_tests]
    items[:] = others + browser_tests


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_until_up(
    url: str, proc: subprocess.Popen[bytes], log: Path, timeout: float = 120
) -> None:
    # a start takes 2-5 s; a machine loaded by other suites took more than 30 s (CI)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited early:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url + "/", timeout=1) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"the server did not answer in {timeout} s:\n{log.read_text()[-3000:]}")


@pytest.fixture(scope="session")
def live_url(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a live Tapet server (a uvicorn subprocess) for the browser tests."""
    port = _free_port()
    workdir = tmp_path_factory.mktemp("live")
    log = workdir / "server.log"
    env = dict(os.environ)
    env.update(
        DATABASE_URL=database_url,
        TAPET_BOT_DELAY="0",
        TAPET_DEAL_PAUSE="0",
        TAPET_SECRET_KEY="e2e-secret-not-for-production",
        # the browser tests reuse nicknames ("Pepa") in one database all session long
        TAPET_UNIQUE_NICKNAMES="false",
        PYTHONPATH=str(ROOT),
    )
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "app.main:create_app",
                "--factory",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--log-level",
                "warning",
            ],
            cwd=workdir,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(url, proc, log)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="session")
def browser(database_url: str) -> Iterator[Any]:
    """Debian's chromium under Playwright (sync API); skips when it is not installed.

    It takes ``database_url`` so that the database is migrated before Playwright's event
    loop runs in this thread (the migration runs one of its own, which cannot start inside
    another)."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def screenshots() -> Path:
    """The folder for screenshots (gitignored); created on demand."""
    SCREENSHOTS.mkdir(exist_ok=True)
    return SCREENSHOTS
