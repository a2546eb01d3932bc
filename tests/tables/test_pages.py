"""The registry of a process's open table pages (`tables.live.pages`)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tables.live import pages


@dataclass(eq=False)
class Page:
    table_id: int
    seat_number: int | None = None
    version: int = 0
    awaited: int | None = None

    async def send(self, text_data: str) -> None: ...

    async def close(self, code: int = 1000) -> None: ...


@pytest.fixture
def opened():
    made: list[Page] = []
    yield made
    for page in made:
        pages.page_closed(page)


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
    assert pages.pages_all() == [elsewhere]


def test_draining_is_said_to_every_thread_until_it_is_cleared():
    assert pages.draining() is False
    pages.draining_set(True)
    try:
        assert pages.draining() is True
    finally:
        pages.draining_set(False)
    assert pages.draining() is False
