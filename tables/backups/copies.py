"""The copy itself, by each engine's own tool: SQLite's online backup API (Python's
`sqlite3.Connection.backup`: one read transaction, so a consistent copy while the site writes)
and PostgreSQL's `pg_dump -Fc` / `pg_restore`. Each engine makes a copy, checks one, loads one in
place of the database, says whether the database is empty, and keeps the site out while a
restore runs (refused if it is running). The facts a manifest records are read from the very
state that was copied."""

from __future__ import annotations

import fcntl
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import AbstractContextManager, closing, contextmanager
from pathlib import Path
from typing import Any, Protocol

from django.conf import settings
from django.db import connection

from tables.backups.folder import BackupError

# What a manifest says of the data (the same SQL on both engines).
_COUNTED = {"tables": "tables_table", "rounds": "tables_tableround", "events": "tables_tableevent"}


def facts_read(db: Any) -> dict:
    """The applied migrations (per app, in order), the tables, rounds and events counted, and the
    last event, read through `db` (a DB-API connection with `execute`)."""
    migrations: dict[str, list[str]] = {}
    for app, name in db.execute("SELECT app, name FROM django_migrations ORDER BY id").fetchall():
        migrations.setdefault(app, []).append(name)
    counts = {
        what: db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]  # noqa: S608 - fixed
        for what, table in _COUNTED.items()
    }
    last = db.execute(
        "SELECT id, created_at FROM tables_tableevent ORDER BY id DESC LIMIT 1"
    ).fetchone()
    last_event = None if last is None else {"id": last[0], "created_at": str(last[1])}
    return {"migrations": migrations, "counts": counts, "last_event": last_event}


class Engine(Protocol):
    name: str
    suffix: str

    def copy_make(self, into: Path) -> dict: ...
    def copy_check(self, path: Path) -> None: ...
    def copy_load(self, path: Path) -> None: ...
    def is_empty(self) -> bool: ...
    def site_kept_out(self) -> AbstractContextManager[None]: ...


class SiteRunning(BackupError):
    """The site runs on the database: no restore."""

    def __init__(self, what: str) -> None:
        super().__init__(
            f"El sitio está en marcha ({what}): detén los procesos web y los trabajadores "
            "antes de restaurar."
        )


class SQLite:
    """The database file SQLITE_PATH."""

    name, suffix = "sqlite", ".sqlite3"
    MAGIC = b"SQLite format 3\x00"

    def __init__(self) -> None:
        self.path = Path(settings.DATABASES["default"]["NAME"])

    def copy_make(self, into: Path) -> dict:
        """The backup API in one step (one read transaction: writers go on, in WAL), then the
        copy made whole by itself (no WAL) and checked."""
        if self.is_empty():
            raise BackupError(f"No hay base de datos que copiar en {self.path}.")
        source = sqlite3.connect(self.path, timeout=20)
        try:
            with closing(source), closing(sqlite3.connect(into)) as copy:
                source.backup(copy)
                copy.execute("PRAGMA journal_mode=DELETE")
                self._integrity(copy, into)
                return facts_read(copy)
        except sqlite3.Error as error:
            raise BackupError(
                f"SQLite no pudo escribir la copia ({error}): ¿queda sitio en {into.parent}?"
            ) from error

    def copy_check(self, path: Path) -> None:
        with open(path, "rb") as file:
            if file.read(len(self.MAGIC)) != self.MAGIC:
                raise BackupError(f"{path.name} no es una base de datos SQLite.")
        with closing(self._read_only(path)) as copy:
            self._integrity(copy, path)

    def copy_load(self, path: Path) -> None:
        """The backup API the other way: the copy's pages into the database file, in one
        transaction of the database's (a failure leaves it as it was)."""
        connection.close()
        if not self.path.exists():  # a deleted database's journal must not meet the new one
            for suffix in ("-wal", "-shm", "-journal"):
                Path(f"{self.path}{suffix}").unlink(missing_ok=True)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        copy = self._read_only(path)
        with closing(copy), closing(sqlite3.connect(self.path, timeout=20)) as database:
            copy.backup(database)

    def is_empty(self) -> bool:
        if not self.path.exists():
            return True
        with closing(sqlite3.connect(self.path, timeout=20)) as db:
            found = db.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'django_migrations'"
            ).fetchone()
        return found is None

    @contextmanager
    def site_kept_out(self) -> Iterator[None]:
        """The exclusive side of the lock each process of the site holds shared while it lives
        (`running_lock_hold`): refused while one holds it; held, a process that starts
        meanwhile waits for it at its start."""
        lock_path = running_lock_path()
        lock_path.parent.mkdir(parents=True, exist_ok=True)
        with open(lock_path, "a") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise SiteRunning(
                    f"un proceso del sitio tiene abierta la base de datos ({lock_path})"
                ) from None
            yield

    @staticmethod
    def _read_only(path: Path) -> sqlite3.Connection:
        return sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)

    @staticmethod
    def _integrity(db: sqlite3.Connection, path: Path) -> None:
        try:
            result = db.execute("PRAGMA integrity_check").fetchall()
        except sqlite3.DatabaseError as error:
            raise BackupError(f"{path.name} está dañada: {error}.") from error
        if result != [("ok",)]:
            raise BackupError(f"{path.name} está dañada: {result[0][0]}.")


