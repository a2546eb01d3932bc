"""Pages that missed a push catch up by themselves.

A push can be lost while a page's socket stays open (Redis restarting, a failed send). Every
`INTERVAL` seconds each process reads the versions of the tables its open pages show (one
query) and sends a page still behind after a whole interval the whole current table again, as
on connect. A table whose pages were all current and whose version has not moved is skipped.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from channels.db import database_sync_to_async
from django.db import connection

from tables.live.frames import viewer_html

logger = logging.getLogger(__name__)

INTERVAL = 0.5


class OpenPage(Protocol):
    """An open table page, as its socket's consumer (`tables.live.socket`) keeps it."""

    table_id: int
    seat_number: int | None
    version: int  # the newest version the page was sent
    awaited: int | None  # a newer version it was behind at the last look

    async def send(self, text_data: str) -> None: ...


_watched: dict[int, set[OpenPage]] = {}
_settled: dict[int, int] = {}  # table -> the version all its pages had at the last look
_running: set[asyncio.AbstractEventLoop] = set()


def watch(page: OpenPage) -> None:
    _watched.setdefault(page.table_id, set()).add(page)
    _settled.pop(page.table_id, None)  # a new page: look at them all next time
    page.awaited = None
    loop = asyncio.get_running_loop()
    if loop not in _running:
        _running.add(loop)
        loop.create_task(_keep_watching())


def unwatch(page: OpenPage) -> bool:
    """Stop watching the page; whether it was the last one of its table in this process."""
    table_id = getattr(page, "table_id", None)
    pages = _watched.get(table_id)
    if pages is None:
        return False
    pages.discard(page)
    if pages:
        return False
    del _watched[table_id]
    _settled.pop(table_id, None)
    return True


def _versions(table_ids: list[int]) -> dict[int, int]:
    """{id: version} of the tables among `table_ids`: SQL of our own, as it runs twice a second
    whatever the moves (Django took 220 of the 240 µs of `values_list("pk", "version")` to
    write its SQL)."""
    if not table_ids:
        return {}
    marks = ", ".join(["%s"] * len(table_ids))
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT id, version FROM tables_table WHERE id IN ({marks})", table_ids)
        return dict(cursor.fetchall())


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
        if _settled.get(table_id) == version:
            continue
        behind = False
        for page in list(_watched.get(table_id, ())):
            missed = page.awaited is not None and page.version < page.awaited
            if missed:  # a version committed a whole interval ago never reached the page
                await _resend(page)
                behind = True  # (pages may have come meanwhile: look again next time)
            # Behind now may be a push on its way: look again next time.
            page.awaited = version if page.version < version else None
            behind = behind or page.awaited is not None
        if behind:
            _settled.pop(table_id, None)
        elif table_id in _watched:
            _settled[table_id] = version


async def _resend(page: OpenPage) -> None:
    version, html = await database_sync_to_async(viewer_html)(
        page.table_id, page.seat_number
    )
    page.version = max(page.version, version)
    await page.send(text_data=html)
