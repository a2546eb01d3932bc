"""The faults' cast, shared by the fault tests (tests/scale/test_faults.py: what must happen)
and their benchmark (bench/faults.py: how long it takes): people with a browser's cookies,
their table pages' websockets, a table in play through the real HTTP flow, and a Redis and a
PostgreSQL of their own to kill and start (never the machine's: each runs on a free port, in a
temporary directory).
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager, suppress
from dataclasses import dataclass
from glob import glob
from pathlib import Path

import aiohttp
import psycopg

from tests.live import database_migrate, free_port, server_processes

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
# Bounds every wait for a state that must come (a page catching up, a server taking moves
# again): generous, so that a busy machine never trips it; how long it takes is bench/faults.py's.
WAIT = 30.0
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
            timeout=aiohttp.ClientTimeout(total=WAIT),
        ) as response:
            body = await response.text()
            for name, morsel in response.cookies.items():
                self.cookies[name] = morsel.value
            return response.status, body, dict(response.headers)


class News:
    """Wakes whoever waits on the pages whenever one of them changes (a frame, a connection)."""

    def __init__(self) -> None:
        self.condition = asyncio.Condition()

    async def tell(self) -> None:
        async with self.condition:
            self.condition.notify_all()

    async def until(self, predicate: Callable[[], bool], timeout: float = WAIT) -> bool:
        """Whether `predicate` came true (checked at each change) within `timeout` s."""
        async with self.condition:
            try:
                await asyncio.wait_for(self.condition.wait_for(predicate), timeout)
            except TimeoutError:
                return False
        return True


class Page:
    """The table page's websocket: every frame's version and when it came. When the socket
    closes the page connects again after `RECONNECT` seconds, to its person's server then
    (as htmx's websocket extension does, behind a proxy)."""

    RECONNECT = 0.3

    def __init__(self, person: Person, code: str, news: News) -> None:
        self.person, self.code, self.news = person, code, news
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
            await self.news.tell()
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
                        await self.news.tell()
            except (aiohttp.ClientError, OSError, TimeoutError):
                pass
            await asyncio.sleep(self.RECONNECT)  # the page's own pause before reconnecting

    @property
    def connections(self) -> int:
        return len(self.attempts)

    def first_frame_of(self, connection: int) -> tuple[float, int] | None:
        return next(((t, v) for t, v, n in self.frames if n == connection), None)

    def reached_at(self, version: int) -> float | None:
        """When a frame showing `version` (or later) first came."""
        return next((t for t, v, _ in self.frames if v >= version), None)


# --- A table in play, through the real HTTP flow ---------------------------------------------


async def table_opened(
    http: aiohttp.ClientSession, server: str, turn_limit: int = 0
) -> tuple[str, Person]:
    """ABRIR MESA (Ana, Clásico, `turn_limit` seconds a turn): (code, host)."""
    host = Person(http, server)
    await host.request("GET", "/")
    status, body, headers = await host.request(
        "POST", "/abrir/",
        {"rules": "clasico", "name": "Ana", "deck": "clasica", "turn_limit": turn_limit},
        htmx=False,
    )
    assert status == 302, body[:500]
    # The host lands on the players' own address.
    _, page, _ = await host.request("GET", headers["Location"])
    return re.search(r'data-invite="/mesa/([^/"]+)/"', page).group(1), host


async def table_in_play(
    http: aiohttp.ClientSession, host_server: str, guest_server: str
) -> tuple[str, Person, Person]:
    """ABRIR MESA (Ana, Clásico), Beto sits down by the invitation, EMPEZAR: (code, host, guest)."""
    code, host = await table_opened(http, host_server)
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
    news: News

    @property
    def players(self) -> list[Person]:
        return [self.host, self.guest]

    async def all_pages(self, predicate: Callable[[Page], bool]) -> bool:
        """Whether every page came to `predicate` within WAIT s."""
        return await self.news.until(lambda: all(predicate(p) for p in self.pages))

    async def move_reaches_every_page(self) -> tuple[int, float, list[float]]:
        """The player to move makes a legal move, answered 200, and every page shows it:
        (the version it was made against, when it was sent, when each page showed it)."""
        player, version, move = await next_move(self.code, self.players)
        sent = time.monotonic()
        status, body = await play(self.code, player, version, move)
        assert status == 200, body[:500]
        assert await self.all_pages(lambda p: p.version > version), [
            p.version for p in self.pages
        ]
        return version, sent, [p.reached_at(version + 1) for p in self.pages]


@asynccontextmanager
async def watched_table(
    http: aiohttp.ClientSession, host_server: str, guest_server: str, watcher_server: str
) -> AsyncIterator[Watched]:
    """`table_in_play` and a spectator, each with their page's socket open (closed after)."""
    code, host, guest = await table_in_play(http, host_server, guest_server)
    watcher = await spectator(http, watcher_server, code)
    news = News()
    pages = [Page(person, code, news) for person in (host, guest, watcher)]
    for page in pages:
        page.open()
    try:
        yield Watched(code, host, guest, watcher, pages, news)
    finally:
        for page in pages:
            await page.close()


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


async def accepted_again(
    code: str, player: Person, version: int, move: str, pace: float = 0.2
) -> tuple[list[int], float]:
    """The same move posted again, as a person trying again every `pace` s, until it is
    accepted (or WAIT s pass): (the statuses, seconds from the first try to the 200). Only
    200 or 503 may answer, never a 500."""
    started = time.monotonic()
    answers = []
    while time.monotonic() - started < WAIT:
        status, body = await play(code, player, version, move)
        answers.append(status)
        assert status in (200, 503), (status, body[:500])
        if status == 200:
            break
        await asyncio.sleep(pace)
    return answers, time.monotonic() - started


# --- A Redis of its own ----------------------------------------------------------------------


class PrivateRedis:
    """A Redis of its own on a free port (never the machine's), to kill and start."""

    def __init__(self, directory: str) -> None:
        self.directory = directory
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        """Start, and return once it says it accepts connections (its log, on stdout: read
        to the end by a thread of its own, so the pipe never fills)."""
        self.process = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--daemonize", "no", "--dir", self.directory],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        ready = threading.Event()

        def read_log(log) -> None:
            for line in log:
                if "Ready to accept connections" in line:
                    ready.set()

        threading.Thread(target=read_log, args=(self.process.stdout,), daemon=True).start()
        if not ready.wait(WAIT):
            raise RuntimeError("the private redis-server did not start")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=WAIT)


