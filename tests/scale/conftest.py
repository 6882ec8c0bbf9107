"""Two ``tapet serve`` processes on one PostgreSQL database and one Redis channel, as two
workers (or machines) of one site. Skipped unless ``DATABASE_URL`` names PostgreSQL and
``REDIS_URL`` is set (CI sets both)."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import TEST_SECRET, empty_tables

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Worker:
    """One ``tapet serve`` subprocess."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env, self.log = env, log
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen([sys.executable, "-m", "app.cli", "serve", "--port", str(self.port)],
                                         cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT)

    def wait_ready(self) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.proc is not None and self.proc.poll() is None, f"the worker exited:\n{self.text()[-3000:]}"
            try:
                if httpx.get(f"{self.url}/api/games", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise AssertionError("the worker did not start")

    def text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()


@pytest.fixture(scope="module")
def workers(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Worker]]:
    """Two running workers (lease ttl 2 s, fast bots) on the test database and one Redis
    channel, shared by the module's tests (the last one kills one of them)."""
    tmp_path = tmp_path_factory.mktemp("workers")
    if not database_url.startswith("postgresql"):
        pytest.skip("two `tapet serve` workers need one shared database: set "
                    "DATABASE_URL=postgresql+asyncpg://... (CI does)")
    if not os.environ.get("REDIS_URL"):
        pytest.skip("two workers share room events through Redis: set REDIS_URL (CI does)")
    asyncio.run(empty_tables(database_url))
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAPET_")}
    env.update(
        DATABASE_URL=database_url, REDIS_URL=os.environ["REDIS_URL"], TAPET_SECRET_KEY=TEST_SECRET,
        TAPET_REDIS_CHANNEL=f"tapet-scale-{uuid.uuid4().hex}", TAPET_BOT_DELAY="0.01",
        TAPET_DEAL_PAUSE="0.05", TAPET_SWEEP_INTERVAL="0.5", TAPET_LEASE_TTL="2",
        TAPET_RATE_LIMITS="false",
    )
    pair = [Worker(env, tmp_path / f"worker{n}.log") for n in range(2)]
    try:
        for w in pair:
            w.start()
        for w in pair:
            w.wait_ready()
        yield pair
    finally:
        for w in pair:
            w.stop()