class PostgreSQL:
    """The database DATABASE_URL names, by pg_dump and pg_restore (PostgreSQL's client)."""

    name, suffix = "postgresql", ".pgdump"
    MAGIC = b"PGDMP"

    def __init__(self) -> None:
        db = settings.DATABASES["default"]
        self.database = db["NAME"]
        self.params = {
            key: str(db[setting]) for key, setting in (
                ("dbname", "NAME"), ("user", "USER"), ("password", "PASSWORD"),
                ("host", "HOST"), ("port", "PORT"),
            ) if db.get(setting)
        }
        # The client tools read the same from their environment (no password on a command line).
        self.env = {
            **os.environ,
            **{f"PG{key.upper()}" if key != "dbname" else "PGDATABASE": value
               for key, value in self.params.items()},
        }

    def _connect(self, **options: Any):
        import psycopg

        try:
            return psycopg.connect(**self.params, **options)
        except psycopg.OperationalError as error:
            raise BackupError(
                f"No se pudo abrir la base de datos {self.database}: {error}".strip()
            ) from error

    def _run(self, tool: str, *args: str) -> subprocess.CompletedProcess:
        program = shutil.which(tool)
        if program is None:
            raise BackupError(f"Falta {tool} (el cliente de PostgreSQL) en esta máquina.")
        return subprocess.run(
            [program, *args], env=self.env, capture_output=True, text=True, check=False
        )

    def copy_make(self, into: Path) -> dict:
        """pg_dump of a snapshot this connection exports, whose facts it reads meanwhile:
        the manifest says exactly what the dump holds."""
        import psycopg

        try:
            with self._connect() as db:
                db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                snapshot = db.execute("SELECT pg_export_snapshot()").fetchone()[0]
                facts = facts_read(db)
                dumped = self._run("pg_dump", "-Fc", f"--snapshot={snapshot}", "-f", str(into))
                db.rollback()
        except psycopg.Error as error:
            raise BackupError(f"PostgreSQL no dejó leer la base de datos: {error}") from error
        if dumped.returncode != 0:
            raise BackupError(f"pg_dump falló: {dumped.stderr.strip() or dumped.returncode}")
        self.copy_check(into)
        return facts

    def copy_check(self, path: Path) -> None:
        with open(path, "rb") as file:
            if file.read(len(self.MAGIC)) != self.MAGIC:
                raise BackupError(f"{path.name} no es una copia de pg_dump.")
        listed = self._run("pg_restore", "--list", str(path))
        if listed.returncode != 0 or "tables_table" not in listed.stdout:
            raise BackupError(
                f"{path.name} está dañada: pg_restore no la lee "
                f"({listed.stderr.strip() or 'le faltan las mesas'})."
            )

    def copy_load(self, path: Path) -> None:
        """The database emptied (its schema dropped and made again), then pg_restore in one
        transaction."""
        connection.close()
        with self._connect(autocommit=True) as db:
            db.execute("DROP SCHEMA public CASCADE")
            db.execute("CREATE SCHEMA public")
        loaded = self._run(
            "pg_restore", "--no-owner", "--no-privileges", "--single-transaction",
            "--exit-on-error", "-d", self.database, str(path),
        )
        if loaded.returncode != 0:
            raise BackupError(f"pg_restore falló: {loaded.stderr.strip()}")

    def is_empty(self) -> bool:
        with self._connect() as db:
            found = db.execute("SELECT to_regclass('public.django_migrations')").fetchone()
        return found[0] is None

    @contextmanager
    def site_kept_out(self) -> Iterator[None]:
        """Refused while anyone else is connected to the database: a web process's or a
        worker's pool (on any machine), a console. (PostgreSQL's own workers, autovacuum's,
        are no one.)"""
        with self._connect() as db:
            others = db.execute(
                "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
            ).fetchone()[0]
        if others:
            connections = "conexión" if others == 1 else "conexiones"
            raise SiteRunning(f"hay {others} {connections} más a la base de datos")
        yield


def engine_current() -> Engine:
    """The engine of this process's database."""
    return PostgreSQL() if connection.vendor == "postgresql" else SQLite()


# --- The site's processes hold the database while they live (SQLite's, on this machine) ------


def running_lock_path() -> Path:
    """Beside the SQLite file: held (shared) by each process of the site."""
    return Path(f"{settings.DATABASES['default']['NAME']}.running")


_held: list = []


def running_lock_hold() -> None:
    """Called as a web process or a task worker starts: on SQLite, a shared lock on
    `running_lock_path()` held until the process ends (however it ends: the system lets it go),
    so that a restore knows the site is running. PostgreSQL needs none: a restore sees the
    processes' connections."""
    if connection.vendor != "sqlite" or _held:
        return
    name = str(settings.DATABASES["default"]["NAME"])
    if name.startswith("file:") or ":memory:" in name:
        return  # a database in memory (the tests') has no file, and no other process
    path = running_lock_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    lock = open(path, "a")  # noqa: SIM115 - open for the process's life
    fcntl.flock(lock, fcntl.LOCK_SH)
    _held.append(lock)
