"""``tapet load``'s checks before it starts anything (app/tools/load.py ``main``): each
wrong argument named with its range, an unknown game, a URL that is not http(s) or where
no Tapet server answers (exit 2, one message on stderr); a server that does not start
(exit 1, one message with the end of its log, no traceback); the server's folder removed
after a run; ``--fresh-db`` refused on SQLite; ``DATABASE_URL`` never used unasked."""

from __future__ import annotations

import argparse
import json
import shutil
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import pytest

from app.tools import load
from app.tools.cli import build_parser
from app.tools.loadserver import Server, ServerError


def _args(*argv: str) -> argparse.Namespace:
    """``tapet load ARGV`` as the command line parses it (short, no Redis)."""
    return build_parser().parse_args(["load", "--tables", "1", "--duration", "2", *argv])


def _error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The error line of ``tapet load ARGV``, which must exit 2 with nothing on stdout."""
    assert load.main(_args(*argv)) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("usage: tapet load"), (out, err)
    return err.strip().splitlines()[-1]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--tables", "0"], "--tables must be from 1 to 2000, not 0"),
        (["--tables", "2001"], "--tables must be from 1 to 2000, not 2001"),
        (["--spectators", "-1"], "--spectators must be from 0 to 10000, not -1"),
        (["--duration", "0"], "--duration must be more than 0 and at most 3600 s, not 0"),
        (["--duration", "3600.5"], "--duration must be more than 0 and at most 3600 s, not 3600.5"),
        (["--workers", "17"], "--workers must be from 1 to 16, not 17"),
        (["--pace-ms", "-1"], "--pace-ms must be from 0 to 60000, not -1"),
    ],
)
def test_a_number_out_of_range_is_named_with_its_range(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert _error(capsys, *argv) == f"tapet load: error: {message}"


def test_an_unknown_game_is_refused_before_anything_starts(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(load, "Server", None)  # starting one would fail loudly
    assert _error(capsys, "--game", "nosuch") == (
        "tapet load: error: unknown game 'nosuch'; the games: belote, belote-2p, belote-3p,"
        " bolot, botifarra, bridge-belote, contree"
    )


def test_fresh_db_is_refused_without_a_postgresql_database(
    capsys: pytest.CaptureFixture[str],
) -> None:
    message = (
        "tapet load: error: --fresh-db needs a PostgreSQL --database-url"
        " (postgresql+asyncpg://...); the default SQLite file is new each run already"
    )
    assert _error(capsys, "--fresh-db") == message
    assert _error(capsys, "--fresh-db", "--database-url", "sqlite+aiosqlite:///x.db") == message


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("notaurl", "--url is not a valid http(s) URL: 'notaurl'"),
        ("", "--url is not a valid http(s) URL: ''"),
        ("http://127.0.0.1:99999", "--url is not a valid http(s) URL: 'http://127.0.0.1:99999'"),
        ("ftp://127.0.0.1:8000", "--url must be an http:// or https:// URL, not ftp://"),
        ("http://10.0.0.1:8000", "tapet load only targets this machine (loopback), not '10.0.0.1'"),
    ],
)
def test_a_url_that_is_not_a_loopback_http_url_is_refused(
    capsys: pytest.CaptureFixture[str], url: str, message: str
) -> None:
    assert _error(capsys, "--url", url) == f"tapet load: error: {message}"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_no_server_listening_is_said_so(capsys: pytest.CaptureFixture[str]) -> None:
    url = f"http://127.0.0.1:{_free_port()}"
    assert _error(capsys, "--url", url).startswith(
        f"tapet load: error: no Tapet server answers at {url}: "
    )


@pytest.fixture
def not_http() -> Iterator[str]:
    """A loopback TCP server that answers each connection with a line that is not HTTP."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                conn.recv(1024)
                conn.sendall(b"-ERR not http\r\n")

    threading.Thread(target=serve, daemon=True).start()
    yield f"http://127.0.0.1:{server.getsockname()[1]}"
    server.close()


def test_a_server_that_is_not_http_is_said_so(
    capsys: pytest.CaptureFixture[str], not_http: str
) -> None:
    assert _error(capsys, "--url", not_http).startswith(
        f"tapet load: error: no Tapet server answers at {not_http}: "
    )


