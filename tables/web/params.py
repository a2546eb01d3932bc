"""What a request's parameters say, read the same way by every view."""

from __future__ import annotations


def number_or_none(value: str | None) -> int | None:
    """A whole number posted or asked for; None when it is missing, -1 when it is not a number
    (never a real version or seat: the service refuses it)."""
    try:
        return int(value) if value not in (None, "") else None
    except ValueError:
        return -1
