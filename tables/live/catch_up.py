"""Pages that missed a push catch up by themselves.

A push can be lost while a page's socket stays open (Redis restarting, a failed send). Every
`INTERVAL` seconds each process reads the versions of the tables its open pages show (one
query) and sends a page still behind after a whole interval the whole current table again, as
on connect. A table whose pages were all current and whose version has not moved is skipped.
"""

from __future__ import annotations

import asyncio
import logging

from channels.db import database_sync_to_async
from django.db import connection

from tables.live.frames import viewer_html
from tables.live.pages import OpenPage, pages_of, tables_open

logger = logging.getLogger(__name__)

INTERVAL = 0.5

_settled: dict[int, int] = {}  # table -> the version all its pages had at the last look
_running: set[asyncio.AbstractEventLoop] = set()


def watch(page: OpenPage) -> None:
    """A page was just opened (`tables.live.pages`): its table is looked at again next time."""
    _settled.pop(page.table_id, None)
    page.awaited = None
    loop = asyncio.get_running_loop()
    if loop not in _running:
        _running.add(loop)
        loop.create_task(_keep_watching())


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
    open_now = tables_open()
    for table_id in _settled.keys() - set(open_now):  # no page open here any more
        del _settled[table_id]
    if not open_now:
        return
    versions = await database_sync_to_async(_versions)(open_now)
    for table_id, version in versions.items():
        if _settled.get(table_id) == version:
            continue
        behind = False
        for page in pages_of(table_id):
            missed = page.awaited is not None and page.version < page.awaited
            if missed:  # a version committed a whole interval ago never reached the page
                await _resend(page)
                behind = True  # (pages may have come meanwhile: look again next time)
            # Behind now may be a push on its way: look again next time.
            page.awaited = version if page.version < version else None
            behind = behind or page.awaited is not None
        if behind:
            _settled.pop(table_id, None)
        elif pages_of(table_id):  # (its pages may have closed meanwhile)
            _settled[table_id] = version


async def _resend(page: OpenPage) -> None:
    version, html = await database_sync_to_async(viewer_html)(
        page.table_id, page.seat_number, page.language
    )
    page.version = max(page.version, version)
    await page.send(text_data=html)
