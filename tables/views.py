"""Thin views: read the request, call one service, answer with the table's fragments.

With htmx, a POST answers with the viewer's fresh fragments (swapped by id) or, when refused,
with the reason in the notice area and a 4xx status. Without JavaScript the same forms work:
the answer is a redirect to the table, the reason shown as a message.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect, HttpResponseClientRefresh

import ocholoco
from chat.views import chat_column
from tables import services
from tables.identity import SESSION_KEY, proven_seat, remember_seat, seat_secret
from tables.models import Seat, Table
from tables.render import render_for_viewer
from tables.selectors import TableSnapshot, away_summary, round_log, tables_of_browser

DECKS = [
    ("clasica", "Clásica"),
    ("moderna", "Moderna"),
    ("cuatro-colores", "Cuatro colores"),
    ("reino", "Del Reino"),
]
DECK_COOKIE = "baraja"
RULE_CHOICES = [("clasico", "Clásico"), ("especiales", "Con especiales")]


def _deck(request: HttpRequest) -> str:
    deck = request.COOKIES.get(DECK_COOKIE, "")
    return deck if deck in dict(DECKS) else DECKS[0][0]


def _set_deck(response: HttpResponseBase, deck: str) -> None:
    if deck in dict(DECKS):
        response.set_cookie(DECK_COOKIE, deck, max_age=60 * 60 * 24 * 365, samesite="Lax")


def _notice(message: str, *, error: bool) -> str:
    return render_to_string("tables/table.html#notice", {"message": message, "error": error})


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tables/home.html",
        {
            "decks": DECKS, "deck": _deck(request), "rules": RULE_CHOICES,
            "limits": Table.TurnLimit.choices,
            "has_tables": bool(request.session.get(SESSION_KEY)),
        },
    )


@require_GET
def my_tables(request: HttpRequest) -> HttpResponse:
    """Every table this browser has a seat at, "te toca" first."""
    rows = tables_of_browser(request.session.get(SESSION_KEY, {}))
    return render(request, "tables/my_tables.html", {"rows": rows, "deck": _deck(request)})


@require_GET
def table_away(request: HttpRequest, code: str) -> HttpResponse:
    """'Mientras no estabas': what happened since the version this browser saw last."""
    table = _table_or_404(code)
    since = _int(request.GET.get("desde"))
    lines = away_summary(table, since) if since is not None and since >= 0 else []
    return HttpResponse(render_to_string("tables/table.html#away", {"lines": lines}))


@require_GET
def table_log(request: HttpRequest, code: str) -> HttpResponse:
    """The whole public log of the round, for players and spectators alike."""
    table = _table_or_404(code)
    lines = round_log(TableSnapshot.load(table))
    return HttpResponse(render_to_string("tables/table.html#log", {"lines": lines}))


@require_POST
def table_open(request: HttpRequest) -> HttpResponse:
    rules_key = request.POST.get("rules", "")
    try:
        table, secret = services.table_open(
            rules_key=rules_key, host_name=request.POST.get("name", ""),
            turn_limit=_int(request.POST.get("turn_limit")) or 0,
        )
    except services.TableError as refused:
        context = {
            "decks": DECKS, "deck": request.POST.get("deck") or _deck(request),
            "rules": RULE_CHOICES, "error": refused.message, "limits": Table.TurnLimit.choices,
            "name": request.POST.get("name", "")[:100], "chosen_rules": rules_key,
        }
        return render(request, "tables/home.html", context, status=400)
    remember_seat(request.session, table, secret)
    response = redirect("table", code=table.code)
    _set_deck(response, request.POST.get("deck", ""))
    return response


def _table_or_404(code: str) -> Table:
    return get_object_or_404(Table, code=code)


@require_GET
def table_page(request: HttpRequest, code: str) -> HttpResponse:
    table = Table.objects.filter(code=code).first()
    if table is None:
        return render(request, "tables/missing.html", status=404)
    snapshot = TableSnapshot.load(table)
    seat = proven_seat(request.session, table, snapshot.seats.values())
    return render(
        request,
        "tables/table.html",
        {
            "table": table,
            "deck": _deck(request),
            "decks": DECKS,
            "seat": seat,
            "secret": seat_secret(request.session, table) if seat else "",
            "fragments": render_for_viewer(snapshot, seat, request),
            "rules": ocholoco.PRESETS[table.rules_key],
            "limits": Table.TurnLimit.choices,
            "vapid_public_key": settings.VAPID_PUBLIC_KEY,
            "chat": chat_column(request, table, seat),
        },
    )


def _answer(request: HttpRequest, table: Table, error: str | None = None) -> HttpResponse:
    """The acting viewer's fresh fragments (or the refusal), for htmx or a plain form."""
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect("table", code=table.code)
    if error:
        return HttpResponse(_notice(error, error=True), status=409)
    table.refresh_from_db()
    snapshot = TableSnapshot.load(table)
    seat = proven_seat(request.session, table, snapshot.seats.values())
    return HttpResponse(render_for_viewer(snapshot, seat, request) + _notice("", error=False))


