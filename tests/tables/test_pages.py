"""The registry of a process's open table pages (`tables.live.pages`), and the drain's closes
(`tables.live.drain`): every open page closed with 1012, a table's pages together, the tables
spread over the moment given, so that the processes they reconnect to greet them as they come
(the page reconnects at once: static/js/socket.js)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

import pytest

from tables.live import drain, pages
from tests.live import run_async


@dataclass(eq=False)
class Page:
    table_id: int
    closes: list[tuple[float, int, int]] = field(default_factory=list)  # (at, table, code)
    seat_number: int | None = None
    language: str = "es"
    version: int = 0
    awaited: int | None = None

    async def send(self, text_data: str) -> None: ...

    async def close(self, code: int = 1000) -> None:
        self.closes.append((asyncio.get_running_loop().time(), self.table_id, code))
        pages.page_closed(self)


@pytest.fixture
def opened():
    made: list[Page] = []
    yield made
    for page in made:
        pages.page_closed(page)
    drain.drain_end()


def test_a_tables_last_page_closing_says_so_once_and_the_others_do_not(opened):
    first, second, elsewhere = Page(1), Page(1), Page(2)
    for page in (first, second, elsewhere):
        pages.page_opened(page)
        opened.append(page)

    assert sorted(pages.tables_open()) == [1, 2]
    assert set(pages.pages_of(1)) == {first, second}
    assert pages.page_closed(first) is False
    assert pages.page_closed(second) is True
    assert pages.page_closed(second) is False  # closed twice: counted once
    assert pages.tables_open() == [2]
    assert pages.pages_of(2) == [elsewhere]


def test_draining_is_said_to_every_thread_until_it_is_cleared():
    assert pages.draining() is False
    pages.draining_set(True)
    try:
        assert pages.draining() is True
    finally:
        pages.draining_set(False)
    assert pages.draining() is False


def test_the_drain_closes_each_tables_pages_together_spread_over_the_moment(opened):
    closes: list[tuple[float, int, int]] = []
    for table_id in (1, 1, 2, 3, 3, 3, 4):
        page = Page(table_id, closes)
        pages.page_opened(page)
        opened.append(page)

    async def drained() -> tuple[float, int]:
        begun = asyncio.get_running_loop().time()
        return begun, await drain.drain_begin(spread=0.4)

    begun, closed = run_async(drained())

    assert closed == 7 and pages.tables_open() == [] and pages.draining()
    assert {code for _, _, code in closes} == {drain.SERVICE_RESTART}
    order = [table for _, table, _ in closes]
    assert [table for n, table in enumerate(order) if n == 0 or order[n - 1] != table] == sorted(
        set(order), key=order.index
    )  # each table's pages closed one after another, never interleaved with another's
    first_of = {table: at - begun for at, table, _ in reversed(closes)}
    # Four tables over 0.4 s: the n-th table's pages are closed no sooner than n * 0.1 s in.
    for n, table in enumerate(sorted(first_of, key=first_of.get)):
        assert first_of[table] >= n * 0.1 - 0.005


def test_with_no_spread_every_page_is_closed_at_once(opened):
    closes: list[tuple[float, int, int]] = []
    for table_id in (1, 2):
        page = Page(table_id, closes)
        pages.page_opened(page)
        opened.append(page)
    assert run_async(drain.drain_begin()) == 2
    assert sorted(table for _, table, _ in closes) == [1, 2]
