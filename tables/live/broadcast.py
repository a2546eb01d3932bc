"""Send a table's new frames to everyone watching it, over the channel layer: one frame per
viewer, handed to the server's event loop so that a request never waits for it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from concurrent.futures import Future

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from tables.live.frames import WATCHERS, Frames, frames_render
from tables.models import Table
from tables.state.snapshot import TableSnapshot

logger = logging.getLogger(__name__)

FRAGMENT_EVENT = "table.fragment"


def table_publish(snapshot: TableSnapshot, language: str, extra_html: str = "") -> Frames:
    """After a change committed: render each audience's frame in `language` once and send one
    to every viewer reading it (`extra_html`: frame parts in that language)."""
    frames = frames_render(snapshot, language, extra_html)
    table = snapshot.table
    messages = [
        (
            table.watchers_group_name_in(language) if audience == WATCHERS
            else table.seat_group_name(audience, language),
            frames.board + panel + frames.extra,
        )
        for audience, panel in frames.panels.items()
    ]
    send_fragments(messages, version=frames.version)
    return frames


_server_loop: asyncio.AbstractEventLoop | None = None


def server_loop_bind(loop: asyncio.AbstractEventLoop) -> None:
    """The event loop of this process's server (config.asgi binds it on every connection)."""
    global _server_loop
    _server_loop = loop


def send_fragment(group: str, html: str) -> None:
    """HTML for every page in `group`; their sockets forward it as it is."""
    send_fragments([(group, html)])


def send_fragments(messages: Iterable[tuple[str, str]], version: int = 0) -> None:
    """Send each (group, html) over the channel layer; never raises. `version`: the table
    version the frames show (0: they show none, as chat messages)."""
    events = [
        (group, {"type": FRAGMENT_EVENT, "html": html, "version": version})
        for group, html in messages
    ]
    loop = _server_loop
    if loop is not None and loop.is_running():
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is not loop:  # a worker thread of the server: hand over and go on
            future = asyncio.run_coroutine_threadsafe(_group_send_all(events), loop)
            future.add_done_callback(_log_failure)
            return
    try:  # no server loop here (a management command, a test): send before returning
        async_to_sync(_group_send_all)(events)
    except Exception:
        logger.exception("Could not push to %s", ", ".join(g for g, _ in events))


async def _group_send_all(events: list[tuple[str, dict]]) -> None:
    layer = get_channel_layer()
    for group, event in events:
        await layer.group_send(group, event)


def _log_failure(future: Future) -> None:
    failure = future.exception()
    if failure is not None:
        logger.error("Could not push a table's frames: %r", failure)


def table_revoke_watchers(table_id: int) -> None:
    """The invitation link changed: the watchers who came by the old one stop watching."""
    table = Table.objects.filter(pk=table_id).first()
    if table is not None:
        try:
            async_to_sync(get_channel_layer().group_send)(
                table.watchers_group_name, {"type": "table.revoked"}
            )
        except Exception:
            logger.exception("Could not revoke the watchers of table %s", table_id)
