"""Backups and restores (tables.backups; docs/operating.md, "Backups"): `manage.py backup` and
`manage.py restore` as their own processes, on a database of their own (SQLite, or PostgreSQL
when DATABASE_URL points at it) and a BACKUP_DIR of their own. The whole drill (a table in play,
servers stopped and started) is tests/tables/test_restore_drill.py."""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import subprocess
import sys
import time
import urllib.request
import zipfile
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django_tasks_db.models import DBTaskResult, get_date_max

from tables.backups.folder import FORMAT, backup_name, backups_prune
from tables.backups.services import downtime_shift
from tables.changes.workers import backup_schedule, backup_scheduled
from tables.metrics import LastBackup
from tables.models import Table
from tables.state.turn_clock import turn_clocks_shift
from tests.live import ROOT, free_port, fresh_database, server_env, server_processes
from tests.tables.backup_cast import (
    ON_POSTGRES,
    backup,
    database_read,
    files_in,
    manage,
    table_make,
)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[dict[str, str]]:
    """A migrated database of its own with one table (Ana's), and a BACKUP_DIR of its own."""
    with fresh_database() as db_env:
        env = {**db_env, "BACKUP_DIR": str(tmp_path / "backups")}
        table_make(env, "Ana")
        yield env


def test_a_backup_restored_puts_the_tables_back_and_keeps_the_database_it_replaced(site):
    copy = backup(site)
    before = database_read(site)
    table_make(site, "Beto")  # after the backup

    done = manage(site, "restore", "--noinput", str(copy))

    assert done.returncode == 0, done.stderr
    assert ": 1 mesa, 0 rondas, " in done.stdout  # what the copy holds, counted in Spanish
    assert database_read(site) == before
    replaced = Path(done.stdout.split("quedó en ")[1].split()[0])
    manifest = json.loads(replaced.with_suffix(".json").read_text())
    assert manifest["label"] == "replaced" and manifest["counts"]["tables"] == 2


def test_a_backup_from_older_code_is_restored_and_migrated_forward(site):
    done = manage(site, "migrate", "tables", "0009_presence")
    assert done.returncode == 0, done.stderr
    copy = backup(site)
    assert "0010_moved_task_paths" not in json.loads(copy.with_suffix(".json").read_text())[
        "migrations"
    ]["tables"]
    assert manage(site, "migrate").returncode == 0

    done = manage(site, "restore", "--noinput", str(copy))

    assert done.returncode == 0, done.stderr
    assert "[X] 0010_moved_task_paths" in manage(site, "showmigrations", "tables").stdout


def test_the_manifest_says_what_the_copy_holds_and_the_secrets_are_apart_for_the_owner(site):
    copy = backup({**site, "RELEASE": "20261207T000000Z-abc1234", "SECRET_KEY": "s" * 50})

    manifest = json.loads(copy.with_suffix(".json").read_text())
    assert manifest["format"] == FORMAT
    assert manifest["engine"] == ("postgresql" if ON_POSTGRES else "sqlite")
    assert manifest["release"] == "20261207T000000Z-abc1234"
    assert manifest["counts"] == {"tables": 1, "rounds": 0, "events": 1}
    assert manifest["last_event"]["id"] >= 1
    assert "0010_moved_task_paths" in manifest["migrations"]["tables"]
    assert manifest["sha256"] == hashlib.sha256(copy.read_bytes()).hexdigest()
    assert manifest["bytes"] == copy.stat().st_size
    secrets = copy.parent / manifest["secrets"]
    assert json.loads(secrets.read_text())["SECRET_KEY"] == "s" * 50
    assert "s" * 50 not in copy.with_suffix(".json").read_text()
    for path in (copy, secrets, copy.with_suffix(".json")):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600


# --- Bad input: refused with the reason, nothing changed -------------------------------------


@pytest.fixture(scope="module")
def backed_up(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple]:
    """A site with a backup taken, then a second table made: (its settings, the copy, its
    database and its BACKUP_DIR as they are). The bad-input tests share it: none changes it."""
    with fresh_database() as db_env:
        env = {**db_env, "BACKUP_DIR": str(tmp_path_factory.mktemp("backed-up") / "backups")}
        table_make(env, "Ana")
        copy = backup(env)
        table_make(env, "Beto")
        yield env, copy, database_read(env), files_in(copy.parent)


