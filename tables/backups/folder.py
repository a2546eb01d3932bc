"""BACKUP_DIR: the backups, each three files named by the time it was taken
(`ocholoco-20261207T011500123Z`): the copy (`.sqlite3` or `.pgdump`), its manifest (`.json`,
written last: a backup without one is not a backup) and the secrets (`.secrets.json`), all
readable by their owner only. What is written goes to a temporary name first, renamed when
whole. The retention rule: the newest of each of the last BACKUP_KEEP_HOURLY hours,
BACKUP_KEEP_DAILY days and BACKUP_KEEP_WEEKLY weeks, and the newest BACKUP_KEEP_LABELLED of each
label (a deploy's, the database a restore replaced)."""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from django.conf import settings

PREFIX = "ocholoco-"
STAMP = "%Y%m%dT%H%M%S"
FORMAT = "ocholoco-backup"  # the manifest's mark: a JSON file without it is not ours


class BackupError(Exception):
    """A backup or a restore that cannot go on; its message is for the operator (Spanish)."""


@dataclass(frozen=True)
class Kept:
    """A backup in BACKUP_DIR: its manifest's path and contents."""

    manifest_path: Path
    manifest: dict

    @property
    def taken_at(self) -> datetime:
        return datetime.fromisoformat(self.manifest["taken_at"])

    @property
    def label(self) -> str:
        return self.manifest.get("label", "")

    @property
    def data_path(self) -> Path:
        return self.manifest_path.parent / self.manifest["file"]

    @property
    def secrets_path(self) -> Path:
        return self.manifest_path.parent / self.manifest["secrets"]


def backup_dir() -> Path:
    """BACKUP_DIR, made (owner only) if missing."""
    path = Path(settings.BACKUP_DIR)
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path


def backup_name(taken_at: datetime) -> str:
    """`ocholoco-20261207T011500123Z`: names sort in time order (to the millisecond)."""
    return f"{PREFIX}{taken_at.strftime(STAMP)}{taken_at.microsecond // 1000:03d}Z"


@contextmanager
def backup_lock() -> Iterator[None]:
    """One backup or restore at a time in BACKUP_DIR (a scheduled one, a deploy's, a person's):
    the next waits. The lock goes with the process that holds it, whatever ends it."""
    with open(backup_dir() / ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def manifest_read(path: Path) -> dict | None:
    """The manifest at `path`, or None if it is not one of ours."""
    try:
        manifest = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        return None
    return manifest


def backups_kept() -> list[Kept]:
    """The whole backups in BACKUP_DIR (a manifest of ours), newest first."""
    directory = Path(settings.BACKUP_DIR)
    if not directory.is_dir():
        return []
    kept = []
    for path in directory.glob(f"{PREFIX}*.json"):
        if path.name.endswith(".secrets.json"):
            continue
        manifest = manifest_read(path)
        if manifest is not None:
            kept.append(Kept(path, manifest))
    return sorted(kept, key=lambda k: k.taken_at, reverse=True)


def backup_newest() -> Kept | None:
    """The last good backup (its manifest is written last), or None."""
    kept = backups_kept()
    return kept[0] if kept else None


def file_write_private(path: Path, write: Callable[[Path], None]) -> None:
    """Make `path` by `write(temporary)`: a temporary name beside it (owner-only), renamed when
    whole; the temporary is removed if anything fails."""
    temporary = path.with_name(f".tmp-{path.name}")
    temporary.unlink(missing_ok=True)
    try:
        os.close(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        write(temporary)
        os.chmod(temporary, 0o600)  # a tool may have written it anew
        with open(temporary, "rb") as written:
            os.fsync(written.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def json_write_private(path: Path, value: dict) -> None:
    file_write_private(
        path, lambda temporary: temporary.write_text(json.dumps(value, indent=2) + "\n")
    )


def _bucket_keep(kept: list[Kept], key: Callable[[datetime], object], count: int) -> set[Path]:
    """The newest backup of each of the `count` newest buckets (an hour, a day, a week)."""
    chosen, seen = set(), set()
    for backup in kept:
        bucket = key(backup.taken_at)
        if bucket in seen:
            continue
        if len(seen) == count:
            break
        seen.add(bucket)
        chosen.add(backup.manifest_path)
    return chosen


def backups_prune() -> list[Path]:
    """Delete the backups the retention rule no longer keeps (called only after a new good
    one). Returns the manifests of those deleted."""
    every = backups_kept()
    plain = [k for k in every if not k.label]
    keep = _bucket_keep(
        plain, lambda t: (t.date(), t.hour), settings.BACKUP_KEEP_HOURLY
    ) | _bucket_keep(plain, lambda t: t.date(), settings.BACKUP_KEEP_DAILY) | _bucket_keep(
        plain, lambda t: t.isocalendar()[:2], settings.BACKUP_KEEP_WEEKLY
    )
    for label in {k.label for k in every if k.label}:
        labelled = [k for k in every if k.label == label]
        keep |= {k.manifest_path for k in labelled[: settings.BACKUP_KEEP_LABELLED]}
    if every:
        keep.add(every[0].manifest_path)  # the newest, whatever the settings
    pruned = []
    for backup in every:
        if backup.manifest_path in keep:
            continue
        backup.manifest_path.unlink(missing_ok=True)  # first: no longer a backup
        backup.data_path.unlink(missing_ok=True)
        backup.secrets_path.unlink(missing_ok=True)
        pruned.append(backup.manifest_path)
    return pruned


def leftovers_remove() -> None:
    """Temporary files a backup killed half-way left (never a whole backup)."""
    for path in Path(settings.BACKUP_DIR).glob(".tmp-*"):
        path.unlink(missing_ok=True)
