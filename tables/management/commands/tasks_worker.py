"""`manage.py tasks_worker`: one task worker process (run as many as the load needs)."""

from __future__ import annotations

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from tables.changes.workers import publisher_loop_start, workers_startup


class Command(BaseCommand):
    help = "Runs the background work: robots' turns, turn deadlines, alerts, archiving."

    def handle(self, *args: object, **options: object) -> None:
        publisher_loop_start()
        workers_startup()
        # django-tasks-db's own worker: SIGTERM lets the task in hand finish, then it exits.
        call_command(
            "db_worker", reload=False, startup_delay=False, interval=settings.TASK_POLL_INTERVAL,
            verbosity=0,
        )
