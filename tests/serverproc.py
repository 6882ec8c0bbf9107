"""``tapet serve`` as a real subprocess on a free loopback port, for the tests that kill
or race whole server processes (tests/rooms/test_crash.py, tests/scale/)."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServeProcess:
    """One ``tapet serve`` subprocess with environment ``env``, its output in ``log``."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env, self.log = env, log
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start the process (``wait_ready`` waits until it answers)."""
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "app.tools.cli", "serve", "--port", str(self.port)],
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )

    def wait_ready(self, timeout: float = 120) -> None:
        """Until ``GET /api/games`` answers; fails with the log's tail if the process exits."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.proc is not None and self.proc.poll() is None, (
                f"the server exited:\n{self.text()[-3000:]}"
            )
            try:
                if httpx.get(f"{self.url}/api/games", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise AssertionError("the server did not start")

    def text(self) -> str:
        """What the process printed so far."""
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def kill(self) -> None:
        """SIGKILL: a crash, no clean shutdown."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self, grace: float = 15) -> None:
        """Terminate cleanly (kill after ``grace`` seconds)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(grace)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def poll_view(
    http: httpx.Client,
    room: int,
    auth: dict[str, str],
    done: Any,
    timeout: float = 60,
    play_seat: int | None = None,
    pause: float = 0.03,
) -> dict[str, Any]:
    """``GET /api/rooms/{room}/view`` until ``done(view)``; returns that view. With
    ``play_seat``, that seat posts its first legal action whenever it is to act (a 409,
    another move first, is fine). Fails with the seq it was stuck at after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        view = http.get(f"/api/rooms/{room}/view", headers=auth).json()
        if done(view):
            return view
        assert time.monotonic() < deadline, f"stuck at seq {view['seq']}"
        if (
            play_seat is not None
            and view["status"] == "playing"
            and view["to_act"] == play_seat
            and view["legal_actions"]
        ):
            answer = http.post(
                f"/api/rooms/{room}/moves",
                headers=auth,
                json={"seq": view["seq"], "action": view["legal_actions"][0]},
            )
            assert answer.status_code in (200, 409), answer.text
        else:
            time.sleep(pause)
