"""Finding tables: the table a link leads to, a table still at a version, the tables a browser
holds a seat at, the archived tables due to go; each table's seats read with the tables."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import OuterRef, Prefetch, Q, QuerySet, Subquery
from django.http import Http404

from tables.models import Seat, Table, TableRound
from tables.state import clock
from tables.state.seat_secrets import seat_by_secret
from tables.state.snapshot import TableSnapshot


def table_at(table_id: int, version: int) -> TableSnapshot | None:
    """The table as it is, if it is still at `version` (read without a lock)."""
    table = Table.objects.filter(pk=table_id, version=version).first()
    return None if table is None else TableSnapshot.load(table)


def seats_prefetch() -> Prefetch:
    """Each table's seats, read with the tables (one query for all), as `table.seats_by_number`:
    by number only (`Seat.Meta.ordering` would join the tables to sort by table first)."""
    return Prefetch("seats", queryset=Seat.objects.order_by("number"), to_attr="seats_by_number")


def tables_of_browser(secrets_by_table: dict[str, str]) -> list[dict[str, Any]]:
    """My tables: every table this browser holds a seat at, "te toca" first, then newest, each
    with the matches played at it to their end."""
    ids = [int(pk) for pk in secrets_by_table if pk.isdigit()]
    rows = []
    matches = Subquery(
        TableRound.objects.filter(table=OuterRef("pk")).order_by("-id").values("match_number")[:1]
    )
    tables = Table.objects.filter(pk__in=ids).annotate(matches=matches)
    for table in tables.prefetch_related(seats_prefetch()):
        snapshot = TableSnapshot.load(table, table.seats_by_number)
        secret = secrets_by_table[str(table.pk)]
        mine = seat_by_secret(snapshot.seats.values(), secret)
        if mine is None:
            continue
        state, match = snapshot.round, snapshot.match
        turn_number = (
            table.seat_of_player(state.turn)
            if table.status == Table.Status.PLAYING and state is not None else None
        )
        others = []
        for number, seat in sorted(snapshot.seats.items()):
            player = table.player_of_seat(number)
            others.append({
                "name": seat.name,
                "me": seat.pk == mine.pk,
                "robot": seat.plays_as_robot,
                "score": match.totals[player] if match and player is not None else None,
            })
        rows.append({
            "table": table,
            "players": others,
            "my_turn": turn_number == mine.number,
            "turn_name": snapshot.seats[turn_number].name if turn_number is not None else "",
            "rules": table.rules,
            # Every match played to its end (the last one, once its match is over).
            "matches_over": list(range(1, table.matches or 1))
            + ([table.matches] if table.matches and match and match.finished else []),
        })
    rows.sort(key=lambda r: r["table"].created_at, reverse=True)
    rows.sort(key=lambda r: not r["my_turn"])
    return rows


def archived_kept_until(table: Table) -> datetime | None:
    """When an archived table is deleted: `ARCHIVED_TABLES_KEEP_DAYS` after it was archived.
    None for a table that is not archived, or when archived tables are kept for ever (0).
    Nothing writes an archived table (`changing` refuses it), so the time it last changed,
    `updated_at`, is when it was archived."""
    days = settings.ARCHIVED_TABLES_KEEP_DAYS
    if table.status != Table.Status.ARCHIVED or days <= 0:
        return None
    return table.updated_at + timedelta(days=days)


def tables_archived_expired() -> QuerySet[Table]:
    """The archived tables whose `archived_kept_until` has passed (none when kept for ever)."""
    days = settings.ARCHIVED_TABLES_KEEP_DAYS
    if days <= 0:
        return Table.objects.none()
    cutoff = clock.now() - timedelta(days=days)
    return Table.objects.filter(status=Table.Status.ARCHIVED, updated_at__lt=cutoff)


def table_by_code(code: str) -> Table | None:
    """The table a link's `code` leads to: its invitation (`Table.code`) or its players' own
    (`Table.player_code`)."""
    return Table.objects.filter(Q(code=code) | Q(player_code=code)).first()


def table_ref_or_404(code: str) -> Table:
    """The table at `code` for a post, or 404: only its id, version and links are read (no
    game state to decode; the rest is deferred); the service reads the table whole under its
    lock. Every move's post reads it: as SQL of our own, since Django took several times as
    long to write the queryset's SQL (`table_by_code`'s, `only` these) as to run it."""
    with connection.cursor() as cursor:
        cursor.execute(_TABLE_REF_SQL, [code, code])
        row = cursor.fetchone()
    if row is None:
        raise Http404("Esa mesa no existe.")
    # `Model.from_db`, as the ORM makes a row's instance (the columns not read are deferred).
    return Table.from_db(connection.alias, _TABLE_REF_FIELDS, row)


_TABLE_REF_FIELDS = ["id", "code", "player_code", "version"]
_TABLE_REF_SQL = (
    "SELECT id, code, player_code, version FROM tables_table"
    " WHERE code = %s OR player_code = %s ORDER BY created_at DESC LIMIT 1"
)


def table_or_404(code: str) -> Table:
    """The table at `code` for a view, or 404."""
    table = table_by_code(code)
    if table is None:
        raise Http404("Esa mesa no existe.")
    return table
