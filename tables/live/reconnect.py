"""What a page gets when its socket (re)connects: the whole current table for its audience in
its language (and what other apps add, as the chat's log), made in batches. The first page in a
language notes it on the table, so that every change is rendered in it from then on.

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
from django.db import transaction
from django.utils import translation
from django.utils.html import format_html

from tables.live.frames import WATCHERS, Frames, frames_of
from tables.models import Table
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
    language: str
    answer: asyncio.Future


_pending: list[_Request] = []
_draining: set[asyncio.AbstractEventLoop] = set()


async def greet(
    code: str, session: MutableMapping[str, Any], language: str
) -> Greeting | None:
    """The greeting of a socket at `code` with `session`, read in `language` (None: no table
    there)."""
    loop = asyncio.get_running_loop()
    request = _Request(code, session, language, loop.create_future())
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
    table = table_by_code(code)
    if table is None:
        return [None] * len(requests)
    new = {r.language for r in requests} - set(table.languages_read())
    if new:
        table = _languages_note(table, new)
    seats = list(table.seats.all())
    frames: dict[str, tuple[Frames, str]] = {}  # language -> its frames and greeting parts
    shown: dict[tuple[str, int], str] = {}  # (language, audience) -> what it is sent
    greetings: list[Greeting | None] = []
    for request in requests:
        language = request.language
        if language not in frames:
            with translation.override(language):
                parts = greeting_parts_html(table) + release_html()
            frames[language] = (frames_of(table, language), parts)
        made, parts = frames[language]
        seat = proven_seat(request.session, table, seats)
        audience = WATCHERS if seat is None else seat.number
        if (language, audience) not in shown:
            shown[language, audience] = made.page_html(audience) + parts
        greetings.append(Greeting(
            table_id=table.pk, seat_number=None if seat is None else seat.number,
            group_name=table.group_name_in(language),
            audience_group=(table.watchers_group_name_in(language) if seat is None
                            else table.seat_group_name(seat.number, language)),
            version=made.version, html=shown[language, audience],
        ))
    return greetings


def _languages_note(table: Table, new: set[str]) -> Table:
    """Note `new` languages on the table (its changes are rendered in them from now on) and
    read it again: a change that committed before the note, rendered without them, is in what
    the greeting sends."""
    with transaction.atomic():
        locked = Table.objects.select_for_update().only("languages").get(pk=table.pk)
        noted = locked.languages_read()
        Table.objects.filter(pk=table.pk).update(
            languages=noted + sorted(new - set(noted))
        )
    return Table.objects.get(pk=table.pk)


def release_html() -> str:
    """The release this process serves, in every greeting: a page opened on an earlier one
    reloads itself into it (static/js/socket.js)."""
    return format_html(
        '<div id="release" hidden data-release="{}" hx-swap-oob="true"></div>', settings.RELEASE
    )
