"""Load benchmark: real servers, real HTTP posts and websockets, legal moves at a set rate.

    .venv/bin/python bench/load.py --mode embedded --tables 10 --duration 30
    .venv/bin/python bench/load.py --mode multi --processes 2 --tables 10 --duration 30
    .venv/bin/python bench/load.py --scenario robots|duplicates --fault kill|redis|slow-reader
    .venv/bin/python bench/load.py --idle --tables 600 --spectators 8 --total-rate 20 --storm
    .venv/bin/python bench/load.py --pages 2,6,10 --code . --code ../other-checkout
    .venv/bin/python bench/load.py --churn 10 --tables 60 --spectators 8

It starts the server(s) itself with DEBUG off: `embedded` is one server process (`python -m
config.server`) on SQLite with the in-memory channel layer (what `scripts/run.sh` runs);
`multi` is N such processes on a fresh
PostgreSQL database (127.0.0.1:5432, user postgres) and the Redis at 127.0.0.1:6379, with a
channel prefix of the run's own. It sets tables up as browsers do (GET for the CSRF cookie,
ABRIR MESA, SENTARME, EMPEZAR), opens every seat's and spectator's websocket with the page's
cookies and Origin, and plays from each player's own panel: the buttons that carry a move.

Scenarios: `people` (2 players + S spectators a table, each table moving --rate times a
second, tables staggered), `robots` (the host adds three robots, starts and leaves: the lag of
robot moves over ROBOT_DELAY from the spacing of versions a spectator sees) and `duplicates`
(four identical POSTs for every turn at once: exactly one may apply). Faults, in the middle of
the measured window: `kill` (kill -9 of one process; its viewers reconnect to a live one),
`redis` (Redis shut down for a second and started again), `slow-reader` (one spectator stops
reading its socket for --slow-seconds).

`--idle`: the tables are set up with no page open, then every page opens its socket at the
same moment: the time until each has its table, sockets refused or lost, server CPU per
connect, server RSS before and after, so memory per open page (`--tracemalloc`: and where it
goes, by allocation site), then the server's CPU while nothing moves; then the moves
(`--total-rate` spreads N moves a second over the tables). `--storm`: after the moves, every
page closes and reopens at once (a restart, a deploy). `--pages 2,6,10` runs once per number
of pages a table and prints server CPU per move for each; `--code DIR` (repeated) serves from
other checkouts too, alternating, with the ratio of the first to the second. `--churn N`:
tables come and go, N waves of --tables tables each set up, opened, played (--churn-moves)
and closed for good; the server's RSS after the first wave and after the last, and what each
table still adds once the process is warm (over the last half of the waves). The benchmark
and the servers it starts get as many open files as the hard limit allows.

Printed per run: server RSS, moves/s, POST p50/p99, move -> every viewer updated p50/p99
(measured from the moment the POST was sent to the moment a viewer received a fragment whose
data-version reached the move's version; the mover's own POST answer counts for the mover,
as the page swaps it in), server CPU ms per move, errors by status, and acknowledged moves
missing from or doubled in the table's log (read with Django's ORM from the run's database).
It prints figures; it is not a test. All traffic goes to 127.0.0.1; every loop is bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode, urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402

from tests.live import (  # noqa: E402
    free_port,
    fresh_database,
    serve_command,
    server_env,
    wait_for_port,
)

POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/postgres"
REDIS_URL = "redis://127.0.0.1:6379/0"
REDIS_START = [
    "redis-server", "--daemonize", "yes", "--bind", "127.0.0.1", "-::1", "--port", "6379",
    "--save", "", "--appendonly", "no", "--dir", "/var/lib/redis",
    "--logfile", "/var/log/redis/ci.log",
]
CLOCK_TICK = os.sysconf("SC_CLK_TCK")

VERSION_RE = re.compile(r'data-version="(\d+)"')
MOVE_RE = re.compile(r'name="move" value="([^"]+)"')
ROUND_END_RE = re.compile(r'id="board" class="board status-(round_over|match_over)')
NOT_CARDS = {"draw", "pass", "catch"}
STALL = 8.0  # seconds a table waits for a push before its players reload the page
GRACE = 5.0  # seconds after the window for the last pushes to arrive
FIRST_RETRY = 0.5  # seconds: the most a page waits before its first reconnect (socket.js)
MOVED_RETRY = 0.05  # the same after its process closed it with 1012, draining (socket.js)
SERVICE_RESTART = 1012  # the close code of a draining process (tables/live/drain.py)


# --- Servers ------------------------------------------------------------------------------


@dataclass
class Server:
    kind: str  # "web" or "worker"
    url: str  # "" for a worker
    process: subprocess.Popen
    log: Path
    metrics: str = ""  # its metrics' address (METRICS_PORT), "" for a worker
    pid: int = 0  # the Python process measured (py-spy's child when profiling)
    alive: bool = True


def _management_commands(env: dict[str, str]) -> set[str]:
    names = subprocess.run(
        [sys.executable, "manage.py", "help", "--commands"], cwd=ROOT, env=server_env(env),
        capture_output=True, text=True, check=True,
    ).stdout.split()
    return set(names)


WORKER_COMMANDS = ("tasks_worker", "run_workers", "db_worker")  # the first one that exists


# The move view's own time in its answer's Server-Timing header ("view;dur=12.3", ms), and how
# long the request waited, whole, for a request thread ("wait;dur=0.4", ms: config.request_wait).
VIEW_TIMING_RE = re.compile(r"view;dur=([0-9.]+)")
WAIT_TIMING_RE = re.compile(r"wait;dur=([0-9.]+)")
BUSY_RE = re.compile(r"^ocholoco_request_threads_busy_seconds_total ([0-9.e+-]+)$", re.M)
THREAD_CPU_RE = re.compile(r"^ocholoco_request_threads_cpu_seconds_total ([0-9.e+-]+)$", re.M)

# --client browser: what Chromium sends, besides the cookies, Origin and htmx's own headers.
# What a browser in each language the site offers says it reads (--languages).
ACCEPT_LANGUAGE = {
    "es": "es-419,es;q=0.9,en;q=0.8", "en": "en-US,en;q=0.9", "pt-br": "pt-BR,pt;q=0.9,en;q=0.8",
}
BROWSER_HEADERS = {
    "User-Agent": ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
                   "Chrome/156.0.0.0 Safari/537.36"),
    "Accept-Encoding": "gzip, deflate, br, zstd",
    "Accept-Language": "es-419,es;q=0.9,en;q=0.8",
    "Cache-Control": "no-cache",
}
PAGE_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


async def body_after_headers(body: bytes, gap: float):
    """A POST's body as its own write after the headers (`gap` s later): as it reaches a
    server from a browser on a real network, in a packet after the headers' (aiohttp would
    send a small body in the headers' write, which no network promises)."""
    yield b""  # the headers go out alone
    await asyncio.sleep(gap)
    yield body
def server_commands(
    mode: str, processes: int, workers: int, env: dict[str, str], code: Path = ROOT,
    server: str = "",
) -> list[tuple[str, int, list[str], dict[str, str]]]:
    """Every process of the run as (kind, port or 0, argv, its own settings): the one place
    that says what a run starts. Web processes are the checkout's server (`server`: another
    one that `config.server` knows); with `workers` > 0, that many task
    worker processes (`manage.py tasks_worker`), and then the web processes run no worker
    threads of their own (TASK_WORKERS=0, the production shape)."""
    count = 1 if mode == "embedded" else processes
    worker = ""
    if workers > 0:
        available = _management_commands(env)
        worker = next((name for name in WORKER_COMMANDS if name in available), "")
        if not worker:
            print(f"--workers {workers}: no worker command in this project, none started")
    web_settings = {"TASK_WORKERS": "0"} if worker else {}
    commands: list[tuple[str, int, list[str], dict[str, str]]] = []
    for _ in range(count):
        port = free_port()
        argv = serve_command(port, code, server)
        if env.get("BENCH_TRACEMALLOC"):  # the same server, its allocations traced
            argv = [sys.executable, str(Path(__file__).resolve()), "--serve-traced", *argv[1:]]
        commands.append(("web", port, argv, {**web_settings, "METRICS_PORT": str(free_port())}))
    if worker:
        commands += [("worker", 0, [sys.executable, "manage.py", worker], {})] * workers
    return commands


