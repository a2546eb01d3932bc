"""Chat moderation in the Django admin: messages, mutes and the record of every action.

Nothing here writes to the database itself: every action calls a service (the same ones
the game uses), which checks it, records who did it and why, and publishes it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.http import HttpRequest

from chat import services
from chat.models import ChatMessage, ChatMute, ModerationAction
from tables.services import TableError


class ReasonActionForm(ActionForm):
    """The admin's action bar, with the reason every moderation action needs."""

    reason = forms.CharField(label="Motivo", required=False, max_length=services.REASON_MAX)


def moderate(
    modeladmin: admin.ModelAdmin, request: HttpRequest, items: Iterable[Any],
    action: Callable[[Any, str], object], done: str,
) -> None:
    """Run a moderation service on each selected item and tell the moderator how it went."""
    reason = request.POST.get("reason", "")
    count = 0
    for item in items:
        try:
            action(item, reason)
        except TableError as refused:
            modeladmin.message_user(request, f"{item}: {refused.message}", messages.ERROR)
        else:
            count += 1
    if count:
        modeladmin.message_user(request, f"{done}: {count}.", messages.SUCCESS)


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows changed by the services only: no adding, editing or deleting by hand."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [f.name for f in self.model._meta.fields]

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        extra_context = {
            **(extra_context or {}),
            "show_save": False, "show_save_and_continue": False,
            "show_save_and_add_another": False, "show_delete": False,
        }
        return super().changeform_view(request, object_id, form_url, extra_context)


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
