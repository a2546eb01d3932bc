"""A task for the worker's drain test (tests/config/test_drain.py): it notes each run in a
file, waits until the test lets it go, and notes its end."""

from __future__ import annotations

import time
from pathlib import Path

from django_tasks import task


@task()
def noted(*, folder: str, name: str) -> str:
    here = Path(folder)
    with (here / "runs").open("a") as runs:
        runs.write(f"start {name}\n")
    deadline = time.monotonic() + 30
    while not (here / f"go-{name}").exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    with (here / "runs").open("a") as runs:
        runs.write(f"end {name}\n")
    return name