def _children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


@contextlib.contextmanager
def start_servers(
    mode: str, processes: int, workers: int, env: dict[str, str], profile: str = "",
    code: Path = ROOT, server: str = "",
) -> Iterator[list[Server]]:
    """Start the run's processes (see `server_commands`) with `env`, from the checkout `code`;
    stop them afterwards."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if profile and not Path(spy).exists():
        print("--profile: py-spy is not installed; running without it")
        profile = ""
    stamp = time.strftime("%H%M%S")
    servers: list[Server] = []
    try:
        commands = server_commands(mode, processes, workers, env, code, server)
        for index, (kind, port, argv, own) in enumerate(commands):
            log = Path(tempfile.gettempdir()) / f"ocholoco-load-{stamp}-{kind}{index}.log"
            if profile:
                # speedscope keeps each thread's samples in time order: what ran when.
                suffix = "json" if profile == "speedscope" else "svg"
                out = Path(tempfile.gettempdir()) / f"ocholoco-load-{stamp}-{kind}{index}.{suffix}"
                argv = [spy, "record", "--nonblocking", "--idle", "--threads", "--format",
                        profile if profile == "speedscope" else "flamegraph",
                        "-o", str(out), "--", *argv]
                print(f"profile of {kind} {index}: {out}")
            with log.open("wb") as handle:
                process = subprocess.Popen(
                    argv, cwd=code, env=server_env({**env, **own}), stdout=handle,
                    stderr=subprocess.STDOUT,
                )
            metrics = own.get("METRICS_PORT")
            server = Server(kind, f"http://127.0.0.1:{port}" if port else "", process, log,
                            f"http://127.0.0.1:{metrics}/metrics" if metrics else "")
            servers.append(server)
            if port:
                wait_for_port(port, process)
            server.pid = process.pid
            if profile:
                for _ in range(50):
                    if children := _children(process.pid):
                        server.pid = children[0]
                        break
                    time.sleep(0.1)
        yield servers
    finally:
        for server in servers:
            if server.process.poll() is None:
                # Profiling: stop the program, py-spy then writes its file and exits.
                os.kill(server.pid or server.process.pid, signal.SIGTERM)
        for server in servers:
            try:
                server.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.process.kill()


def cpu_ticks(pid: int) -> int | None:
    """utime + stime + children's, in clock ticks, of the process and its live children (a
    server that serves from a child process, as granian does); None once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    own = sum(int(fields[i]) for i in (11, 12, 13, 14))
    return own + sum(cpu_ticks(child) or 0 for child in _children(pid))


def rss_mb(pid: int) -> float:
    """The resident memory (VmRSS) of the process and its live children, in MB; nan once it
    is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                own = int(line.split()[1]) / 1024
                return own + sum(rss_mb(child) for child in _children(pid))
    except OSError:
        pass
    return float("nan")


def raise_file_limit() -> int:
    """As many open files as the hard limit allows, for this process and the servers it
    starts (they inherit it): every page is a socket on both sides."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def shared_ticks() -> dict[int, int]:
    """CPU of every PostgreSQL and Redis process on the machine (other users' included),
    by pid: a process started since (a restarted Redis, a new backend) counts from zero."""
    ticks = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            text = stat.read_text()
            if "(postgres)" in text or "(redis-server)" in text:
                fields = text.rsplit(")", 1)[1].split()
                ticks[int(stat.parent.name)] = sum(int(fields[i]) for i in (11, 12, 13, 14))
    return ticks


# --- Clients ------------------------------------------------------------------------------


def max_version(html: str) -> int:
    return max((int(v) for v in VERSION_RE.findall(html)), default=-1)


def panel_of(html: str) -> str:
    start = html.find('id="panel"')
    if start < 0:
        return ""
    end = html.find("</section>", start)
    return html[start:end if end > 0 else len(html)]


class Viewer:
    """One browser: its cookies, its socket, and the versions it has seen and when."""

    def __init__(
        self, bench: Bench, table: Table, role: str, server: int, language: str = "es"
    ) -> None:
        self.bench, self.table, self.role, self.server = bench, table, role, server
        self.language = language  # the language this person reads the site in
        self.cookies: dict[str, str] = {}  # this person's cookie jar
        self.page = ""  # the address of the page this person has open
        # --client browser: this person's own connections (a browser keeps up to six to a site)
        self.session: aiohttp.ClientSession | None = None
        self.server_timing = ""  # its last answer's Server-Timing header
        self.version = -1
        self.seen: dict[int, float] = {}
        self.round_ends: set[int] = set()  # versions whose board showed a round's end
        self.panel = ""
        self.panel_version = -1
        self.stale = False  # its last post was refused or failed: wait for a fresh panel
        self.socket: aiohttp.ClientWebSocketResponse | None = None
        self.first_frame = asyncio.Event()
        self.reconnects: list[float] = []  # socket lost -> first frame on a new one
        self.handshakes: list[float] = []  # socket lost -> a new one accepted
        self.disconnects = 0
        self.opens = 0  # sockets accepted
        self.refused = 0  # handshakes the server refused
        self.failed = 0  # connections that failed otherwise (reset, timed out)
        self.task: asyncio.Task | None = None
        self.paused_until = 0.0
        self.closed = False

    @property
    def base(self) -> str:
        return self.bench.urls[self.server]

    def next_server(self) -> None:
        """Another live web process, as a proxy would route a retry."""
        count = len(self.bench.urls)
        for step in range(1, count + 1):
            candidate = (self.server + step) % count
            if self.bench.web[candidate].alive:
                self.server = candidate
                return

    def take(self, html: str, at: float) -> None:
        """A fragment arrived (socket frame or POST answer): record the versions reached."""
        version = max_version(html)
        if version > self.version:
            for v in range(self.version + 1, version + 1):
                self.seen.setdefault(v, at)
            self.version = version
            if ROUND_END_RE.search(html):
                self.round_ends.add(version)
        panel = panel_of(html)
        # A panel older than the one held (a push overtaken by a POST answer) is not news.
        if panel and max_version(panel) >= self.panel_version:
            self.panel, self.panel_version = panel, max_version(panel)
            self.stale = False
            self.table.changed.set()

    async def request(
        self, method: str, path: str, data: dict | None = None, htmx: bool = False
    ) -> tuple[int, str, str]:
        browser = self.bench.args.client == "browser"
        await self.open_session()
        headers = {"Origin": self.base}
        if browser:  # what Chromium sends with a page's GET or htmx's POST
            headers.update(BROWSER_HEADERS)
        if browser or self.language != "es":
            headers["Accept-Language"] = ACCEPT_LANGUAGE[self.language]
            headers["Accept"] = "*/*" if htmx else PAGE_ACCEPT
            if self.page:
                headers["Referer"] = self.base + self.page
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body: object = data
        if method == "POST":
            token = self.cookies.get("csrftoken", "")
            data = {**(data or {}), "csrfmiddlewaretoken": token}
            body = data
            if htmx:
                headers.update({"HX-Request": "true", "X-CSRFToken": token})
                if browser and self.page:
                    headers["HX-Current-URL"] = self.base + self.page
            if browser:  # the body leaves after its headers, in a write of its own
                encoded = urlencode(data).encode()
                headers["Content-Type"] = "application/x-www-form-urlencoded"
                headers["Content-Length"] = str(len(encoded))
                gap = self.bench.args.body_gap
                if random.random() < self.bench.args.late_bodies:
                    gap = self.bench.args.late_body_gap  # its packet lost, sent again
                body = body_after_headers(encoded, gap)
        http = self.session if browser else self.bench.http
        async with http.request(
            method, self.base + path, data=body, headers=headers, allow_redirects=False
        ) as response:
            body = await response.text()
            self.server_timing = response.headers.get("Server-Timing", "")
            if method == "GET" and response.status == 200 and not htmx:
                self.page = path  # the page this person is on (Referer, HX-Current-URL)
            wait = WAIT_TIMING_RE.search(self.server_timing)
            if wait:
                self.bench.waits.append((time.monotonic(), float(wait.group(1)) / 1000))
            for name, morsel in response.cookies.items():
                self.cookies[name] = morsel.value
            return response.status, body, response.headers.get("Location", "")

    async def socket_loop(self) -> None:
        """Connect as the page does and read every frame; when the socket closes abnormally
        or its handshake is refused, reconnect as the page does (static/js/socket.js: the
        first retry within MOVED_RETRY s after a 1012, its process draining, else within
        FIRST_RETRY s, then htmx's full jitter, a random wait below
        2^min(retries, 6) s, the retries counted from the last socket accepted), until the run
        ends. A clean close (the server meant it) ends it."""
        retries = 0
        lost_at: float | None = None
        while not self.closed and retries < 30:
            url = self.base.replace("http", "ws") + f"/ws/mesa/{self.table.code}/"
            if self.language != "es":  # as the page's ws-connect names it
                url += f"?lang={self.language}"
            headers = {"Origin": self.base,
                       "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
            clean = False
            code = None
            try:
                async with self.bench.sockets.ws_connect(
                    url, headers={**self.socket_headers(), **headers}, max_msg_size=0,
                    autoping=True,
                ) as socket:
                    self.socket = socket
                    self.opens += 1
                    retries = 0
                    if lost_at is not None:
                        self.handshakes.append(time.monotonic() - lost_at)
                    async for message in socket:
                        if message.type != aiohttp.WSMsgType.TEXT:
                            break
                        now = time.monotonic()
                        if lost_at is not None:
                            self.reconnects.append(now - lost_at)
                            lost_at = None
                        self.take(message.data, now)
                        self.first_frame.set()
                    code = socket.close_code
                    clean = code in (1000, 1001) if not self.closed else True
            except aiohttp.WSServerHandshakeError:
                self.refused += 1
            except (TimeoutError, aiohttp.ClientError, OSError):
                self.failed += 1
            self.socket = None
            if self.closed or clean:
                return
            self.disconnects += 1
            lost_at = lost_at or time.monotonic()
            if not self.bench.web[self.server].alive:
                self.next_server()
            if retries == 0:
                wait = MOVED_RETRY if code == SERVICE_RESTART else FIRST_RETRY
            else:
                wait = 2 ** min(retries, 6)
            await asyncio.sleep(random.random() * wait)
            retries += 1

    def socket_headers(self) -> dict[str, str]:
        """What a browser's websocket handshake carries besides the cookies and Origin."""
        if self.bench.args.client != "browser":
            return {}
        return {"User-Agent": BROWSER_HEADERS["User-Agent"],
                "Accept-Encoding": BROWSER_HEADERS["Accept-Encoding"],
                "Accept-Language": ACCEPT_LANGUAGE[self.language]}

    async def open_session(self) -> None:
        """--client browser: this person's connections, kept alive between requests."""
        if self.bench.args.client == "browser" and self.session is None:
            self.session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=6), cookie_jar=aiohttp.DummyCookieJar(),
                timeout=aiohttp.ClientTimeout(total=30),
            )

    async def close_session(self) -> None:
        if self.session is not None:
            await self.session.close()
            self.session = None

    def pause_reading(self, seconds: float) -> None:
        """Stop reading the socket (the kernel buffers fill, then the server's)."""
        connection = getattr(self.socket, "_conn", None)
        transport = getattr(connection, "transport", None)
        if transport is not None:
            transport.pause_reading()
            self.paused_until = time.monotonic() + seconds
            asyncio.get_running_loop().call_later(seconds, transport.resume_reading)


