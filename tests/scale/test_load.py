"""``tapet load``: loopback only, and a short run against a server it starts reports its
figures with no error."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from app.tools.load import check_loopback, main, percentile

pytestmark = pytest.mark.slow  # the full suite only (.ci/run; pytest -m '')


def test_only_this_machine_is_a_target() -> None:
    for url in (
        "http://127.0.0.1:8000",
        "http://localhost:1",
        "http://[::1]:80",
        "http://127.3.2.1",
    ):
        check_loopback(url)
    for url in ("http://10.0.0.1:8000", "https://example.org", "http://0.0.0.0:8000"):
        with pytest.raises(ValueError):
            check_loopback(url)


def test_percentile_is_the_nearest_rank() -> None:
    assert percentile([5, 1, 3, 2, 4], 0.5) == 3 and percentile(list(range(100)), 0.99) == 99


def test_a_short_run_reports_moves_latency_sockets_and_memory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import tempfile

    from app.tools import loadserver

    folders: list[str] = []
    real_mkdtemp = tempfile.mkdtemp

    def mkdtemp(prefix: str) -> str:
        folders.append(real_mkdtemp(prefix=prefix))
        return folders[-1]

    monkeypatch.setattr(loadserver.tempfile, "mkdtemp", mkdtemp)
    args = argparse.Namespace(
        tables=2,
        spectators=3,
        duration=3.0,
        url=None,
        game="belote-2p",
        workers=1,
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'load.db'}",
        redis_url="",
        fresh_db=False,
    )
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "errors 0" in out and "sockets 7 open at peak" in out, out
    assert "p99" in out and "(n=0)" not in out and "peak nan" not in out, out
    assert len(folders) == 1 and not Path(folders[0]).exists()  # its folder and log removed


def test_pace_is_a_think_time_in_bounds(capsys: pytest.CaptureFixture[str]) -> None:
    from app.tools.load import register

    parser = argparse.ArgumentParser(prog="tapet")
    register(parser.add_subparsers())
    args = parser.parse_args(["load", "--pace-ms", "3000"])
    assert args.pace_ms == 3000 and parser.parse_args(["load"]).pace_ms == 0  # flat out by default
    args.pace_ms = -1
    assert main(args) == 2
    assert capsys.readouterr().err.endswith(
        "tapet load: error: --pace-ms must be from 0 to 60000, not -1\n"
    )
