"""`manage.py tasks_worker`: one task worker process (run as many as the load needs)."""

from __future__ import annotations

import signal

from django.core.management.base import BaseCommand

from tables.backups.copies import running_lock_hold
from tables.changes.workers import (
    publisher_loop_start,
    worker_new,
    workers_startup,
    workers_stop,
)
from tables.metrics import metrics_serve


class Command(BaseCommand):
    help = "Runs the background work: robots' turns, turn deadlines, alerts, archiving."

    def handle(self, *args: object, **options: object) -> None:
        metrics_serve()  # on METRICS_PORT, if set: a port of this process's own
        running_lock_hold()  # a restore refuses to replace the database under it
        publisher_loop_start()
        workers_startup()
        # django-tasks-db's worker, as its `db_worker` command makes it, but with signal
        # handlers of our own. db_worker's exits at once (sys.exit from the handler) when it
        # holds no task, and the moment between claiming a task (committed) and running it
        # counted as holding none: a SIGTERM there left the task claimed and never run. Ours
        # only clears the worker's public `running` flag: the task in hand (claimed or
        # running) is run to its end, and the worker stops before it claims another. A second
        # signal ends the process at once (the default action): a turn cut off there is
        # queued again when a worker starts, and its version check refuses a duplicate.
        worker = worker_new()

        def stop(signum: int, frame: object) -> None:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.default_int_handler)
            workers_stop([worker])
            # Said where an operator (and a test) sees it: the signal is in, the task in
            # hand is being finished.
            self.stderr.write("Stopping after the task in hand.")

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        worker.run()
