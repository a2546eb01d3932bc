"""Which seat a browser holds: its seat secrets, kept in its (signed cookie) session.

There are no accounts. Sitting down gives the browser a secret; the server keeps only its hash
(`Seat.secret_hash`). Every request and websocket proves its seat from the secret here, and
what it may see or do is decided from that proven seat.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableMapping
from typing import Any

from tables.models import Seat, Table

SESSION_KEY = "seats"
# A browser keeps the secrets of its most recent tables only, so the cookie stays small.
MAX_REMEMBERED = 40


def seat_secret(session: MutableMapping[str, Any], table: Table) -> str | None:
    return session.get(SESSION_KEY, {}).get(str(table.pk))


def remember_seat(session: MutableMapping[str, Any], table: Table, secret: str) -> None:
    seats = dict(session.get(SESSION_KEY, {}))
    seats.pop(str(table.pk), None)
    seats[str(table.pk)] = secret
    while len(seats) > MAX_REMEMBERED:
        seats.pop(next(iter(seats)))
    session[SESSION_KEY] = seats


def seat_by_secret(seats: Iterable[Seat], secret: str | None) -> Seat | None:
    """The seat among `seats` whose secret is `secret`, if any: the one way a secret finds its
    seat (a seat whose person left has no secret; no secret finds no seat)."""
    if not secret:
        return None
    return next((s for s in seats if s.secret_matches(secret)), None)


def proven_seat(
    session: MutableMapping[str, Any], table: Table, seats: Iterable[Seat]
) -> Seat | None:
    """The seat of `table` this browser proves, if any (a seat whose person left proves none)."""
    return seat_by_secret(seats, seat_secret(session, table))


def page_code(session: MutableMapping[str, Any], table: Table, code: str) -> str:
    """The code of the link this browser's page of `table` lives at: the players' own
    (`player_code`) when it proves a seat there (a new invitation leaves it alone), else the
    code it came by (`code`)."""
    return table.player_code if proven_seat(session, table, table.seats.all()) else code