@dataclass
class Move:
    table: str
    version: int  # the version the move was made against; the log has it at version + 1
    move: str
    sent: float
    answered: float
    applied: int  # how many of its POSTs answered 200 (duplicates scenario: should be 1)
    view: float | None = None  # the server's own time in the view (its Server-Timing), s
    last_viewer: float | None = None  # until its last viewer was updated, s


@dataclass
class Table:
    index: int
    code: str = ""
    players: list[Viewer] = field(default_factory=list)
    viewers: list[Viewer] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    made: list[tuple[int, float]] = field(default_factory=list)  # (version, answered at)
    lateness: list[float] = field(default_factory=list)
    reloads: int = 0
    stalls: int = 0


class Bench:
    def __init__(self, args: argparse.Namespace, servers: list[Server]) -> None:
        self.args = args
        self.servers = servers
        self.web = [s for s in servers if s.kind == "web"]
        self.urls = [s.url for s in self.web]
        self.http: aiohttp.ClientSession
        self.sockets: aiohttp.ClientSession  # the pages' websockets
        self.tables: list[Table] = []
        self.quiet: list[Table] = []  # --idle-tables: their pages open, nobody moves
        self.moves: list[Move] = []
        self.statuses: Counter = Counter()  # (what, status) of every POST
        self.duplicate_outcomes: Counter = Counter()
        self.refusals: Counter = Counter()  # (what, status, the notice's text)
        self.loop_lag: list[tuple[float, float]] = []
        self.waits: list[tuple[float, float]] = []  # (when, a request's wait for a thread)
        self.cpu_last: dict[int, int] = {}
        self.cpu_sampled: tuple[float, int] | None = None  # (when, the servers' ticks)
        self.cpu_shares: list[tuple[float, float]] = []  # (when, share of a core since)
        self.window = (0.0, 0.0)
        self.fault_notes: list[str] = []
        self.fault_window = (0.0, 0.0)
        self.slow: Viewer | None = None
        self.killed_at = 0.0
        self.redis_up_at = 0.0
        self.redis_targets: dict[int, int] = {}
        self.rss_start = self.rss_end = float("nan")
        self.cpu_per_move = float("nan")
        self.busy0: tuple[float, float] | None = None
        self.busy1: tuple[float, float] | None = None

    # -- set-up through the real HTTP flow --

    def viewer(self, table: Table, role: str, number: int) -> Viewer:
        languages = self.args.languages.split(",")
        viewer = Viewer(
            self, table, role, (table.index + number) % len(self.urls),
            languages[number % len(languages)],
        )
        table.viewers.append(viewer)
        return viewer

    async def set_up(self, table: Table) -> None:
        args = self.args
        host = self.viewer(table, "host", 0)
        await host.request("GET", "/")
        status, body, location = await host.request(
            "POST", "/abrir/",
            {"rules": "clasico", "name": f"Ana{table.index}", "deck": "clasica", "turn_limit": 0},
        )
        if status != 302:
            raise RuntimeError(f"ABRIR MESA answered {status}: {body[:300]}")
        table.code = location.strip("/").split("/")[-1]
        page = f"/mesa/{table.code}/"  # the players' own address
        _, body, _ = await host.request("GET", page)
        invitation = re.search(r'data-invite="(/mesa/[^/"]+/)"', body).group(1)
        table.players.append(host)
        if args.scenario == "robots":
            for _ in range(3):
                await self.post_checked(host, f"{page}robot/", {"level": args.robot_level})
        else:
            guest = self.viewer(table, "guest", 1)
            await guest.request("GET", invitation)  # newcomers sit down by the invitation
            await self.post_checked(
                guest, f"{invitation}sentarse/", {"name": f"Beto{table.index}"}
            )
            table.players.append(guest)
        for number in range(args.spectators):
            spectator = self.viewer(table, "spectator", 2 + number)
            if number == 0 or args.client == "browser":  # each browser loads its page
                await spectator.request("GET", page)
            else:  # a watcher's cookies prove nothing: the first one's serve (set-up time)
                spectator.cookies = dict(table.viewers[2].cookies)
        if not args.idle:  # (an idle run opens every page at once, once all are set up)
            for viewer in table.viewers:
                viewer.task = asyncio.create_task(viewer.socket_loop())
            await asyncio.wait_for(
                asyncio.gather(*(v.first_frame.wait() for v in table.viewers)), timeout=30
            )
        _, body, _ = await host.request("GET", page)
        await self.post_checked(host, f"{page}empezar/", {"version": max_version(body)})
        if args.scenario == "robots":
            await self.post_checked(host, f"{page}abandonar/", {})

    async def post_checked(self, viewer: Viewer, path: str, data: dict) -> str:
        status, body, _ = await viewer.request("POST", path, data, htmx=True)
        if status != 200:
            raise RuntimeError(f"POST {path} answered {status}: {body[:300]}")
        viewer.take(body, time.monotonic())
        return body

    # -- playing --

    async def post(
        self, viewer: Viewer, what: str, path: str, data: dict
    ) -> tuple[int, str]:
        """A POST as htmx sends it; a refused connection (a dead process) tries another."""
        for _ in range(3):
            try:
                status, body, _ = await viewer.request("POST", path, data, htmx=True)
            except (TimeoutError, aiohttp.ClientConnectionError) as error:
                self.statuses[(what, type(error).__name__)] += 1
                viewer.next_server()
                await asyncio.sleep(0.2)
                continue
            self.statuses[(what, status)] += 1
            if 400 <= status < 500:
                reason = re.sub(r"<[^>]+>", "", body).strip()[:70]
                self.refusals[(what, status, reason)] += 1
            return status, body
        return 0, ""

    async def reload(self, table: Table) -> None:
        """What a person does when the table hangs: reload the page."""
        table.reloads += 1
        for player in table.players:
            try:
                _, body, _ = await player.request("GET", f"/mesa/{table.code}/")
            except (TimeoutError, aiohttp.ClientError):
                player.next_server()
                continue
            player.take(body, time.monotonic())

    def actor(self, table: Table) -> tuple[Viewer, str] | None:
        """Who acts now, from the freshest panel: its player's move, or the host's next
        round / rematch; None while the panels are not up to date."""
        freshest = max(table.players, key=lambda p: p.panel_version)
        version = freshest.panel_version
        for player in table.players:
            if player.panel_version != version or player.stale:
                continue
            if 'siguiente/"' in player.panel or 'revancha/"' in player.panel:
                return player, "siguiente" if 'siguiente/"' in player.panel else "revancha"
            if "your-turn" in player.panel:
                return player, "jugar"
        return None

    async def step(self, table: Table) -> None:
        deadline = time.monotonic() + STALL
        found = self.actor(table)
        while found is None and time.monotonic() < deadline:
            table.changed.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(table.changed.wait(), deadline - time.monotonic())
            found = self.actor(table)
        if found is None:
            table.stalls += 1
            await self.reload(table)
            return
        player, action = found
        version = player.panel_version
        path = f"/mesa/{table.code}/{action}/"
        if action != "jugar":
            status, body = await self.post(player, action, path, {"version": version})
            if status == 200:
                player.take(body, time.monotonic())
            else:
                player.stale = True
            return
        moves = MOVE_RE.findall(player.panel)
        cards = [m for m in moves if m.lower() not in NOT_CARDS]
        move = random.choice(cards) if cards else next(
            (m for m in moves if m == "draw"), moves[0] if moves else "pass"
        )
        data = {"move": move, "version": version}
        copies = 4 if self.args.scenario == "duplicates" else 1
        sent = time.monotonic()
        answers = await asyncio.gather(
            *(self.post(player, "move", path, data) for _ in range(copies))
        )
        answered = time.monotonic()
        applied = sum(status == 200 for status, _ in answers)
        if copies > 1:
            self.duplicate_outcomes[applied] += 1
        if any(status >= 500 for status, _ in answers) or applied:
            table.made.append((version + 1, answered))
        if applied:
            player.take(next(body for status, body in answers if status == 200), answered)
            view = VIEW_TIMING_RE.search(player.server_timing)
            self.moves.append(Move(table.code, version, move, sent, answered, applied,
                                   float(view.group(1)) / 1000 if view else None))
        else:
            player.stale = True

    async def drive(self, table: Table, start: float) -> None:
        """The table's schedule: a move every 1/rate s, staggered; late moves go at once."""
        period = 1 / self.args.rate
        offset = table.index / len(self.tables) * period
        beat = 0
        while True:
            due = start + offset + beat * period
            if due >= self.window[1]:
                return
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            now = time.monotonic()
            if self.window[0] <= now <= self.window[1]:
                table.lateness.append(now - due)
            await self.step(table)
            beat += 1

    # -- measuring --

    async def watch_loop(self) -> None:
        """The client's own event-loop lag, and every server's CPU every half second."""
        while time.monotonic() < self.window[1] + GRACE:
            before = time.monotonic()
            await asyncio.sleep(0.1)
            after = time.monotonic()
            self.loop_lag.append((after, after - before - 0.1))
            total = 0
            for server in self.servers:
                ticks = cpu_ticks(server.pid)
                if ticks is not None:
                    self.cpu_last[server.pid] = ticks
                total += self.cpu_last.get(server.pid, 0)
            if self.cpu_sampled is not None:  # the servers' share of a core since the last
                at, ticks = self.cpu_sampled
                self.cpu_shares.append((after, (total - ticks) / CLOCK_TICK / (after - at)))
            self.cpu_sampled = (after, total)

    def server_cpu(self) -> int:
        for server in self.servers:
            ticks = cpu_ticks(server.pid)
            if ticks is not None:
                self.cpu_last[server.pid] = ticks
        return sum(self.cpu_last.get(s.pid, 0) for s in self.servers)

    # -- faults --

    async def fault(self) -> None:
        args = self.args
        w0, w1 = self.window
        if args.fault == "kill":
            await asyncio.sleep(max(0.0, w0 + (w1 - w0) / 2 - time.monotonic()))
            victim = self.web[0]
            self.killed_at = time.monotonic()
            victim.alive = False
            os.kill(victim.pid, signal.SIGKILL)
            self.fault_notes.append(f"kill -9 of web process 0 (pid {victim.pid})")
        elif args.fault == "redis":
            await asyncio.sleep(max(0.0, w0 + (w1 - w0) / 3 - time.monotonic()))
            down = time.monotonic()
            await (await asyncio.create_subprocess_exec(
                "redis-cli", "-h", "127.0.0.1", "-p", "6379", "shutdown", "nosave",
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )).wait()
            await asyncio.sleep(1.0)
            await (await asyncio.create_subprocess_exec(
                *REDIS_START, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )).wait()
            for _ in range(50):
                probe = await asyncio.create_subprocess_exec(
                    "redis-cli", "-h", "127.0.0.1", "ping", stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                )
                if b"PONG" in (await probe.communicate())[0]:
                    break
                await asyncio.sleep(0.1)
            self.redis_up_at = time.monotonic()
            self.fault_window = (down, self.redis_up_at)
            # What every page must catch up to: each table's newest version made by then.
            for table in self.tables:
                made = [v for v, at in table.made if at <= self.redis_up_at]
                self.redis_targets[table.index] = max(made, default=0)
            self.fault_notes.append(
                f"Redis down for {self.redis_up_at - down:.1f} s "
                f"(from {down - w0:.1f} s into the window)"
            )
        elif args.fault == "slow-reader":
            await asyncio.sleep(max(0.0, w0 + (w1 - w0) / 6 - time.monotonic()))
            table = self.tables[0]
            self.slow = table.viewers[-1]
            seconds = min(args.slow_seconds, w1 - time.monotonic())
            self.slow.pause_reading(seconds)
            self.fault_window = (time.monotonic(), time.monotonic() + seconds)
            self.fault_notes.append(
                f"{self.slow.role} of table 0 stops reading its socket for {seconds:.0f} s"
            )

    # -- the run --

    async def run(self) -> None:
        args = self.args
        timeout = aiohttp.ClientTimeout(total=30)
        connector = aiohttp.TCPConnector(limit=0)
        # Sockets on connections of their own, as a browser opens them (never an idle
        # connection of earlier requests, which a server may still be closing).
        async with aiohttp.ClientSession(
            connector=connector, timeout=timeout, cookie_jar=aiohttp.DummyCookieJar()
        ) as self.http, aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0, force_close=True),
            cookie_jar=aiohttp.DummyCookieJar(),
        ) as self.sockets:
            if args.churn:
                await self.churn()
                return
            self.tables = [Table(i) for i in range(args.tables)]
            self.quiet = [Table(args.tables + i) for i in range(args.idle_tables)]
            started = time.monotonic()
            limit = asyncio.Semaphore(8)

            async def set_up(table: Table) -> None:
                async with limit:
                    await self.set_up(table)

            await asyncio.gather(*(set_up(t) for t in self.tables + self.quiet))
            print(f"{args.tables} tables set up in {time.monotonic() - started:.1f} s"
                  + (f", and {len(self.quiet)} where nobody moves, "
                     f"{sum(len(t.viewers) for t in self.quiet)} pages open on them"
                     if self.quiet else ""))
            if args.idle:
                await self.idle()
            # This client stands for thousands of browsers in one process: its collector's
            # full passes over their sockets stalled its loop (by up to 270 ms at 6,000
            # pages), and that counted as the server's delay. What is set up lives to the end.
            gc.collect()
            gc.freeze()
            self.rss_start = self.server_rss()
            start = time.monotonic()
            self.window = (start + args.warmup, start + args.warmup + args.duration)
            watcher = asyncio.create_task(self.watch_loop())
            faults = asyncio.create_task(self.fault())
            drivers = []
            if args.scenario != "robots":
                drivers = [asyncio.create_task(self.drive(t, start)) for t in self.tables]
            await asyncio.sleep(args.warmup)
            self.cpu0, self.shared0 = self.server_cpu(), shared_ticks()
            self.busy0 = await self.threads_busy()
            client0 = resource.getrusage(resource.RUSAGE_SELF)
            if args.scenario == "robots":
                await asyncio.sleep(max(0.0, self.window[1] - time.monotonic()))
            else:
                cpu_at_end = asyncio.create_task(self._cpu_at(self.window[1]))
                await asyncio.wait(drivers, timeout=args.warmup + args.duration + 60)
                await cpu_at_end
            if args.scenario == "robots":
                self.cpu1, self.shared1 = self.server_cpu(), shared_ticks()
            client1 = resource.getrusage(resource.RUSAGE_SELF)
            self.client_cpu = (client1.ru_utime + client1.ru_stime
                               - client0.ru_utime - client0.ru_stime)
            await asyncio.sleep(max(0.0, self.window[1] + GRACE - time.monotonic()))
            faults.cancel()
            await watcher
            self.rss_end = self.server_rss()
            if args.storm:
                await self.storm("restart")
            await self.close_all()

    def pages(self) -> list[Viewer]:
        return [v for t in self.tables + self.quiet for v in t.viewers]

    def server_rss(self) -> float:
        return sum(rss_mb(s.pid) for s in self.web)

    async def close_all(self) -> None:
        """Every page closes its socket (as a closed tab); wait for their loops to end."""
        for viewer in self.pages():
            viewer.closed = True
        closing = [v.socket.close() for v in self.pages() if v.socket is not None]
        await asyncio.wait_for(asyncio.gather(*closing, return_exceptions=True), timeout=120)
        tasks = [v.task for v in self.pages() if v.task is not None]
        if tasks:
            await asyncio.wait(tasks, timeout=60)
        await asyncio.gather(*(v.close_session() for v in self.pages()))

    async def storm(self, label: str) -> None:
        """Every page opens its socket at the same moment (a restart, a deploy): the time
        until every one has its whole table, and the server's CPU per connect."""
        viewers = self.pages()
        if any(v.task is not None for v in viewers):
            await self.close_all()
            await asyncio.sleep(3)  # the server lets the closed sockets go
        for viewer in viewers:
            viewer.closed = False
            viewer.first_frame.clear()
            viewer.opens = viewer.refused = viewer.failed = viewer.disconnects = 0
        cpu0 = self.server_cpu()
        client0 = resource.getrusage(resource.RUSAGE_SELF)
        began = time.monotonic()
        firsts: list[float] = []

        async def first(viewer: Viewer) -> None:
            await viewer.first_frame.wait()
            firsts.append(time.monotonic() - began)

        for viewer in viewers:
            viewer.task = asyncio.create_task(viewer.socket_loop())
        waiting = [asyncio.create_task(first(v)) for v in viewers]
        await asyncio.wait(waiting, timeout=self.args.storm_timeout)
        for task in waiting:
            task.cancel()
        elapsed = time.monotonic() - began
        cpu_ms = (self.server_cpu() - cpu0) / CLOCK_TICK * 1000
        client1 = resource.getrusage(resource.RUSAGE_SELF)
        client = client1.ru_utime + client1.ru_stime - client0.ru_utime - client0.ru_stime
        n = len(viewers)
        done = len(firsts)
        times = [f for f in firsts]
        print(f"{label}: {n} pages opening at once: {done} with their table "
              + (f"all within {max(times):.1f} s" if done == n else
                 f"after {elapsed:.0f} s, {n - done} never")
              + f" (each page's first frame: {ms(times)})")
        opens = Counter(v.opens for v in viewers)
        print(f"{label}: sockets accepted per page {dict(sorted(opens.items()))}; handshakes "
              f"refused {sum(v.refused for v in viewers)}, failed "
              f"{sum(v.failed for v in viewers)}; sockets lost after accepted "
              f"{sum(v.disconnects for v in viewers) - sum(v.refused + v.failed for v in viewers)}")
        print(f"{label}: server CPU {cpu_ms / max(done, 1):.2f} ms per connect "
              f"({cpu_ms / 1000:.1f} s in all); client CPU {client:.1f} s; server RSS "
              f"{self.server_rss():.0f} MB")

    async def churn(self) -> None:
        """Tables come and go (--churn waves of --tables tables): each wave's tables are set
        up, all their pages open, every table moves --churn-moves times, and the pages close
        for good. The server's RSS after the first wave and after the last: what is kept
        per table or per version must be released when its pages are gone."""
        args = self.args
        limit = asyncio.Semaphore(8)

        async def set_up(table: Table) -> None:
            async with limit:
                await self.set_up(table)

        async def play(table: Table) -> None:
            for _ in range(args.churn_moves):
                await self.step(table)

        traced, waves = None, []  # the server's RSS after each wave
        began = time.monotonic()
        for wave in range(args.churn):
            base = wave * args.tables
            self.tables = [Table(base + i) for i in range(args.tables)]
            await asyncio.gather(*(set_up(t) for t in self.tables))  # pages open there
            await asyncio.gather(*(play(t) for t in self.tables))
            await self.close_all()
            await asyncio.sleep(2)  # the server lets the closed sockets go
            rss = self.server_rss()
            waves.append(rss)
            if len(waves) == 1:
                traced = await self.memory_snapshot()
            print(f"churn wave {wave + 1}: {args.tables} tables, {len(self.pages())} pages "
                  f"opened and closed, {len(self.moves)} moves so far; server RSS {rss:.0f} MB "
                  f"({time.monotonic() - began:.0f} s)")
        first = waves[0]
        self.rss_start, self.rss_end = first, self.server_rss()
        gone = (args.churn - 1) * args.tables * (args.spectators + 2)
        self.memory_report(traced, await self.memory_snapshot(), max(gone, 1))
        print(f"churn: {args.churn * args.tables} tables in all; server RSS after the first "
              f"wave {first:.0f} MB, after the last {self.rss_end:.0f} MB "
              f"({(self.rss_end / first - 1) * 100:+.1f}%)")
        if len(waves) >= 4:  # a warm process: what each further table still adds, if anything
            half = len(waves) // 2
            per_table = (waves[-1] - waves[half - 1]) / ((len(waves) - half) * args.tables)
            print(f"churn: over the last {len(waves) - half} waves (warm), "
                  f"{per_table * 100:+.2f} MB per 100 tables that came and went")

    async def memory_snapshot(self) -> Path | None:
        """A tracemalloc snapshot of web process 0 (--tracemalloc), written on SIGUSR1."""
        if not self.args.tracemalloc:
            return None
        path = Path(self.args.tracemalloc_dir) / f"snapshot-{time.monotonic_ns()}"
        Path(self.args.tracemalloc_dir, "next").write_text(str(path))
        os.kill(self.web[0].pid, signal.SIGUSR1)
        for _ in range(600):
            if path.exists():
                return path
            await asyncio.sleep(0.1)
        return None

    def memory_report(self, before: Path | None, after: Path | None, pages: int) -> None:
        if before is None or after is None:
            return
        import tracemalloc

        old = tracemalloc.Snapshot.load(str(before))
        new = tracemalloc.Snapshot.load(str(after))
        stats = new.compare_to(old, "traceback")
        grown = sum(s.size_diff for s in stats)
        print(f"tracemalloc: {grown / 1024 / pages:.1f} KB per open page traced "
              "(Python's own allocations); the largest growths, per open page:")
        for stat in stats[:self.args.tracemalloc_top]:
            frames = [f for f in stat.traceback if "/asyncio/" not in f.filename][-3:]
            where = " <- ".join(
                f"{'/'.join(Path(f.filename).parts[-2:])}:{f.lineno}" for f in reversed(frames)
            )
            print(f"  {stat.size_diff / pages:8.0f} B {stat.count_diff / pages:6.1f} blocks  "
                  f"{where}")

    async def idle(self) -> None:
        """Many open pages, nothing moving: the memory each costs, the CPU they cost idle,
        and the time for them all to open at once."""
        n = len(self.pages())
        await asyncio.sleep(2)
        traced = await self.memory_snapshot()
        before = self.server_rss()
        print(f"idle: server RSS with {len(self.tables)} tables set up, no page open: "
              f"{before:.0f} MB")
        await self.storm("open")
        await asyncio.sleep(2)
        self.memory_report(traced, await self.memory_snapshot(), n)
        after = self.server_rss()
        print(f"idle: server RSS with {n} pages open: {after:.0f} MB, "
              f"{(after - before) * 1024 / n:.1f} KB per open page")
        cpu0 = self.server_cpu()
        began = time.monotonic()
        await asyncio.sleep(self.args.idle_seconds)
        cpu_ms = (self.server_cpu() - cpu0) / CLOCK_TICK * 1000
        print(f"idle: server CPU with {n} pages open and no move: "
              f"{cpu_ms / (time.monotonic() - began) / 10:.1f}% of one core "
              f"over {self.args.idle_seconds:g} s")

    async def threads_busy(self) -> tuple[float, float] | None:
        """The web processes' request threads' busy seconds so far, and their CPU seconds, all
        added (their metrics, config.request_thread); None where a server does not count them."""
        total = cpu = 0.0
        for server in self.web:
            if not server.metrics:
                return None
            try:
                async with self.http.get(server.metrics) as response:
                    text = await response.text()
            except (TimeoutError, aiohttp.ClientError):
                return None
            found, on_cpu = BUSY_RE.search(text), THREAD_CPU_RE.search(text)
            if not found:
                return None
            total += float(found.group(1))
            cpu += float(on_cpu.group(1)) if on_cpu else float("nan")
        return total, cpu

    async def _cpu_at(self, at: float) -> None:
        await asyncio.sleep(max(0.0, at - time.monotonic()))
        self.busy1 = await self.threads_busy()
        self.cpu1, self.shared1 = self.server_cpu(), shared_ticks()


