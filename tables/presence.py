"""Who has a table open: one row per open socket of a table page (`Presence`), written by the
table's consumer as pages connect and leave, read by the "te toca" alerts (a seat with the
table open needs none) and by the admin (who is watching now)."""

from __future__ import annotations

from tables.models import Presence, Table


def presence_join(*, table: Table, seat_number: int | None, channel_name: str) -> None:
    """A table page's socket opened."""
    Presence.objects.update_or_create(
        channel_name=channel_name, defaults={"table": table, "seat_number": seat_number}
    )


def presence_leave(*, channel_name: str) -> None:
    Presence.objects.filter(channel_name=channel_name).delete()


def seat_has_table_open(table: Table, seat_number: int) -> bool:
    """Whether a page of `table` proving `seat_number` has its socket open now."""
    return Presence.objects.filter(table=table, seat_number=seat_number).exists()
