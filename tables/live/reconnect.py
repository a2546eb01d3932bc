"""What a page gets when its socket (re)connects: the whole current table for its audience
(and what other apps add, as the chat's log), made in batches.

Sockets that connect together (after a restart, every open page) are greeted together, a
table at a time: each table read once, its frames and greeting parts made once per audience
and shared (a seat's panel only ever goes to the page that proves that seat), and its pages
answered as soon as they are made, before the next table's.
"""

from __future__ import annotations

import asyncio
from collections.abc import MutableMapping
from dataclasses import dataclass
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils.html import format_html

from tables.live.frames import WATCHERS, Frames, frames_of
from tables.models import Seat, Table
from tables.plug import greeting_parts_html
from tables.state.lookup import table_by_code
from tables.state.seat_secrets import proven_seat

BATCH = 250  # sockets greeted in one database hop at most (the first ones wait no longer)


@dataclass(frozen=True)
class Greeting:
    """A socket's viewer and what it is sent first."""

    table_id: int
    seat_number: int | None  # None: a watcher
    group_name: str
    audience_group: str  # its seat's group, or the watchers'
    version: int
    html: str


@dataclass
class _Request:
    code: str
    session: MutableMapping[str, Any]
    answer: asyncio.Future


_pending: list[_Request] = []
_draining: set[asyncio.AbstractEventLoop] = set()


async def greet(code: str, session: MutableMapping[str, Any]) -> Greeting | None:
    """The greeting of a socket at `code` with `session` (None: no table there)."""
    loop = asyncio.get_running_loop()
    request = _Request(code, session, loop.create_future())
    _pending.append(request)
    if loop not in _draining:
        _draining.add(loop)
        loop.create_task(_drain(loop))
    return await request.answer


async def _drain(loop: asyncio.AbstractEventLoop) -> None:
    try:
        while True:
            batch = [r for r in _pending if r.answer.get_loop() is loop][:BATCH]
            if not batch:
                return
            for request in batch:
                _pending.remove(request)
            await database_sync_to_async(_greet_batch)(batch, loop)
    finally:
        _draining.discard(loop)


def _greet_batch(batch: list[_Request], loop: asyncio.AbstractEventLoop) -> None:
    """Greet a batch's sockets a table at a time: each table read once, its frames and parts
    made once per audience, and its sockets answered as soon as they are (the first tables'
    pages wait for no other table). A table that cannot be read (the database restarting):
    its sockets close."""
    by_code: dict[str, list[_Request]] = {}
    for request in batch:
        by_code.setdefault(request.code, []).append(request)
    for code, requests in by_code.items():
        try:
            greetings: list[Greeting | None] | Exception = _greetings(code, requests)
        except Exception as failure:
            greetings = failure
        loop.call_soon_threadsafe(_answer, requests, greetings)


def _answer(requests: list[_Request], greetings: list[Greeting | None] | Exception) -> None:
    for n, request in enumerate(requests):
        if request.answer.done():  # (a socket that closed meanwhile)
            continue
        if isinstance(greetings, Exception):
            request.answer.set_exception(greetings)
        else:
            request.answer.set_result(greetings[n])


def _greetings(code: str, requests: list[_Request]) -> list[Greeting | None]:
    """The greetings of the sockets at one table's `code`."""
    found = _table(code)
    if found is None:
        return [None] * len(requests)
    table, seats, frames = found
    parts = greeting_parts_html(table) + release_html()
    shown: dict[int, str] = {}  # audience -> what it is sent
    greetings: list[Greeting | None] = []
    for request in requests:
        seat = proven_seat(request.session, table, seats)
        audience = WATCHERS if seat is None else seat.number
        if audience not in shown:
            shown[audience] = frames.page_html(audience) + parts
        greetings.append(Greeting(
            table_id=table.pk, seat_number=None if seat is None else seat.number,
            group_name=table.group_name,
            audience_group=(table.watchers_group_name if seat is None
                            else table.seat_group_name(seat.number)),
            version=frames.version, html=shown[audience],
        ))
    return greetings


def release_html() -> str:
    """The release this process serves, in every greeting: a page opened on an earlier one
    reloads itself into it (static/js/socket.js)."""
    return format_html(
        '<div id="release" hidden data-release="{}" hx-swap-oob="true"></div>', settings.RELEASE
    )


def _table(code: str) -> tuple[Table, list[Seat], Frames] | None:
    """The table at `code` as it is now, its seats and its frames, or None."""
    table = table_by_code(code)
    if table is None:
        return None
    return table, list(table.seats.all()), frames_of(table)