# --- Report -------------------------------------------------------------------------------


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]


def ms(values: list[float]) -> str:
    if not values:
        return "n/a"
    return (f"p50 {pct(values, 50) * 1000:.0f} ms, p99 {pct(values, 99) * 1000:.0f} ms, "
            f"max {max(values) * 1000:.0f} ms (n={len(values)})")


def update_delays(
    bench: Bench, start: float, end: float, exclude: Viewer | None = None
) -> tuple[list[float], list[float], int]:
    """(every (move, viewer) delay, every move's last-viewer delay, pairs never updated)
    for the moves sent in [start, end]."""
    pairs, last, never = [], [], 0
    tables = {t.code: t for t in bench.tables}
    for move in bench.moves:
        if not start <= move.sent <= end:
            continue
        delays = []
        for viewer in tables[move.table].viewers:
            if viewer is exclude:
                continue
            seen = viewer.seen.get(move.version + 1)
            if seen is None:
                never += 1
            else:
                delays.append(seen - move.sent)
        pairs += delays
        if delays:
            last.append(max(delays))
            move.last_viewer = max(delays)
    return pairs, last, never


def slowest_seconds(bench: Bench, count: int = 3) -> str:
    """The seconds of the window whose moves waited longest for their last viewer, each with
    its moves' worst delay and how busy the server and this client were meanwhile: a pause
    (one slow second, the server idle) reads differently from saturation (busy throughout)."""
    w0, w1 = bench.window
    worst: dict[int, float] = {}
    for move in bench.moves:
        if w0 <= move.sent <= w1 and move.last_viewer is not None:
            second = int(move.sent - w0)
            worst[second] = max(worst.get(second, 0.0), move.last_viewer)
    parts = []
    for second in sorted(worst, key=worst.get, reverse=True)[:count]:
        start = w0 + second
        busy = [share for at, share in bench.cpu_shares if start <= at < start + 1]
        lag = [late for at, late in bench.loop_lag if start <= at < start + 1]
        parts.append(
            f"+{second} s: {worst[second] * 1000:.0f} ms (server "
            f"{max(busy, default=0) * 100:.0f}% of a core, client loop late "
            f"{max(lag, default=0) * 1000:.0f} ms)"
        )
    return "; ".join(parts)


