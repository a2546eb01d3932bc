"""Chat moderation in the Django admin: messages, mutes and the record of every action, and
on a table's admin page a link to its messages and a form to mute a seat.

Nothing here writes to the database itself: every action calls a service (the same ones
the game uses), which checks it, records who did it and why, and publishes it.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.urls import reverse

from chat import services
from chat.models import ChatMessage, ChatMute, ModerationAction
from tables.admin import ReadOnlyAdmin, ReasonActionForm, moderate
from tables.plug import SeatAction, TableLink, seat_action_register, table_link_register


class SpectatorFilter(admin.SimpleListFilter):
    title = "quién escribe"
    parameter_name = "quien"

    def lookups(self, request, model_admin):
        return [("jugador", "Jugadores"), ("mirando", "Mirando")]

    def queryset(self, request, queryset):
        if self.value() in ("jugador", "mirando"):
            return queryset.filter(seat_number__isnull=self.value() == "mirando")
        return queryset


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "table", "author_name", "who", "text", "hidden"]
    list_display_links = ["created_at"]
    list_filter = ["hidden", SpectatorFilter, ("table", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["text", "author_name", "table__code"]
    list_select_related = ["table"]
    action_form = ReasonActionForm
    actions = ["hide", "unhide", "mute_author"]

    @admin.display(description="como")
    def who(self, message: ChatMessage) -> str:
        return "mirando" if message.is_spectator else f"lugar {message.seat_number + 1}"

    @admin.action(description="Ocultar los mensajes elegidos", permissions=["change"])
    def hide(self, request, queryset) -> None:
        moderate(
            self, request, queryset, done="Mensajes ocultos",
            action=lambda m, reason: services.message_hide(
                message_id=m.pk, hidden=True, reason=reason, actor=request.user
            ),
        )

    @admin.action(description="Mostrar otra vez los mensajes elegidos", permissions=["change"])
    def unhide(self, request, queryset) -> None:
        moderate(
            self, request, queryset, done="Mensajes visibles otra vez",
            action=lambda m, reason: services.message_hide(
                message_id=m.pk, hidden=False, reason=reason, actor=request.user
            ),
        )

    @admin.action(description="Silenciar a quien los escribió, en esa mesa", permissions=["change"])
    def mute_author(self, request, queryset) -> None:
        moderate(
            self, request, queryset, done="Silenciados",
            action=lambda m, reason: services.message_author_mute(
                message_id=m.pk, reason=reason, actor=request.user
            ),
        )


@admin.register(ChatMute)
class ChatMuteAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "table", "seat_number", "address"]
    list_filter = [("table", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["table__code", "address"]
    action_form = ReasonActionForm
    actions = ["unmute"]

    @admin.action(description="Quitar el silencio", permissions=["change"])
    def unmute(self, request, queryset) -> None:
        moderate(
            self, request, queryset, done="Ya pueden escribir",
            action=lambda mute, reason: services.chat_unmute(
                mute_id=mute.pk, reason=reason, actor=request.user
            ),
        )


@admin.register(ModerationAction)
class ModerationActionAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "actor", "kind", "table", "target", "reason"]
    list_filter = ["kind", "actor"]
    search_fields = ["target", "reason", "table__code", "actor__username"]
    list_select_related = ["actor", "table"]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _seat_mute(*, table_id: int, number: int, reason: str, actor: Any) -> object:
    return services.chat_mute(table_id=table_id, seat_number=number, reason=reason, actor=actor)


def _messages_url(table_id: int) -> str:
    return f"{reverse('admin:chat_chatmessage_changelist')}?table__id__exact={table_id}"


seat_action_register(SeatAction("mute", "Silenciar en el chat", _seat_mute))
table_link_register(TableLink("Mensajes del chat de esta mesa", _messages_url))
