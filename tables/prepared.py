"""The reads and writes every move makes, with their SQL written once (`Prepared`,
`update_fields`, `insert_rows`), and one column of many rows by id (`column_by_id`).

Each post of a move reads the table its link names, then the table again under its lock, then
its seats. Django spends about 0.2 ms building and compiling a queryset's SQL and 0.03 ms
running it (SQLite, measured): compiling was most of a move's reads. A `Prepared` query is
written as the queryset it stands for and compiled the first time it runs on a database; from
then on its SQL runs with the new value and its rows become models as the queryset makes them
(the same converters, and the columns it leaves out deferred).

A move then writes the table's changed columns and appends its event: `save(update_fields=)`
took 0.14 ms and `bulk_create` of one event 0.09 ms, against 0.04 and 0.02 ms for the same
statements run directly (SQLite, measured). `update_fields` and `insert_rows` write their
statement once per model and set of columns and prepare each value as Django does
(`pre_save`, `get_db_prep_save`). They send no `pre_save`/`post_save` signals: nothing in this
project listens to them for the models written this way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import DatabaseError, connections
from django.db.models import AutoField, Field, Model, QuerySet


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


def column_by_id(
    model: type[Model], name: str, ids: Sequence[Any], *, using: str = "default"
) -> dict[Any, Any]:
    """{id: the row's `name` column} for the rows among `ids` (a column with no converter, as
    a number): `dict(model.objects.filter(pk__in=ids).values_list("pk", name))`, whose SQL
    Django took ten times as long to build as to run (`tables.resync` reads the versions of
    the open pages' tables twice a second)."""
    if not ids:
        return {}
    connection = connections[using]
    quote, meta = connection.ops.quote_name, model._meta
    key, column = quote(meta.pk.column), quote(_plain(meta.get_field(name)).column)
    sql = (
        f"SELECT {key}, {column} FROM {quote(meta.db_table)}"
        f" WHERE {key} IN ({', '.join(['%s'] * len(ids))})"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, list(ids))
        return dict(cursor.fetchall())


_updates: dict[tuple, tuple[str, list[Field]]] = {}
_inserts: dict[tuple, tuple[str, list[Field]]] = {}


def update_fields(instance: Model, names: Sequence[str], *, using: str = "default") -> None:
    """`instance.save(update_fields=names)` (of a saved instance), without the signals."""
    if not names:
        return  # as save(update_fields=[]): nothing to write
    connection = connections[using]
    model = type(instance)
    key = (model, tuple(names), using, connection.vendor)
    statement = _updates.get(key) or _updates.setdefault(key, _update_sql(model, names, using))
    sql, fields = statement
    params = [_db_value(field, field.pre_save(instance, False), using) for field in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, instance.pk])
        if cursor.rowcount != 1:
            raise DatabaseError(f"{model.__name__} {instance.pk} was not updated")


def insert_rows(instances: Sequence[Model], *, using: str = "default") -> list[Model]:
    """`Model.objects.bulk_create(instances)` of one model, each row's id set on its instance:
    one statement per row, the few a change logs."""
    connection = connections[using]
    if not instances:
        return []
    model = type(instances[0])
    if not connection.features.can_return_columns_from_insert:
        raise DatabaseError("insert_rows needs INSERT ... RETURNING (SQLite 3.35+, PostgreSQL)")
    key = (model, using, connection.vendor)
    statement = _inserts.get(key) or _inserts.setdefault(key, _insert_sql(model, using))
    sql, fields = statement
    with connection.cursor() as cursor:
        for instance in instances:
            if type(instance) is not model:
                raise TypeError("insert_rows writes the rows of one model")
            params = [_db_value(field, field.pre_save(instance, True), using) for field in fields]
            cursor.execute(sql, params)
            (instance.pk,) = connection.ops.fetch_returned_insert_columns(cursor, ())
            instance._state.adding = False
            instance._state.db = using
    return list(instances)


def _db_value(field: Field, value: Any, using: str) -> Any:
    if hasattr(value, "resolve_expression") or hasattr(value, "prepare_database_save"):
        raise TypeError(f"{field.name}: a value, not an expression or a model")
    return field.get_db_prep_save(value, connection=connections[using])


def _plain(field: Field) -> Field:
    if hasattr(field, "get_placeholder"):
        raise ValueError(f"{field.name} needs its own SQL placeholder")
    return field


def _update_sql(model: type[Model], names: Sequence[str], using: str) -> tuple[str, list[Field]]:
    quote = connections[using].ops.quote_name
    meta = model._meta
    fields = [_plain(meta.get_field(name)) for name in names]
    if any(field.primary_key or not field.concrete for field in fields):
        raise ValueError("update_fields writes a model's own columns, not its id")
    columns = ", ".join(f"{quote(field.column)} = %s" for field in fields)
    where = f"{quote(meta.pk.column)} = %s"
    return f"UPDATE {quote(meta.db_table)} SET {columns} WHERE {where}", fields


def _insert_sql(model: type[Model], using: str) -> tuple[str, list[Field]]:
    connection = connections[using]
    quote = connection.ops.quote_name
    meta = model._meta
    if not isinstance(meta.pk, AutoField):
        raise ValueError("insert_rows writes rows whose id the database gives")
    fields = [_plain(field) for field in meta.concrete_fields if not field.primary_key]
    columns = ", ".join(quote(field.column) for field in fields)
    values = ", ".join(["%s"] * len(fields))
    returning, _ = connection.ops.return_insert_columns([meta.pk])
    sql = f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES ({values}) {returning}"
    return sql, fields