def robot_lags(bench: Bench) -> tuple[list[float], int]:
    """The spacing of consecutive versions a spectator saw, less ROBOT_DELAY, and how many;
    the pause after a round's end (the next deal waits on purpose) is left out."""
    w0, w1 = bench.window
    lags, versions = [], 0
    for table in bench.tables:
        viewer = table.viewers[-1]
        for version, at in viewer.seen.items():
            before = viewer.seen.get(version - 1)
            if not w0 <= at <= w1:
                continue
            versions += 1
            if before is not None and before >= w0 and version - 1 not in viewer.round_ends:
                lags.append(at - before - bench.args.robot_delay)
    return lags, versions


def log_check(bench: Bench, db_env: dict[str, str]) -> list[str]:
    """Acknowledged moves missing from the table's log, or in it twice; and log moves that
    were never acknowledged (answered with an error, yet applied)."""
    os.environ.update(db_env)
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    import django

    django.setup()
    from django.db import connections

    # A later run of the same benchmark: Django is set up already, on an earlier database.
    # (No connection pool here: a pool keeps the database it was opened on.)
    connections.close_all()
    connections["default"].settings_dict["OPTIONS"].pop("pool", None)
    if "SQLITE_PATH" in db_env:
        connections["default"].settings_dict["NAME"] = db_env["SQLITE_PATH"]
    else:
        connections["default"].settings_dict["NAME"] = urlparse(db_env["DATABASE_URL"]).path[1:]
    from django.db.models import Q

    from tables.models import Table, TableEvent

    codes = [t.code for t in bench.tables]
    # A table has two addresses (the invitation and the players' own): either may be the one
    # the benchmark knows it by.
    code_of = {}
    for pk, code, player_code in Table.objects.filter(
        Q(code__in=codes) | Q(player_code__in=codes)
    ).values_list("pk", "code", "player_code"):
        code_of[pk] = code if code in codes else player_code
    log: Counter = Counter()
    people: Counter = Counter()
    for pk, version, data in TableEvent.objects.filter(
        table__in=list(code_of), kind="move"
    ).values_list("table", "version", "data"):
        code = code_of[pk]
        log[(code, version, data.get("move", ""))] += 1
        if not data.get("robot"):
            people[(code, version, data.get("move", ""))] += 1
    connections.close_all()
    acked = Counter((m.table, m.version + 1, m.move) for m in bench.moves)
    missing = sum(1 for key in acked if log[key] == 0)
    doubled = sum(1 for n in log.values() if n > 1) + sum(m.applied > 1 for m in bench.moves)
    unacked = sum(n for key, n in people.items() if key not in acked)
    return [
        f"log: {len(acked)} acknowledged moves: missing from the log {missing}, "
        f"doubled {doubled}; {sum(people.values())} people's moves in the log, "
        f"{unacked} of them never acknowledged (an error answer, yet applied)",
    ]


