"""Backup benchmark (#50): what `manage.py backup` and `manage.py restore` cost at a size.

    .venv/bin/python bench/backup.py --tables 1000,10000
    .venv/bin/python bench/backup.py --postgres --tables 1000,10000

One database (SQLite by default; with `--postgres`, the one DATABASE_URL names, or
ocholoco_bench_backup on 127.0.0.1, made and dropped here), grown to each number of tables in
turn:
- the tables: the first PLAYED played through the site's services (two people, about ten
  rounds of a card whenever one can be played, a rematch when a match ends, twenty chat
  lines, the next round dealt and in play), the others copies of them, every row, made by
  the database (`INSERT ... SELECT`);
- the database's size, then a backup (`backup_take`, the copy checked inside it) and the check
  a restore makes (`backup_check`: sha256 and the engine's check), each timed;
- the load of bench/load.py (its `Bench`: people at --load-tables tables, 2 spectators each,
  a move a second) against a server on that database, and from a third into the window on, a
  warm process taking backups (as a task worker takes the scheduled ones) over and over, a
  pause as long as the last one between two: move -> last viewer p50/p99 for the moves sent
  while a backup ran and for the others;
- the database deleted, `manage.py restore --noinput` of the backup taken at that size, and a
  new server started: the time until its first `/readyz` 200; then one move on a copied
  table, through the services, with its seat's secret (the restored tables play on).

It prints figures; it is not a test. All traffic goes to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlparse, urlunparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load import Bench, ms, start_servers, update_delays  # noqa: E402
from tests.live import (  # noqa: E402
    database_migrate,
    free_port,
    fresh_database,
    serve_command,
    server_env,
    wait_for_port,
)

POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/ocholoco_bench_backup"
PLAYED = 2  # tables played through the services; the others are copies of them
ROUNDS = 10
CHAT_LINES = 20
SERVER_ENV = {
    "DEBUG": "0", "SECRET_KEY": "backup-benchmark-not-secret", "ALLOWED_HOSTS": "127.0.0.1",
    "SECURE_COOKIES": "0", "LOG_LEVEL": "WARNING",
}


# --- Inside a Django process: the tables, the backup, a move after the restore ---------------


def move_chosen(state, rng: random.Random):
    """As a person plays: a card when one can be played (any of them), else draw or pass."""
    import ocholoco

    moves = ocholoco.legal_moves(state)
    cards = [move for move in moves if isinstance(move, ocholoco.Play)]
    return rng.choice(cards or moves)


def table_play(index: int, rng: random.Random) -> dict[int, str]:
    """One table played as people would through the services: about ROUNDS rounds, CHAT_LINES
    chat lines, and the next round in play. Returns its seats' secrets."""
    import ocholoco
    from chat.services import message_post
    from tables.changes.services import (
        match_rematch,
        match_start,
        round_next,
        seat_claim,
        table_open,
        table_play_move,
    )
    from tables.models import Table

    table, host = table_open(rules_key="clasico", host_name=f"Ana{index}")
    _, guest = seat_claim(table_id=table.pk, name=f"Beto{index}", invitation=table.code)
    secrets = {0: host, 1: guest}
    match_start(table_id=table.pk, secret=host)
    rounds = lines = 0
    while True:
        table.refresh_from_db()
        if table.status == Table.Status.PLAYING:
            if rounds == ROUNDS:
                return secrets
            state = ocholoco.from_json(table.round_state)
            move = move_chosen(state, rng)
            table_play_move(
                table_id=table.pk, secret=secrets[table.match_seats[state.turn]],
                move=ocholoco.move_to_str(move), version=table.version,
            )
            continue
        rounds += 1
        for _ in range(CHAT_LINES // ROUNDS if lines < CHAT_LINES else 0):
            seat = lines % 2
            message_post(table_id=table.pk, secret=secrets[seat], address_key=f"bench{seat}",
                         text=f"¡Buena ronda! Vamos por la {rounds + 1}, línea {lines + 1}.")
            lines += 1
        again = match_rematch if table.status == Table.Status.MATCH_OVER else round_next
        again(table_id=table.pk, secret=host, version=table.version)


def copies_make(played: list[int], count: int) -> None:
    """`count` tables copied from those `played`, in turn (the last from the first): each a
    new table row (new codes), then every row of its source's (seats, events, rounds, chat)
    copied by the database itself (INSERT ... SELECT), the rows of one table together."""
    from django.db import connection, transaction

    from chat.models import ChatMessage, ChatSettings
    from tables.models import Seat, Table, TableEvent, TableRound, new_table_code

    sources = {pk: Table.objects.get(pk=pk) for pk in played}
    values = {pk: {f.attname: getattr(table, f.attname)
                   for f in Table._meta.concrete_fields if not f.primary_key}
              for pk, table in sources.items()}
    source_of = [played[(count - 1 - k) % len(played)] for k in range(count)]
    quote = connection.ops.quote_name
    with transaction.atomic(), connection.cursor() as cursor:
        made = Table.objects.bulk_create(
            [Table(**{**values[pk], "code": new_table_code(), "player_code": new_table_code()})
             for pk in source_of],
            batch_size=1000,
        )
        cursor.execute("CREATE TEMPORARY TABLE bench_copies (table_id integer, source_id integer)")
        cursor.executemany("INSERT INTO bench_copies VALUES (%s, %s)",
                           [(table.pk, pk) for table, pk in zip(made, source_of, strict=True)])
        for model in (Seat, TableEvent, TableRound, ChatMessage, ChatSettings):
            columns = [quote(f.column) for f in model._meta.concrete_fields
                       if not f.primary_key and f.column != "table_id"]
            cursor.execute(
                f"INSERT INTO {quote(model._meta.db_table)} (table_id, {', '.join(columns)})"  # noqa: S608 - our own names
                f" SELECT c.table_id, {', '.join(f'r.{c}' for c in columns)}"
                f" FROM {quote(model._meta.db_table)} r"
                " JOIN bench_copies c ON r.table_id = c.source_id ORDER BY c.table_id, r.id"
            )
        cursor.execute("DROP TABLE bench_copies")


def database_bytes() -> int:
    from django.conf import settings
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_database_size(current_database())")
            return cursor.fetchone()[0]
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return Path(settings.DATABASES["default"]["NAME"]).stat().st_size


def fill_and_back_up(count: int, out: Path) -> None:
    """The database grown to `count` tables (the first ones played, the others copies of
    them), its size, a backup and its check, timed: written to `out` as JSON (with the played
    tables' secrets, kept there for the next size)."""
    import django

    django.setup()
    from chat.models import ChatMessage
    from tables.backups.services import backup_check, backup_take
    from tables.models import Table, TableEvent, TableRound

    facts = json.loads(out.read_text()) if out.exists() else {"secrets": {}}
    began = time.monotonic()
    if not facts["secrets"]:
        rng = random.Random(50)
        for index in range(min(PLAYED, count)):
            seat_secrets = table_play(index, rng)
            facts["secrets"][str(Table.objects.order_by("-pk").first().pk)] = seat_secrets
    played_s = time.monotonic() - began
    played = [int(pk) for pk in facts["secrets"]]
    copies_make(played, count - Table.objects.count())
    filled_s = time.monotonic() - began
    size = database_bytes()
    began = time.monotonic()
    kept = backup_take()
    backup_s = time.monotonic() - began
    began = time.monotonic()
    backup_check(file=kept.data_path)
    check_s = time.monotonic() - began
    last = Table.objects.order_by("-pk").first()  # a copy (of played[0])
    facts.update({
        "played_s": played_s, "filled_s": filled_s, "db_bytes": size,
        "backup_s": backup_s, "backup_bytes": kept.data_path.stat().st_size,
        "check_s": check_s, "file": str(kept.data_path),
        "rows": {"tables": Table.objects.count(), "events": TableEvent.objects.count(),
                 "rounds": TableRound.objects.count(),
                 "chat": ChatMessage.objects.count()},
        "move_at": last.pk, "move_secrets": facts["secrets"][str(played[0])],
    })
    out.write_text(json.dumps(facts))


def move_after_restore(table_id: int, secrets: dict[str, str]) -> None:
    """One legal move on a copied table of the restored database, through the services."""
    import django

    django.setup()
    import ocholoco
    from tables.changes.services import table_play_move
    from tables.models import Table

    table = Table.objects.get(pk=table_id)
    state = ocholoco.from_json(table.round_state)
    move = ocholoco.legal_moves(state)[0]
    table_play_move(table_id=table_id, secret=secrets[str(table.match_seats[state.turn])],
                    move=ocholoco.move_to_str(move), version=table.version)
    table.refresh_from_db()
    print(f"  a move on a copied table after the restore: {ocholoco.move_to_str(move)}, "
          f"version {table.version}")


# --- The benchmark (no Django in this process) ----------------------------------------------


def backups_on_request() -> None:
    """A process of the site that takes a backup (`backup_take`) for each line on its stdin
    and answers with a line: as a task worker takes the scheduled ones, warm."""
    import django

    django.setup()
    from tables.backups.services import backup_take

    print("ready", flush=True)
    for _ in sys.stdin:
        backup_take()
        print("taken", flush=True)


class BackupsUnderLoad(Bench):
    """bench/load.py's people at their tables; from a third into the measured window on,
    backups over and over (a warm process's, `backups_on_request`), each followed by a pause
    as long (at least 2 s): the moves sent while one ran against the others, in one run. A
    backup still running when the window ends counts as running to its end."""

    def __init__(
        self, args: argparse.Namespace, servers: list, env: dict[str, str], low: bool = False
    ) -> None:
        super().__init__(args, servers)
        self.env = env
        self.low = low  # the backups at the lowest CPU and I/O priority
        self.backups: list[tuple[float, float]] = []  # (began, ended)
        self.running_since: float | None = None

    async def fault(self) -> None:  # bench/load.py's hook for what happens in the window
        low = ["nice", "-n", "19", "ionice", "-c", "3"] if self.low else []
        taker = await asyncio.create_subprocess_exec(
            *low, sys.executable, __file__, "--backups", cwd=ROOT, env=server_env(self.env),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        )
        try:
            await taker.stdout.readline()  # ready
            w0, w1 = self.window
            await asyncio.sleep(max(0.0, w0 + (w1 - w0) / 3 - time.monotonic()))
            while time.monotonic() < w1 - 2:
                self.running_since = time.monotonic()
                taker.stdin.write(b"backup\n")
                await taker.stdin.drain()
                if not await taker.stdout.readline():
                    raise RuntimeError("the backup failed (its traceback is above)")
                self.backups.append((self.running_since, time.monotonic()))
                self.running_since = None
                await asyncio.sleep(max(2.0, self.backups[-1][1] - self.backups[-1][0]))
        finally:
            if taker.returncode is None:
                taker.kill()
                await taker.wait()

    def during(self, sent: float) -> bool:
        return (self.running_since is not None and sent >= self.running_since) or any(
            began <= sent <= ended for began, ended in self.backups
        )


def load_args(tables: int, duration: float) -> argparse.Namespace:
    """bench/load.py's options for its `people` scenario, as its defaults give them."""
    return argparse.Namespace(
        mode="embedded", processes=1, workers=0, tables=tables, spectators=2, rate=1.0,
        duration=duration, warmup=5.0, client="browser", as_run=False, body_gap=0.0,
        late_bodies=0.0, late_body_gap=0.2, scenario="people", fault="none", slow_seconds=60,
        robot_level="dificil", robot_delay=1.0, profile="", idle=False, idle_seconds=10,
        idle_tables=0, total_rate=0, storm=False, storm_timeout=120, churn=0, churn_moves=5,
        pages="", tracemalloc=False, tracemalloc_dir="", tracemalloc_top=25, code=[],
    )


def load_report(bench: BackupsUnderLoad) -> None:
    w0, w1 = bench.window
    update_delays(bench, w0, w1)  # each move's last viewer
    moves = [m for m in bench.moves if w0 <= m.sent <= w1 and m.last_viewer is not None]
    spans = [ended - began for began, ended in bench.backups]
    unfinished = " and one still running at the end" if bench.running_since else ""
    print(f"  load: {bench.args.tables} tables moving, {len(moves)} moves in "
          f"{w1 - w0:.0f} s; {len(spans)} backups taken meanwhile, each {ms(spans)}"
          f"{unfinished}")
    for label, during in (("while a backup ran", True), ("without a backup", False)):
        chosen = [m.last_viewer for m in moves if bench.during(m.sent) == during]
        print(f"  move -> last viewer, {label}: {ms(chosen)}")
    cpu_ms = (bench.cpu1 - bench.cpu0) / os.sysconf("SC_CLK_TCK") * 1000
    print(f"  server CPU: {cpu_ms / max(len(moves), 1):.1f} ms per move (the backups' own "
          "processes not counted)")


@contextmanager
def database(postgres: bool) -> Iterator[dict[str, str]]:
    """A fresh, migrated database: a temporary SQLite file, or DATABASE_URL's (by default
    ocholoco_bench_backup), made here and dropped afterwards."""
    if not postgres:
        os.environ.pop("DATABASE_URL", None)
        with fresh_database() as env:
            yield env
        return
    import psycopg

    url = os.environ.get("DATABASE_URL") or POSTGRES_URL
    env = {"DATABASE_URL": url}
    database_renew(url)
    try:
        database_migrate(env)
        yield env
    finally:
        with psycopg.connect(_admin_url(url), autocommit=True) as db:
            db.execute(f'DROP DATABASE IF EXISTS "{urlparse(url).path[1:]}" WITH (FORCE)')


def _admin_url(url: str) -> str:
    return urlunparse(urlparse(url)._replace(path="/postgres"))


def database_renew(url: str) -> None:
    """The PostgreSQL database `url` names, dropped (if there) and made again, empty."""
    import psycopg

    name = urlparse(url).path[1:]
    with psycopg.connect(_admin_url(url), autocommit=True) as db:
        db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        db.execute(f'CREATE DATABASE "{name}"')


def database_delete(env: dict[str, str]) -> None:
    """The disaster: the database gone (SQLite: its file; PostgreSQL: an empty one made)."""
    if "DATABASE_URL" in env:
        database_renew(env["DATABASE_URL"])
        return
    for suffix in ("", "-wal", "-shm"):
        Path(env["SQLITE_PATH"] + suffix).unlink(missing_ok=True)


def ready_after(env: dict[str, str], began: float) -> float:
    """Start a server on the database and wait for its first /readyz 200: seconds since
    `began`."""
    port = free_port()
    process = subprocess.Popen(serve_command(port), cwd=ROOT, env=server_env(env),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port, process, timeout=120)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=2) as r:
                    if r.status == 200:
                        return time.monotonic() - began
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.05)
        raise RuntimeError("/readyz never answered 200")
    finally:
        process.terminate()
        process.wait(timeout=20)


