"""Push a table's new state to everyone watching it: rendered once per audience, one frame per
viewer.

A table has audiences: each seat (its hand and buttons, to that seat's group only, which a
browser joins after proving the seat in `tables.consumers`) and the watchers (everyone else).
For each version the public board is rendered once, each audience's panel once, and every
viewer is sent one frame: board + their panel + what other apps add (the chat's lines).

The frames of each table's latest version are kept in this process (`latest_frames`): the
acting player's HTTP answer and a page that (re)connects reuse them instead of rendering again.

Sending never holds up the request: inside the server the frames are handed to its event loop
and the request answers at once. A failed send (Redis restarting) is logged; the pages catch
up by themselves (`tables.resync`).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import OrderedDict
from collections.abc import Iterable
from concurrent.futures import Future
from dataclasses import dataclass

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from tables.contexts import round_summary
from tables.models import Table, hash_secret
from tables.render import render_board, render_panel
from tables.snapshot import TableSnapshot, decoded_forget, decoded_release

logger = logging.getLogger(__name__)

FRAGMENT_EVENT = "table.fragment"
WATCHERS = -1  # the watchers' audience, beside the seat numbers
KEPT_TABLES = 2000  # latest frames kept, for this many tables (a few MB)


@dataclass(frozen=True)
class Frames:
    """What each audience of a table is shown at one version."""

    table_id: int
    version: int
    board: str
    panels: dict[int, str]  # seat number (or WATCHERS) -> that audience's panel
    seat_of_secret: dict[str, int]  # a seat secret's hash -> its seat number
    extra: str = ""  # the frame parts (chat lines): pushed, never in an HTTP answer

    def audience_of(self, secret: str | None) -> int:
        return self.seat_of_secret.get(hash_secret(secret), WATCHERS) if secret else WATCHERS

    def page_html(self, audience: int) -> str:
        """Board and panel of `audience`: what a page swaps in (an answer, a greeting)."""
        return self.board + self.panels.get(audience, self.panels[WATCHERS])


_latest: OrderedDict[int, Frames] = OrderedDict()
_latest_lock = threading.Lock()


def latest_frames(table_id: int) -> Frames | None:
    with _latest_lock:
        return _latest.get(table_id)


def frames_forget() -> None:
    with _latest_lock:
        _latest.clear()
    decoded_forget()


def frames_release(table_id: int) -> None:
    """The table's last open page in this process closed: its frames and decoded states go (a
    table that goes quiet keeps nothing here; the next change or page renders them again)."""
    with _latest_lock:
        _latest.pop(table_id, None)
    decoded_release(table_id)


def _keep(frames: Frames) -> None:
    with _latest_lock:
        kept = _latest.get(frames.table_id)
        if kept is not None and kept.version > frames.version:
            return  # a newer version was rendered meanwhile (another thread)
        _latest[frames.table_id] = frames
        _latest.move_to_end(frames.table_id)
        while len(_latest) > KEPT_TABLES:
            _latest.popitem(last=False)


def frames_render(snapshot: TableSnapshot, extra_html: str = "") -> Frames:
    """Render every audience's part of `snapshot` once, and keep it as the table's latest."""
    table = snapshot.table
    summary = round_summary(snapshot)
    watchers = render_panel(snapshot, None, summary)
    panels = {WATCHERS: watchers}
    seat_of_secret = {}
    for number, seat in snapshot.seats.items():
        if seat.is_robot:
            continue
        # A seat whose person left gets the watchers' panel: nobody can prove it any more.
        panels[number] = watchers if seat.abandoned else render_panel(snapshot, seat, summary)
        if seat.secret_hash:
            seat_of_secret[seat.secret_hash] = number
    frames = Frames(
        table_id=table.pk, version=table.version, board=render_board(snapshot),
        panels=panels, seat_of_secret=seat_of_secret, extra=extra_html,
    )
    _keep(frames)
    return frames


def viewer_html(table_id: int, seat_number: int | None) -> tuple[int, str]:
    """(version, board + panel) of the table as it is now, for one viewer (a page that
    connects or catches up): the kept frames when they are current, else rendered now."""
    table = Table.objects.get(pk=table_id)
    frames = latest_frames(table_id)
    if frames is None or frames.version != table.version:
        frames = frames_render(TableSnapshot.load(table))
    return frames.version, frames.page_html(WATCHERS if seat_number is None else seat_number)


def table_publish(snapshot: TableSnapshot, extra_html: str = "") -> Frames:
    """After a change committed: render each audience's frame once and send one per viewer."""
    frames = frames_render(snapshot, extra_html)
    table = snapshot.table
    messages = [
        (
            table.watchers_group_name if audience == WATCHERS else table.seat_group_name(audience),
            frames.board + panel + frames.extra,
        )
        for audience, panel in frames.panels.items()
    ]
    send_fragments(messages, version=frames.version)
    return frames


# --- Sending ---------------------------------------------------------------------------------

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
