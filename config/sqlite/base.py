"""SQLite for the embedded default: the writers of this process queue for their turn.

SQLite lets one connection write at a time. The others wait in SQLite's busy handler, which
sleeps in growing steps (up to 100 ms each) and gives up after the timeout: under load the
moves waited seconds and some were refused ("database is locked"). Here a write transaction
first takes a lock of this process, so threads queue and each one starts as soon as the one
before it ends. Other processes (a `manage.py` command) still meet SQLite's busy timeout.

And a statement's placeholders are turned into SQLite's once per statement (`_qmark`):
Django rewrites every statement's `%s` into `?` with a regular expression as it runs, and for
the few statements a move runs again and again (the table's row has 30 columns) that was 3% of
the instructions of a move's post (callgrind).
"""

from __future__ import annotations

import functools
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

    def create_cursor(self, name=None):
        return self.connection.cursor(factory=CursorWrapper)


class CursorWrapper(base.SQLiteCursorWrapper):
    def convert_query(self, query, *, param_names=None):
        if param_names is not None:  # named parameters: Django's own way
            return super().convert_query(query, param_names=param_names)
        return _qmark(query)


@functools.lru_cache(maxsize=1024)  # the statements a process runs are few, repeated
def _qmark(query: str) -> str:
    """`query` with SQLite's placeholders, as Django's `convert_query` writes it."""
    return base.FORMAT_QMARK_REGEX.sub("?", query).replace("%%", "%")
