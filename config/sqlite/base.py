"""SQLite for the embedded default: the writers of this process queue for their turn.

SQLite lets one connection write at a time. The others wait in SQLite's busy handler, which
sleeps in growing steps (up to 100 ms each) and gives up after the timeout: under load the
moves waited seconds and some were refused ("database is locked"). Here a write transaction
first takes a lock of this process, so threads queue and each one starts as soon as the one
before it ends. Other processes (a `manage.py` command) still meet SQLite's busy timeout.
"""

from __future__ import annotations

import threading

from django.db.backends.sqlite3 import base

_writer = threading.Lock()


class DatabaseWrapper(base.DatabaseWrapper):
    _writing = False

    def _start_transaction_under_autocommit(self) -> None:
        _writer.acquire()
        self._writing = True
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._done_writing()
            raise

    def _done_writing(self) -> None:
        if self._writing:
            self._writing = False
            _writer.release()

    def _commit(self) -> None:
        try:
            super()._commit()
        finally:
            self._done_writing()

    def _rollback(self) -> None:
        try:
            super()._rollback()
        finally:
            self._done_writing()

    def _close(self) -> None:
        try:
            super()._close()
        finally:
            self._done_writing()
