"""Task workers: the threads or processes that run the background work queued in the database.

The queue is django-tasks' database backend (`django_tasks_db`): a task is a row, enqueued in
the transaction of the change that calls for it, so it exists exactly when the change
committed; a worker claims one row at a time (`SELECT ... FOR UPDATE SKIP LOCKED` on
PostgreSQL), so any number of workers on any machines share the queue. The embedded default
runs `TASK_WORKERS` threads inside the web process (`workers_start_in_process`); production
runs `manage.py tasks_worker` processes.

When workers start they run the start-up hooks the apps registered (the robots re-enqueue the
turns a dead worker left unplayed), then hourly housekeeping: archiving stale tables and
forgetting old task results.
"""

from __future__ import annotations

import asyncio
import heapq
import logging
import threading
import time
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils.crypto import get_random_string
from django_tasks import task
from django_tasks.signals import task_enqueued
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult
from django_tasks_db.utils import exclusive_transaction

from tables import clock, publish
from tables.services import tables_archive_stale

logger = logging.getLogger(__name__)

_startup_hooks: list[Callable[[], object]] = []


def startup_register(hook: Callable[[], object]) -> Callable[[], object]:
    """Run `hook` whenever workers start (after a restart, work may be waiting)."""
    if hook not in _startup_hooks:
        _startup_hooks.append(hook)
    return hook


def worker_new() -> Worker:
    return Worker(
        queue_names=["default"], interval=settings.TASK_POLL_INTERVAL, batch=False,
        backend_name="default", startup_delay=False, max_tasks=None,
        worker_id=get_random_string(32), excluded_queue_names=[],
    )


def workers_startup() -> None:
    """What workers do first: the apps' start-up hooks, then housekeeping (hourly from then on)."""
    for hook in _startup_hooks:
        try:
            hook()
        except Exception:  # the database may not be migrated yet
            logger.exception("A start-up hook failed: %r", hook)
    housekeeping = tables_housekeeping.module_path
    if not DBTaskResult.objects.filter(status="READY", task_path=housekeeping).exists():
        tables_housekeeping.enqueue()


# Finished tasks are kept this long (the admin shows them), then deleted.
TASK_RESULTS_KEPT = timedelta(hours=1)


@task()
def tables_housekeeping() -> int:
    """Hourly: archive the tables with no move for 30 days and forget old task results.
    Returns how many tables it archived."""
    count = tables_archive_stale()
    DBTaskResult.objects.finished().filter(finished_at__lt=clock.now() - TASK_RESULTS_KEPT).delete()
    tables_housekeeping.using(run_after=clock.now() + timedelta(hours=1)).enqueue()
    return count


def publisher_loop_start() -> None:
    """An event loop of this process's own for pushing frames (a worker process has no
    server loop): one connection to the channel layer, kept, instead of one per push."""
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, name="publisher", daemon=True).start()
    publish.server_loop_bind(loop)


# --- Worker threads in the web process (the embedded default) ------------------------------
# They sleep until a task this process enqueued is due (a robot's turn, a second after a move),
# or IDLE_POLL at most, for a task another process put in the queue (a management command):
# polling the queue 20 times a second cost a third of a move's CPU, and once a second a fifth
# of what the whole process spent with 120 pages open and nothing moving.

IDLE_POLL = 5.0
_due: list[float] = []  # when tasks enqueued here become due (time.monotonic), soonest first
_due_changed = threading.Condition()


def _task_enqueued(sender, task_result, **kwargs) -> None:
    run_after = task_result.task.run_after
    wait = 0.0 if run_after is None else (run_after - clock.now()).total_seconds()
    due = time.monotonic() + max(0.0, wait)

    def wake() -> None:
        with _due_changed:
            heapq.heappush(_due, due)
            _due_changed.notify()

    transaction.on_commit(wake)  # the task's row is there for the workers once committed


def _wait_for_work() -> None:
    with _due_changed:
        now = time.monotonic()
        if _due and _due[0] <= now:
            while _due and _due[0] <= now:
                heapq.heappop(_due)
            return
        _due_changed.wait(min(IDLE_POLL, _due[0] - now) if _due else IDLE_POLL)


def _claim(worker: Worker) -> DBTaskResult | None:
    with exclusive_transaction():
        result = DBTaskResult.objects.ready().get_locked()
        if result is not None:
            result.claim(worker.worker_id)
    return result


def _work(worker: Worker) -> None:
    while True:
        try:
            result = _claim(worker)
        except Exception:  # a database error (locked, restarting) must not stop the robots
            logger.exception("A task worker could not look for work; it tries again")
            time.sleep(1)
            continue
        if result is not None:
            worker.run_task(result)
        else:
            _wait_for_work()


def workers_start_in_process(count: int) -> None:
    """The embedded default: `count` worker threads in this (web) process."""
    if count <= 0:
        return
    try:
        workers_startup()
    except Exception:
        logger.exception("Task workers could not start (is the database migrated?)")
        return
    task_enqueued.connect(_task_enqueued)
    for number in range(count):
        thread = threading.Thread(
            target=_work, args=(worker_new(),), name=f"task-worker-{number}", daemon=True
        )
        thread.start()
