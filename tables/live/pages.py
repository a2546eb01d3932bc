"""This process's open table pages: which table each shows, and whether the process still takes
new ones (not while it drains). The one registry of them: the table's socket notes a page opened
and closed, the drain (`tables.live.drain`) closes them all, the catch-up
(`tables.live.catch_up`) reads each table's. Pages are noted and read in the server's event loop;
`draining` is read from any thread. Pure Python: `config.server` imports it before the
application."""

from __future__ import annotations

import threading
from typing import Protocol


class OpenPage(Protocol):
    """An open table page, as its socket (`tables.live.socket`) keeps it."""

    table_id: int
    seat_number: int | None
    language: str  # the language the page is read in
    version: int  # the newest version the page was sent
    awaited: int | None  # a newer version it was behind at the catch-up's last look

    async def send(self, text_data: str) -> None: ...

    async def close(self, code: int = 1000) -> None: ...


_draining = threading.Event()
_by_table: dict[int, set[OpenPage]] = {}


def draining() -> bool:
    """Whether this process is draining: it takes no new page (from any thread)."""
    return _draining.is_set()


def draining_set(on: bool) -> None:
    if on:
        _draining.set()
    else:
        _draining.clear()


def page_opened(page: OpenPage) -> None:
    """A table page's socket was greeted: the page is open here."""
    _by_table.setdefault(page.table_id, set()).add(page)


def page_closed(page: OpenPage) -> bool:
    """The page is not open here any more; whether it was its table's last one here (the
    first call for a page only: a page closed twice counts once)."""
    pages = _by_table.get(page.table_id)
    if pages is None or page not in pages:
        return False
    pages.discard(page)
    if pages:
        return False
    del _by_table[page.table_id]
    return True


def tables_open() -> list[int]:
    """The tables with a page open here."""
    return list(_by_table)


def pages_of(table_id: int) -> list[OpenPage]:
    return list(_by_table.get(table_id, ()))

