"""The server tier's fixtures (Django, its test database, the channel layer, the cache): a
pytest plugin the root conftest loads when pytest-django runs, so that the engine's and the
robots' tests run without Django (`make test-fast`).

SQLite: a file in WAL mode, as the embedded server uses, not Django's shared in-memory test
database: two connections writing at once then wait for each other (the busy timeout), as in
production, instead of failing at once with "database table is locked".
PostgreSQL: a test database named after this process, so that two test runs on one server
(CI jobs, several checkouts) never create or drop each other's database.
"""

from __future__ import annotations

import os
import time
import uuid
from typing import Any

import pytest


@pytest.fixture(autouse=True)
def channel_prefix(settings: Any) -> None:
    """On Redis, a channel prefix of the test's own. (No task worker runs in a test process:
    a test runs the task a worker would, e.g. `tests.tables.helpers.robot_play`.)"""
    layer = settings.CHANNEL_LAYERS["default"]
    if "redis" in layer["BACKEND"]:
        # A channel prefix of this test's own: another test run on the same Redis, or a group
        # of a table with the same id from an earlier test, is never heard here.
        config = {**layer.get("CONFIG", {}), "prefix": f"test-{uuid.uuid4().hex[:12]}"}
        settings.CHANNEL_LAYERS = {"default": {**layer, "CONFIG": config}}


@pytest.fixture(autouse=True)
def no_kept_frames() -> None:
    """Each test starts with no table's frames kept in this process (`tables.live.frames`) and no
    presence waiting to be written (`tables.live.presence`): the test databases reuse table ids."""
    from tables.live import frames
    from tables.live.presence import presence_forget_pending

    frames.frames_clear()
    presence_forget_pending()  # an earlier test's sockets, whose event loop has ended


@pytest.fixture(autouse=True)
def fresh_limits(settings: Any) -> None:
    """Rate limits count afresh in each test: a cache key prefix of the test's own (the cache
    itself is the real one, Redis or the database, and may hold other tests' counts)."""
    cache = settings.CACHES["default"]
    settings.CACHES = {"default": {**cache, "KEY_PREFIX": f"test-{uuid.uuid4().hex[:12]}"}}


class StoppedClock:
    """A clock that stands still until a test moves it (`now`)."""

    def __init__(self, now: float) -> None:
        self.now = now

    def time(self) -> float:
        return self.now


@pytest.fixture(autouse=True)
def ratelimit_clock(monkeypatch: pytest.MonkeyPatch) -> StoppedClock:
    """django-ratelimit's clock, stopped: its windows are fixed periods of time, so a count
    must not depend on when a test runs nor on how long its requests take on a busy machine.
    A test moves it on with `ratelimit_clock.now += seconds`."""
    stopped = StoppedClock(float(int(time.time())))
    monkeypatch.setattr("django_ratelimit.core.time", stopped)
    return stopped


@pytest.fixture(scope="session")
def django_db_modify_db_settings(
    django_db_modify_db_settings_parallel_suffix: None, tmp_path_factory: pytest.TempPathFactory
) -> None:
    from django.conf import settings

    database = settings.DATABASES["default"]
    test = database.setdefault("TEST", {})
    if database["ENGINE"] in ("config.sqlite", "django.db.backends.sqlite3"):
        test["NAME"] = str(tmp_path_factory.mktemp("db") / "test.sqlite3")
        # Thrown away after the run: no wait for the disk at each commit (tests.live's too).
        options = database.setdefault("OPTIONS", {})
        options["init_command"] = options.get("init_command", "").replace(
            "synchronous=FULL", "synchronous=NORMAL"
        )
    elif database["ENGINE"].endswith("postgresql"):
        test["NAME"] = f"test_{database['NAME']}_{os.getpid()}"
