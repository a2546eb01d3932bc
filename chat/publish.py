"""Push the chat to the browsers on a table's own socket (no second connection).

A message goes to the table's public group as the `table.fragment` event the table's socket
already forwards; a table change's chat lines ride in that change's frames (`events_frame_part`,
a frame part: `tables.plug`). Chat lines carry no `data-version`, so the page swaps them as
they come; only the spectators' gate (whether they may write) goes to the watchers alone. What
is pushed is rendered once in each language the table's pages read, for that language's group.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

from django.db.models import Max
from django.template.loader import render_to_string
from django.utils import translation

from chat.models import ChatMessage
from chat.selectors import Line, chat_history, event_lines, gate_text, message_line
from tables.live import broadcast
from tables.models import Table
from tables.state.snapshot import AppliedChange

COLUMN = "chat/column.html"


def _send_each_language(
    table: Table, group: Callable[[str], str], html: Callable[[], str]
) -> None:
    """`html()` rendered in each language the table's pages read, to `group(language)`."""
    for language in table.languages_read():
        with translation.override(language):
            broadcast.send_fragment(group(language), html())


def render_lines(lines: list[Line]) -> str:
    """New lines, appended at the bottom of the log wherever they arrive."""
    return render_to_string(f"{COLUMN}#append", {"lines": lines})


def render_log(table: Table) -> str:
    """The whole log (on connect, after a rename): it replaces the one on the page."""
    return render_to_string(f"{COLUMN}#log", {"lines": chat_history(table), "oob": True})


KEPT_LOGS = 1000  # tables (and languages) whose log a greeting keeps (released with the table's
# last page)
_logs: OrderedDict[tuple[int, str], tuple[tuple, str]] = OrderedDict()
_logs_lock = threading.Lock()


def _log_stamp(table: Table) -> tuple:
    """What the log shows depends on: the table's version (its events, names) and its
    messages (the newest, and exactly which are hidden: hiding one changes no version)."""
    messages = ChatMessage.objects.filter(table=table)
    newest = messages.aggregate(newest=Max("pk"))["newest"]
    hidden = tuple(messages.filter(hidden=True).order_by("pk").values_list("pk", flat=True))
    return (table.created_at, table.version, newest, hidden)


def greeting_log(table: Table) -> str:
    """The whole log in the active language for a page's greeting, rendered once while it
    stays the same (after a restart, every page of a table asks for it)."""
    stamp = _log_stamp(table)
    key = (table.pk, translation.get_language())
    with _logs_lock:
        kept = _logs.get(key)
    if kept is not None and kept[0] == stamp:
        return kept[1]
    html = render_log(table)
    with _logs_lock:
        _logs[key] = (stamp, html)
        _logs.move_to_end(key)
        while len(_logs) > KEPT_LOGS:
            _logs.popitem(last=False)
    return html


def greeting_log_release(table_id: int) -> None:
    """The table's last open page here closed."""
    with _logs_lock:
        for key in [key for key in _logs if key[0] == table_id]:
            del _logs[key]


def render_gate(table: Table, *, spectator: bool) -> str:
    return render_to_string(
        f"{COLUMN}#gate", {"gate": gate_text(table, spectator=spectator), "oob": True}
    )


def message_publish(message: ChatMessage) -> None:
    table = message.table
    _send_each_language(
        table, table.group_name_in, lambda: render_lines([message_line(message)])
    )


def message_replace_publish(message: ChatMessage) -> None:
    """A hidden message becomes an empty placeholder in every open page (and back)."""
    table = message.table
    _send_each_language(table, table.group_name_in, lambda: render_to_string(
        f"{COLUMN}#line", {"line": message_line(message), "oob": True}
    ))


def spectators_gate_publish(table: Table) -> None:
    _send_each_language(
        table, table.watchers_group_name_in, lambda: render_gate(table, spectator=True)
    )


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
