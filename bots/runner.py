"""Plays robots' turns in the background, paced so that people can follow them.

After every committed change the table service asks `robot_turn_schedule`; if the next turn is
a robot's, the runner plays it `ROBOT_DELAY` seconds later, and if it is a person's with a turn
limit, when their time runs out; both through `tables.services.robot_play`, which re-checks
the table's version (and the deadline) under its lock: a duplicate (another process, a
restart) or a late call changes nothing. On start, every pending turn is picked up again.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time

from django.conf import settings
from django.db import close_old_connections

logger = logging.getLogger(__name__)


class RobotRunner:
    """One daemon thread working through a time-ordered queue of (table, version) turns."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self._queue: list[tuple[float, int, int, int]] = []
        self._order = itertools.count()
        self._wake = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="robot-runner", daemon=True)
        self._thread.start()

    def add(self, table_id: int, version: int, delay: float | None = None) -> None:
        due = time.monotonic() + (self.delay if delay is None else delay)
        with self._wake:
            heapq.heappush(self._queue, (due, next(self._order), table_id, version))
            self._wake.notify()

    def _next(self) -> tuple[int, int]:
        with self._wake:
            while True:
                if self._queue:
                    wait = self._queue[0][0] - time.monotonic()
                    if wait <= 0:
                        _, _, table_id, version = heapq.heappop(self._queue)
                        return table_id, version
                    self._wake.wait(wait)
                else:
                    self._wake.wait()

    def _run(self) -> None:
        from tables.services import robot_play

        while True:
            table_id, version = self._next()
            close_old_connections()
            try:
                if not robot_play(table_id=table_id, version=version):
                    # Woken a moment early for a deadline: wait for what is left of it.
                    robot_turn_schedule(table_id=table_id, version=version, minimum=0.05)
            except Exception:
                logger.exception("Robot turn failed at table %s v%s", table_id, version)
            finally:
                close_old_connections()


_runner: RobotRunner | None = None
_runner_lock = threading.Lock()


def _get_runner() -> RobotRunner:
    global _runner
    with _runner_lock:
        if _runner is None:
            _runner = RobotRunner(delay=settings.ROBOT_DELAY)
        return _runner


def robot_turn_schedule(*, table_id: int, version: int, minimum: float = 0.0) -> None:
    """Called after every committed change: queue the next turn if the runner must play it."""
    from tables.selectors import turn_due_in

    if not settings.ROBOTS_IN_PROCESS:
        return
    due = turn_due_in(table_id=table_id, version=version, robot_delay=settings.ROBOT_DELAY)
    if due is not None:
        _get_runner().add(table_id, version, delay=max(due, minimum))


def robot_runner_start() -> None:
    """At server start: archive stale tables, then pick up every pending turn."""
    from tables.selectors import tables_awaiting_turn
    from tables.services import tables_archive_stale

    if not settings.ROBOTS_IN_PROCESS:
        return
    runner = _get_runner()
    try:
        tables_archive_stale()
        pending = tables_awaiting_turn(settings.ROBOT_DELAY)
    except Exception:  # the database may not be migrated yet
        logger.exception("Could not look for pending turns")
        return
    for table_id, version, due in pending:
        runner.add(table_id, version, delay=due)
