"""`manage.py tasks_worker`: one task worker process (run as many as the load needs)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from tables.workers import publisher_loop_start, worker_new, workers_startup


class Command(BaseCommand):
    help = "Runs the background work: robots' turns, turn deadlines, alerts, archiving."

    def handle(self, *args: object, **options: object) -> None:
        publisher_loop_start()
        workers_startup()
        worker = worker_new()
        worker.configure_signals()
        worker.run()
