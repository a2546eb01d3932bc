"""Task workers: what they do when they start, and their hourly housekeeping."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django_tasks_db.models import DBTaskResult

from bots.tasks import robot_turn
from tables.changes.workers import TASK_RESULTS_KEPT, tables_housekeeping, workers_startup
from tables.models import Table
from tables.state import clock

from .helpers import run_queued, started

pytestmark = pytest.mark.django_db


def test_workers_starting_queue_one_housekeeping_however_many_start():
    workers_startup()
    workers_startup()
    assert run_queued(tables_housekeeping) == 1  # a worker ran it: the next is an hour away
    workers_startup()
    queued = DBTaskResult.objects.filter(
        status="READY", task_path=tables_housekeeping.module_path
    )
    assert queued.count() == 1


def test_housekeeping_archives_stale_tables_forgets_old_results_and_comes_back_in_an_hour():
    stale, _ = started("Ana", "Beto")
    fresh, _ = started("Caro", "Dani")
    Table.objects.filter(pk=stale.pk).update(
        updated_at=clock.now() - timedelta(days=Table.ARCHIVE_AFTER_DAYS + 1)
    )
    old = robot_turn.enqueue(table_id=fresh.pk, version=0, due=clock.now().isoformat())
    recent = robot_turn.enqueue(table_id=fresh.pk, version=1, due=clock.now().isoformat())
    DBTaskResult.objects.filter(pk__in=[old.id, recent.id]).update(status="SUCCESSFUL")
    DBTaskResult.objects.filter(pk=old.id).update(
        finished_at=clock.now() - TASK_RESULTS_KEPT - timedelta(minutes=1)
    )
    DBTaskResult.objects.filter(pk=recent.id).update(finished_at=clock.now())

    assert tables_housekeeping.call() == 1

    stale.refresh_from_db()
    fresh.refresh_from_db()
    assert stale.status == Table.Status.ARCHIVED and fresh.status == Table.Status.PLAYING
    assert not DBTaskResult.objects.filter(pk=old.id).exists()
    assert DBTaskResult.objects.filter(pk=recent.id).exists()
    [again] = DBTaskResult.objects.filter(
        status="READY", task_path=tables_housekeeping.module_path
    )
    assert timedelta(minutes=59) < again.run_after - clock.now() <= timedelta(hours=1)


def test_an_in_process_worker_passes_over_the_queue_when_woken_until_stopped_errors_or_not(
    monkeypatch,
):
    """`tables.changes.workers` runs django-tasks-db's worker (`Worker.run`, in batch mode: what
    is due, then it returns) each time work is due; a database error ends a pass, not the thread;
    its public `running` flag stops it."""
    from tables.changes import workers

    passes, waits = [], []

    def run(worker):
        passes.append(worker.batch)
        if len(passes) == 1:
            raise RuntimeError("the database went away")
        if len(passes) == 3:
            worker.running = False

    monkeypatch.setattr(workers.time, "sleep", lambda seconds: None)
    monkeypatch.setattr(workers.Worker, "run", run)
    worker = workers.worker_new(batch=True)
    workers.worker_loop(worker, wait=lambda: waits.append(len(passes)))
    assert passes == [True, True, True] and worker.running is False
    assert waits == [2, 3]  # after each pass that ended, not after the error


@pytest.mark.django_db(transaction=True)  # the wake-up comes when the task's row commits
def test_a_task_enqueued_in_this_process_wakes_its_workers_once_it_is_due(monkeypatch):
    from django.db import transaction

    from tables.changes import workers

    monkeypatch.setattr(workers, "_due", [])
    workers.task_enqueued.connect(workers._task_enqueued)
    try:
        with transaction.atomic():
            tables_housekeeping.using(run_after=clock.now() + timedelta(hours=1)).enqueue()
            assert workers._due == []  # not before the commit
        tables_housekeeping.enqueue()
    finally:
        workers.task_enqueued.disconnect(workers._task_enqueued)
    later, now = sorted(workers._due, reverse=True)
    assert later - now > 3000  # the first is due in an hour, the second at once
    workers._wait_for_work()  # returns at once: the second is due
    assert workers._due == [later]


@pytest.mark.django_db(transaction=True)  # a worker opens and closes its own connections
def test_django_tasks_db_worker_runs_a_queued_task_through_its_own_loop():
    """The door we use: `Worker(...)` made as its `db_worker` command makes it; one pass
    (batch) runs what is due and stops."""
    from tables.changes.workers import worker_new

    workers_startup()
    worker = worker_new()
    worker.batch = True
    worker.run()
    done = DBTaskResult.objects.filter(task_path=tables_housekeeping.module_path)
    assert done.filter(status="SUCCESSFUL").count() == 1  # (and the next one, an hour away)
