"""Thin views: read the request, call one service, answer with the table's fragments.

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
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

import ocholoco
from tables.audiences import wording
from tables.audiences.cards import card_info
from tables.audiences.narration import away_summary, round_log, table_log_lines
from tables.audiences.render import render_for_viewer
from tables.audiences.round_history import (
    finished_round,
    round_fairness,
    round_proof,
    round_replay,
    table_history,
)
from tables.changes import services
from tables.invitation.preview import invitation_meta, invitation_preview
from tables.live import turn_alerts
from tables.live.frames import latest_frames
from tables.metrics import MOVE_POST_TO_PUSH, post_refused
from tables.models import Seat, Table, TableRound
from tables.plug import page_parts_context
from tables.state.lookup import table_by_code, table_or_404, table_ref_or_404, tables_of_browser
from tables.state.refusal import TableError
from tables.state.seat_secrets import (
    SESSION_KEY,
    page_code,
    proven_seat,
    remember_seat,
    seat_secret,
)
from tables.state.snapshot import TableSnapshot
from tables.web.error_pages import notice_fragment
from tables.web.invitation import link_previews
from tables.web.rate_limits import per_address

DECKS = [
    ("clasica", "Clásica"),
    ("moderna", "Moderna"),
    ("cuatro-colores", "Cuatro colores"),
    ("reino", "Del Reino"),
]
DECK_COOKIE = "baraja"
# What the deck choices show of each design: a back, a number card's pips, a figure. Samples,
# not cards of the game: they have no `data-card`.
DECK_PREVIEW = [{**card_info(ocholoco.Card.parse(code)), "code": ""} for code in ("7D", "KC")]
HOUSE = "casa"
# What a rank can do in house rules: the engine's `NAMED_EFFECTS`, as the form offers them.
RANK_EFFECT_LABELS = [
    ("", "nada"), ("skip", "salta al siguiente"), ("reverse", "invierte el sentido"),
    ("draw2", "roba 2 (se acumula)"), ("draw3", "roba 3 (se acumula)"),
    ("draw4", "roba 4 (no se acumula)"), ("copy", "copia la carta de abajo (solo con dos)"),
]


# ABRIR MESA's one line on what sets each preset apart (the rules card tells the whole).
PRESET_NOTES = {
    "clasico": "Solo el 8 es especial.",
    "especiales": "El 2 hace robar, la reina salta y el as invierte.",
    "libro": "Se roba una sola carta y el descarte se vuelve a barajar; gana quien suma menos.",
    "anuncio": "Con especiales y hasta 8 jugadores: di «¡Última carta!» o roba 2.",
    "chileno": "Ocho cartas y dos comodines (roban 4); el 2 y el 3 hacen robar, el 7 salta.",
}


def _rule_choices() -> list[tuple[str, str, str]]:
    """ABRIR MESA's rule sets: the presets (Clásico and Con especiales first), then house rules."""
    presets = ocholoco.PRESETS.items()
    return [(key, wording.rules_name(rules), PRESET_NOTES.get(key, "")) for key, rules in presets]


def _house_options(post: dict) -> dict:
    """The house rules form as `ocholoco.ruleset_from_options` options (it validates them)."""
    jokers = _int(post.get("jokers")) or 0
    ranks = [*ocholoco.RANKS, "JK"] if jokers else ocholoco.RANKS
    effects = {rank: post[f"effect_{rank}"] for rank in ranks if post.get(f"effect_{rank}")}
    options = {
        "key": HOUSE,
        "label": "Reglas de la casa",
        "max_players": _int(post.get("max_players")),
        "hand_size": _int(post.get("hand_size")),
        "hand_size_two": _int(post.get("hand_size_two")),
        "wild_rank": post.get("wild_rank", "8"),
        "effects": effects,
        "jokers": jokers,
        "draw_policy": post.get("draw_policy"),
        "empty_stock": post.get("empty_stock"),
        "scoring": post.get("scoring"),
        "target": _int(post.get("target")) or 0,
        "announce_fine": 2 if post.get("announce") else 0,
        "two_decks_from": _int(post.get("two_decks_from")) or 0,
    }
    return {key: value for key, value in options.items() if value is not None}


def _deck(request: HttpRequest) -> str:
    deck = request.COOKIES.get(DECK_COOKIE, "")
    return deck if deck in dict(DECKS) else DECKS[0][0]


