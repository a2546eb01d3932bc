"""`{% table_action "move_play" %}`: a table action's URL relative to the table's page.

A table page posts to the link it was loaded from: the players' own link for a seated player,
the invitation for everyone else. So the fragments, rendered once for many viewers, carry no
table code at all, and a seated player's page keeps working when the invitation changes.

An action named by literals alone is the same URL in every render: it is worked out once, when
the template is loaded, and rendered as text (a move renders a dozen of them).
"""

import functools

from django import template
from django.template.base import FilterExpression, Node, TextNode
from django.urls import reverse
from django.utils.html import conditional_escape

register = template.Library()

_ANY = "-"


@register.tag
def table_action(parser: template.base.Parser, token: template.base.Token) -> Node:
    """`name`'s URL (with its arguments after the table's code, as a round's id) relative
    to the table page."""
    bits = token.split_contents()[1:]
    if not bits:
        raise template.TemplateSyntaxError("table_action needs the name of an action")
    parts = [parser.compile_filter(bit) for bit in bits]
    literals = [_literal(part) for part in parts]
    if all(value is not None for value in literals):
        return TextNode(conditional_escape(_relative(*literals)))
    return ActionNode(parts)


class ActionNode(Node):
    """An action whose name or arguments come from the context (a round's id)."""

    def __init__(self, parts: list[FilterExpression]) -> None:
        self.parts = parts

    def render(self, context: template.Context) -> str:
        url = _relative(*(part.resolve(context) for part in self.parts))
        return conditional_escape(url) if context.autoescape else url


def _literal(part: FilterExpression) -> object | None:
    """The value of a quoted string or a number, else None (a variable, or a filter)."""
    if part.filters:
        return None
    if isinstance(part.var, str):  # a quoted string is resolved as the template is read
        return str(part.var)
    return part.var.literal


@functools.lru_cache(maxsize=256)  # the same few actions in every fragment of every move
def _relative(name: str, *args: object) -> str:
    page = reverse("table", kwargs={"code": _ANY})
    url = reverse(name, args=[_ANY, *args])
    if not url.startswith(page):
        raise ValueError(f"{name} is not an action of the table page")
    return url[len(page):] or "./"