def report(bench: Bench, db_env: dict[str, str]) -> None:
    args = bench.args
    w0, w1 = bench.window
    seconds = w1 - w0
    print()
    print(f"== {args.mode}"
          + (f" x{len(bench.web)}" if args.mode == "multi" else "")
          + f", {args.scenario}, fault {args.fault}: {args.tables} tables, "
          f"{args.spectators} spectators each, {seconds:.0f} s measured after "
          f"{args.warmup:.0f} s warm-up ==")
    for note in bench.fault_notes:
        print(f"fault: {note}")
    if args.scenario == "robots":
        lags, applied = robot_lags(bench)
        print(f"robot moves/s: {applied / seconds:.1f} (seen by one spectator a table)")
        print(f"robot lag over ROBOT_DELAY={args.robot_delay:g} s: {ms(lags)}")
    else:
        window_moves = [m for m in bench.moves if w0 <= m.sent <= w1]
        applied = len(window_moves)
        print(f"moves/s: {applied / seconds:.1f} applied "
              f"(offered {args.tables * args.rate:.1f})")
        posts = [m.answered - m.sent for m in window_moves]
        print(f"POST /jugar/ (acknowledged): {ms(posts)}")
        views = [m.view for m in window_moves if m.view is not None]
        if views:  # the rest of the POST's time is the network, the server's loop and queues
            print(f"  of which the view itself (its Server-Timing): {ms(views)}")
        pairs, last, never = update_delays(bench, w0, w1, exclude=bench.slow)
        print("move -> viewer updated, from the POST sent:")
        print(f"  every (move, viewer): {ms(pairs)}")
        print(f"  last viewer of a move: {ms(last)}")
        print(f"  slowest seconds: {slowest_seconds(bench)}")
        if never:
            print(f"  (move, viewer) pairs never updated by the end: {never}")
        lateness = [x for t in bench.tables for x in t.lateness]
        print(f"tables behind their schedule: {ms(lateness)}")
        stalls = sum(t.stalls for t in bench.tables)
        if stalls:
            print(f"tables that waited {STALL:g} s for a push and reloaded: {stalls}")
    waits = [x for at, x in bench.waits if w0 <= at <= w1]
    if waits:
        print(f"a request, whole, waiting for a request thread (its Server-Timing): {ms(waits)}")
    if bench.busy0 is not None and bench.busy1 is not None:
        busy = (bench.busy1[0] - bench.busy0[0]) / seconds * 100
        cpu = (bench.busy1[1] - bench.busy0[1]) / seconds * 100
        print(f"request threads busy: {busy:.0f}% of one thread's time, {cpu:.0f}% on the CPU, "
              f"{busy - cpu:.0f}% waiting (all processes' threads added)")
    cpu_ms = (bench.cpu1 - bench.cpu0) / CLOCK_TICK * 1000
    bench.cpu_per_move = cpu_ms / max(applied, 1)
    pages = len(bench.pages())
    print(f"server RSS: {bench.rss_start:.0f} MB before the moves, {bench.rss_end:.0f} MB "
          f"after, with {pages} pages open ({bench.rss_end * 1024 / max(pages, 1):.0f} KB "
          "per page, the whole process)")
    processes = len(bench.servers)
    print(f"server CPU: {cpu_ms / max(applied, 1):.1f} ms per move "
          f"({cpu_ms / seconds / 10:.0f}% of one core, {processes} process"
          f"{'es' if processes > 1 else ''})")
    if args.mode == "multi":
        shared = sum(t - bench.shared0.get(pid, 0) for pid, t in bench.shared1.items())
        shared_ms = shared / CLOCK_TICK * 1000
        print(f"PostgreSQL + Redis CPU (the machine's, anyone's): "
              f"{shared_ms / max(applied, 1):.1f} ms per move")
    lag = [x for at, x in bench.loop_lag if w0 <= at <= w1]
    print(f"client CPU: {bench.client_cpu / seconds * 100:.0f}% of one core; its event loop "
          f"late by {ms(lag)}")
    by_status: dict[str, Counter] = defaultdict(Counter)
    for (what, status), n in bench.statuses.items():
        by_status[what][status] += n
    for what, counts in sorted(by_status.items()):
        print(f"POST {what}: " + ", ".join(f"{s}: {n}" for s, n in sorted(counts.items(), key=str)))
    for (what, status, reason), n in bench.refusals.most_common(5):
        print(f"  refused {what} {status} x{n}: {reason}")
    if bench.duplicate_outcomes:
        outcomes = bench.duplicate_outcomes
        print(f"four identical POSTs: exactly one applied {outcomes[1]}, none {outcomes[0]}, "
              f"more than one {sum(n for k, n in outcomes.items() if k > 1)}")
    disconnects = sum(v.disconnects for t in bench.tables for v in t.viewers)
    if disconnects:
        print(f"sockets closed by the server or a fault: {disconnects}")
    fault_report(bench)
    for line in log_check(bench, db_env):
        print(line)
    errors = 0
    for server in bench.servers:
        text = server.log.read_text(errors="replace") if server.log.exists() else ""
        errors += text.count("Traceback")
    print(f"server logs: {errors} tracebacks ({', '.join(str(s.log) for s in bench.servers)})")


