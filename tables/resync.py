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
from typing import Protocol

from channels.db import database_sync_to_async

from tables.models import Table
from tables.publish import viewer_html

logger = logging.getLogger(__name__)

INTERVAL = 0.5


class OpenPage(Protocol):
    """An open table page, as its socket's consumer (`tables.consumers`) keeps it."""

    table_id: int
    seat_number: int | None
    version: int  # the newest version the page was sent
    awaited: int | None  # a newer version it was behind at the last look

    async def send(self, text_data: str) -> None: ...


_watched: dict[int, set[OpenPage]] = {}
_running: set[asyncio.AbstractEventLoop] = set()


def watch(page: OpenPage) -> None:
    _watched.setdefault(page.table_id, set()).add(page)
    page.awaited = None
    loop = asyncio.get_running_loop()
    if loop not in _running:
        _running.add(loop)
        loop.create_task(_keep_watching())


def unwatch(page: OpenPage) -> None:
    pages = _watched.get(getattr(page, "table_id", None), set())
    pages.discard(page)
    if not pages:
        _watched.pop(getattr(page, "table_id", None), None)


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
        for page in list(_watched.get(table_id, ())):
            missed = page.awaited is not None and page.version < page.awaited
            if missed:  # a version committed a whole interval ago never reached the page
                await _resend(page)
            # Behind now may be a push on its way: look again next time.
            page.awaited = version if page.version < version else None


async def _resend(page: OpenPage) -> None:
    version, html = await database_sync_to_async(viewer_html)(
        page.table_id, page.seat_number
    )
    page.version = max(page.version, version)
    await page.send(text_data=html)