def _set_deck(response: HttpResponseBase, deck: str) -> None:
    if deck in dict(DECKS):
        response.set_cookie(DECK_COOKIE, deck, max_age=60 * 60 * 24 * 365, samesite="Lax")


def _home_context(request: HttpRequest, **extra: object) -> dict:
    return {
        "decks": DECKS, "deck": _deck(request), "preview_cards": DECK_PREVIEW,
        "rules": _rule_choices(),
        "limits": Table.TurnLimit.choices, "has_tables": bool(request.session.get(SESSION_KEY)),
        "ranks": ocholoco.RANKS, "rank_effects": RANK_EFFECT_LABELS, "house": HOUSE,
        **extra,
    }


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "tables/home.html", _home_context(request))


@require_GET
def rules_page(request: HttpRequest) -> HttpResponse:
    """Reglas completas: the game, the special cards, the controls and every rule set, told
    from the rule sets the engine plays (`ocholoco.describe`), so they cannot disagree."""
    clasico, especiales = ocholoco.PRESETS["clasico"], ocholoco.PRESETS["especiales"]
    players = range(clasico.min_players, clasico.max_players + 1)
    return render(
        request,
        "tables/rules.html",
        {
            "deck": _deck(request),
            "clasico": clasico,
            "hand": clasico.hand_size(clasico.max_players),
            "hand_two": clasico.hand_size(2),
            "targets": [(n, clasico.target(n)) for n in players],
            "values": wording.card_values(clasico),
            "specials": [wording.effect_sentence(r, e) for r, e in especiales.effects],
            "presets": [
                (
                    key,
                    wording.rules_name(rules),
                    PRESET_NOTES.get(key, ""),
                    wording.rules_sentences(rules),
                )
                for key, rules in ocholoco.PRESETS.items()
            ],
            "rank_effects": RANK_EFFECT_LABELS[1:],
        },
    )


@require_GET
def my_tables(request: HttpRequest) -> HttpResponse:
    """Every table this browser has a seat at, "te toca" first."""
    rows = tables_of_browser(request.session.get(SESSION_KEY, {}))
    for row in rows:
        row["rules_name"] = wording.rules_name(row["rules"])
    return render(request, "tables/my_tables.html", {"rows": rows, "deck": _deck(request)})


@require_GET
def table_away(request: HttpRequest, code: str) -> HttpResponse:
    """'Mientras no estabas': what happened since the version this browser saw last."""
    table = table_or_404(code)
    since = _int(request.GET.get("desde"))
    lines = away_summary(table, since) if since is not None and since >= 0 else []
    return HttpResponse(render_to_string("tables/table.html#away", {"lines": lines}))


@require_GET
def table_log(request: HttpRequest, code: str) -> HttpResponse:
    """The whole public log of the round, for players and spectators alike."""
    table = table_or_404(code)
    lines = round_log(TableSnapshot.load(table))
    context = {"lines": lines, "table": table, "proof": round_proof(table)}
    return HttpResponse(render_to_string("tables/table.html#log", context))


@require_GET
def table_log_since(request: HttpRequest, code: str) -> HttpResponse:
    """The game log's lines after version `desde`, for a page that missed some (it was away,
    or reconnected): the same lines the board's pushes carry, public to anyone at the table."""
    table = table_or_404(code)
    since = _int(request.GET.get("desde"))
    if since is None or since < 0:
        return HttpResponse("Falta desde qué versión leer las jugadas.", status=400)
    lines = table_log_lines(table, min(since, table.version))
    context = {"log_feed": lines, "version": table.version}
    return HttpResponse(render_to_string("tables/table.html#log_feed", context))


# --- Finished rounds: replay, fairness, history (anyone with the table's link) ----------------

ROUND_NOT_SHOWN = (
    "Esa ronda no existe, su enlace cambió o todavía se está jugando: se puede ver cuando termina."
)


def _finished_round(code: str, round_id: int) -> TableRound | None:
    """The finished round of the table with this link, or None (the page says why not)."""
    table = table_by_code(code)
    return finished_round(table, round_id) if table is not None else None


def _round_not_shown(request: HttpRequest) -> HttpResponse:
    return render(request, "tables/missing.html", {"message": ROUND_NOT_SHOWN}, status=404)


