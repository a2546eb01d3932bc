"""Moderation: staff actions on a table, from the Django admin (`tables.admin`).

They change the table through `tables.changes.unit_of_work`, like a move: locked, logged, versioned
and published the same way. Each one also logs a "moderated" event (who, what, why), which the
moderation record (`chat`) keeps, in the same transaction.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from tables.changes.unit_of_work import Change, changing, check_name_free, clean_name, seat_to_robot
from tables.models import Seat, Table
from tables.state.refusal import TableError

MODERATION_REASON_MAX = 200


def moderation_reason(*, actor: Any, reason: str) -> str:
    """A staff member's reason for a moderation action, tidied; or a refusal."""
    reason = " ".join((reason or "").split())
    if not reason:
        raise TableError(_("Escribe el motivo."))
    if len(reason) > MODERATION_REASON_MAX:
        raise TableError(
            _("El motivo puede tener hasta %(max)s caracteres.") % {"max": MODERATION_REASON_MAX}
        )
    if actor is None or not actor.is_staff:
        raise TableError(_("Solo la moderación puede hacer eso."))
    return reason


def _moderated(change: Change, action: str, *, actor: Any, reason: str, target: str) -> str:
    reason = moderation_reason(actor=actor, reason=reason)
    change.log("moderated", None, action=action, actor=actor.pk, target=target[:200], reason=reason)
    return reason


def _moderated_seat(change: Change, number: int) -> Seat:
    seat = change.seats.get(number)
    if seat is None:
        raise TableError(_("En ese lugar no hay nadie."))
    return seat


def table_close(*, table_id: int, reason: str, actor: Any) -> None:
    """Close the table for good: it stays visible, read-only, with the reason."""
    with changing(table_id) as change:
        table = change.table
        reason = _moderated(change, "close", actor=actor, reason=reason, target=str(table))
        table.status = Table.Status.CLOSED
        table.closed_reason = reason
        change.log("closed", None, reason=reason)


def seat_replace_with_robot(*, table_id: int, number: int, reason: str, actor: Any) -> None:
    """A robot plays the seat from now on, as if its person had left (name and score stay)."""
    with changing(table_id) as change:
        seat = _moderated_seat(change, number)
        if seat.plays_as_robot:
            raise TableError(_("En ese lugar ya juega un robot."))
        _moderated(change, "replace", actor=actor, reason=reason, target=str(seat))
        seat_to_robot(change, seat, "replaced_by_robot")


def seat_rename(*, table_id: int, number: int, name: str, reason: str, actor: Any) -> None:
    """Give a seat another name (an offensive one); its chat messages show the new one."""
    name = clean_name(name)
    with changing(table_id) as change:
        seat = _moderated_seat(change, number)
        if seat.name == name:
            raise TableError(_("Ese ya es su nombre."))
        if seat.name.casefold() != name.casefold():  # else only the capitals change
            check_name_free(change, name)
        old = seat.name
        target = f"Lugar {number + 1}: «{old}» → «{name}»"
        _moderated(change, "rename", actor=actor, reason=reason, target=target)
        seat.name = name
        seat.save()
        change.log("renamed", number, old=old, new=name)
