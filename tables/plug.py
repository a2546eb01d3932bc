"""The plug: every way another app (`chat`, `bots`) adds to a table, registered here by that
app at start-up, so that `tables` never imports it. Each kind says when it runs; the modules
of `tables` that run them read them from here only (docs/architecture.md, "The plug").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest

from tables.models import Seat, Table
from tables.state.snapshot import AppliedChange

# --- A change: run by `tables.changes.consequences` -------------------------------------------

Recorder = Callable[[AppliedChange], None]
FramePart = Callable[[AppliedChange], str]

_recorders: list[Recorder] = []
_frame_parts: list[FramePart] = []


def recorder_register(recorder: Recorder) -> Recorder:
    """Run `recorder` inside every table change's transaction, still holding the table's lock:
    work that must commit or roll back with the change, and nothing slow (the robots enqueue
    their turn, the chat records moderation)."""
    if recorder not in _recorders:
        _recorders.append(recorder)
    return recorder


def frame_part_register(part: FramePart) -> FramePart:
    """Add `part`'s HTML to every viewer's frame of every change, rendered after the commit
    (the chat's lines about the events)."""
    if part not in _frame_parts:
        _frame_parts.append(part)
    return part


def recorders_run(change: AppliedChange) -> None:
    for record in _recorders:
        record(change)


def frame_parts_html(change: AppliedChange) -> str:
    return "".join(part(change) for part in _frame_parts)


# --- A table page and its socket: run by `tables.web.table` and `tables.live.reconnect` -------


@dataclass(frozen=True)
class PagePart:
    """A template the table page includes; `context` gives its variable `name` for a viewer."""

    name: str
    template: str
    context: Callable[[HttpRequest, Table, Seat | None], dict[str, Any]]


GreetingPart = Callable[[Table], str]
Release = Callable[[int], None]

_page_parts: list[PagePart] = []
_greeting_parts: list[GreetingPart] = []
_releases: list[Release] = []


def page_part_register(part: PagePart) -> PagePart:
    """Include `part.template` in the table page beside the table (the chat's column)."""
    if part not in _page_parts:
        _page_parts.append(part)
    return part


def greeting_part_register(part: GreetingPart, release: Release | None = None) -> GreetingPart:
    """Add `part(table)` to the whole current table a page gets when its socket (re)connects
    (the chat's log); `release(table_id)` lets go of what the part keeps for a table when the
    table's last page in this process closes."""
    if part not in _greeting_parts:
        _greeting_parts.append(part)
        if release is not None:
            _releases.append(release)
    return part


def page_parts_context(request: HttpRequest, table: Table, seat: Seat | None) -> dict[str, Any]:
    """The table page's context for its parts: their templates, in order, and their variables."""
    context: dict[str, Any] = {"page_parts": [part.template for part in _page_parts]}
    for part in _page_parts:
        context[part.name] = part.context(request, table, seat)
    return context


def greeting_parts_html(table: Table) -> str:
    return "".join(part(table) for part in _greeting_parts)


def greeting_parts_release(table_id: int) -> None:
    for release in _releases:
        release(table_id)


# --- The admin: read by `tables.admin` --------------------------------------------------------


@dataclass(frozen=True)
class SeatAction:
    """A moderation form added to each person's seat on a table's admin page."""

    name: str  # the form's `action`
    label: str  # its button
    run: Callable[..., object]  # run(table_id=, number=, reason=, actor=): a service


@dataclass(frozen=True)
class TableLink:
    """A link added to a table's admin page (the table's chat messages)."""

    label: str
    url: Callable[[int], str]  # the table's id -> the URL


_seat_actions: dict[str, SeatAction] = {}
_table_links: list[TableLink] = []


def seat_action_register(action: SeatAction) -> SeatAction:
    _seat_actions[action.name] = action
    return action


def table_link_register(link: TableLink) -> TableLink:
    if link not in _table_links:
        _table_links.append(link)
    return link


def seat_actions() -> dict[str, SeatAction]:
    return dict(_seat_actions)


def table_links() -> list[TableLink]:
    return list(_table_links)


# --- Task workers: run by `tables.changes.workers` --------------------------------------------

StartupHook = Callable[[], object]

_startup_hooks: list[StartupHook] = []


def startup_register(hook: StartupHook) -> StartupHook:
    """Run `hook` whenever task workers start (after a restart, work may be waiting: the robots
    re-enqueue the turns a dead worker left unplayed)."""
    if hook not in _startup_hooks:
        _startup_hooks.append(hook)
    return hook


def startup_hooks() -> list[StartupHook]:
    return list(_startup_hooks)