@contextmanager
def private_redis() -> Iterator[PrivateRedis]:
    with tempfile.TemporaryDirectory() as directory:
        redis = PrivateRedis(directory)
        redis.start()
        try:
            yield redis
        finally:
            redis.kill()


# --- A PostgreSQL of its own -----------------------------------------------------------------


def _postgres_bin() -> Path | None:
    for directory in sorted(glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(directory) / "initdb").exists() and (Path(directory) / "pg_ctl").exists():
            return Path(directory)
    found = shutil.which("initdb")
    return Path(found).parent if found and shutil.which("pg_ctl") else None


POSTGRES_BIN = _postgres_bin()


class PrivatePostgres:
    """A PostgreSQL cluster of its own (never the machine's): initdb'd into a temporary
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

    def new_database(self) -> str:
        """A new, migrated database in this cluster: its URL."""
        name = f"ocholoco_faults_{uuid.uuid4().hex[:8]}"
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        database_migrate({"DATABASE_URL": self.url(name), "REDIS_URL": ""})
        return self.url(name)


def no_private_postgres() -> str:
    """Why a private PostgreSQL cannot be started here ("" if it can)."""
    if POSTGRES_BIN is None:
        return "needs PostgreSQL's initdb and pg_ctl (a private cluster is started)"
    if os.geteuid() == 0 and not shutil.which("runuser"):
        return "runs as root: needs runuser to start PostgreSQL as the postgres user"
    return ""


@contextmanager
def private_postgres() -> Iterator[PrivatePostgres]:
    """A private cluster, started; stopped and removed afterwards."""
    directory = Path(tempfile.mkdtemp(prefix="ocholoco-pg-"))
    try:
        if os.geteuid() == 0:
            shutil.chown(directory, "postgres", "postgres")
        cluster = PrivatePostgres(directory)
        cluster.initdb()
        cluster.start()
        try:
            yield cluster
        finally:
            with suppress(subprocess.CalledProcessError):
                cluster.stop()
    finally:
        shutil.rmtree(directory, ignore_errors=True)


@contextmanager
def server_on(cluster: PrivatePostgres, database: str) -> Iterator[str]:
    """One server process on the private cluster (started if it was left stopped), its
    channel layer in memory: for the faults of the database alone."""
    if not cluster.running():
        cluster.start()
    env = {"DATABASE_URL": database, "REDIS_URL": "", "TASK_WORKERS": "0",
           "CHANNEL_PREFIX": f"t{uuid.uuid4().hex[:8]}"}
    with server_processes(env) as (server,):
        yield server
