"""Who has a table open: one row per open socket of a table page (`Presence`), written by the
table's socket as pages connect and leave, read by the "te toca" alerts (a seat with the table
open needs none) and by the admin (who is watching now). Joins and leaves are written in
batches, at most `WRITE_AFTER` seconds late; nothing is written while nobody comes or goes.
"""

from __future__ import annotations

import asyncio
import logging

from channels.db import database_sync_to_async

from tables.models import Presence, Table

logger = logging.getLogger(__name__)

WRITE_AFTER = 0.5

# Not written yet: channel name -> (table id, seat number) of a join; the channels that left.
_joins: dict[str, tuple[int, int | None]] = {}
_leaves: set[str] = set()
_writers: dict[asyncio.AbstractEventLoop, asyncio.Task] = {}


def presence_joined(table_id: int, seat_number: int | None, channel_name: str) -> None:
    """A table page's socket opened (written soon, from the event loop)."""
    _leaves.discard(channel_name)
    _joins[channel_name] = (table_id, seat_number)
    _write_soon()


def presence_left(channel_name: str) -> None:
    """A table page's socket closed (written soon; a join not written yet is just dropped)."""
    if _joins.pop(channel_name, None) is None:
        _leaves.add(channel_name)
        _write_soon()


async def presence_written() -> None:
    """Wait until every join and leave so far is written."""
    writer = _writers.get(asyncio.get_running_loop())
    if writer is not None:
        await asyncio.shield(writer)


def _write_soon() -> None:
    loop = asyncio.get_running_loop()
    if loop not in _writers:
        _writers[loop] = loop.create_task(_write_pending(loop))


async def _write_pending(loop: asyncio.AbstractEventLoop) -> None:
    try:
        while _joins or _leaves:
            await asyncio.sleep(WRITE_AFTER)
            joins, leaves = dict(_joins), set(_leaves)
            _joins.clear()
            _leaves.clear()
            try:
                await database_sync_to_async(_write)(joins, leaves)
            except Exception:  # the database restarting: those not written are tried again
                logger.exception("Could not write who has the tables open")
                for channel, row in joins.items():
                    if channel not in _leaves:  # (not gone meanwhile)
                        _joins.setdefault(channel, row)
                _leaves.update(leaves - _joins.keys())
    finally:
        del _writers[loop]


def presence_forget_pending() -> None:
    """Drop the joins and leaves not written yet (a test's, when its event loop ended)."""
    _joins.clear()
    _leaves.clear()


def _write(joins: dict[str, tuple[int, int | None]], leaves: set[str]) -> None:
    tables = set(
        Table.objects.filter(pk__in={t for t, _ in joins.values()}).values_list("pk", flat=True)
    )
    Presence.objects.filter(channel_name__in=[*leaves, *joins]).delete()
    Presence.objects.bulk_create(
        Presence(table_id=table_id, seat_number=seat, channel_name=channel)
        for channel, (table_id, seat) in joins.items()
        if table_id in tables  # (a table deleted meanwhile)
    )


def seat_has_table_open(table: Table, seat_number: int) -> bool:
    """Whether a page of `table` proving `seat_number` has its socket open now."""
    return Presence.objects.filter(table=table, seat_number=seat_number).exists()
