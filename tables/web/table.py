"""The table page and every post made at it: read the request, call one service, answer with
the table's fragments.

With htmx, a POST answers with the viewer's fresh fragments (swapped by id) or, when refused,
with the reason in the notice area and a 4xx status. Without JavaScript the same forms work:
the answer is a redirect to the table, the reason shown as a message.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

import ocholoco
from tables.audiences import wording
from tables.audiences.render import render_board, render_panel
from tables.audiences.visible import audience_contexts
from tables.changes import services
from tables.invitation.preview import invitation_meta, invitation_preview
from tables.live import turn_alerts
from tables.live.frames import frames_newer, frames_of
from tables.metrics import MOVE_POST_TO_PUSH, post_refused
from tables.models import Seat, Table
from tables.plug import page_parts_context
from tables.state.lookup import table_by_code, table_or_404, table_ref_or_404
from tables.state.refusal import TableError
from tables.state.seat_secrets import page_code, proven_seat, remember_seat, seat_secret
from tables.state.snapshot import TableSnapshot
from tables.web.deck import DECK_PREVIEW, DECKS
from tables.web.error_pages import notice_fragment
from tables.web.invitation import link_previews
from tables.web.params import number_or_none
from tables.web.rate_limits import per_address


def _page_url(request: HttpRequest, table: Table, code: str) -> str:
    return reverse("table", kwargs={"code": page_code(request.session, table, code)})


def _socket_url(code: str) -> str:
    """The page's socket, which gets the table's pushes in the page's language (a page in the
    site's default language names none)."""
    language = translation.get_language()
    url = f"/ws/mesa/{code}/"
    return url if language == settings.LANGUAGE_CODE else f"{url}?lang={language}"


@require_GET
@link_previews
def table_page(request: HttpRequest, code: str) -> HttpResponse:
    table = table_by_code(code)
    if table is None:
        return render(request, "tables/missing.html", status=404)
    snapshot = TableSnapshot.load(table)
    seat = proven_seat(request.session, table, snapshot.seats.values())
    if seat and code != table.player_code:
        # A seated browser keeps the players' link, which a new invitation leaves alone.
        return redirect("table", code=table.player_code)
    contexts = audience_contexts(snapshot, [seat] if seat else [])
    return render(
        request,
        "tables/table.html",
        {
            "table": table,
            "code": code,
            "socket_url": _socket_url(code),
            "decks": DECKS,
            "preview_cards": DECK_PREVIEW,
            "seat": seat,
            "secret": seat_secret(request.session, table) if seat else "",
            "fragments": (
                render_board(contexts.board, request)
                + render_panel(contexts.panels[seat.number if seat else None], request)
            ),
            "rules": table.rules,
            "rules_name": wording.rules_name(table.rules),
            "rules_sentences": wording.rules_sentences(table.rules),
            "preset_keys": ocholoco.PRESETS.keys(),
            "limits": Table.TurnLimit.choices,
            "vapid_public_key": settings.VAPID_PUBLIC_KEY,
            "release": settings.RELEASE,
            **page_parts_context(request, table, seat),
            "meta": invitation_meta(request, table, code, invitation_preview(snapshot)),
        },
    )


def _answer(
    request: HttpRequest, table: Table, code: str, error: str | None = None, note: str = ""
) -> HttpResponse:
    """The acting viewer's fresh fragments (or the refusal, or a `note`), for htmx or a plain
    form; without htmx, a redirect to the viewer's page (`code`: the link it came by).

    After a change, the frames its publication rendered are the answer (`frames_of`): it
    costs no second render, and it is the same bytes the table's pages were pushed.
    """
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect(_page_url(request, table, code))
    if error:
        return HttpResponse(notice_fragment(error, error=True), status=409)
    # `table` was read before the change: frames newer than it are the change's (its
    # publication kept them); else (no change, or another process's) it is read again.
    language = translation.get_language()  # the request's (LocaleMiddleware)
    frames = frames_newer(table.pk, table.version, language) or frames_of(
        Table.objects.get(pk=table.pk), language
    )
    html = frames.page_html(frames.audience_of(seat_secret(request.session, table)))
    return HttpResponse(html + notice_fragment(note, error=False))


def _act(
    request: HttpRequest,
    code: str,
    action: Callable[[Table, str | None], object],
    *,
    reload: bool = False,
) -> HttpResponse:
    """Run one service for this browser; `reload` when its seat changed (its socket must too)."""
    table = table_ref_or_404(code)
    try:
        action(table, seat_secret(request.session, table))
    except TableError as refused:
        post_refused(refused.reason)
        return _answer(request, table, code, refused.message)
    if reload and request.htmx:
        # The page's link may change with the seat (the players' own, or the invitation).
        return HttpResponseClientRedirect(_page_url(request, table, code))
    return _answer(request, table, code)