@require_GET
def round_replay_page(request: HttpRequest, code: str, round_id: int) -> HttpResponse:
    """Ver la ronda: a finished round, move by move (`?jugada=N`), every hand face up."""
    record = _finished_round(code, round_id)
    if record is None:
        return _round_not_shown(request)
    step = _int(request.GET.get("jugada"))
    if step is not None and step < 0:
        message = "Esa jugada no existe: las jugadas se cuentan desde 0, el reparto."
        return render(request, "tables/missing.html", {"message": message}, status=400)
    context = {**round_replay(record, step or 0), "deck": _deck(request), "code": code}
    if request.htmx:
        return render(request, "tables/replay.html#frame", context)
    return render(request, "tables/replay.html", context)


@require_GET
def round_fairness_page(request: HttpRequest, code: str, round_id: int) -> HttpResponse:
    """¿Fue justo el reparto?: how to check a finished round's deal, and the check itself."""
    record = _finished_round(code, round_id)
    if record is None:
        return _round_not_shown(request)
    context = {**round_fairness(record), "deck": _deck(request), "code": code}
    return render(request, "tables/fairness.html", context)


@require_GET
def table_history_page(request: HttpRequest, code: str) -> HttpResponse:
    """Every round of every match played at the table, with its winner, points and replay."""
    table = table_by_code(code)
    if table is None:
        return render(request, "tables/missing.html", status=404)
    context = {
        "table": table, "matches": table_history(table), "deck": _deck(request), "code": code,
    }
    return render(request, "tables/history.html", context)


@require_POST
@per_address("table_open")
def table_open(request: HttpRequest) -> HttpResponse:
    rules_key = request.POST.get("rules", "")
    try:
        table, secret = services.table_open(
            rules_key=rules_key, host_name=request.POST.get("name", ""),
            turn_limit=_int(request.POST.get("turn_limit")) or 0,
            custom_rules=_house_options(request.POST) if rules_key == HOUSE else None,
        )
    except TableError as refused:
        post_refused(refused.reason)
        context = _home_context(
            request, error=refused.message, name=request.POST.get("name", "")[:100],
            chosen_rules=rules_key,
        )
        return render(request, "tables/home.html", context, status=400)
    remember_seat(request.session, table, secret)
    response = redirect("table", code=table.player_code)
    _set_deck(response, request.POST.get("deck", ""))
    return response


def _page_url(request: HttpRequest, table: Table, code: str) -> str:
    return reverse("table", kwargs={"code": page_code(request.session, table, code)})


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
    return render(
        request,
        "tables/table.html",
        {
            "table": table,
            "code": code,
            "deck": _deck(request),
            "decks": DECKS,
            "preview_cards": DECK_PREVIEW,
            "seat": seat,
            "secret": seat_secret(request.session, table) if seat else "",
            "fragments": render_for_viewer(snapshot, seat, request),
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

    After a change, the frames its publication rendered are reused (`latest_frames`): the
    answer costs no second render. A table changed elsewhere is read and rendered here.
    """
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect(_page_url(request, table, code))
    if error:
        return HttpResponse(notice_fragment(error, error=True), status=409)
    frames = latest_frames(table.pk)
    if frames is not None and frames.version > table.version:
        audience = frames.audience_of(seat_secret(request.session, table))
        html = frames.page_html(audience)
    else:
        table = Table.objects.get(pk=table.pk)  # whole: the post read only its id and links
        snapshot = TableSnapshot.load(table)
        seat = proven_seat(request.session, table, snapshot.seats.values())
        html = render_for_viewer(snapshot, seat, request)
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


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except ValueError:
        return -1  # never a real version or seat: the service refuses it


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
    except TableError as refused:
        return render(request, "tables/missing.html", {"message": refused.message}, status=404)
    remember_seat(request.session, seat.table, secret)
    return redirect("table", code=seat.table.player_code)


@require_POST
def deck_choose(request: HttpRequest) -> HttpResponse:
    """A viewer's deck design: a cookie, shown as a class on the page root."""
    deck = request.POST.get("deck", "")
    if deck not in dict(DECKS):
        return HttpResponse(notice_fragment("Esa baraja no existe.", error=True), status=400)
    back = request.POST.get("next", "/")
    response: HttpResponseBase = (
        HttpResponse(status=204) if request.htmx
        else redirect(back if back.startswith("/") and not back.startswith("//") else "/")
    )
    _set_deck(response, deck)
    return response
