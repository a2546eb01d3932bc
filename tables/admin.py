"""Tables in the Django admin, for moderation: who plays where, the move log, and actions.

Staff only (the admin site asks for a staff login). Every action goes through a service in
`tables.changes.moderation` (closing a table, a robot for a person, a new name), or of the app that
added it to a table's page (`seat_action_register`, `table_link_register`: the chat's mute and
its messages), so it is checked, logged, versioned and published like a move, and recorded
with its reason. The helpers the apps' admins share are here too (`ReadOnlyAdmin`, the reason
in the action bar, `moderate`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.views.decorators.http import require_POST

import ocholoco
from tables import plug
from tables.changes import moderation
from tables.models import Seat, Table, TableEvent
from tables.state.lookup import archived_kept_until
from tables.state.refusal import TableError


def retention_said() -> str:
    """The retention rule for archived tables, as the admin's list of tables says it."""
    days = settings.ARCHIVED_TABLES_KEEP_DAYS
    if days <= 0:
        return "Las mesas archivadas se guardan para siempre (ARCHIVED_TABLES_KEEP_DAYS=0)."
    return (
        f"Las mesas archivadas se guardan {days} días (ARCHIVED_TABLES_KEEP_DAYS) y después se "
        "borran con sus rondas, su registro y su chat. Las demás no se borran nunca."
    )


class ReasonActionForm(ActionForm):
    """The admin's action bar, with the reason every moderation action needs."""

    reason = forms.CharField(
        label="Motivo", required=False, max_length=moderation.MODERATION_REASON_MAX
    )


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
        # Django's documented Model _meta API: every column of the row, none editable.
        fields = self.model._meta.get_fields()
        return [f.name for f in fields if f.concrete and not f.many_to_many]

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        extra_context = {
            **(extra_context or {}),
            "show_save": False, "show_save_and_continue": False,
            "show_save_and_add_another": False, "show_delete": False,
        }
        return super().changeform_view(request, object_id, form_url, extra_context)


class SeatInline(admin.TabularInline):
    model = Seat
    fields = ["number", "name", "kind", "robot_level", "abandoned", "score", "created_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="puntos")
    def score(self, seat: Seat) -> int | str:
        table = seat.table
        player = table.player_of_seat(seat.number)
        if not table.match_state or player is None:
            return "—"
        return ocholoco.from_json(table.match_state).totals[player]


class TableEventInline(admin.TabularInline):
    model = TableEvent
    fields = ["version", "kind", "seat", "data", "created_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    verbose_name_plural = "registro de jugadas"

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = [
        "code", "status", "rules_key", "players", "robots", "spectators_now", "created_at",
        "last_move_at", "deleted_on",
    ]
    list_filter = ["status", "rules_key"]
    search_fields = ["code", "seats__name"]
    inlines = [SeatInline, TableEventInline]
    action_form = ReasonActionForm
    actions = ["close"]
    change_form_template = "admin/tables/table/change_form.html"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Table]:
        robot = Q(seats__kind=Seat.Kind.ROBOT) | Q(seats__abandoned=True)
        person = Q(seats__kind=Seat.Kind.HUMAN, seats__abandoned=False)
        return super().get_queryset(request).annotate(
            players_count=Count("seats", filter=person, distinct=True),
            robots_count=Count("seats", filter=robot, distinct=True),
            spectators_count=Count(
                "presences", filter=Q(presences__seat_number__isnull=True), distinct=True
            ),
        )

    @admin.display(description="jugadores", ordering="players_count")
    def players(self, table: Table) -> int:
        return table.players_count

    @admin.display(description="robots", ordering="robots_count")
    def robots(self, table: Table) -> int:
        return table.robots_count

    @admin.display(description="mirando ahora", ordering="spectators_count")
    def spectators_now(self, table: Table) -> int:
        return table.spectators_count

    @admin.display(description="se borra")
    def deleted_on(self, table: Table) -> str:
        """When an archived table is deleted, by the retention rule
        (`ARCHIVED_TABLES_KEEP_DAYS`)."""
        until = archived_kept_until(table)
        if until is not None:
            return date_format(timezone.localtime(until), "j M Y")
        if table.status == Table.Status.ARCHIVED:
            return "nunca"
        return "—"

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [*super().get_readonly_fields(request, obj), "deleted_on"]

    def changelist_view(self, request, extra_context=None):
        extra_context = {**(extra_context or {}), "subtitle": retention_said()}
        return super().changelist_view(request, extra_context)

    @admin.action(description="Cerrar las mesas elegidas", permissions=["change"])
    def close(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        moderate(
            self, request, queryset, done="Mesas cerradas",
            action=lambda table, reason: moderation.table_close(
                table_id=table.pk, reason=reason, actor=request.user
            ),
        )

    def get_urls(self):
        view = self.admin_site.admin_view(require_POST(self.moderate_view))
        return [
            path("<int:table_id>/moderar/", view, name="tables_table_moderate"),
            *super().get_urls(),
        ]

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        extra_context = {
            **(extra_context or {}), "moderation_url": None, "table_links": [],
            "seat_actions": list(plug.seat_actions().values()),
        }
        if object_id:
            extra_context["moderation_url"] = reverse(
                "admin:tables_table_moderate", args=[object_id]
            )
            extra_context["table_links"] = [
                (link.label, link.url(int(object_id))) for link in plug.table_links()
            ]
        return super().changeform_view(request, object_id, form_url, extra_context)

    def moderate_view(self, request: HttpRequest, table_id: int) -> HttpResponse:
        """One of the table page's moderation forms: close, robot, rename, or one of the seat
        actions other apps added (mute a seat in the chat)."""
        table = get_object_or_404(Table, pk=table_id)
        if not self.has_change_permission(request, table):
            raise PermissionDenied
        reason, actor = request.POST.get("reason", ""), request.user
        number = request.POST.get("number", "")
        number = int(number) if number.isdigit() else -1
        action = request.POST.get("action")
        try:
            match action:
                case "close":
                    moderation.table_close(table_id=table.pk, reason=reason, actor=actor)
                case "robot":
                    moderation.seat_replace_with_robot(
                        table_id=table.pk, number=number, reason=reason, actor=actor
                    )
                case "rename":
                    moderation.seat_rename(
                        table_id=table.pk, number=number, name=request.POST.get("name", ""),
                        reason=reason, actor=actor,
                    )
                case _ if action in (seat_actions := plug.seat_actions()):
                    seat_actions[action].run(
                        table_id=table.pk, number=number, reason=reason, actor=actor
                    )
                case _:
                    raise TableError("Esa acción no existe.")
        except TableError as refused:
            self.message_user(request, refused.message, messages.ERROR)
        else:
            self.message_user(request, "Hecho.", messages.SUCCESS)
        return HttpResponseRedirect(reverse("admin:tables_table_change", args=[table.pk]))

    def view_on_site(self, table: Table) -> str:
        return reverse("table", kwargs={"code": table.code})