def fault_report(bench: Bench) -> None:
    args = bench.args
    if args.fault == "kill" and bench.killed_at:
        reconnects = [r for t in bench.tables for v in t.viewers for r in v.reconnects]
        handshakes = [r for t in bench.tables for v in t.viewers for r in v.handshakes]
        print(f"kill: viewers back with a fresh table after their socket closed: {ms(reconnects)}")
        print(f"kill: of which until the new socket was accepted: {ms(handshakes)}")
        resumed = []
        for table in bench.tables:
            after = [m.answered for m in bench.moves
                     if m.table == table.code and m.sent >= bench.killed_at]
            if after:
                resumed.append(min(after) - bench.killed_at)
        print(f"kill: tables playing again (first acknowledged move after the kill): "
              f"{ms(resumed)}; {args.tables - len(resumed)} never")
    if args.fault == "redis" and bench.redis_up_at:
        caught, never = [], 0
        for table in bench.tables:
            target = bench.redis_targets.get(table.index, 0)
            for viewer in table.viewers:
                seen = viewer.seen.get(target)
                if seen is None:
                    never += 1
                else:
                    caught.append(max(0.0, seen - bench.redis_up_at))
        print(f"redis: every page caught up with its table after Redis was back: "
              f"{ms(caught)}; {never} pages never")
        down = [m for m in bench.moves
                if bench.fault_window[0] <= m.sent <= bench.fault_window[1] + 2]
        print(f"redis: moves acknowledged while down or just after: {len(down)}")
        reloads = sum(t.reloads for t in bench.tables)
        print(
            f"redis: page reloads by players of hung tables: {reloads} (after {STALL:g} s "
            "without a push; a spectator catches up only when a later push reaches it)"
        )
    if args.fault == "slow-reader" and bench.slow:
        f0, f1 = bench.fault_window
        during, last, _ = update_delays(bench, f0, f1, exclude=bench.slow)
        print(f"slow reader: the others while it did not read: every viewer {ms(during)}")
        print(f"slow reader: the others' last viewer while it did not read: {ms(last)}")
        w0, w1 = bench.window
        before, _, _ = update_delays(bench, w0, f0, exclude=bench.slow)
        after, _, _ = update_delays(bench, f1, w1, exclude=bench.slow)
        print(f"slow reader: the others outside that time: every viewer {ms(before + after)}")
        newest = max((v for v in bench.slow.seen), default=0)
        print(f"slow reader: its socket closed {bench.slow.disconnects} times; newest version "
              f"it saw {newest} of {bench.tables[0].viewers[0].version}")


