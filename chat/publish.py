"""Push the chat to the browsers on a table's own socket (no second connection).

A message goes to the table's public group as the `table.fragment` event the table consumer
already forwards; the lines a table change adds to the chat ride in that change's frames
(`events_frame_part`, registered with `tables.dispatch`): one frame per viewer per change.
Chat lines carry no `data-version`, so the page swaps them as they come. A message and the
chat's history are the same for every viewer; only the spectators' gate (whether they may
write) goes to the watchers alone.
"""

from __future__ import annotations

from django.template.loader import render_to_string

from chat.models import ChatMessage
from chat.selectors import Line, chat_history, event_lines, gate_text, message_line
from tables import publish
from tables.models import Table
from tables.snapshot import AppliedChange

COLUMN = "chat/column.html"


def _send(group: str, html: str) -> None:
    publish.send_fragment(group, html)


def render_lines(lines: list[Line]) -> str:
    """New lines, appended at the bottom of the log wherever they arrive."""
    return render_to_string(f"{COLUMN}#append", {"lines": lines})


def render_log(table: Table) -> str:
    """The whole log (on connect, after a rename): it replaces the one on the page."""
    return render_to_string(f"{COLUMN}#log", {"lines": chat_history(table), "oob": True})


def render_gate(table: Table, *, spectator: bool) -> str:
    return render_to_string(
        f"{COLUMN}#gate", {"gate": gate_text(table, spectator=spectator), "oob": True}
    )


def message_publish(message: ChatMessage) -> None:
    _send(message.table.group_name, render_lines([message_line(message)]))


def message_replace_publish(message: ChatMessage) -> None:
    """A hidden message becomes an empty placeholder in every open page (and back)."""
    html = render_to_string(f"{COLUMN}#line", {"line": message_line(message), "oob": True})
    _send(message.table.group_name, html)


def spectators_gate_publish(table: Table) -> None:
    _send(table.watchers_group_name, render_gate(table, spectator=True))


def events_frame_part(change: AppliedChange) -> str:
    """The chat's part of every viewer's frame for a table change: the lines of its events."""
    table, seats = change.table, change.snapshot.seats
    if "renamed" in change.kinds:
        # Old messages and lines name the seat too: the whole log shows the new name.
        return render_log(table)
    html = ""
    lines = event_lines(change.events, seats)
    if lines:
        html += render_lines(lines)
    if "closed" in change.kinds:
        html += render_gate(table, spectator=False)
    return html
