"""Every change to a table's chat: posting, the host's switch and moderation.

A request that cannot be honoured raises `tables.state.refusal.TableError` with a message in
Spanish; nothing changes. What a change shows is published on commit (`chat.publish`).
Moderation changes to the table itself (closing it, a seat's name or person) are table
services, in `tables.changes.services`; their record is kept here (`table_change_record`).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from chat import publish
from chat.models import ChatMessage, ChatMute, ChatSettings, ModerationAction
from chat.selectors import gate_text, is_muted
from tables.changes.moderation import moderation_reason
from tables.changes.unit_of_work import NAME_MAX
from tables.models import Table
from tables.state.refusal import TableError
from tables.state.seat_secrets import seat_by_secret
from tables.state.snapshot import AppliedChange

TEXT_MAX = 300
SPECTATOR_NAME = _lazy("Espectador")  # stored with the message: in its writer's language


def _table(table_id: int) -> Table:
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise TableError(_("Esa mesa no existe."))
    return table


def _clean_text(text: str) -> str:
    text = (text or "").replace("\r\n", "\n").strip()
    if not text:
        raise TableError(_("Escribe un mensaje."))
    if len(text) > TEXT_MAX:
        raise TableError(_("Un mensaje puede tener hasta %(max)s caracteres.") % {"max": TEXT_MAX})
    return text


def spectator_name(name: str) -> str:
    """A spectator's chosen name, tidied; the default when they chose none."""
    return " ".join((name or "").split())[:NAME_MAX] or str(SPECTATOR_NAME)


def message_post(
    *, table_id: int, secret: str | None, address_key: str, text: str, name: str = ""
) -> ChatMessage:
    """A viewer writes in the table's chat: under their seat's name, or as a spectator.

    `address_key` is the writer's network address as a keyed hash
    (`tables.web.clients.address_key`): a spectator's mute binds it. How often one may write is the
    view's limit (`chat.views`)."""
    text = _clean_text(text)
    table = _table(table_id)
    seat = seat_by_secret(table.seats.all(), secret)
    gate = gate_text(table, spectator=seat is None)
    if gate:
        raise TableError(gate)
    if is_muted(table, seat_number=seat.number if seat else None, address_key=address_key):
        raise TableError(_("La moderación te silenció en el chat de esta mesa."))
    with transaction.atomic():
        message = ChatMessage.objects.create(
            table=table,
            seat_number=seat.number if seat else None,
            author_name=seat.name if seat else spectator_name(name),
            address=address_key,
            text=text,
        )
        transaction.on_commit(lambda: publish.message_publish(message))
    return message


def spectators_chat_set(*, table_id: int, secret: str | None, allowed: bool) -> None:
    """The host lets the spectators write in the chat, or not."""
    table = _table(table_id)
    if table.status in (Table.Status.CLOSED, Table.Status.ARCHIVED):
        raise TableError(_("Esta mesa ya no admite cambios."))
    seat = seat_by_secret(table.seats.all(), secret)
    if seat is None or seat.number != table.host_seat:
        raise TableError(_("Solo quien abrió la mesa puede hacer eso."))
    with transaction.atomic():
        ChatSettings.objects.update_or_create(
            table=table, defaults={"spectators_can_write": allowed}
        )
        transaction.on_commit(lambda: publish.spectators_gate_publish(table))


def table_change_record(change: AppliedChange) -> None:
    """Inside a table change (a recorder, `tables.plug`): keep the moderation record of the
    staff actions it logged, and give a renamed seat's messages its new name."""
    table = change.table
    for event in change.events:
        if event.kind == "moderated":
            data = event.data
            ModerationAction.objects.create(
                actor_id=data["actor"], kind=data["action"], table=table,
                target=data["target"], reason=data["reason"],
            )
        elif event.kind == "renamed":
            ChatMessage.objects.filter(
                table=table, seat_number=event.seat, author_name=event.data["old"]
            ).update(author_name=event.data["new"])


# --- Moderation ----------------------------------------------------------------------------


def moderation_record(
    *, actor: Any, kind: str, table: Table | None, target: str, reason: str
) -> str:
    """Record a moderation action (inside the caller's transaction); returns the clean reason."""
    reason = moderation_reason(actor=actor, reason=reason)
    ModerationAction.objects.create(
        actor=actor, kind=kind, table=table, target=target[:200], reason=reason
    )
    return reason


def message_hide(*, message_id: int, hidden: bool, reason: str, actor: Any) -> ChatMessage:
    """Hide a message from every open browser at once (or show it again)."""
    with transaction.atomic():
        message = ChatMessage.objects.select_for_update().filter(pk=message_id).first()
        if message is None:
            raise TableError(_("Ese mensaje no existe."))
        if message.hidden == hidden:
            raise TableError(
                _("Ese mensaje ya está oculto.") if hidden else _("Ese mensaje ya se ve.")
            )
        kind = ModerationAction.Kind.HIDE if hidden else ModerationAction.Kind.UNHIDE
        moderation_record(
            actor=actor, kind=kind, table=message.table, target=str(message), reason=reason
        )
        message.hidden = hidden
        message.save(update_fields=["hidden"])
        transaction.on_commit(lambda: publish.message_replace_publish(message))
    return message


def chat_mute(
    *, table_id: int, seat_number: int | None, address_key: str = "", reason: str, actor: Any
) -> ChatMute:
    """Silence a seat, or a spectator's address (`address_key`: its keyed hash), in one table's
    chat."""
    table = _table(table_id)
    if seat_number is not None:
        seat = table.seats.filter(number=seat_number).first()
        if seat is None:
            raise TableError(_("Ese lugar no existe."))
        target, address_key = str(seat), ""
    elif address_key:
        target = f"un espectador (dirección {address_key[:8]}…)"
    else:
        raise TableError(_("Elige a quién silenciar."))
    if is_muted(table, seat_number=seat_number, address_key=address_key):
        raise TableError(_("Ya está silenciado en esta mesa."))
    with transaction.atomic():
        moderation_record(
            actor=actor, kind=ModerationAction.Kind.MUTE, table=table, target=target,
            reason=reason,
        )
        return ChatMute.objects.create(
            table=table, seat_number=seat_number, address=address_key
        )


def chat_unmute(*, mute_id: int, reason: str, actor: Any) -> None:
    with transaction.atomic():
        mute = ChatMute.objects.select_related("table").filter(pk=mute_id).first()
        if mute is None:
            raise TableError(_("Ese silencio ya no existe."))
        moderation_record(
            actor=actor, kind=ModerationAction.Kind.UNMUTE, table=mute.table, target=str(mute),
            reason=reason,
        )
        mute.delete()


def message_author_mute(*, message_id: int, reason: str, actor: Any) -> ChatMute:
    """Silence whoever wrote a message: their seat, or their address if they were watching."""
    message = ChatMessage.objects.filter(pk=message_id).first()
    if message is None:
        raise TableError(_("Ese mensaje no existe."))
    return chat_mute(
        table_id=message.table_id, seat_number=message.seat_number,
        address_key="" if message.seat_number is not None else message.address,
        reason=reason, actor=actor,
    )