def _act(
    request: HttpRequest,
    code: str,
    action: Callable[[Table, str | None], object],
    *,
    reload: bool = False,
) -> HttpResponse:
    """Run one service for this browser; `reload` when its seat changed (its socket must too)."""
    table = _table_or_404(code)
    try:
        action(table, seat_secret(request.session, table))
    except services.TableError as refused:
        return _answer(request, table, refused.message)
    if reload and request.htmx:
        return HttpResponseClientRefresh()
    return _answer(request, table)


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except ValueError:
        return -1  # never a real version or seat: the service refuses it


@require_POST
def seat_claim(request: HttpRequest, code: str) -> HttpResponse:
    def claim(table: Table, secret: str | None) -> None:
        _, new_secret = services.seat_claim(
            table_id=table.pk, name=request.POST.get("name", ""), secret=secret
        )
        remember_seat(request.session, table, new_secret)

    return _act(request, code, claim, reload=True)


@require_POST
def robot_add(request: HttpRequest, code: str) -> HttpResponse:
    return _act(
        request, code,
        lambda table, secret: services.seat_add_robot(
            table_id=table.pk, secret=secret,
            level=request.POST.get("level", Seat.Level.NORMAL),
            number=_int(request.POST.get("number")),
        ),
    )


@require_POST
def robot_remove(request: HttpRequest, code: str) -> HttpResponse:
    number = _int(request.POST.get("number"))
    return _act(
        request, code,
        lambda table, secret: services.seat_remove_robot(
            table_id=table.pk, secret=secret, number=-1 if number is None else number
        ),
    )




def _at_version(service: Callable[..., object]) -> Callable[[HttpRequest, str], HttpResponse]:
    """A view for a service that acts at the table version the page showed (EMPEZAR LA
    PARTIDA, SIGUIENTE RONDA, REVANCHA): a stale click is refused."""

    @require_POST
    def view(request: HttpRequest, code: str) -> HttpResponse:
        return _act(
            request, code,
            lambda table, secret: service(
                table_id=table.pk, secret=secret, version=_int(request.POST.get("version"))
            ),
        )

    return view


match_start = _at_version(services.match_start)
round_next = _at_version(services.round_next)
match_rematch = _at_version(services.match_rematch)


@require_POST
def move_play(request: HttpRequest, code: str) -> HttpResponse:
    # A move must name the version it was made against: without one it is refused as stale.
    version = _int(request.POST.get("version"))
    return _act(
        request, code,
        lambda table, secret: services.table_play_move(
            table_id=table.pk, secret=secret, move=request.POST.get("move", ""),
            version=-1 if version is None else version,
        ),
    )






@require_POST
def seat_abandon(request: HttpRequest, code: str) -> HttpResponse:
    return _act(
        request, code,
        lambda table, secret: services.seat_abandon(table_id=table.pk, secret=secret),
        reload=True,
    )


@require_POST
def turn_limit_set(request: HttpRequest, code: str) -> HttpResponse:
    return _act(
        request, code,
        lambda table, secret: services.table_set_turn_limit(
            table_id=table.pk, secret=secret, seconds=_int(request.POST.get("seconds")) or 0
        ),
    )


@require_POST
def seat_come_back(request: HttpRequest, code: str) -> HttpResponse:
    return _act(
        request, code,
        lambda table, secret: services.seat_come_back(table_id=table.pk, secret=secret),
    )


@require_POST
def link_renew(request: HttpRequest, code: str) -> HttpResponse:
    table = _table_or_404(code)
    try:
        table = services.table_renew_link(
            table_id=table.pk, secret=seat_secret(request.session, table)
        )
    except services.TableError as refused:
        return _answer(request, table, refused.message)
    url = reverse("table", kwargs={"code": table.code})
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@require_POST
def push_subscribe(request: HttpRequest, code: str) -> HttpResponse:
    """The browser's push subscription (JSON from PushManager.subscribe) for its seat."""
    table = _table_or_404(code)
    try:
        subscription = json.loads(request.body or b"{}")
    except ValueError:
        subscription = None
    try:
        services.push_subscribe(
            table_id=table.pk, secret=seat_secret(request.session, table),
            subscription=subscription,
        )
    except services.TableError as refused:
        return JsonResponse({"error": refused.message}, status=400)
    return JsonResponse({"ok": True, "message": "Listo: te avisaremos cuando te toque."})


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, served from the site's root so that its scope is the whole site."""
    response = render(request, "sw.js", content_type="text/javascript")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    return render(request, "manifest.webmanifest", content_type="application/manifest+json")


@require_GET
def seat_return(request: HttpRequest, secret: str) -> HttpResponse:
    """'Volver a mi lugar': this browser takes the seat the private link belongs to."""
    try:
        seat = services.seat_reclaim(secret=secret)
    except services.TableError as refused:
        return render(request, "tables/missing.html", {"message": refused.message}, status=404)
    remember_seat(request.session, seat.table, secret)
    return redirect("table", code=seat.table.code)


@require_POST
def deck_choose(request: HttpRequest) -> HttpResponse:
    """A viewer's deck design: a cookie, shown as a class on the page root."""
    deck = request.POST.get("deck", "")
    if deck not in dict(DECKS):
        return HttpResponse(_notice("Esa baraja no existe.", error=True), status=400)
    back = request.POST.get("next", "/")
    response: HttpResponseBase = (
        HttpResponse(status=204) if request.htmx
        else redirect(back if back.startswith("/") and not back.startswith("//") else "/")
    )
    _set_deck(response, deck)
    return response