@require_POST
@per_address("seat_claim")
def seat_claim(request: HttpRequest, code: str) -> HttpResponse:
    def claim(table: Table, secret: str | None) -> None:
        _, new_secret = services.seat_claim(
            table_id=table.pk, name=request.POST.get("name", ""), secret=secret,
            invitation=code,
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
            number=number_or_none(request.POST.get("number")),
        ),
    )


@require_POST
def robot_remove(request: HttpRequest, code: str) -> HttpResponse:
    number = number_or_none(request.POST.get("number"))
    return _act(
        request, code,
        lambda table, secret: services.seat_remove_robot(
            table_id=table.pk, secret=secret, number=-1 if number is None else number
        ),
    )


def _posted_move(request: HttpRequest) -> str:
    """The move posted; with "¡Última carta!" ticked, a play says it (notation "5H!")."""
    move = request.POST.get("move", "")
    announce = request.POST.get("announce") and move not in ("draw", "pass", "catch")
    return move + "!" if announce and not move.endswith("!") else move


# A table version is a count of changes: more digits than this is no version at all.
VERSION_DIGITS = 9


def _posted_version(request: HttpRequest) -> int:
    """The table version the page showed, or a refusal that says what is wrong with it."""
    posted = request.POST.get("version", "").strip()
    if not posted:
        raise TableError(
            "Falta la versión de la mesa que viste. Recarga la página y vuelve a intentarlo."
        )
    if not posted.isascii() or not posted.isdigit() or len(posted) > VERSION_DIGITS:
        raise TableError(
            "La versión de la mesa enviada no es válida. Recarga la página y vuelve a intentarlo."
        )
    return int(posted)


def _at_version(service: Callable[..., object]) -> Callable[[HttpRequest, str], HttpResponse]:
    """A view for a service that acts at the table version the page showed (EMPEZAR LA
    PARTIDA, SIGUIENTE RONDA, REVANCHA): a stale click is refused."""

    @require_POST
    def view(request: HttpRequest, code: str) -> HttpResponse:
        return _act(
            request, code,
            lambda table, secret: service(
                table_id=table.pk, secret=secret, version=_posted_version(request)
            ),
        )

    return view


match_start = _at_version(services.match_start)
round_next = _at_version(services.round_next)
match_rematch = _at_version(services.match_rematch)


@require_POST
def move_play(request: HttpRequest, code: str) -> HttpResponse:
    """Play; the answer says how long the server took (`Server-Timing`: the move, applied and
    published, and the whole view), so a slow answer can be told from a slow network. A move
    made is observed from here to its frames handed to the channel layer (they are, when the
    service returns: its publication runs on the commit)."""
    started = time.perf_counter()
    move = 0.0

    def play(table: Table, secret: str | None) -> None:
        nonlocal move
        begun = time.perf_counter()
        try:
            services.table_play_move(
                table_id=table.pk, secret=secret, move=_posted_move(request),
                version=_posted_version(request),
            )
            MOVE_POST_TO_PUSH.observe(time.perf_counter() - started)
        finally:
            move = time.perf_counter() - begun

    response = _act(request, code, play)
    view = time.perf_counter() - started
    response["Server-Timing"] = f"move;dur={move * 1000:.1f}, view;dur={view * 1000:.1f}"
    return response


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
            table_id=table.pk, secret=secret,
            seconds=number_or_none(request.POST.get("seconds")) or 0,
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
    """A new invitation: the players' pages stay as they are, the menu shows the new link."""
    table = table_or_404(code)
    try:
        table = services.table_renew_link(
            table_id=table.pk, secret=seat_secret(request.session, table)
        )
    except TableError as refused:
        post_refused(refused.reason)
        return _answer(request, table, code, refused.message)
    note = "Listo: el enlace de invitación es nuevo y el anterior ya no sirve."
    if not request.htmx:
        messages.success(request, note)
    return _answer(request, table, code, note=note)


@require_POST
def push_subscribe(request: HttpRequest, code: str) -> HttpResponse:
    """The browser's push subscription (JSON from PushManager.subscribe) for its seat."""
    table = table_or_404(code)
    try:
        subscription = json.loads(request.body or b"{}")
    except ValueError:
        subscription = None
    try:
        turn_alerts.push_subscribe(
            table_id=table.pk, secret=seat_secret(request.session, table),
            subscription=subscription,
        )
    except TableError as refused:
        post_refused(refused.reason)
        return JsonResponse({"error": refused.message}, status=400)
    return JsonResponse({"ok": True, "message": "Listo: te avisaremos cuando te toque."})


@require_GET
def seat_return(request: HttpRequest, secret: str) -> HttpResponse:
    """'Volver a mi lugar': this browser takes the seat the private link belongs to."""
    try:
        seat = services.seat_reclaim(secret=secret)
    except TableError as refused:
        return render(request, "tables/missing.html", {"message": refused.message}, status=404)
    remember_seat(request.session, seat.table, secret)
    return redirect("table", code=seat.table.player_code)