def one_size(count: int, args: argparse.Namespace, env: dict[str, str], tmp: Path) -> dict:
    """The database grown to `count` tables; its figures printed, and returned."""
    engine = "PostgreSQL" if args.postgres else "SQLite"
    print(f"\n== {engine}, {count} tables ==", flush=True)
    out = tmp / "filled.json"
    subprocess.run([sys.executable, __file__, "--fill", str(count), str(out)],
                   cwd=ROOT, env=server_env(env), check=True)
    facts = json.loads(out.read_text())
    rows = facts["rows"]
    print(f"  grown in {facts['filled_s']:.0f} s (the first {PLAYED} played, the others "
          f"copies): {rows['tables']} tables, {rows['rounds']} rounds, {rows['events']} "
          f"events, {rows['chat']} chat lines")
    print(f"  database: {facts['db_bytes'] / 1e6:.1f} MB")
    print(f"  backup (the copy and its check, manifest, sha256): {facts['backup_s']:.2f} s, "
          f"{facts['backup_bytes'] / 1e6:.1f} MB")
    print(f"  check before a restore (sha256, the engine's check): {facts['check_s']:.2f} s")
    if args.duration > 0:
        load_env = {**env, "BACKUP_DIR": str(tmp / "under-load")}
        with start_servers("embedded", 1, 0, load_env) as servers:
            bench = BackupsUnderLoad(load_args(args.load_tables, args.duration), servers,
                                     load_env, low=args.low_priority)
            asyncio.run(bench.run())
        load_report(bench)
    database_delete(env)
    began = time.monotonic()
    subprocess.run([sys.executable, "manage.py", "restore", "--noinput", facts["file"]],
                   cwd=ROOT, env=server_env(env), check=True, stdout=subprocess.DEVNULL)
    restored = time.monotonic() - began
    print(f"  restore: {restored:.2f} s for `manage.py restore`, "
          f"{ready_after(env, began):.2f} s to the new server's first /readyz 200",
          flush=True)
    subprocess.run([sys.executable, __file__, "--move", str(facts["move_at"]),
                    json.dumps(facts["move_secrets"])], cwd=ROOT, env=server_env(env),
                   check=True)
    return facts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="1000,10000", help="sizes, as 1000,10000")
    parser.add_argument("--postgres", action="store_true",
                        help=f"on PostgreSQL: DATABASE_URL, or {POSTGRES_URL}")
    parser.add_argument("--load-tables", type=int, default=20,
                        help="tables where people play while the backups run")
    parser.add_argument("--duration", type=float, default=30,
                        help="measured seconds of load (0: no load)")
    parser.add_argument("--low-priority", action="store_true",
                        help="the backups under load at the lowest CPU and I/O priority "
                        "(nice -n 19 ionice -c 3)")
    args = parser.parse_args()
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
                   cwd=ROOT, env=server_env(SERVER_ENV), check=True)
    sizes = sorted(int(n) for n in args.tables.split(","))
    with tempfile.TemporaryDirectory(prefix="ocholoco-bench-backup-") as tmp, \
            database(args.postgres) as db_env:
        env = {**SERVER_ENV, **db_env, "BACKUP_DIR": str(Path(tmp) / "backups"),
               "CHANNEL_PREFIX": f"backup{uuid.uuid4().hex[:8]}"}
        grown = [one_size(count, args, env, Path(tmp)) for count in sizes]
    if len(grown) > 1:
        first, last = grown[0], grown[-1]
        tables = last["rows"]["tables"] - first["rows"]["tables"]
        grew = {key: (last[key] - first[key]) / tables / 1000
                for key in ("db_bytes", "backup_bytes")}
        print(f"\na table adds {grew['db_bytes']:.1f} kB to the database and "
              f"{grew['backup_bytes']:.1f} kB to a backup")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--fill"]:
        fill_and_back_up(int(sys.argv[2]), Path(sys.argv[3]))
    elif sys.argv[1:2] == ["--backups"]:
        backups_on_request()
    elif sys.argv[1:2] == ["--move"]:
        move_after_restore(int(sys.argv[2]), json.loads(sys.argv[3]))
    else:
        main()
