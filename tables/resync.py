"""Pages that missed a push catch up by themselves.

A push can be lost while the page's socket stays open: Redis restarting drops what was
published meanwhile, or a push failed to be sent. So each process keeps an eye on its own open
pages: every `INTERVAL` seconds it reads the versions of the tables they show (one query for
all of them) and sends a page that is still behind after a whole interval (longer than a push
takes to arrive) the whole current table again, as on connect.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from channels.db import database_sync_to_async

from tables.models import Table
from tables.publish import viewer_html

if TYPE_CHECKING:
    from tables.consumers import TableConsumer

logger = logging.getLogger(__name__)

INTERVAL = 0.5

_watched: dict[int, set[TableConsumer]] = {}
_running: set[asyncio.AbstractEventLoop] = set()


def watch(consumer: TableConsumer) -> None:
    _watched.setdefault(consumer.table_id, set()).add(consumer)
    consumer.awaited = None
    loop = asyncio.get_running_loop()
    if loop not in _running:
        _running.add(loop)
        loop.create_task(_keep_watching())


def unwatch(consumer: TableConsumer) -> None:
    consumers = _watched.get(getattr(consumer, "table_id", None), set())
    consumers.discard(consumer)
    if not consumers:
        _watched.pop(getattr(consumer, "table_id", None), None)


def _versions(table_ids: list[int]) -> dict[int, int]:
    return dict(Table.objects.filter(pk__in=table_ids).values_list("pk", "version"))


async def _keep_watching() -> None:
    while True:
        await asyncio.sleep(INTERVAL)
        try:
            await _catch_up()
        except Exception:  # the database restarting: try again next time
            logger.exception("Could not check the open pages' versions")


async def _catch_up() -> None:
    if not _watched:
        return
    versions = await database_sync_to_async(_versions)(list(_watched))
    for table_id, version in versions.items():
        for consumer in list(_watched.get(table_id, ())):
            missed = consumer.awaited is not None and consumer.version < consumer.awaited
            if missed:  # a version committed a whole interval ago never reached the page
                await _resend(consumer)
            # Behind now may be a push on its way: look again next time.
            consumer.awaited = version if consumer.version < version else None


async def _resend(consumer: TableConsumer) -> None:
    version, html = await database_sync_to_async(viewer_html)(
        consumer.table_id, consumer.seat_number
    )
    consumer.version = max(consumer.version, version)
    await consumer.send(text_data=html)
