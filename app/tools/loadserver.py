"""The server side of ``tapet load`` (app/tools/load.py): a ``tapet serve`` subprocess on a free
loopback port (optionally on a fresh PostgreSQL database; its folder in /tmp, with its
log, is removed when it stops, kept after a failure), and the resident memory of a
server's processes read from /proc (the tree of a started server, or whatever listens on
an external server's port)."""

from __future__ import annotations

import asyncio
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from app.core.settings import async_url, safe_url


class ServerError(RuntimeError):
    """The server could not be started (or its fresh database made): the message says what
    failed, with the last lines of its log where there is one."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _fresh_postgres(url: str) -> tuple[str, str]:
    """A new empty database beside the PostgreSQL one ``url`` names: ``(its url, admin dsn)``."""
    from sqlalchemy.engine import make_url

    base = make_url(async_url(url))
    name = f"tapet_load_{secrets.token_hex(4)}"
    admin = base.set(drivername="postgresql").render_as_string(hide_password=False)
    _pg(admin, f'CREATE DATABASE "{name}"')
    return base.set(database=name).render_as_string(hide_password=False), name


def _pg(admin_dsn: str, sql: str) -> None:
    import asyncpg

    async def run() -> None:
        conn = await asyncpg.connect(admin_dsn)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    asyncio.run(run())


class Server:
    """A ``tapet serve`` subprocess on a free loopback port (module docstring), on
    ``database_url`` or, when it is empty, a new SQLite file in its folder: never the
    environment's ``DATABASE_URL`` (which may name a production database)."""

    def __init__(
        self, workers: int, database_url: str | None, redis_url: str | None, fresh_db: bool
    ) -> None:
        self.workers, self.dropped, self.admin = workers, None, ""
        self.dir = tempfile.mkdtemp(prefix="tapet-load-")
        url = database_url or f"sqlite+aiosqlite:///{self.dir}/load.db"
        if fresh_db and url.startswith("postgres"):
            from sqlalchemy.engine import make_url

            try:
                self.admin = (
                    make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
                )
                url, self.dropped = _fresh_postgres(url)
            except Exception as exc:  # noqa: BLE001 - said in one line (ServerError)
                shutil.rmtree(self.dir, ignore_errors=True)
                raise ServerError(
                    f"could not create a fresh database beside {safe_url(url)}: "
                    f"{type(exc).__name__}: {exc}"
                ) from None
        self.database_url = url
        self.redis_url = redis_url if redis_url is not None else os.environ.get("REDIS_URL")
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start it and wait until it answers (60 s at most)."""
        env = dict(
            os.environ,
            DATABASE_URL=self.database_url,
            TAPET_BOT_DELAY="0",
            TAPET_DEAL_PAUSE="0",
            TAPET_RATE_LIMITS="false",
            TAPET_SECRET_KEY=secrets.token_urlsafe(32),
            TAPET_REDIS_CHANNEL=f"tapet-load-{self.port}",
        )
        env.pop("REDIS_URL", None)
        if self.redis_url:
            env["REDIS_URL"] = self.redis_url
        cmd = [
            sys.executable,
            "-m",
            "app.tools.cli",
            "serve",
            "--port",
            str(self.port),
            "--workers",
            str(self.workers),
        ]
        with open(Path(self.dir) / "server.log", "wb") as log:
            self.proc = subprocess.Popen(
                cmd,
                env=env,
                cwd=self.dir,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self.stop(keep_log=True)
                raise ServerError(f"the server exited while starting{self._log_tail()}")
            try:
                if (
                    httpx.get(self.url + "/api/games", timeout=1).status_code == 200
                    and self._all_workers_up()
                ):
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        self.stop(keep_log=True)
        raise ServerError(f"the server did not answer within 60 s{self._log_tail()}")

    @property
    def log(self) -> Path:
        """Its log (stdout and stderr)."""
        return Path(self.dir) / "server.log"

    def _log_tail(self, lines: int = 8) -> str:
        """``"; its log ...: <last lines>"`` for an error message ("" without a log)."""
        try:
            text = self.log.read_text(errors="replace")
            tail = [line for line in text.splitlines() if line.strip()][-lines:]
        except OSError:
            return ""
        if not tail:
            return f"; its log {self.log} is empty"
        return f"; the last lines of {self.log}:\n" + "\n".join(f"  {line}" for line in tail)

    def _all_workers_up(self) -> bool:
        text = (Path(self.dir) / "server.log").read_text(errors="replace")
        return text.count("Application startup complete") >= self.workers

    def stop(self, keep_log: bool = False) -> None:
        """Stop it (SIGTERM, then SIGKILL after 30 s), drop a fresh database and remove its
        folder (the SQLite file, the log) unless ``keep_log`` (after a failure)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        if self.dropped:
            dropped, self.dropped = self.dropped, None
            _pg(self.admin, f'DROP DATABASE IF EXISTS "{dropped}" WITH (FORCE)')
        if not keep_log:
            shutil.rmtree(self.dir, ignore_errors=True)


def process_tree(pid: int) -> list[int]:
    """``pid`` and all its descendants, from /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    tree, todo = [], [pid]
    while todo:
        p = todo.pop()
        tree.append(p)
        todo.extend(children.get(p, []))
    return tree


def listening_pids(port: int) -> list[int]:
    """The processes holding a listening TCP socket on ``port`` (an external server's
    workers), found through /proc/net/tcp{,6} and /proc/*/fd."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                for line in list(f)[1:]:
                    parts = line.split()
                    if int(parts[1].rsplit(":", 1)[1], 16) == port and parts[3] == "0A":
                        inodes.add(parts[9])
        except OSError:
            pass
    pids = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            links = {
                os.readlink(f"/proc/{entry}/fd/{fd}") for fd in os.listdir(f"/proc/{entry}/fd")
            }
        except OSError:
            continue
        if any(f"socket:[{i}]" in links for i in inodes):
            pids.append(int(entry))
    return pids


def memory_mb(pids: list[int]) -> float:
    """Resident memory of ``pids`` together, in MiB (VmRSS from /proc)."""
    total = 0
    for p in pids:
        try:
            with open(f"/proc/{p}/status") as f:
                total += next((int(line.split()[1]) for line in f if line.startswith("VmRSS:")), 0)
        except OSError:
            pass
    return total / 1024
