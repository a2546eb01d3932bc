"""Old tables: an archived table is kept ARCHIVED_TABLES_KEEP_DAYS, then deleted with its rounds,
log and chat, by the hourly housekeeping or `manage.py delete_archived_tables`; a table that is
not archived is never touched; the admin says when each goes, and the rule."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from django.utils.formats import date_format

from chat.models import ChatMessage
from tables.changes import services
from tables.changes.workers import tables_housekeeping
from tables.models import Seat, Table, TableEvent, TableRound
from tables.state import clock
from tables.state.lookup import archived_kept_until
from tests.chat.helpers import say

from .helpers import Person, started

pytestmark = pytest.mark.django_db


def archived(days_ago: float) -> Table:
    """A table played and chatted at, archived `days_ago` days ago."""
    table, (ana, _) = started("Ana", "Beto")
    assert say(ana, table, "¡Buena partida!").status_code == 200
    Table.objects.filter(pk=table.pk).update(
        updated_at=clock.now() - timedelta(days=Table.ARCHIVE_AFTER_DAYS + 1)
    )
    assert services.tables_archive_stale() == 1
    Table.objects.filter(pk=table.pk).update(updated_at=clock.now() - timedelta(days=days_ago))
    table.refresh_from_db()
    assert table.status == Table.Status.ARCHIVED
    return table


def aged(days_ago: float, status: Table.Status) -> Table:
    """A table in `status` that has not changed for `days_ago` days."""
    table, _ = started("Caro", "Dani")
    Table.objects.filter(pk=table.pk).update(
        status=status, updated_at=clock.now() - timedelta(days=days_ago)
    )
    return table


def rows_of(table: Table) -> dict[str, int]:
    return {
        "seats": Seat.objects.filter(table_id=table.pk).count(),
        "rounds": TableRound.objects.filter(table_id=table.pk).count(),
        "log": TableEvent.objects.filter(table_id=table.pk).count(),
        "chat": ChatMessage.objects.filter(table_id=table.pk).count(),
    }


def test_a_table_archived_longer_than_the_kept_days_is_deleted_with_its_rounds_log_and_chat(
    settings,
):
    settings.ARCHIVED_TABLES_KEEP_DAYS = 30
    old, recent = archived(days_ago=31), archived(days_ago=29)
    assert all(rows_of(old).values())
    untouched = [aged(400, status) for status in (
        Table.Status.PLAYING, Table.Status.ROUND_OVER, Table.Status.MATCH_OVER,
        Table.Status.LOBBY, Table.Status.CLOSED,
    )]  # fmt: skip

    assert services.tables_delete_archived() == 1

    assert not Table.objects.filter(pk=old.pk).exists()
    assert rows_of(old) == {"seats": 0, "rounds": 0, "log": 0, "chat": 0}
    assert set(Table.objects.values_list("pk", flat=True)) == {
        recent.pk, *(table.pk for table in untouched)
    }
    assert all(rows_of(recent).values())
    assert services.tables_delete_archived() == 0


def test_zero_days_keeps_archived_tables_for_ever(settings):
    settings.ARCHIVED_TABLES_KEEP_DAYS = 0
    table = archived(days_ago=10_000)
    assert services.tables_delete_archived() == 0
    assert archived_kept_until(table) is None
    out = io.StringIO()
    call_command("delete_archived_tables", stdout=out)
    assert "para siempre" in out.getvalue() and Table.objects.filter(pk=table.pk).exists()


def test_the_housekeeping_and_the_command_delete_them_too(settings):
    settings.ARCHIVED_TABLES_KEEP_DAYS = 7
    first = archived(days_ago=8)
    tables_housekeeping.call()
    assert not Table.objects.filter(pk=first.pk).exists()

    second, kept = archived(days_ago=8), archived(days_ago=6)
    out = io.StringIO()
    call_command("delete_archived_tables", stdout=out)
    assert out.getvalue().strip() == "Mesas archivadas hace más de 7 días, borradas: 1"
    assert not Table.objects.filter(pk=second.pk).exists()
    assert Table.objects.filter(pk=kept.pk).exists()


def test_the_admin_shows_when_an_archived_table_is_deleted_and_the_rule(
    settings, django_user_model
):
    settings.ARCHIVED_TABLES_KEEP_DAYS = 30
    table, playing = archived(days_ago=10), aged(400, Table.Status.PLAYING)
    until = archived_kept_until(table)
    assert until == table.updated_at + timedelta(days=30)
    assert archived_kept_until(playing) is None
    client = Client()
    client.force_login(django_user_model.objects.create_superuser("moderadora", password="x-x"))

    day = date_format(timezone.localtime(until), "j M Y")
    listing = client.get("/admin/tables/table/").content.decode()
    assert "Las mesas archivadas se guardan 30 días (ARCHIVED_TABLES_KEEP_DAYS)" in listing
    assert "Se borra" in listing and day in listing
    detail = client.get(f"/admin/tables/table/{table.pk}/change/").content.decode()
    assert "Se borra" in detail and day in detail
    settings.ARCHIVED_TABLES_KEEP_DAYS = 0
    detail = client.get(f"/admin/tables/table/{table.pk}/change/").content.decode()
    assert "nunca" in detail and day not in detail


def test_an_archived_table_page_says_the_day_it_is_deleted(settings):
    settings.ARCHIVED_TABLES_KEEP_DAYS = 30
    table = archived(days_ago=10)
    day = timezone.localtime(archived_kept_until(table))
    page = Person().get(f"/mesa/{table.code}/", follow=True).content.decode()
    assert f"Se borrará el {day.day} de " in page and str(day.year) in page
    settings.ARCHIVED_TABLES_KEEP_DAYS = 0
    page = Person().get(f"/mesa/{table.code}/", follow=True).content.decode()
    assert "Mesa archivada" in page and "Se borrará" not in page
