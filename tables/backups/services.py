"""A backup and a restore, whole: what `manage.py backup`, `manage.py restore`, the scheduled
backup (`tables.changes.workers`) and `scripts/deploy.sh` run."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.db import connection, transaction
from django.db.migrations.loader import MigrationLoader
from django.db.models import F
from django.utils import timezone
from django_tasks_db.models import DBTaskResult, get_date_max

from tables.backups.copies import engine_current
from tables.backups.folder import (
    FORMAT,
    BackupError,
    Kept,
    backup_dir,
    backup_lock,
    backup_name,
    backups_prune,
    file_write_private,
    json_write_private,
    leftovers_remove,
    manifest_read,
)
from tables.models import Presence


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def secrets_now() -> dict:
    """What keeps every player in their seat and their alerts working: the key that signs the
    session cookies, and the Web Push keys (from the environment or VAPID_FILE)."""
    vapid_file = Path(settings.VAPID_FILE)
    return {
        "format": FORMAT + "-secrets",
        "SECRET_KEY": settings.SECRET_KEY,
        "VAPID_PUBLIC_KEY": settings.VAPID_PUBLIC_KEY,
        "VAPID_PRIVATE_KEY": settings.VAPID_PRIVATE_KEY,
        "VAPID_SUBJECT": settings.VAPID_SUBJECT,
        "VAPID_FILE": str(vapid_file),
        "VAPID_FILE_CONTENTS": (
            json.loads(vapid_file.read_text()) if vapid_file.exists() else None
        ),
    }


def backup_take(*, label: str = "") -> Kept:
    """A consistent copy of the database while the site plays, checked, with its manifest and
    the secrets beside it in BACKUP_DIR; then the retention rule. Raises `BackupError` (or the
    system's error: a full disk) with nothing of it left behind and the last good backup kept.
    `label`: "deploy" (before a deploy's migrations), "replaced" (what a restore replaced), or
    none (the hourly ones)."""
    engine = engine_current()
    with backup_lock():
        leftovers_remove()
        directory = backup_dir()
        taken_at = timezone.now()
        name = backup_name(taken_at)
        data = directory / f"{name}{engine.suffix}"
        secrets = directory / f"{name}.secrets.json"
        manifest_path = directory / f"{name}.json"
        facts: dict = {}

        def copy(temporary: Path) -> None:
            facts.update(engine.copy_make(temporary))

        try:
            file_write_private(data, copy)
            json_write_private(secrets, secrets_now())
            manifest = {
                "format": FORMAT,
                "version": 1,
                "taken_at": taken_at.isoformat(),
                "release": settings.RELEASE,
                "engine": engine.name,
                "label": label,
                "file": data.name,
                "bytes": data.stat().st_size,
                "sha256": sha256_of(data),
                "secrets": secrets.name,
                **facts,
            }
            json_write_private(manifest_path, manifest)  # last: now it is a backup
        except BaseException:
            data.unlink(missing_ok=True)
            secrets.unlink(missing_ok=True)
            raise
        backups_prune()
    return Kept(manifest_path, manifest)


# --- Restore -------------------------------------------------------------------------------


def backup_check(*, file: Path) -> Kept:
    """Whether `file` (a backup's copy, or its manifest) may be restored onto this site: ours
    (its manifest beside it), whole (its size and sha256), sound (the engine's own check), of
    this engine, and from no migration this code lacks. Raises `BackupError` saying why not.
    Changes nothing."""
    file = Path(file)
    if not file.is_file():
        raise BackupError(f"No existe el archivo {file}.")
    try:
        return _checked(file)
    except (KeyError, TypeError, ValueError) as error:  # a manifest of ours, but not whole
        raise BackupError(f"El manifiesto de {file.name} está incompleto ({error}).") from error


def _checked(file: Path) -> Kept:
    manifest_path = file if file.suffix == ".json" else file.with_suffix(".json")
    manifest = manifest_read(manifest_path) if manifest_path.is_file() else None
    if manifest is None:
        raise BackupError(
            f"{file.name} no es una copia de Ocho Loco: no tiene a su lado su manifiesto "
            f"({manifest_path.name})."
        )
    datetime.fromisoformat(manifest["taken_at"])
    if Path(manifest["file"]).name != manifest["file"]:
        raise BackupError(
            f"El manifiesto {manifest_path.name} nombra una copia fuera de su carpeta."
        )
    data = manifest_path.parent / manifest["file"]
    if file != manifest_path and file.name != data.name:
        raise BackupError(f"{file.name} no es la copia que describe {manifest_path.name}.")
    engine = engine_current()
    if manifest["engine"] != engine.name:
        raise BackupError(
            f"Es una copia de {manifest['engine']} y este sitio usa {engine.name}: "
            "no se puede restaurar en otro motor."
        )
    newer = migrations_unknown(manifest["migrations"])
    if newer:
        raise BackupError(
            "La copia viene de una versión más nueva del código: tiene migraciones que este "
            f"código no conoce ({', '.join(newer[:5])}). Restáurala con esa versión."
        )
    if not data.is_file():
        raise BackupError(f"Falta el archivo de la copia: {data}.")
    if data.stat().st_size != manifest["bytes"] or sha256_of(data) != manifest["sha256"]:
        raise BackupError(
            f"{data.name} está incompleta o dañada: no coincide con su manifiesto "
            "(tamaño o sha256)."
        )
    engine.copy_check(data)
    return Kept(manifest_path, manifest)


def migrations_unknown(applied: dict[str, list[str]]) -> list[str]:
    """The migrations `applied` lists that this code does not have (read from its files)."""
    known = set(MigrationLoader(None, ignore_no_migrations=True).disk_migrations)
    return [
        f"{app}.{name}" for app, names in applied.items() for name in names
        if (app, name) not in known
    ]


def site_running_check() -> None:
    """Raises `BackupError` while the site runs on this database."""
    with engine_current().site_kept_out():
        pass


@dataclass(frozen=True)
class Restored:
    replaced: Kept | None  # the database it replaced, kept in BACKUP_DIR (None: there was none)
    shifted_by: timedelta  # how much later every turn's deadline now falls
    clocks: int  # tables whose turn clock was given back


def backup_restore(
    *, restorable: Kept, turn_clocks_shift: Callable[..., int]
) -> Restored:
    """Put `restorable` in place of the database: the site stopped; what it replaces kept as a
    backup ("replaced") first; then the migrations this code has and the backup lacks; then
    the time since the backup given back (`downtime_shift`, with the turn clock's own
    `turn_clocks_shift`, handed in: `tables.state.turn_clock.turn_clocks_shift`). A copy that
    fails to load is undone by loading the replaced one back. On SQLite a process of the site
    that starts meanwhile waits until it is done."""
    engine = engine_current()
    with engine.site_kept_out():
        replaced = None if engine.is_empty() else backup_take(label="replaced")
        with backup_lock():
            try:
                engine.copy_load(restorable.data_path)
            except BaseException:
                if replaced is not None:
                    engine.copy_load(replaced.data_path)
                raise
        connection.close()
        call_command("migrate", interactive=False, verbosity=0)
        shifted_by = max(timedelta(0), timezone.now() - restorable.taken_at)
        clocks = downtime_shift(by=shifted_by, turn_clocks_shift=turn_clocks_shift)
    return Restored(replaced=replaced, shifted_by=shifted_by, clocks=clocks)


def downtime_shift(*, by: timedelta, turn_clocks_shift: Callable[..., int]) -> int:
    """The site was down for `by`: every turn's deadline (`turn_clocks_shift`, the turn clock's:
    the backups read only the models, so it is handed in), and every task waiting for a time
    (a robot's turn, a person's time running out), move that much later, so the downtime times
    no one out and no robot takes a seat for it. No page is open on a stopped site: the
    presence rows go. Not a table change (no version, no event, nothing to push: the site is
    stopped and the tables are as they were), hence not through `tables.changes`. Returns how
    many tables had a clock running."""
    with transaction.atomic():
        clocks = turn_clocks_shift(by=by)
        # A task queued with no time to wait for has django-tasks-db's "date max" there.
        DBTaskResult.objects.filter(status="READY").exclude(run_after=get_date_max()).update(
            run_after=F("run_after") + by
        )
        Presence.objects.all().delete()
    return clocks
