"""The site's own pages: the home page (ABRIR MESA), the full rules, "Mis mesas", the service
worker and the manifest; and the post that opens a table."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.views.decorators.http import require_GET, require_POST

import ocholoco
from tables.audiences import wording
from tables.changes import services
from tables.metrics import post_refused
from tables.models import Table
from tables.state.lookup import tables_of_browser
from tables.state.refusal import TableError
from tables.state.seat_secrets import SESSION_KEY, remember_seat
from tables.web.deck import DECK_PREVIEW, DECKS, deck_remember
from tables.web.params import number_or_none
from tables.web.rate_limits import per_address

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
    jokers = number_or_none(post.get("jokers")) or 0
    ranks = [*ocholoco.RANKS, "JK"] if jokers else ocholoco.RANKS
    effects = {rank: post[f"effect_{rank}"] for rank in ranks if post.get(f"effect_{rank}")}
    options = {
        "key": HOUSE,
        "label": "Reglas de la casa",
        "max_players": number_or_none(post.get("max_players")),
        "hand_size": number_or_none(post.get("hand_size")),
        "hand_size_two": number_or_none(post.get("hand_size_two")),
        "wild_rank": post.get("wild_rank", "8"),
        "effects": effects,
        "jokers": jokers,
        "draw_policy": post.get("draw_policy"),
        "empty_stock": post.get("empty_stock"),
        "scoring": post.get("scoring"),
        "target": number_or_none(post.get("target")) or 0,
        "announce_fine": 2 if post.get("announce") else 0,
        "two_decks_from": number_or_none(post.get("two_decks_from")) or 0,
    }
    return {key: value for key, value in options.items() if value is not None}


def _home_context(request: HttpRequest, **extra: object) -> dict:
    return {
        "decks": DECKS, "preview_cards": DECK_PREVIEW,
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
    return render(request, "tables/my_tables.html", {"rows": rows})


@require_POST
@per_address("table_open")
def table_open(request: HttpRequest) -> HttpResponse:
    rules_key = request.POST.get("rules", "")
    try:
        table, secret = services.table_open(
            rules_key=rules_key, host_name=request.POST.get("name", ""),
            turn_limit=number_or_none(request.POST.get("turn_limit")) or 0,
            custom_rules=_house_options(request.POST) if rules_key == HOUSE else None,
            language=translation.get_language(),
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
    deck_remember(response, request.POST.get("deck", ""))
    return response


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
