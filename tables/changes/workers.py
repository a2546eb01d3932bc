"""Task workers: the threads or processes that run the background work queued in the database.

`manage.py tasks_worker` processes (django-tasks-db's `db_worker`, after our start-up), or in
the embedded default `TASK_WORKERS` threads inside the web process (`workers_start_in_process`).
When they start they run the apps' start-up hooks (`tables.plug`), then hourly housekeeping
(archiving stale tables, deleting the long archived ones, forgetting old task results) and,
every BACKUP_EVERY_HOURS, a backup.
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

from tables import plug
from tables.backups.folder import backup_newest
from tables.backups.services import backup_take
from tables.changes.services import tables_archive_stale, tables_delete_archived
from tables.live import broadcast
from tables.state import clock

logger = logging.getLogger(__name__)

def worker_new(*, batch: bool = False) -> Worker:
    """django-tasks-db's worker, as its `db_worker` command makes it (the default backend and
    queue, polling every TASK_POLL_INTERVAL seconds when nothing is due; `batch`: one pass over
    what is due, then `run()` returns)."""
    return Worker(
        queue_names=["default"], interval=settings.TASK_POLL_INTERVAL, batch=batch,
        backend_name="default", startup_delay=False, max_tasks=None,
        worker_id=get_random_string(32), excluded_queue_names=[],
    )


def workers_startup() -> None:
    """What workers do first: the apps' start-up hooks, then housekeeping (hourly from then on)."""
    for hook in plug.startup_hooks():
        try:
            hook()
        except Exception:  # the database may not be migrated yet
            logger.exception("A start-up hook failed: %r", hook)
    housekeeping = tables_housekeeping.module_path
    if not DBTaskResult.objects.filter(status="READY", task_path=housekeeping).exists():
        tables_housekeeping.enqueue()
    backup_schedule()


# Finished tasks are kept this long (the admin shows them), then deleted.
TASK_RESULTS_KEPT = timedelta(hours=1)


@task()
def tables_housekeeping() -> int:
    """Hourly: archive the tables with no move for 30 days, delete those archived for longer
    than `ARCHIVED_TABLES_KEEP_DAYS`, and forget old task results. Returns how many tables it
    archived."""
    count = tables_archive_stale()
    deleted = tables_delete_archived()
    if deleted:
        logger.info("Deleted %d tables archived for over %d days", deleted,
                    settings.ARCHIVED_TABLES_KEEP_DAYS)
    DBTaskResult.objects.finished().filter(finished_at__lt=clock.now() - TASK_RESULTS_KEPT).delete()
    tables_housekeeping.using(run_after=clock.now() + timedelta(hours=1)).enqueue()
    return count


def backup_schedule() -> None:
    """Queue the next scheduled backup (BACKUP_EVERY_HOURS after the newest in BACKUP_DIR, or at
    once), unless one is queued already or none is asked for. The queue is in the database, so
    one worker, whichever, takes it."""
    every = settings.BACKUP_EVERY_HOURS
    if every <= 0 or _backup_queued():
        return
    newest = backup_newest()
    due = clock.now() if newest is None else newest.taken_at + timedelta(hours=every)
    backup_scheduled.using(run_after=max(due, clock.now())).enqueue()


def _backup_queued() -> bool:
    return DBTaskResult.objects.filter(
        status="READY", task_path=backup_scheduled.module_path
    ).exists()


@task()
def backup_scheduled() -> str:
    """A scheduled backup (`manage.py backup`'s), then the next one queued, whether this one
    worked or not: a failure is the task's (its traceback in the worker's log) and the metrics'
    last success stays where it was. Two workers that started together and queued one each end
    up with one: the second finds the first's next one queued. Returns the copy's path."""
    try:
        return str(backup_take().data_path)
    finally:
        backup_schedule()


def publisher_loop_start() -> None:
    """An event loop of this process's own for pushing frames (a worker process has no
    server loop): one connection to the channel layer, kept, instead of one per push."""
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, name="publisher", daemon=True).start()
    broadcast.server_loop_bind(loop)


# --- Worker threads in the web process (the embedded default) ------------------------------
# Each runs django-tasks-db's worker in batch mode (its `--batch`: every task that is due, then
# it returns) when a task this process enqueued becomes due (a robot's turn, a second after a
# move: django-tasks' `task_enqueued` signal says so), or every IDLE_POLL seconds at most, for
# a task another process put in the queue (a management command). Its polling loop looked at
# the queue ten times a second: a fifth of what the whole process spent at 20 moves a second.

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
    """Until a task enqueued here is due, or IDLE_POLL seconds."""
    with _due_changed:
        now = time.monotonic()
        if _due and _due[0] <= now:
            while _due and _due[0] <= now:
                heapq.heappop(_due)
            return
        _due_changed.wait(min(IDLE_POLL, _due[0] - now) if _due else IDLE_POLL)


def workers_start_in_process(count: int) -> list[Worker]:
    """The embedded default: `count` worker threads in this (web) process; clearing a
    worker's `running` stops its thread after the pass in hand."""
    if count <= 0:
        return []
    try:
        workers_startup()
    except Exception:
        logger.exception("Task workers could not start (is the database migrated?)")
        return []
    task_enqueued.connect(_task_enqueued)
    workers = [worker_new(batch=True) for _ in range(count)]
    for number, worker in enumerate(workers):
        threading.Thread(
            target=worker_loop, args=(worker,), name=f"task-worker-{number}", daemon=True
        ).start()
    return workers


def workers_stop(workers: list[Worker]) -> None:
    """Each worker ends after the task in hand (its public `running` flag): the drain's hook
    in a web process (`config.asgi`), SIGTERM in a worker process (`tasks_worker`)."""
    for worker in workers:
        worker.running = False


def worker_loop(worker: Worker, wait: Callable[[], None] = _wait_for_work) -> None:
    """Pass after pass of the worker over what is due, each when `wait` returns; a database
    error (PostgreSQL restarting) ends a pass, not the thread."""
    while worker.running:
        try:
            worker.run()
        except Exception:
            logger.exception("A task worker's pass failed; it tries again in a second")
            time.sleep(1)
            continue
        wait()
