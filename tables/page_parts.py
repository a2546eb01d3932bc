"""What other apps add to a table's page, registered by them at start-up (their
`AppConfig.ready`), so that `tables` never imports them:

- **Page parts**: a template included in the table page beside the table (the chat's column),
  with the context it needs for one viewer.
- **Greeting parts**: HTML added to the whole current table a page gets when its socket
  (re)connects (the chat's whole log), with what to forget when a table's last page in this
  process closes (what the part keeps for the table).

What they add to the frames of every change is a frame part (`tables.dispatch`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest

from tables.models import Seat, Table


@dataclass(frozen=True)
class PagePart:
    """A template the table page includes; `context` gives its variable `name` for a viewer."""

    name: str
    template: str
    context: Callable[[HttpRequest, Table, Seat | None], dict[str, Any]]


GreetingPart = Callable[[Table], str]
Forget = Callable[[int], None]

_page_parts: list[PagePart] = []
_greeting_parts: list[GreetingPart] = []
_forgets: list[Forget] = []


def page_part_register(part: PagePart) -> PagePart:
    if part not in _page_parts:
        _page_parts.append(part)
    return part


def greeting_part_register(part: GreetingPart, forget: Forget | None = None) -> GreetingPart:
    """`part(table)` is added to every greeting; `forget(table_id)` is called when the
    table's last page in this process closes."""
    if part not in _greeting_parts:
        _greeting_parts.append(part)
        if forget is not None:
            _forgets.append(forget)
    return part


def page_parts_context(request: HttpRequest, table: Table, seat: Seat | None) -> dict[str, Any]:
    """The table page's context for its parts: their templates, in order, and their variables."""
    context: dict[str, Any] = {"page_parts": [part.template for part in _page_parts]}
    for part in _page_parts:
        context[part.name] = part.context(request, table, seat)
    return context


def greeting_parts_html(table: Table) -> str:
    return "".join(part(table) for part in _greeting_parts)


def greeting_parts_forget(table_id: int) -> None:
    for forget in _forgets:
        forget(table_id)
