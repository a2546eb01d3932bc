"""Task workers: the threads or processes that run the background work queued in the database.

The queue is django-tasks' database backend (`django_tasks_db`): a task is a row, enqueued in
the transaction of the change that calls for it, so it exists exactly when the change
committed; a worker claims one row at a time (`SELECT ... FOR UPDATE SKIP LOCKED` on
PostgreSQL), so any number of workers on any machines share the queue. Production runs
`manage.py tasks_worker` processes (django-tasks-db's `db_worker`, after our start-up). The
embedded default runs `TASK_WORKERS` threads of django-tasks-db's own worker loop inside the
web process (`workers_start_in_process`): its pages are in that process's memory, and so are
the robots' pushes to them.

When workers start they run the start-up hooks the apps registered (the robots re-enqueue the
turns a dead worker left unplayed), then hourly housekeeping: archiving stale tables and
forgetting old task results.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.utils.crypto import get_random_string
from django_tasks import task
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult

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
    """django-tasks-db's worker, as its `db_worker` command makes it (the default backend and
    queue, polling every TASK_POLL_INTERVAL seconds when nothing is due)."""
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


def workers_start_in_process(count: int) -> list[Worker]:
    """The embedded default: `count` worker threads in this (web) process, each running
    django-tasks-db's own loop; `worker.running = False` stops one after its task."""
    if count <= 0:
        return []
    try:
        workers_startup()
    except Exception:
        logger.exception("Task workers could not start (is the database migrated?)")
        return []
    workers = [worker_new() for _ in range(count)]
    for number, worker in enumerate(workers):
        threading.Thread(
            target=worker_loop, args=(worker,), name=f"task-worker-{number}", daemon=True
        ).start()
    return workers


def worker_loop(worker: Worker) -> None:
    """The worker's loop, started again after a database error (PostgreSQL restarting): in
    its own process the error would end it and its supervisor start another."""
    while worker.running:
        try:
            worker.run()
        except Exception:
            logger.exception("A task worker stopped on an error; it starts again in a second")
            time.sleep(1)