@pytest.fixture
def http_answer() -> Iterator[tuple[str, list[tuple[int, bytes]]]]:
    """A loopback HTTP server answering each GET with the next ``(status, body)`` given."""
    answers: list[tuple[int, bytes]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            status, body = answers.pop(0)
            self.send_response(status)
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    httpd = HTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", answers
    httpd.shutdown()
    httpd.server_close()


def test_only_a_json_list_of_games_is_a_tapet_server(
    http_answer: tuple[str, list[tuple[int, bytes]]],
) -> None:
    url, answers = http_answer
    answers += [(200, json.dumps([{"id": "bolot"}]).encode()), (404, b"{}"), (200, b"<html>")]
    load.check_server(url)
    for reason in ("GET /api/games answered 404", ""):
        with pytest.raises(ValueError, match=f"^no Tapet server answers at {url}: {reason}"):
            load.check_server(url)


def test_a_fresh_database_that_cannot_be_made_is_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = _args("--database-url", "postgresql+asyncpg://postgres@127.0.0.1:1/test", "--fresh-db")
    assert load.main(args) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == (
        "tapet load: could not create a fresh database beside"
        " postgresql+asyncpg://postgres@127.0.0.1:1/test: ConnectionRefusedError:"
        " [Errno 111] Connect call failed ('127.0.0.1', 1)\n"
    ), err


def test_the_server_folder_is_removed_when_it_stops_kept_on_a_failure() -> None:
    server = Server(1, None, "", False)
    (Path(server.dir) / "server.log").write_text("started\n")
    server.stop()
    assert not Path(server.dir).exists()
    server = Server(1, None, "", False)
    server.log.write_text("failed\n")
    server.stop(keep_log=True)
    assert server.log.read_text() == "failed\n"
    server.stop()
    assert not Path(server.dir).exists()


def test_database_url_of_the_environment_is_not_used_unasked(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    production = "postgresql+asyncpg://tapet@127.0.0.1:1/production"
    monkeypatch.setenv("DATABASE_URL", production)
    server = Server(1, None, "", False)
    assert server.database_url == f"sqlite+aiosqlite:///{server.dir}/load.db"
    server.stop()
    given: list[str | None] = []

    class Failing:
        def __init__(self, workers: int, database_url: str | None, *rest: object) -> None:
            given.append(database_url)
            raise ServerError("stopped here")

    monkeypatch.setattr(load, "Server", Failing)
    assert load.main(_args()) == 1
    assert capsys.readouterr().err == (
        "tapet load: note: DATABASE_URL is set but not used: the server runs on a new SQLite"
        " file (pass --database-url to choose its database)\ntapet load: stopped here\n"
    )
    assert load.main(_args("--database-url", production)) == 1  # asked for: used, no note
    assert given == [None, production]
    assert capsys.readouterr().err == "tapet load: stopped here\n"


@pytest.mark.slow  # starts a server (that fails): the full suite only
@pytest.mark.parametrize(
    ("argv", "last_line"),
    [
        (["--database-url", "bogus://x"], "  sqlalchemy.exc.NoSuchModuleError: Can't load plugin:"),
        (["--redis-url", "redis://127.0.0.1:1/0"], "  ERROR:    Application startup failed."),
    ],
)
def test_a_server_that_does_not_start_is_one_message_and_its_log(
    capsys: pytest.CaptureFixture[str], argv: list[str], last_line: str
) -> None:
    args = _args(*argv)
    args.redis_url = args.redis_url if args.redis_url is not None else ""
    assert load.main(args) == 1
    out, err = capsys.readouterr()
    # a DATABASE_URL of the environment (the PostgreSQL run of .ci/run) adds its note first
    lines = [x for x in err.strip().splitlines() if not x.startswith("tapet load: note:")]
    assert out == "" and "Traceback" not in lines[0], err
    assert lines[0].startswith("tapet load: the server exited while starting; the last lines of ")
    log = Path(lines[0].rsplit(" of ", 1)[1].rstrip(":"))
    assert log.name == "server.log" and log.exists(), err  # kept, to read
    assert lines[-1].startswith(last_line), err
    assert len(lines) <= 9, err  # the last 8 lines of the log at most
    shutil.rmtree(log.parent)
