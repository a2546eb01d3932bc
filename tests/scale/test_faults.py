"""Faults: Redis restarting, a process killed, PostgreSQL restarting.

Real daphne processes, real HTTP posts and websockets opened with a browser's cookies, as the
pages do. The issue's bounds are the assertions: a page catches up within 2 s, no committed
move ever answers 500 or is lost, a database that cannot be reached answers "try again".

Nothing here stops the machine's Redis or PostgreSQL: the tests that restart one start a
private one on a free port, in a temporary directory, and stop it afterwards.

After a PostgreSQL outage, moves are accepted again within seconds (the connection pool tries
to reconnect every second or so, not after a doubling delay).
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager, suppress
from dataclasses import dataclass
from glob import glob
from pathlib import Path

import aiohttp
import psycopg
import pytest

from tests.live import _migrate, daphne_processes, daphne_servers, free_port, run_async

ON_POSTGRES = os.environ.get("DATABASE_URL", "").startswith("postgres")
REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"

pytestmark = pytest.mark.scale

CATCH_UP = 2.0  # seconds: the bound for a page to show the table as it is
VERSION_RE = re.compile(r'data-version="(\d+)"')
MOVE_RE = re.compile(r'name="move" value="([^"]+)"')
NOT_CARDS = {"draw", "pass", "catch"}
TRY_AGAIN = "inténtalo de nuevo"


# --- A person with a browser: cookies, HTTP, the table page's websocket ----------------------


def max_version(html: str) -> int:
    return max((int(v) for v in VERSION_RE.findall(html)), default=-1)


def panel_of(html: str) -> str:
    start = html.find('id="panel"')
    return html[start:] if start >= 0 else ""


class Person:
    """One browser: its cookies, and the server it talks to (a proxy would pick it)."""

    def __init__(self, http: aiohttp.ClientSession, base: str) -> None:
        self.http, self.base = http, base
        self.cookies: dict[str, str] = {}

    def headers(self) -> dict[str, str]:
        cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        return {"Origin": self.base, **({"Cookie": cookie} if cookie else {})}

    async def request(
        self, method: str, path: str, data: dict | None = None, *, htmx: bool = True
    ) -> tuple[int, str, dict]:
        """(status, body, headers) of one request as the page sends it."""
        headers = self.headers()
        if method == "POST":
            token = self.cookies.get("csrftoken", "")
            data = {**(data or {}), "csrfmiddlewaretoken": token}
            if htmx:
                headers.update({"HX-Request": "true", "X-CSRFToken": token})
        async with self.http.request(
            # A page is followed where it leads, as a browser does (a seated player who opens
            # the invitation lands on the players' own address); an answer to a post is not.
            method, self.base + path, data=data, headers=headers,
            allow_redirects=method == "GET",
            timeout=aiohttp.ClientTimeout(total=30),
        ) as response:
            body = await response.text()
            for name, morsel in response.cookies.items():
                self.cookies[name] = morsel.value
            return response.status, body, dict(response.headers)


class Page:
    """The table page's websocket: every frame's version and when it came. When the socket
    closes the page connects again after `RECONNECT` seconds, to its person's server then
    (as htmx's websocket extension does, behind a proxy)."""

    RECONNECT = 0.3

    def __init__(self, person: Person, code: str) -> None:
        self.person, self.code = person, code
        self.version = -1
        # (when, version, connection number) of every frame; when each connection was tried.
        self.frames: list[tuple[float, int, int]] = []
        self.attempts: list[float] = []
        self.task: asyncio.Task | None = None

    def open(self) -> None:
        self.task = asyncio.create_task(self._run())

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with suppress(asyncio.CancelledError):
                await self.task

    async def _run(self) -> None:
        while True:
            base = self.person.base
            self.attempts.append(time.monotonic())
            number = len(self.attempts)
            url = base.replace("http", "ws") + f"/ws/mesa/{self.code}/"
            try:
                async with self.person.http.ws_connect(
                    url, headers=self.person.headers(), max_msg_size=0
                ) as ws:
                    async for message in ws:
                        if message.type != aiohttp.WSMsgType.TEXT:
                            break
                        version = max_version(message.data)
                        self.frames.append((time.monotonic(), version, number))
                        self.version = max(self.version, version)
            except (aiohttp.ClientError, OSError, TimeoutError):
                pass
            await asyncio.sleep(self.RECONNECT)

    @property
    def connections(self) -> int:
        return len(self.attempts)

    def first_frame_of(self, connection: int) -> tuple[float, int] | None:
        return next(((t, v) for t, v, n in self.frames if n == connection), None)

    def reached_at(self, version: int) -> float | None:
        """When a frame showing `version` (or later) first came."""
        return next((t for t, v, _ in self.frames if v >= version), None)


async def until(predicate, timeout: float, step: float = 0.02) -> bool:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(step)
    return True


# --- A table in play, through the real HTTP flow ---------------------------------------------


async def table_in_play(
    http: aiohttp.ClientSession, host_server: str, guest_server: str
) -> tuple[str, Person, Person]:
    """ABRIR MESA (Ana, Clásico), Beto sits down, EMPEZAR: (code, host, guest)."""
    host = Person(http, host_server)
    await host.request("GET", "/")
    status, body, headers = await host.request(
        "POST", "/abrir/",
        {"rules": "clasico", "name": "Ana", "deck": "clasica", "turn_limit": 0}, htmx=False,
    )
    assert status == 302, body[:500]
    # The host lands on the players' own address; a guest sits down by the invitation.
    _, page, _ = await host.request("GET", headers["Location"])
    code = re.search(r'data-invite="/mesa/([^/"]+)/"', page).group(1)
    guest = Person(http, guest_server)
    await guest.request("GET", f"/mesa/{code}/")
    status, body, _ = await guest.request("POST", f"/mesa/{code}/sentarse/", {"name": "Beto"})
    assert status == 200, body[:500]
    _, body, _ = await host.request("GET", f"/mesa/{code}/")
    status, body, _ = await host.request(
        "POST", f"/mesa/{code}/empezar/", {"version": max_version(body)}
    )
    assert status == 200, body[:500]
    return code, host, guest


async def spectator(http: aiohttp.ClientSession, server: str, code: str) -> Person:
    person = Person(http, server)
    status, _, _ = await person.request("GET", f"/mesa/{code}/")
    assert status == 200
    return person


async def next_move(code: str, players: list[Person]) -> tuple[Person, int, str]:
    """(player, version, move): whose turn it is, from their own page, and a legal move of
    theirs (a card if they have one, else what their buttons offer)."""
    for player in players:
        status, body, _ = await player.request("GET", f"/mesa/{code}/")
        assert status == 200, body[:500]
        panel = panel_of(body)
        if "your-turn" in panel:
            moves = MOVE_RE.findall(panel)
            cards = [m for m in moves if m.lower() not in NOT_CARDS]
            assert moves, panel[:2000]
            return player, max_version(body), (cards or moves)[0]
    raise AssertionError("nobody's turn on their own page")


async def play(code: str, player: Person, version: int, move: str) -> tuple[int, str]:
    status, body, _ = await player.request(
        "POST", f"/mesa/{code}/jugar/", {"move": move, "version": version}
    )
    return status, body


@dataclass
class Watched:
    """A table in play with every person's page open (`pages`: host, guest, watcher)."""

    code: str
    host: Person
    guest: Person
    watcher: Person
    pages: list[Page]

    @property
    def players(self) -> list[Person]:
        return [self.host, self.guest]


@asynccontextmanager
async def watched_table(
    http: aiohttp.ClientSession, host_server: str, guest_server: str, watcher_server: str
) -> AsyncIterator[Watched]:
    """`table_in_play` and a spectator, each with their page's socket open (closed after)."""
    code, host, guest = await table_in_play(http, host_server, guest_server)
    watcher = await spectator(http, watcher_server, code)
    pages = [Page(person, code) for person in (host, guest, watcher)]
    for page in pages:
        page.open()
    try:
        yield Watched(code, host, guest, watcher, pages)
    finally:
        for page in pages:
            await page.close()


async def move_reaches_every_page(
    code: str, players: list[Person], pages: list[Page], what: str
) -> int:
    """The player to move makes a legal move; within CATCH_UP every page shows it. Returns
    the version the move was made against."""
    player, version, move = await next_move(code, players)
    sent = time.monotonic()
    status, body = await play(code, player, version, move)
    assert status == 200, body[:500]
    assert await until(
        lambda: all(p.version >= version + 1 for p in pages), CATCH_UP
    ), [p.version for p in pages]
    arrived = [round(p.reached_at(version + 1) - sent, 2) for p in pages]
    print(f"{what}: the move reached the pages in {arrived} s")
    return version


# --- The servers' database, read directly ----------------------------------------------------


def table_state(database_url: str, code: str) -> tuple[int, list[int]]:
    """(the table's version, the versions of the moves in its log)."""
    with psycopg.connect(database_url, autocommit=True) as conn:
        (table_id, version), = conn.execute(
            "SELECT id, version FROM tables_table WHERE code = %s", [code]
        ).fetchall()
        logged = conn.execute(
            "SELECT version FROM tables_tableevent WHERE table_id = %s AND kind = 'move'",
            [table_id],
        ).fetchall()
    return version, [v for (v,) in logged]


def assert_each_logged_once(logged: list[int], acknowledged: list[int]) -> None:
    """Every move answered 200 (made at version v: logged at v + 1) is in the log once."""
    counts = Counter(logged)
    missing = [v for v in acknowledged if counts[v + 1] == 0]
    doubled = [v for v, n in counts.items() if n > 1]
    assert not missing, f"acknowledged moves missing from the log (made at versions {missing})"
    assert not doubled, f"moves logged twice at versions {doubled}"


# --- 1. Redis restarting ---------------------------------------------------------------------


class PrivateRedis:
    """A Redis of the test's own on a free port (never the machine's), to kill and start."""

    def __init__(self, directory: str) -> None:
        self.directory = directory
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--daemonize", "no", "--dir", self.directory],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with suppress(OSError), socket.create_connection(("127.0.0.1", self.port), 0.5) as s:
                s.sendall(b"PING\r\n")
                if s.recv(16).startswith(b"+PONG"):
                    return
            time.sleep(0.02)
        raise RuntimeError("the private redis-server did not start")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


@contextmanager
def private_redis() -> Iterator[PrivateRedis]:
    with tempfile.TemporaryDirectory() as directory:
        redis = PrivateRedis(directory)
        redis.start()
        try:
            yield redis
        finally:
            redis.kill()


@pytest.mark.skipif(not ON_POSTGRES, reason="needs DATABASE_URL (PostgreSQL)")
@pytest.mark.skipif(not Path(REDIS_SERVER).exists(), reason="needs redis-server")
def test_a_redis_restart_loses_no_move_and_every_page_catches_up_within_two_seconds():
    with private_redis() as redis, daphne_servers(2, REDIS_URL=redis.url) as servers:
        first, second = servers
        database = servers.env["DATABASE_URL"]

        async def scenario() -> None:
            async with (
                aiohttp.ClientSession() as http,
                watched_table(http, first, second, second) as table,
            ):
                code, players, pages = table.code, table.players, table.pages
                version, _ = table_state(database, code)
                assert await until(lambda: all(p.version >= version for p in pages), 10)

                acknowledged, statuses = [], []
                # Redis dies; moves go on for a second, a few of them (a round is longer),
                # and their pushes are lost meanwhile.
                redis.kill()
                down_at = time.monotonic()
                while time.monotonic() - down_at < 1.0 or len(statuses) < 2:
                    player, version, move = await next_move(code, players)
                    status, body = await play(code, player, version, move)
                    statuses.append(status)
                    assert status < 500 or status == 503, (status, body[:500])
                    if status == 200:
                        acknowledged.append(version)
                    await asyncio.sleep(0.25)
                redis.start()
                up_at = time.monotonic()

                current, logged = table_state(database, code)
                await until(lambda: all(p.version >= current for p in pages), CATCH_UP + 1)
                # When each page showed the table as it is, in s after Redis was back
                # (< 0: before, the page resynced while Redis was still down).
                late = [
                    None if (t := p.reached_at(current)) is None else round(t - up_at, 2)
                    for p in pages
                ]
                print(f"\nredis: statuses while down {statuses}; pages at v{current} {late}"
                      f" s after Redis was back; connections {[p.connections for p in pages]}")
                assert acknowledged, f"no move was accepted while Redis was down: {statuses}"
                assert_each_logged_once(logged, acknowledged)
                assert all(s is not None and s <= CATCH_UP for s in late), late

                # With Redis back, a move reaches every page again, on both processes.
                version = await move_reaches_every_page(code, players, pages, "redis")
                _, logged = table_state(database, code)
                assert_each_logged_once(logged, [*acknowledged, version])

        run_async(scenario())


# --- 2. A process killed ---------------------------------------------------------------------


@pytest.mark.skipif(
    not ON_POSTGRES or not os.environ.get("REDIS_URL"),
    reason="needs DATABASE_URL (PostgreSQL) and REDIS_URL",
)
def test_the_viewers_of_a_killed_process_play_on_a_live_one_within_two_seconds():
    with daphne_servers(2) as servers:
        doomed, live = servers
        database = servers.env["DATABASE_URL"]

        async def scenario() -> None:
            async with (
                aiohttp.ClientSession() as http,
                watched_table(http, doomed, doomed, doomed) as table,
            ):
                code, players, pages = table.code, table.players, table.pages
                people = [page.person for page in pages]
                player, version, move = await next_move(code, players)
                status, body = await play(code, player, version, move)
                assert status == 200, body[:500]
                assert await until(lambda: all(p.version > version for p in pages), 10)

                # The process dies; a proxy sends its people (and their pages) to the other.
                for person in people:
                    person.base = live
                servers.processes[0].send_signal(signal.SIGKILL)
                servers.processes[0].wait(timeout=10)
                current, _ = table_state(database, code)
                assert await until(lambda: all(p.connections >= 2 for p in pages), 5)
                # Each reconnection gets the whole current table at once.
                assert await until(
                    lambda: all(p.first_frame_of(p.connections) for p in pages), CATCH_UP + 1
                ), "a page reconnected to the live process got no table"
                greetings = [
                    (round(p.first_frame_of(p.connections)[0] - p.attempts[-1], 2),
                     p.first_frame_of(p.connections)[1])
                    for p in pages
                ]
                print(f"\nkill: (s from reconnecting to the table, its version) {greetings};"
                      f" current v{current}")
                assert all(v == current for _, v in greetings), greetings
                assert all(s <= CATCH_UP for s, _ in greetings), greetings

                # A player moves on the live process; every page sees it.
                version = await move_reaches_every_page(code, players, pages, "kill")
                assert version == current

        run_async(scenario())


# --- 3. PostgreSQL restarting ----------------------------------------------------------------


def _postgres_bin() -> Path | None:
    for directory in sorted(glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(directory) / "initdb").exists() and (Path(directory) / "pg_ctl").exists():
            return Path(directory)
    found = shutil.which("initdb")
    return Path(found).parent if found and shutil.which("pg_ctl") else None


POSTGRES_BIN = _postgres_bin()


class PrivatePostgres:
    """A PostgreSQL cluster of the test's own (never the machine's): initdb'd into a temporary
    directory, on a free port, stopped at once (`-m immediate`, as a crash) and started again.
    As root, it runs as the `postgres` user (initdb refuses root)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.data = directory / "data"
        self.port = free_port()
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    def run(self, *argv: str) -> None:
        subprocess.run([*self.as_user, *argv], check=True, capture_output=True, timeout=120)

    def initdb(self) -> None:
        self.run(str(POSTGRES_BIN / "initdb"), "-D", str(self.data), "-A", "trust",
                 "-U", "postgres", "--no-sync")

    def start(self) -> None:
        """Start, and return once it accepts connections."""
        options = (f"-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1 "
                   "-c fsync=off")
        self.run(str(POSTGRES_BIN / "pg_ctl"), "-D", str(self.data), "-o", options,
                 "-l", str(self.directory / "log"), "-w", "start")

    def stop(self) -> None:
        self.run(str(POSTGRES_BIN / "pg_ctl"), "-D", str(self.data), "-m", "immediate",
                 "-w", "stop")

    def running(self) -> bool:
        return (self.data / "postmaster.pid").exists()

    def url(self, name: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"


def _no_private_postgres() -> str:
    if not ON_POSTGRES:
        return "needs DATABASE_URL (PostgreSQL)"
    if POSTGRES_BIN is None:
        return "needs PostgreSQL's initdb and pg_ctl (a private cluster is started)"
    if os.geteuid() == 0 and not shutil.which("runuser"):
        return "runs as root: needs runuser to start PostgreSQL as the postgres user"
    return ""


@pytest.fixture(scope="module")
def private_postgres() -> Iterator[tuple[PrivatePostgres, str]]:
    """A private cluster with a migrated database: (the cluster, the database's URL)."""
    if reason := _no_private_postgres():
        pytest.skip(reason)
    directory = Path(tempfile.mkdtemp(prefix="ocholoco-pg-"))
    try:
        if os.geteuid() == 0:
            shutil.chown(directory, "postgres", "postgres")
        cluster = PrivatePostgres(directory)
        cluster.initdb()
        cluster.start()
        try:
            name = f"ocholoco_faults_{uuid.uuid4().hex[:8]}"
            with psycopg.connect(cluster.url("postgres"), autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{name}"')
            _migrate({"DATABASE_URL": cluster.url(name), "REDIS_URL": ""})
            yield cluster, cluster.url(name)
        finally:
            with suppress(subprocess.CalledProcessError):
                cluster.stop()
    finally:
        shutil.rmtree(directory, ignore_errors=True)


@contextmanager
def server_on(cluster: PrivatePostgres, database: str) -> Iterator[str]:
    """One daphne process on the private cluster (started if a test left it stopped), its
    channel layer in memory: these tests are about the database alone."""
    if not cluster.running():
        cluster.start()
    env = {"DATABASE_URL": database, "REDIS_URL": "", "TASK_WORKERS": "0",
           "CHANNEL_PREFIX": f"t{uuid.uuid4().hex[:8]}"}
    with daphne_processes(env) as (server,):
        yield server


async def accepted_after_restart(
    code: str, player: Person, version: int, move: str, limit: float
) -> tuple[list[int], float]:
    """The same move posted again until it is accepted (or `limit` s pass): (the statuses,
    seconds from the first try to the 200). Only 200 or 503 may answer, never a 500."""
    started = time.monotonic()
    answers = []
    while time.monotonic() - started < limit:
        status, body = await play(code, player, version, move)
        answers.append(status)
        assert status in (200, 503), (status, body[:500])
        if status == 200:
            break
        await asyncio.sleep(0.2)
    return answers, time.monotonic() - started


def test_a_postgresql_restart_answers_try_again_and_loses_no_move(private_postgres):
    cluster, database = private_postgres
    with server_on(cluster, database) as server:

        async def scenario() -> None:
            async with (
                aiohttp.ClientSession() as http,
                watched_table(http, server, server, server) as table,
            ):
                code, players, watcher = table.code, table.players, table.watcher
                page = table.pages[-1]
                acknowledged = []
                player, version, move = await next_move(code, players)
                status, body = await play(code, player, version, move)
                assert status == 200, body[:500]
                acknowledged.append(version)
                player, version, move = await next_move(code, players)

                cluster.stop()
                sent = time.monotonic()
                # The move (htmx: a notice) and a page load (a whole page), at once.
                (status, body, headers), (page_status, page_body, _) = await asyncio.gather(
                    player.request(
                        "POST", f"/mesa/{code}/jugar/", {"move": move, "version": version}
                    ),
                    watcher.request("GET", f"/mesa/{code}/"),
                )
                refused_in = time.monotonic() - sent
                assert status == 503, (status, body[:500])
                assert TRY_AGAIN in body and 'id="notice"' in body, body[:500]
                assert headers.get("Retry-After") == "2"
                assert page_status == 503, (page_status, page_body[:500])
                assert TRY_AGAIN in page_body

                cluster.start()
                # The pool of the server tries again with a growing delay: it may wait up
                # to about as long as PostgreSQL was away (see the next test).
                answers, accepted_in = await accepted_after_restart(
                    code, player, version, move, limit=30
                )
                print(f"\npostgres: 503 after {refused_in:.2f} s while down; after the "
                      f"restart {answers} in {accepted_in:.2f} s")
                assert answers[-1] == 200, f"never accepted after the restart: {answers}"
                acknowledged.append(version)
                assert await until(lambda: page.version >= version + 1, CATCH_UP), (
                    page.version, version + 1,
                )
                _, logged = table_state(database, code)
                # Nothing committed while PostgreSQL was down: the log holds exactly the
                # moves answered 200, once each.
                assert sorted(logged) == sorted(v + 1 for v in acknowledged), (
                    logged, acknowledged,
                )

        run_async(scenario())


RECOVERY = 5.0  # seconds: "try again in a few seconds" after PostgreSQL is back
OUTAGE = 20.0  # seconds PostgreSQL stays away (a restart, a failover)


def test_moves_are_accepted_within_a_few_seconds_of_postgresql_coming_back(private_postgres):
    cluster, database = private_postgres
    with server_on(cluster, database) as server:

        async def scenario() -> None:
            async with aiohttp.ClientSession() as http:
                code, host, guest = await table_in_play(http, server, server)
                player, version, move = await next_move(code, [host, guest])
                cluster.stop()
                down_at = time.monotonic()
                while time.monotonic() - down_at < OUTAGE:  # people keep trying meanwhile
                    status, body = await play(code, player, version, move)
                    assert status == 503, (status, body[:500])
                    await asyncio.sleep(min(2.0, max(0.0, OUTAGE - (time.monotonic() - down_at))))
                cluster.start()
                answers, accepted_in = await accepted_after_restart(
                    code, player, version, move, limit=RECOVERY
                )
                print(f"\npostgres: after {OUTAGE:.0f} s away, {answers} in {accepted_in:.2f} s")
                assert answers[-1] == 200 and accepted_in <= RECOVERY, (answers, accepted_in)

        run_async(scenario())