def _truncated(data: Path, manifest: Path) -> Path:
    data.write_bytes(data.read_bytes()[: data.stat().st_size // 2])
    return data


def _damaged_under_a_matching_manifest(data: Path, manifest: Path) -> Path:
    """Bytes overwritten near the start (SQLite's first page, pg_dump's table of contents),
    the manifest's size and sha256 made to match: only the engine's own check can tell."""
    content = bytearray(data.read_bytes())
    content[100:4000] = bytes(3900)
    data.write_bytes(bytes(content))
    _manifest_edit(manifest, bytes=len(content), sha256=hashlib.sha256(content).hexdigest())
    return data


def _foreign(data: Path, manifest: Path) -> Path:
    noise = data.parent / "copia.bin"
    noise.write_bytes(os.urandom(50_000))
    return noise


def _zipped(data: Path, manifest: Path) -> Path:
    archive = data.parent / "copia.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.write(data, data.name)
        zipped.write(manifest, manifest.name)
    return archive


def _from_newer_code(data: Path, manifest: Path) -> Path:
    migrations = json.loads(manifest.read_text())["migrations"]
    migrations["tables"].append("0099_del_futuro")
    _manifest_edit(manifest, migrations=migrations)
    return data


def _from_the_other_engine(data: Path, manifest: Path) -> Path:
    _manifest_edit(manifest, engine="sqlite" if ON_POSTGRES else "postgresql")
    return data


def _without_its_copy(data: Path, manifest: Path) -> Path:
    data.unlink()
    return manifest


def _with_its_manifest_half_written(data: Path, manifest: Path) -> Path:
    manifest.write_text(json.dumps({"format": FORMAT, "engine": "sqlite"}))
    return data


def _manifest_edit(manifest: Path, **changes: object) -> None:
    manifest.write_text(json.dumps({**json.loads(manifest.read_text()), **changes}))


@pytest.mark.parametrize(
    ("spoil", "said"),
    [
        (_truncated, "incompleta o dañada"),
        (_damaged_under_a_matching_manifest, "dañada"),
        (_foreign, "no es una copia de Ocho Loco"),
        (_zipped, "no es una copia de Ocho Loco"),
        (_from_newer_code, "versión más nueva del código"),
        (_from_the_other_engine, "otro motor"),
        (_without_its_copy, "Falta el archivo"),
        (_with_its_manifest_half_written, "está incompleto"),
    ],
)
def test_a_bad_backup_is_refused_with_the_reason_and_changes_nothing(
    backed_up, tmp_path: Path, spoil: Callable[[Path, Path], Path], said: str
):
    site, copy, before, kept = backed_up
    data, manifest = tmp_path / copy.name, tmp_path / copy.with_suffix(".json").name
    data.write_bytes(copy.read_bytes())
    manifest.write_bytes(copy.with_suffix(".json").read_bytes())

    done = manage(site, "restore", "--noinput", str(spoil(data, manifest)))

    assert done.returncode != 0
    assert "No se restauró nada" in done.stderr and said in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert database_read(site) == before
    assert files_in(copy.parent) == kept  # not even a copy of what it would have replaced


def test_restore_refuses_while_the_site_runs(site):
    copy = backup(site)
    table_make(site, "Beto")
    with server_processes(site):
        before = database_read(site)
        done = manage(site, "restore", "--noinput", str(copy))

        assert done.returncode != 0
        assert "El sitio está en marcha" in done.stderr, done.stderr
        assert database_read(site) == before


def test_restore_asks_before_it_replaces_anything(site):
    copy = backup(site)
    table_make(site, "Beto")
    before = database_read(site)

    done = manage(site, "restore", str(copy), answer="no\n")

    assert done.returncode != 0 and "No se restauró nada" in done.stderr
    assert "reemplaza la base de datos" in done.stdout
    assert database_read(site) == before


# --- A backup that fails ---------------------------------------------------------------------


def test_a_backup_on_a_full_disk_fails_loudly_and_leaves_the_last_good_one(site):
    good = backup(site)
    kept = files_in(good.parent)

    done = manage(site, "backup", file_size_limit=40_000)  # the disk fills at 40 kB

    assert done.returncode != 0
    assert "No se hizo la copia" in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert files_in(good.parent) == kept  # no partial file, the last good one there


@pytest.mark.skipif(not ON_POSTGRES, reason="pg_dump is PostgreSQL's")
def test_a_failing_pg_dump_fails_the_backup_and_leaves_the_last_good_one(site, tmp_path: Path):
    good = backup(site)
    kept = files_in(good.parent)
    tools = tmp_path / "bin"
    tools.mkdir()
    fake = tools / "pg_dump"
    fake.write_text("#!/bin/sh\necho 'pg_dump: error: connection lost' >&2\nexit 1\n")
    fake.chmod(0o755)

    done = manage({**site, "PATH": f"{tools}:{os.environ['PATH']}"}, "backup")

    assert done.returncode != 0
    assert "pg_dump falló: pg_dump: error: connection lost" in done.stderr, done.stderr
    assert files_in(good.parent) == kept


# --- Retention, the metric, the schedule, the clocks (in this process) -----------------------


def _backup_at(directory: Path, taken_at: datetime, label: str = "") -> Path:
    name = backup_name(taken_at)
    (directory / f"{name}.sqlite3").write_bytes(b"")
    (directory / f"{name}.secrets.json").write_text("{}")
    manifest = directory / f"{name}.json"
    manifest.write_text(json.dumps({
        "format": FORMAT, "taken_at": taken_at.isoformat(), "label": label,
        "file": f"{name}.sqlite3", "secrets": f"{name}.secrets.json",
    }))
    return manifest


def test_retention_keeps_the_newest_of_each_hour_day_and_week_and_each_labels_last(
    settings, tmp_path: Path
):
    settings.BACKUP_DIR = tmp_path
    settings.BACKUP_KEEP_HOURLY, settings.BACKUP_KEEP_DAILY = 3, 2
    settings.BACKUP_KEEP_WEEKLY, settings.BACKUP_KEEP_LABELLED = 2, 1
    now = datetime(2026, 12, 9, 12, 30, tzinfo=UTC)  # a Wednesday
    hours = [_backup_at(tmp_path, now - timedelta(minutes=20 * i)) for i in range(12)]
    older = [_backup_at(tmp_path, now - timedelta(days=d)) for d in (1, 2, 8, 15)]
    deploys = [_backup_at(tmp_path, now - timedelta(days=d), "deploy") for d in (3, 4)]

    backups_prune()

    left = {p for p in tmp_path.glob("*.json") if not p.name.endswith(".secrets.json")}
    # Hourly: the newest of 12:xx, 11:xx, 10:xx; daily: today's newest and yesterday's; weekly:
    # this week's newest and last week's (8 days ago); the last deploy.
    assert left == {hours[0], hours[2], hours[5], older[0], older[2], deploys[0]}
    assert {p.name for p in tmp_path.iterdir()} == {
        n for p in left for n in (p.name, p.with_suffix(".sqlite3").name,
                                  p.with_suffix(".secrets.json").name)
    }


def test_the_last_backup_metric_is_the_newest_good_backups_time(settings, tmp_path: Path):
    settings.BACKUP_DIR = tmp_path
    assert LastBackup().collect()[0].samples[0].value == 0  # none yet: an alert fires
    taken_at = datetime(2026, 12, 7, 1, 0, tzinfo=UTC)
    _backup_at(tmp_path, taken_at - timedelta(hours=1))
    _backup_at(tmp_path, taken_at)
    (tmp_path / ".tmp-ocholoco-20261207T020000000Z.sqlite3").write_bytes(b"half")

    assert LastBackup().collect()[0].samples[0].value == taken_at.timestamp()


@pytest.mark.django_db
def test_one_scheduled_backup_is_queued_its_interval_after_the_newest(settings, tmp_path):
    settings.BACKUP_DIR, settings.BACKUP_EVERY_HOURS = tmp_path, 1
    taken_at = datetime.now(UTC) - timedelta(minutes=10)
    _backup_at(tmp_path, taken_at)

    backup_schedule()
    backup_schedule()  # a second worker starting

    queued = DBTaskResult.objects.filter(
        status="READY", task_path=backup_scheduled.module_path
    )
    assert [q.run_after for q in queued] == [taken_at + timedelta(hours=1)]


@pytest.mark.django_db
def test_turn_clocks_and_waiting_tasks_move_by_the_downtime_and_nothing_else(settings):
    deadline = datetime(2026, 12, 7, 1, 0, tzinfo=UTC)
    ticking = Table.objects.create(rules_key="clasico", turn_deadline=deadline, version=7)
    still = Table.objects.create(rules_key="clasico", version=3)
    timed = backup_scheduled.using(run_after=deadline).enqueue()
    at_once = backup_scheduled.enqueue()

    assert downtime_shift(by=timedelta(minutes=5), turn_clocks_shift=turn_clocks_shift) == 1

    ticking.refresh_from_db(), still.refresh_from_db()
    assert ticking.turn_deadline == deadline + timedelta(minutes=5) and ticking.version == 7
    assert still.turn_deadline is None and still.version == 3
    assert DBTaskResult.objects.get(pk=timed.id).run_after == deadline + timedelta(minutes=5)
    assert DBTaskResult.objects.get(pk=at_once.id).run_after == get_date_max()


def test_a_task_worker_takes_the_scheduled_backup_and_its_metrics_say_when(site):
    port = free_port()
    env = {**site, "BACKUP_EVERY_HOURS": "1", "METRICS_PORT": str(port)}
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "tasks_worker"], cwd=ROOT, env=server_env(env),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        backups = Path(site["BACKUP_DIR"])
        manifest = _until(lambda: next(iter(backups.glob("ocholoco-*Z.json")), None))
        taken_at = datetime.fromisoformat(json.loads(manifest.read_text())["taken_at"])

        def said() -> float | None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as answer:
                    text = answer.read().decode()
            except OSError:
                return None
            found = re.search(r"^ocholoco_backup_last_success_timestamp_seconds (\S+)$", text, re.M)
            return float(found.group(1)) if found else None

        assert _until(said) == taken_at.timestamp()
    finally:
        worker.terminate()
        worker.wait(timeout=30)


def _until(probe: Callable[[], object], bound: float = 30) -> object:
    """`probe()`'s first answer that is not None, looked for until `bound` seconds pass."""
    deadline = time.monotonic() + bound
    while (found := probe()) is None:
        assert time.monotonic() < deadline, "never came"
        time.sleep(0.1)
    return found
