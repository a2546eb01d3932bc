"""What each audience of a table is shown at one version (`Frames`): rendered once per audience,
and the latest frames of each table kept in this process.

This module owns the rule "use the frames the last publication kept, or render them": the acting
player's answer, a page's greeting and a page catching up ask `frames_of`; a socket that joined
its groups asks `frames_newer` for a push it may have missed. Nothing else reads the kept frames.
Frames are in one language (a page's own): rendered, kept and asked for per language.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from django.utils import translation

from tables.audiences.render import render_board, render_panel
from tables.audiences.visible import audience_contexts
from tables.models import Table, hash_secret
from tables.state.decoded import decoded_clear, decoded_release
from tables.state.snapshot import TableSnapshot

WATCHERS = -1  # the watchers' audience, beside the seat numbers
KEPT_TABLES = 2000  # latest frames kept, for this many tables and languages (a few MB)


@dataclass(frozen=True)
class Frames:
    """What each audience of a table is shown at one version."""

    table_id: int
    version: int
    language: str
    board: str
    panels: dict[int, str]  # seat number (or WATCHERS) -> that audience's panel
    seat_of_secret: dict[str, int]  # a seat secret's hash -> its seat number
    extra: str = ""  # the frame parts (chat lines): pushed, never in an HTTP answer

    def audience_of(self, secret: str | None) -> int:
        return self.seat_of_secret.get(hash_secret(secret), WATCHERS) if secret else WATCHERS

    def page_html(self, audience: int) -> str:
        """Board and panel of `audience`: what a page swaps in (an answer, a greeting)."""
        return self.board + self.panels.get(audience, self.panels[WATCHERS])


_latest: OrderedDict[tuple[int, str], Frames] = OrderedDict()  # (table, language) -> frames
_latest_lock = threading.Lock()


def _kept(table_id: int, language: str) -> Frames | None:
    with _latest_lock:
        return _latest.get((table_id, language))


def frames_of(table: Table, language: str) -> Frames:
    """`table`'s frames in `language` at the version it was just read at, or at a newer one:
    the kept ones when they are that new, else rendered now (and kept)."""
    kept = _kept(table.pk, language)
    if kept is not None and kept.version >= table.version:
        return kept
    return frames_render(TableSnapshot.load(table), language)


def frames_newer(table_id: int, version: int, language: str) -> Frames | None:
    """The frames in `language` kept for the table if they are newer than `version` (a page
    that was sent `version`: a push it may have missed), else None."""
    kept = _kept(table_id, language)
    return kept if kept is not None and kept.version > version else None


def frames_clear() -> None:
    with _latest_lock:
        _latest.clear()
    decoded_clear()


def frames_release(table_id: int) -> None:
    """The table's last open page in this process closed: its frames and decoded states go (a
    table that goes quiet keeps nothing here; the next change or page renders them again)."""
    with _latest_lock:
        for key in [key for key in _latest if key[0] == table_id]:
            del _latest[key]
    decoded_release(table_id)


def _keep(frames: Frames) -> None:
    with _latest_lock:
        key = (frames.table_id, frames.language)
        kept = _latest.get(key)
        if kept is not None and kept.version > frames.version:
            return  # a newer version was rendered meanwhile (another thread)
        _latest[key] = frames
        _latest.move_to_end(key)
        while len(_latest) > KEPT_TABLES:
            _latest.popitem(last=False)


def frames_render(snapshot: TableSnapshot, language: str, extra_html: str = "") -> Frames:
    """Render every audience's part of `snapshot` once in `language`, and keep it as the
    table's latest in it. `extra_html`: frame parts already in that language."""
    table = snapshot.table
    with translation.override(language):
        contexts = audience_contexts(snapshot)
        watchers = render_panel(contexts.panels[None])
        panels = {WATCHERS: watchers}
        for number, context in contexts.panels.items():
            if number is not None:
                panels[number] = (
                    watchers if context is contexts.panels[None] else render_panel(context)
                )
        board = render_board(contexts.board)
    seat_of_secret = {
        seat.secret_hash: number
        for number, seat in snapshot.seats.items()
        if number in panels and seat.secret_hash
    }
    frames = Frames(
        table_id=table.pk, version=table.version, language=language, board=board,
        panels=panels, seat_of_secret=seat_of_secret, extra=extra_html,
    )
    _keep(frames)
    return frames


def viewer_html(table_id: int, seat_number: int | None, language: str) -> tuple[int, str]:
    """(version, board + panel) of the table as it is now, for one viewer reading `language`
    (a page catching up)."""
    frames = frames_of(Table.objects.get(pk=table_id), language)
    return frames.version, frames.page_html(WATCHERS if seat_number is None else seat_number)
