"""Real servers for the tests: server processes (`config.server`) on their own fresh database.

Each server group gets a database of its own (a temporary SQLite file, or a new PostgreSQL
database when DATABASE_URL points at PostgreSQL) and a channel-layer prefix of its own, so
servers never see another test run's tables.
"""

from __future__ import annotations

import asyncio
import atexit
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlparse, urlunparse

T = TypeVar("T")
ROOT = Path(__file__).resolve().parent.parent
# How checkouts older than `config.server` were served (the benches' `--code`).
OLD_WEBSOCKET_LIMITS = [
    "--websocket-max-frame-size", "4096", "--websocket-max-message-size", "524288",
]
# The test servers take many tables and seats from one address (127.0.0.1): the limits on
# those are tested on servers of their own (tests/tables/test_limits.py).
GENEROUS_LIMITS = {"RATE_TABLE_OPEN": "100000/h", "RATE_SEAT_CLAIM": "100000/h"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def production_ports(web: int, workers: int = 1) -> tuple[int, int]:
    """(PORT, PROXY_PORT) for scripts/production.sh: the web ports (both sets: deploy.sh starts
    the new release on the second), their METRICS_PORT (+1000), the workers' (+2000) and the
    proxy's, all free, and below the ephemeral ports a client's own sockets take."""
    for _ in range(200):
        base = int.from_bytes(os.urandom(2), "big") % 8000 + 20000
        wanted = [base + i for i in range(2 * web)] + [base + 1000 + i for i in range(2 * web)]
        wanted += [base + 2000 + i for i in range(workers)] + [base - 1]
        if all(port_free(port) for port in wanted):
            return base, base - 1
    raise RuntimeError("no free ports")


def wait_for_port(port: int, process: subprocess.Popen, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the server did not start in time")


@contextmanager
def fresh_database(code: Path = ROOT) -> Iterator[dict[str, str]]:
    """Environment variables naming a new database, migrated by checkout `code` (the benches'
    `--code`); dropped afterwards. Each is a copy of one migrated once per process and
    checkout (`_migrated_template`): migrating from nothing took 15 s on a busy machine, most
    of it waiting for the disk at each migration's commit; a copy takes a moment."""
    url = os.environ.get("DATABASE_URL", "")
    template = _migrated_template(url, code)
    if url.startswith("postgres"):
        import psycopg

        name = f"ocholoco_live_{uuid.uuid4().hex[:10]}"
        admin_url = _postgres_admin_url(url)
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
        try:
            yield {"DATABASE_URL": urlunparse(urlparse(url)._replace(path=f"/{name}"))}
        finally:
            with psycopg.connect(admin_url, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    else:
        import sqlite3

        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "live.sqlite3"
            # SQLite's online backup API: a whole, consistent copy (the template is closed).
            with sqlite3.connect(template) as source, sqlite3.connect(path) as copy:
                source.backup(copy)
            source.close()
            copy.close()
            yield {"SQLITE_PATH": str(path)}


_templates: dict[tuple[str, Path], str] = {}


def _postgres_admin_url(url: str) -> str:
    return urlunparse(urlparse(url)._replace(path="/postgres"))


def _migrated_template(url: str, code: Path) -> str:
    """A database migrated by checkout `code`, made once per process (a PostgreSQL database's
    name, or a SQLite file's path); gone when the process ends."""
    key = (url, code)
    if key in _templates:
        return _templates[key]
    if url.startswith("postgres"):
        import psycopg

        name = f"ocholoco_template_{uuid.uuid4().hex[:10]}"
        admin_url = _postgres_admin_url(url)
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')

        def drop() -> None:
            with psycopg.connect(admin_url, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

        atexit.register(drop)
        template_url = urlunparse(urlparse(url)._replace(path=f"/{name}"))
        database_migrate({"DATABASE_URL": template_url}, code)
        _templates[key] = name
    else:
        folder = tempfile.TemporaryDirectory()
        atexit.register(folder.cleanup)
        path = str(Path(folder.name) / "template.sqlite3")
        database_migrate({"SQLITE_PATH": path}, code)
        _templates[key] = path
    return _templates[key]


def server_env(extra: dict[str, str]) -> dict[str, str]:
    env = {**GENEROUS_LIMITS, **os.environ}
    env.setdefault("DEBUG", "1")
    # A test's database is thrown away: no wait for the disk at each commit (the site's
    # default, FULL, costs no CPU, only that wait: docs/operating.md, "Durability").
    env.setdefault("SQLITE_SYNCHRONOUS", "NORMAL")
    env.update(extra)
    env.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    env["PYTHONUNBUFFERED"] = "1"
    return env


def database_migrate(extra: dict[str, str], code: Path = ROOT) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=code, env=server_env(extra), check=True, capture_output=True,
    )


def serve_command(port: int, code: Path = ROOT, server: str = "") -> list[str]:
    """The command line that serves checkout `code` on 127.0.0.1:`port`: its `config.server`
    (with `server`, one of the servers it knows, or its default), or in a checkout older than
    it (the benches' `--code`), daphne as that checkout's scripts/run.sh started it."""
    if (code / "config" / "server.py").exists():
        return [sys.executable, "-m", "config.server", "--port", str(port),
                *(["--server", server] if server else [])]
    module = "config.serve" if (code / "config" / "serve.py").exists() else "daphne"
    return [sys.executable, "-m", module,
            "-e", f"tcp:port={port}:interface=127.0.0.1:backlog=4096",
            "--websocket_connect_timeout", "60", *OLD_WEBSOCKET_LIMITS, "config.asgi:application"]


class Servers(list):
    """The URLs of a group of servers, and the environment they run with (`env`)."""

    env: dict[str, str]
    processes: list[subprocess.Popen]  # in the order of the URLs (a test may kill one)
    shell: DjangoShell | None = None  # set_round's, started at its first call


# What DjangoShell's process runs: each line it reads is a script (JSON), run in a namespace
# of its own; it answers on a line of its own, after its database connections are closed (a
# server group's PostgreSQL database is dropped when the group stops).
_SHELL_LOOP = """
import json, sys, traceback
from django.db import connections
for line in sys.stdin:
    try:
        exec(json.loads(line), {})
        said = ""
    except Exception:
        said = traceback.format_exc()
    finally:
        connections.close_all()
    print("SHELL-DONE " + json.dumps(said), flush=True)
"""


class DjangoShell:
    """One `manage.py shell` with a server group's settings, kept while the group runs, that
    runs the scripts it is given one after another: a fixture written to the servers' database
    without starting Django each time (about a second of CPU a start, some forty starts in the
    browser tests)."""

    def __init__(self, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "shell", "-c", _SHELL_LOOP],
            cwd=ROOT, env=server_env(env), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True,
        )

    def run(self, script: str) -> None:
        """Run `script`; raises with the script's traceback if it failed."""
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(json.dumps(script) + "\n")
        self.process.stdin.flush()
        for line in self.process.stdout:
            if line.startswith("SHELL-DONE "):
                failure = json.loads(line.removeprefix("SHELL-DONE "))
                if failure:
                    raise RuntimeError(f"the script failed:\n{failure}")
                return
        raise RuntimeError(f"the shell exited with {self.process.wait()}")

    def close(self) -> None:
        if self.process.stdin:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@contextmanager
def server_processes(
    env: dict[str, str], count: int = 1, ports: list[int] | None = None
) -> Iterator[Servers]:
    """`count` server processes (`python -m config.server`) with `env` (a database from
    `fresh_database`, settings), on `ports` (a server started again where one was) or free
    ones."""
    processes, urls = [], Servers()
    urls.env = env
    urls.processes = []
    try:
        for index in range(count):
            port = ports[index] if ports else free_port()
            log = tempfile.TemporaryFile()  # noqa: SIM115 (closed in finally)
            process = subprocess.Popen(
                serve_command(port),
                cwd=ROOT, env=server_env(env), stdout=log, stderr=subprocess.STDOUT,
            )
            processes.append((process, log))
            urls.processes.append(process)
            wait_for_port(port, process)
            urls.append(f"http://127.0.0.1:{port}")
        yield urls
    finally:
        if urls.shell is not None:
            urls.shell.close()
        for process, log in processes:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
            if process.returncode not in (0, -15, -9, None):  # -9: killed by a test
                log.seek(0)
                sys.stderr.write(log.read().decode(errors="replace")[-4000:])
            log.close()


@contextmanager
def live_servers(count: int = 1, **settings: str) -> Iterator[Servers]:
    """`count` server processes sharing one fresh database (and REDIS_URL, if set)."""
    with fresh_database() as db_env:
        prefix = f"t{uuid.uuid4().hex[:8]}"
        env = {**db_env, "CHANNEL_PREFIX": prefix, "CACHE_PREFIX": prefix, **settings}
        with server_processes(env, count) as servers:
            yield servers


def set_round(
    servers: Servers, code: str, round_json: dict, match_json: dict | None = None
) -> None:
    """Put the table at `code` (either address) of these servers in an exact position (a test
    fixture, not a move), through the servers' own database; pages reload to see it.
    `match_json` also sets the match (its totals, say). The table's row is locked, as a move
    locks it: a robot's move made meanwhile comes before (the position gets the next version)
    or is refused after (its version is gone), never mixed with it."""
    match = (
        f"t.match_state = json.loads({json.dumps(json.dumps(match_json))}); " if match_json else ""
    )
    script = (
        "import json; from django.db import transaction; from tables.models import Table; "
        "from tables.state.lookup import table_by_code\n"
        "with transaction.atomic():\n"
        f"    t = Table.objects.select_for_update().get(pk=table_by_code({code!r}).pk); "
        f"t.round_state = json.loads({json.dumps(json.dumps(round_json))}); "
        f"{match}t.version += 1; t.save()"
    )
    if servers.shell is None:
        servers.shell = DjangoShell(servers.env)
    servers.shell.run(script)


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run `coroutine` to its end in an event loop of its own thread: a browser test may
    have left Playwright's loop running in this one (its synchronous API)."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()
