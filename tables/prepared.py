"""The reads every move makes, with their SQL compiled once (`Prepared`).

Each post of a move reads the table its link names, then the table again under its lock, then
its seats. Django spends about 0.2 ms building and compiling a queryset's SQL and 0.03 ms
running it (SQLite, measured): compiling was most of a move's reads. A `Prepared` query is
written as the queryset it stands for, compiled the first time it runs on a database, and from
then on run with its new value, its rows made into models as Django makes them (`raw`: the
same converters, and the columns a queryset leaves out deferred).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.query import RawQuerySet


class Prepared:
    """A query with one value (an id, a code) that may appear several times in its SQL."""

    def __init__(self, build: Callable[[Any], QuerySet]) -> None:
        self._build = build
        self._compiled: dict[tuple[str, str], tuple[type[Model], str, int]] = {}

    def __call__(self, value: Any, *, using: str = "default") -> RawQuerySet:
        key = (using, connections[using].vendor)
        compiled = self._compiled.get(key)
        if compiled is None:
            queryset = self._build(value)
            sql, params = queryset.query.get_compiler(using=using).as_sql()
            if any(param != value for param in params):
                raise ValueError("a prepared query takes its one value, and nothing else")
            compiled = self._compiled[key] = (queryset.model, sql, len(params))
        model, sql, count = compiled
        return model._default_manager.raw(sql, [value] * count, using=using)
