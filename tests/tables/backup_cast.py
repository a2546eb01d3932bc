"""What the backup tests share: `manage.py` run as its own process against a database of its
own (tests.live.fresh_database: SQLite, or PostgreSQL when DATABASE_URL points at it) and a
BACKUP_DIR of its own, and that database read through `manage.py shell`."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

from tests.live import ROOT, server_env

ON_POSTGRES = os.environ.get("DATABASE_URL", "").startswith("postgres")


def manage(
    env: dict[str, str], *args: str, file_size_limit: int | None = None, answer: str = ""
) -> subprocess.CompletedProcess:
    """`manage.py ARGS` with `env`; `file_size_limit`: no file this process (or a tool it runs)
    writes may grow past that many bytes: a disk that fills up."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_limit, file_size_limit))

    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=server_env(env), input=answer,
        capture_output=True, text=True, timeout=120,
        preexec_fn=limit if file_size_limit else None,
    )


def backup(env: dict[str, str]) -> Path:
    """A backup taken (`manage.py backup`): the file it printed."""
    done = manage(env, "backup")
    assert done.returncode == 0, done.stderr
    return Path(done.stdout.strip())


_READ = """
import json
from chat.models import ChatMessage
from tables.models import Seat, Table, TableEvent, TableRound
print(json.dumps({
    "tables": [
        {"code": t.code, "version": t.version, "status": t.status, "round": t.round_state,
         "deadline": t.turn_deadline.isoformat() if t.turn_deadline else None,
         "commitment": t.deal_commitment}
        for t in Table.objects.order_by("pk")
    ],
    "seats": [[s.number, s.name, s.kind, s.away, s.timeouts_in_row]
              for s in Seat.objects.order_by("table", "number")],
    "events": [[e.version, e.kind, e.seat, e.data]
               for e in TableEvent.objects.order_by("pk")],
    "rounds": [[r.commitment, r.reveal] for r in TableRound.objects.order_by("pk")],
    "chat": [m.text for m in ChatMessage.objects.order_by("pk")],
}))
"""


def database_read(env: dict[str, str]) -> dict:
    """Every table, seat, event, round and chat line of the database `env` names."""
    done = manage(env, "shell", "-c", _READ)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def table_make(env: dict[str, str], name: str) -> None:
    """A table in the lobby, its host `name` (through the service, as ABRIR MESA makes it)."""
    script = (
        "from tables.changes.services import table_open; "
        f"table_open(rules_key='clasico', host_name={name!r})"
    )
    done = manage(env, "shell", "-c", script)
    assert done.returncode == 0, done.stderr


def files_in(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir()) if p.name != ".lock"}
