"""The reads every move makes, with their SQL compiled once (`Prepared`).

Each post of a move reads the table its link names, then the table again under its lock, then
its seats. Django spends about 0.2 ms building and compiling a queryset's SQL and 0.03 ms
running it (SQLite, measured): compiling was most of a move's reads. A `Prepared` query is
written as the queryset it stands for and compiled the first time it runs on a database; from
then on its SQL runs with the new value and its rows become models as the queryset makes them
(the same converters, and the columns it leaves out deferred).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import connections
from django.db.models import Model, QuerySet


@dataclass(frozen=True)
class _Compiled:
    model: type[Model]
    sql: str
    values: int  # times the value appears in the SQL
    names: list[str]  # the model's attributes, in the order of the row's columns
    converters: list[tuple[int, list[Callable], Any]]  # (column, converters, expression)


class Prepared:
    """A query with one value (an id, a code) that may appear several times in its SQL."""

    def __init__(self, build: Callable[[Any], QuerySet]) -> None:
        self._build = build
        self._compiled: dict[tuple[str, str], _Compiled] = {}

    def __call__(self, value: Any, *, using: str = "default") -> list[Model]:
        connection = connections[using]
        key = (using, connection.vendor)
        compiled = self._compiled.get(key) or self._compile(value, using, key)
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, [value] * compiled.values)
            rows = cursor.fetchall()
        found = []
        for row in rows:
            if compiled.converters:
                row = list(row)
                for column, converters, expression in compiled.converters:
                    for convert in converters:
                        row[column] = convert(row[column], expression, connection)
            found.append(compiled.model.from_db(using, compiled.names, row))
        return found

    def _compile(self, value: Any, using: str, key: tuple[str, str]) -> _Compiled:
        queryset = self._build(value)
        compiler = queryset.query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        if any(param != value for param in params):
            raise ValueError("a prepared query takes its one value, and nothing else")
        if compiler.annotation_col_map or compiler.klass_info.get("related_klass_infos"):
            raise ValueError("a prepared query reads one model's own columns")
        columns = [expression for expression, _, _ in compiler.select]
        compiled = self._compiled[key] = _Compiled(
            model=queryset.model,
            sql=sql,
            values=len(params),
            names=[column.target.attname for column in columns],
            converters=[
                (position, converters, expression)
                for position, (converters, expression)
                in compiler.get_converters(columns).items()
            ],
        )
        return compiled
