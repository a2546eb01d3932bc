"""Draining: this process is going away (a deploy, a restart). From `drain_begin` on it is not
ready, refuses new pages and sockets (`config.health`), and closes its open table pages with
1012, "service restart", so they reconnect to a process that stays; requests in flight finish.
Pure Python: `config.server` imports it before the application."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Protocol

logger = logging.getLogger(__name__)

SERVICE_RESTART = 1012  # the websocket close code for "the server is restarting"


class ClosablePage(Protocol):
    async def close(self, code: int = 1000) -> None: ...


_draining = threading.Event()
_pages: set[ClosablePage] = set()
_hooks: list[Callable[[], None]] = []


def draining() -> bool:
    """Whether this process is draining (from any thread)."""
    return _draining.is_set()


def page_opened(page: ClosablePage) -> None:
    """A table page's socket was accepted (in the server's loop)."""
    _pages.add(page)


def page_closed(page: ClosablePage) -> None:
    _pages.discard(page)


def drain_hook_register(hook: Callable[[], None]) -> None:
    """`hook` runs when the drain begins (the embedded task workers stop taking tasks)."""
    _hooks.append(hook)


async def drain_begin() -> int:
    """Begin draining, in the server's loop: not ready from now on, every open page closed
    with 1012. Returns how many pages were closed."""
    _draining.set()
    for hook in list(_hooks):
        try:
            hook()
        except Exception:
            logger.exception("A drain hook failed: %r", hook)
    closed = 0
    for page in list(_pages):
        try:
            await page.close(SERVICE_RESTART)
            closed += 1
        except Exception:  # the socket went meanwhile
            pass
        _pages.discard(page)
    return closed


def drain_end() -> None:
    """Ready again (tests only: a real process that drained exits)."""
    _draining.clear()
