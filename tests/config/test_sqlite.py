"""The embedded default's SQLite backend: statements keep Django's meaning of `%s` and `%%`."""

import pytest
from django.db import connection
from django.db.backends.sqlite3.base import SQLiteCursorWrapper

from config.sqlite import base
from tables.models import Table

QUERIES = [
    "SELECT %s",
    "SELECT 1 WHERE 'a%%b' LIKE %s AND %s = %s",
    "SELECT '%%s', %s",
    "UPDATE t SET a = %s, b = '100%%' WHERE id = %s",
]


@pytest.mark.parametrize("query", QUERIES)
def test_placeholders_become_sqlites_as_django_writes_them(query):
    djangos = SQLiteCursorWrapper.convert_query(None, query)
    assert base._qmark(query) == djangos
    assert base._qmark(query) == djangos  # and again, as kept


@pytest.mark.skipif(connection.vendor != "sqlite", reason="the SQLite backend's own")
@pytest.mark.django_db
def test_statements_run_with_their_values_and_percent_signs():
    with connection.cursor() as cursor:
        assert isinstance(cursor.cursor, base.CursorWrapper)
        cursor.execute("SELECT %s || '%%', %s", ["50", 7])
        assert cursor.fetchone() == ("50%", 7)
        cursor.execute("SELECT :a || '%%'", {"a": "x"})  # named: Django's own way
        assert cursor.fetchone() == ("x%",)
    Table.objects.create(rules_key="clasico", host_seat=0, version=1)
    assert Table.objects.filter(rules_key__contains="%").count() == 0
    assert Table.objects.filter(rules_key__startswith="clas").count() == 1
