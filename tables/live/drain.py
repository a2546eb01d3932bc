"""Draining: this process is going away (a deploy, a restart). From `drain_begin` on it is not
ready, refuses new pages and sockets (`config.health`), and closes its open table pages
(`tables.live.pages`) with 1012, "service restart", so they reconnect to a process that stays;
requests in flight finish. Pure Python: `config.server` imports it before the application.

The closes are spread over a moment, a table's pages together: a page closed with 1012
reconnects at once (`static/js/socket.js`), so the spreading is done here, where it costs no
page anything (a page not yet closed still gets every move from this process), rather than by
each page waiting a random time with its socket closed (and missing the moves meanwhile)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from tables.live import pages

logger = logging.getLogger(__name__)

SERVICE_RESTART = 1012  # the websocket close code for "the server is restarting"

_hooks: list[Callable[[], None]] = []


def drain_hook_register(hook: Callable[[], None]) -> None:
    """`hook` runs when the drain begins (the embedded task workers stop taking tasks)."""
    _hooks.append(hook)


async def drain_begin(spread: float = 0.0) -> int:
    """Begin draining, in the server's loop: not ready from now on, every open page closed
    with 1012, a table's pages together, the tables' closes spread evenly over `spread`
    seconds (the processes the pages reconnect to greet them as they come, not all in one
    instant). Returns how many pages were closed."""
    pages.draining_set(True)
    for hook in list(_hooks):
        try:
            hook()
        except Exception:
            logger.exception("A drain hook failed: %r", hook)
    loop = asyncio.get_running_loop()
    begun = loop.time()
    tables = pages.tables_open()
    closed = 0
    for n, table_id in enumerate(tables):
        due = begun + spread * n / len(tables)
        if due > loop.time():
            await asyncio.sleep(due - loop.time())
        for page in pages.pages_of(table_id):
            try:
                await page.close(SERVICE_RESTART)
                closed += 1
            except Exception:  # the socket went meanwhile
                pass
    return closed


def drain_end() -> None:
    """Ready again (tests only: a real process that drained exits)."""
    pages.draining_set(False)
