"""Push the chat to the browsers on a table's own socket (no second connection).

Everything goes to the table's public group as the `table.fragment` event the table consumer
already forwards: chat lines carry no `data-version`, so the page swaps them as they come. A
message and the chat's history are the same for every viewer; only the spectators' gate
(whether they may write) goes to the watchers alone.
"""

from __future__ import annotations

from django.template.loader import render_to_string

from chat.models import ChatMessage
from chat.selectors import Line, chat_history, event_lines, gate_text, message_line
from tables import publish
from tables.models import Table, TableEvent

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


def chat_events_publish(table_id: int, version: int) -> None:
    """The chat lines of the table events logged at `version` (called after each commit)."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return
    events = list(TableEvent.objects.filter(table=table, version=version))
    kinds = {e.kind for e in events}
    seats = {s.number: s for s in table.seats.all()}
    if "renamed" in kinds:
        # Old messages and lines name the seat too: the whole log shows the new name.
        _send(table.group_name, render_log(table))
        return
    lines = event_lines(events, seats)
    if lines:
        _send(table.group_name, render_lines(lines))
    if "closed" in kinds:
        _send(table.group_name, render_gate(table, spectator=False))
