"""`{% table_action "move_play" %}`: a table action's URL relative to the table's page.

A table page posts to the link it was loaded from: the players' own link for a seated player,
the invitation for everyone else. So the fragments, rendered once for many viewers, carry no
table code at all, and a seated player's page keeps working when the invitation changes.
"""

import functools

from django import template
from django.urls import reverse

register = template.Library()

_ANY = "-"


@register.simple_tag
def table_action(name: str, *args: object) -> str:
    """`name`'s URL (with its arguments after the table's code, as a round's id) relative
    to the table page."""
    return _relative(name, *args)


@functools.lru_cache(maxsize=256)  # the same few actions in every fragment of every move
def _relative(name: str, *args: object) -> str:
    page = reverse("table", kwargs={"code": _ANY})
    url = reverse(name, args=[_ANY, *args])
    if not url.startswith(page):
        raise ValueError(f"{name} is not an action of the table page")
    return url[len(page):] or "./"