# --- Main ---------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=["embedded", "multi"], default="embedded")
    parser.add_argument("--processes", type=int, default=2, help="server processes (multi)")
    parser.add_argument("--workers", type=int, default=0, help="background worker processes")
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument(
        "--languages", default="es",
        help="the languages the people of a table read, in turn (host, guest, spectators): "
             "es,en,pt-br puts all three at every table",
    )
    parser.add_argument("--spectators", type=int, default=4, help="spectators per table")
    parser.add_argument("--rate", type=float, default=1.0, help="moves per second per table")
    parser.add_argument("--duration", type=float, default=30, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=5, help="seconds before measuring")
    parser.add_argument(
        "--client", choices=["browser", "bare"], default="browser",
        help="browser: each person with their own connections, cookie jar and a browser's "
        "headers (gzip, htmx's, Referer), each POST's body in a write after its headers; bare: "
        "one pool of connections for everyone, the body in the headers' write",
    )
    parser.add_argument(
        "--as-run", action="store_true",
        help="serve as scripts/run.sh does (`make run`): its settings' defaults, DEBUG on and "
        "INFO logs, instead of DEBUG off and warnings only",
    )
    parser.add_argument("--body-gap", type=float, default=0.0,
                        help="seconds between a POST's headers and its body (--client browser)")
    parser.add_argument(
        "--late-bodies", type=float, default=0.0,
        help="the share of POSTs whose body comes --late-body-gap s after its headers (a phone "
        "whose body's packet was lost and sent again; --client browser)",
    )
    parser.add_argument("--late-body-gap", type=float, default=0.2,
                        help="seconds (Linux's least retransmission timeout: 0.2)")
    parser.add_argument("--scenario", choices=["people", "robots", "duplicates"],
                        default="people")
    parser.add_argument("--fault", choices=["none", "kill", "redis", "slow-reader"],
                        default="none")
    parser.add_argument("--slow-seconds", type=float, default=60)
    parser.add_argument("--robot-level", choices=["facil", "normal", "dificil"],
                        default="dificil")
    parser.add_argument("--robot-delay", type=float, default=1.0)
    parser.add_argument(
        "--profile", nargs="?", const="flamegraph", default="",
        choices=["flamegraph", "speedscope"],
        help="py-spy record each server, every thread, waiting ones too (speedscope: each "
        "thread's samples in time order, to see what ran during a slow second)",
    )
    parser.add_argument("--idle", action="store_true",
                        help="open every page at once after setting the tables up: memory per "
                        "open page, CPU idle, then the moves (use --total-rate)")
    parser.add_argument("--idle-seconds", type=float, default=10)
    parser.add_argument(
        "--idle-tables", type=int, default=0,
        help="tables set up beside the busy ones, their pages open (2 players + --spectators "
        "each), where nobody moves",
    )
    parser.add_argument("--total-rate", type=float, default=0,
                        help="moves per second in all, spread over the tables (sets --rate)")
    parser.add_argument("--storm", action="store_true",
                        help="after the moves, every page reconnects at once (a restart)")
    parser.add_argument("--storm-timeout", type=float, default=120)
    parser.add_argument("--churn", type=int, default=0,
                        help="waves of --tables tables opened, played and closed for good: "
                        "server RSS after the first and the last")
    parser.add_argument("--churn-moves", type=int, default=5, help="moves a table (--churn)")
    parser.add_argument("--pages", default="",
                        help="pages a table, as 2,6,10: one run each (spectators = pages - 2)")
    parser.add_argument("--tracemalloc", action="store_true",
                        help="trace the server's allocations: where an open page's memory goes")
    parser.add_argument("--tracemalloc-top", type=int, default=25)
    parser.add_argument("--code", action="append", default=[],
                        help="serve from this checkout, DIR or DIR@SERVER (a server that its "
                        "config.server knows); repeat: the runs alternate")
    args = parser.parse_args()
    args.tracemalloc_dir = tempfile.mkdtemp(prefix="ocholoco-tracemalloc-")
    if args.fault in ("kill", "redis") and args.mode != "multi":
        parser.error(f"--fault {args.fault} needs --mode multi")
    if args.fault == "kill" and args.processes < 2:
        parser.error("--fault kill needs --processes 2 or more")
    if args.fault == "slow-reader" and args.spectators < 1:
        parser.error("--fault slow-reader needs a spectator")

    env = {
        "DEBUG": "0", "SECRET_KEY": "load-benchmark-not-secret", "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_COOKIES": "0", "LOG_LEVEL": "WARNING", "ROBOT_DELAY": str(args.robot_delay),
        "CHANNEL_PREFIX": f"load{uuid.uuid4().hex[:8]}",
        "LANGUAGES_OFFERED": args.languages,
    }
    if args.as_run:  # scripts/run.sh sets none of these: the settings' defaults
        for name in ("DEBUG", "SECURE_COOKIES", "LOG_LEVEL"):
            env.pop(name)
    if args.mode == "multi":
        os.environ.setdefault("DATABASE_URL", POSTGRES_URL)
        if not os.environ["DATABASE_URL"].startswith("postgres"):
            parser.error("--mode multi needs DATABASE_URL on PostgreSQL (or unset)")
        env["REDIS_URL"] = os.environ.get("REDIS_URL") or REDIS_URL
    else:
        for name in ("DATABASE_URL", "REDIS_URL"):
            os.environ.pop(name, None)
    if args.tracemalloc:
        env["BENCH_TRACEMALLOC"] = args.tracemalloc_dir
    if args.total_rate:
        args.rate = args.total_rate / args.tables
    print(f"open files allowed: {raise_file_limit()}")
    served = [_served(code) for code in args.code] or [(ROOT, "")]
    codes = [code for code, _ in served]
    for code in set(codes):
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
            cwd=code, env={**os.environ, **env}, check=True,
        )
    counts = [int(n) for n in args.pages.split(",")] if args.pages else [args.spectators + 2]
    figures: dict[tuple[int, int], float] = {}  # by (pages, run): a checkout may run twice
    for pages in counts:
        for run, (code, server) in enumerate(served):
            args.spectators = pages - 2
            print(f"\n### {pages} pages a table, served from {code} {server}")
            figures[(pages, run)] = one_run(args, env, code, server)
    if len(figures) > 1 and not args.churn:
        print("\nserver CPU per move (ms), by pages a table:")
        print("pages | " + " | ".join(f"{code} {server}" for code, server in served)
              + (" | ratio" if len(codes) == 2 else ""))
        for pages in counts:
            row = [figures[(pages, run)] for run in range(len(codes))]
            ratio = f" | {row[0] / row[1]:.2f}" if len(row) == 2 and row[1] else ""
            print(f"{pages} | " + " | ".join(f"{x:.1f}" for x in row) + ratio)


def _served(text: str) -> tuple[Path, str]:
    """`--code DIR` or `DIR@SERVER`."""
    directory, _, server = text.partition("@")
    return Path(directory).resolve(), server


def one_run(args: argparse.Namespace, env: dict[str, str], code: Path, server: str = "") -> float:
    """One run with fresh servers and database; prints its report, returns CPU per move."""
    with fresh_database(code) as db_env:
        run_env = {**env, **db_env}
        with start_servers(
            args.mode, args.processes, args.workers, run_env, args.profile, code, server
        ) as servers:
            bench = Bench(args, servers)
            asyncio.run(bench.run())
        if args.churn:  # (its figures are printed as it goes)
            return 0.0
        report(bench, db_env)
    return bench.cpu_per_move


def serve_traced() -> None:
    """The server whose allocations are traced from the first SIGUSR1 on (tracing from the
    start made it too slow to start); each SIGUSR1 writes a snapshot where the benchmark
    asked. Its arguments: the server's command line after the Python executable."""
    import runpy
    import tracemalloc

    requests = Path(os.environ["BENCH_TRACEMALLOC"])

    def snapshot(*_) -> None:
        if not tracemalloc.is_tracing():
            tracemalloc.start(12)
        path = (requests / "next").read_text()
        tracemalloc.take_snapshot().dump(path + ".tmp")
        os.rename(path + ".tmp", path)

    signal.signal(signal.SIGUSR1, snapshot)
    module, *arguments = sys.argv[3:]  # after "--serve-traced -m"
    sys.path.insert(0, os.getcwd())  # the checkout served (--code), as `python -m` would
    if module == "config.server":  # it would replace this process: ask it for its command
        from config.server import server_argv

        port = arguments[arguments.index("--port") + 1]
        server = arguments[arguments.index("--server") + 1] if "--server" in arguments else ""
        _, _, module, *arguments = server_argv(
            port=int(port), **({"server": server} if server else {})
        )
    sys.argv = [module, *arguments]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve-traced"]:
        serve_traced()
    else:
        main()
