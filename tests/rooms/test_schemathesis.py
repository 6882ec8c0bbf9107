"""The API fuzzed from its OpenAPI description (schemathesis): no request, however odd,
gets a server error. The server runs as a subprocess (``tapet serve``) on the test
database; the run is bounded (examples per operation, and a time budget)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.rooms.test_crash import Server
from tests.serverproc import ROOT

pytestmark = pytest.mark.slow  # the full suite only (.ci/run; pytest -m '')

MAX_EXAMPLES = int(os.environ.get("TAPET_FUZZ_EXAMPLES", "12"))
MAX_TIME = int(os.environ.get("TAPET_FUZZ_SECONDS", "75"))


@pytest.fixture
def fuzz_server(database_url: str, tmp_path: Path) -> Iterator[Server]:
    import asyncio

    from tests.conftest import empty_tables

    asyncio.run(empty_tables(database_url))
    srv = Server(database_url, tmp_path / "server.log")
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def test_no_request_gets_a_server_error(fuzz_server: Server, tmp_path: Path) -> None:
    st = shutil.which("st", path=str(Path(sys.executable).parent)) or shutil.which("schemathesis")
    if st is None:
        if os.environ.get("CI"):  # CI runs it on both databases: never a silent skip there
            pytest.fail("schemathesis is not installed (uv run --extra dev)")
        pytest.skip("schemathesis is not installed (uv run --extra dev)")
    with httpx.Client(base_url=fuzz_server.url) as http:
        token = http.post("/api/session", json={"nickname": "Fuzzer"}).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        room = http.post("/api/rooms", json={"game": "bolot"}, headers=auth).json()["id"]
        http.put(f"/api/rooms/{room}/seats/0", json={}, headers=auth)
        for seat in (1, 2, 3):
            http.put(f"/api/rooms/{room}/seats/{seat}", json={"bot": "random"}, headers=auth)
        http.post(f"/api/rooms/{room}/start", headers=auth)
    run = subprocess.run(
        [
            st,
            "run",
            f"{fuzz_server.url}/openapi.json",
            "--checks",
            "not_a_server_error",
            "--max-examples",
            str(MAX_EXAMPLES),
            "--max-time",
            str(MAX_TIME),
            "--workers",
            "1",
            "--seed",
            "20261130",
            "-H",
            f"Authorization: Bearer {token}",
            "--request-timeout",
            "20",
            "--warnings",
            "off",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=MAX_TIME + 120,
        env={**os.environ, "NO_COLOR": "1"},
    )
    report = run.stdout[-6000:] + run.stderr[-2000:]
    server_log = fuzz_server.log.read_text()
    assert run.returncode == 0, (
        f"schemathesis found failures:\n{report}\n--- server log ---\n{server_log[-4000:]}"
    )
    assert "Traceback" not in server_log, server_log[-4000:]
    assert ROOT.exists()
