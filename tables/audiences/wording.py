"""The engine's facts in words: the one place that words what `ocholoco` says.

Cards and suits by name, the round's events (`ocholoco.Event`) as each viewer hears them, why
a move or a card is refused (`IllegalMove.reason`, `why_not_playable`), why a rule set cannot
be played (`InvalidRules.reason`), what a rule set says (`ocholoco.rules_facts`) and the rule
sets' names. Spanish is the source language: every sentence is written whole, with named
placeholders, through gettext (a card or a rank with its article is a phrase of its own, so a
translation gives each its gender; a count goes through ngettext). The sentences a move says
are kept per language (asking Django for a translation costs microseconds, and a move's frames
say dozens): a player's name is put in last.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any

from django.utils.text import capfirst
from django.utils.translation import get_language, ngettext, pgettext, pgettext_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

import ocholoco

# --- Lists ------------------------------------------------------------------------------------


def and_list(items: Iterable[str]) -> str:
    """"Ana", "Ana y Beto", "Ana, Beto y Caro"."""
    *rest, last = items
    if not rest:
        return last
    return _("%(items)s y %(last)s") % {"items": ", ".join(rest), "last": last}


def _either(items: Iterable[str]) -> str:
    """"un 8", "un 8 o una jota", "un 8 o una jota o un 2" ("" for none)."""
    said = ""
    for item in items:
        said = _("%(either)s o %(or_)s") % {"either": said, "or_": item} if said else item
    return said


# --- Cards, ranks and suits -------------------------------------------------------------------


_SUITS = {
    "S": _lazy("picas"), "H": _lazy("corazones"), "D": _lazy("diamantes"),
    "C": _lazy("tréboles"), "": _lazy("comodín"),
}  # fmt: skip
# The ranks with a name, bare and with an article (each phrase its own, for its gender);
# a numbered rank is its number ("10", "un 10", "el 10").
_RANKS = {
    "A": _lazy("as"), "J": _lazy("jota"), "Q": _lazy("reina"), "K": _lazy("rey"),
    "JK": _lazy("comodín"),
}  # fmt: skip
_A_RANK = {
    "A": _lazy("un as"), "J": _lazy("una jota"), "Q": _lazy("una reina"), "K": _lazy("un rey"),
    "JK": _lazy("un comodín"),
    # The 8 has a phrase of its own: English says "an 8".
    "8": pgettext_lazy("the rank eight with its article", "un 8"),
}  # fmt: skip
_THE_RANK = {
    "A": _lazy("el as"), "J": _lazy("la jota"), "Q": _lazy("la reina"), "K": _lazy("el rey"),
    "JK": _lazy("el comodín"),
}  # fmt: skip


def suit_name(suit: str) -> str:
    """"S" -> "picas"; the joker's suit ("") -> "comodín"."""
    return str(_SUITS[suit])


def _rank(rank: str) -> str:
    """"Q" -> "reina", "10" -> "10"."""
    return str(_RANKS.get(rank, rank))


def a_rank(rank: str) -> str:
    """"Q" -> "una reina", "8" -> "un 8": as in "juega un 8"."""
    phrase = _A_RANK.get(rank)
    return str(phrase) if phrase is not None else _("un %(rank)s") % {"rank": rank}


def the_rank(rank: str) -> str:
    """"Q" -> "la reina", "8" -> "el 8"."""
    phrase = _THE_RANK.get(rank)
    return str(phrase) if phrase is not None else _("el %(rank)s") % {"rank": rank}


def card_name(card: ocholoco.Card | str) -> str:
    """"10H" -> "10 de corazones", "AS" -> "as de picas", "JK" -> "comodín"."""
    card = ocholoco.Card.parse(card)
    if card.is_joker:
        return _rank(card.rank)
    return pgettext("a card", "%(rank)s de %(suit)s") % {
        "rank": _rank(card.rank), "suit": suit_name(card.suit),
    }  # fmt: skip


def the_card(card: ocholoco.Card) -> str:
    """"QC" -> "la reina de tréboles", "7H" -> "el 7 de corazones", "JK" -> "el comodín"."""
    if card.is_joker:
        return the_rank(card.rank)
    return pgettext("a card with its article", "%(the_rank)s de %(suit)s") % {
        "the_rank": the_rank(card.rank), "suit": suit_name(card.suit),
    }  # fmt: skip


# --- The round's events -----------------------------------------------------------------------


def event_sentence(
    event: ocholoco.Event,
    name_of: Callable[[int], str],
    me: int | None = None,
    *,
    reverses: bool = False,
) -> str:
    """One line of the table's log, e.g. "Ana jugó el 8 de corazones y pidió picas"; told to
    player `me`, their own events are said to them: "Jugaste el 8 de corazones y pediste
    picas". `reverses`: the play turned the direction ("…: cambia el sentido")."""
    mine = me is not None and event.player == me and event.kind in _YOURS
    said = _event(get_language(), event.kind, event.count, event.card, event.suit, mine, reverses)
    return said % {"who": name_of(event.player) if _WHO in said else ""}


_WHO = "%(who)s"


def _escaped(text: str) -> str:
    return text.replace("%", "%%")


@lru_cache(maxsize=4096)
def _event(
    language: str | None,
    kind: str,
    count: int,
    card: ocholoco.Card | None,
    suit: str | None,
    mine: bool,
    reverses: bool,
) -> str:
    """`event_sentence` in `language` (the active one: the cache's key), with its player's
    name still to put in (``%(who)s``; any other ``%`` doubled)."""
    args = {"count": count, "who": _WHO}
    if card is not None:
        args["card"] = _escaped(the_card(card))
    if suit:
        args["suit"] = _escaped(suit_name(suit))
    if mine:
        return _yours(kind, count, bool(suit), reverses) % args
    if kind == "play":
        if reverses:
            return _("%(who)s jugó %(card)s: cambia el sentido") % args
        if suit:
            return _("%(who)s jugó %(card)s y pidió %(suit)s") % args
        return _("%(who)s jugó %(card)s") % args
    if kind == "draw":
        return _draws(language, 1)
    if kind == "penalty":
        return ngettext(
            "%(who)s robó una carta y pierde el turno",
            "%(who)s robó %(count)s cartas y pierde el turno",
            count,
        ) % args
    if kind == "reshuffle":
        return ngettext(
            "Se baraja el descarte: una carta forma el mazo nuevo",
            "Se baraja el descarte: %(count)s cartas forman el mazo nuevo",
            count,
        ) % args
    if kind == "caught":
        return ngettext(
            "%(who)s no dijo «¡Última carta!» y robó una carta",
            "%(who)s no dijo «¡Última carta!» y robó %(count)s cartas",
            count,
        ) % args
    return _EVENTS[kind] % args


_EVENTS = {
    "open": _lazy("Abre la mesa %(card)s"),
    "back": _lazy("Salió %(card)s: vuelve al medio del mazo"),
    "pass": _lazy("%(who)s pasó"),
    "skip": _lazy("%(who)s pierde el turno"),
    "out": _lazy("%(who)s se quedó sin cartas"),
    "blocked": _lazy("La mesa se bloqueó"),
    "announce": _lazy("%(who)s dijo «¡Última carta!»"),
}


# A player's own events, said to them.
_YOURS = frozenset({"play", "draw", "penalty", "pass", "skip", "out", "announce", "caught"})


def _yours(kind: str, count: int, named: bool, reverses: bool) -> str:
    if kind == "play":
        if reverses:
            return _("Jugaste %(card)s: cambia el sentido")
        return _("Jugaste %(card)s y pediste %(suit)s") if named else _("Jugaste %(card)s")
    if kind == "penalty":
        return ngettext(
            "Robaste una carta y pierdes el turno", "Robaste %(count)s cartas y pierdes el turno",
            count,
        )  # fmt: skip
    if kind == "caught":
        return ngettext(
            "No dijiste «¡Última carta!» y robaste una carta",
            "No dijiste «¡Última carta!» y robaste %(count)s cartas",
            count,
        )
    return str(_YOUR_EVENTS[kind])


_YOUR_EVENTS = {
    "draw": _lazy("Robaste una carta"),
    "pass": _lazy("Pasaste"),
    "skip": _lazy("Pierdes el turno"),
    "out": _lazy("Te quedaste sin cartas"),
    "announce": _lazy("Dijiste «¡Última carta!»"),
}


def draws_sentence(who: str, count: int) -> str:
    """"Ana robó una carta", "Ana robó 3 cartas" (draws in a row, told as one)."""
    return _draws(get_language(), count) % {"who": who}


@lru_cache(maxsize=256)
def _draws(language: str | None, count: int) -> str:
    said = ngettext("%(who)s robó una carta", "%(who)s robó %(count)s cartas", count)
    return said % {"who": _WHO, "count": count}


# --- Why not ----------------------------------------------------------------------------------


def reason_sentence(reason: ocholoco.Fact, *, words: bool = False) -> str:
    """Why a move or a card is refused (a `Fact` of `ocholoco.facts.REASONS`), e.g. "Tienes
    que jugar ♥, un 5 o un 8". `words`: the suit by its name, not its symbol (read aloud)."""
    return _reason(get_language(), reason, words)


@lru_cache(maxsize=4096)
def _reason(language: str | None, reason: ocholoco.Fact, words: bool) -> str:
    args = dict(reason.args)
    if "suit" in args:
        args["suit"] = suit_name(args["suit"]) if words else _SYMBOLS[args["suit"]]
    if "wilds" in args:
        args["wilds"] = _either(a_rank(r) for r in args["wilds"])
    if reason.code in ("must_answer_or_draw", "must_follow", "no_suit_to_name"):
        args["a_rank"] = a_rank(args["rank"])
    return _REASONS[reason.code] % args


_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

_REASONS: dict[str, Any] = {
    "round_over": _lazy("La ronda terminó"),
    "not_your_turn": _lazy("No es tu turno"),
    "not_in_hand": _lazy("Esa carta no está en tu mano"),
    "only_drawn_card": _lazy("Después de robar solo puedes jugar la carta que robaste, o pasar"),
    "must_draw": _lazy("Tienes que robar %(count)s"),
    "must_answer_or_draw": _lazy("Tienes que responder con %(a_rank)s o robar %(count)s"),
    "must_follow": _lazy("Tienes que jugar %(suit)s, %(a_rank)s o %(wilds)s"),
    "must_follow_suit": _lazy("Tienes que jugar %(suit)s o %(wilds)s"),
    "nobody_to_catch": _lazy("No hay nadie a quien pillar sin anunciar su última carta"),
    "no_announcing": _lazy("En estas reglas no se anuncia la última carta"),
    "announce_second_last": _lazy("¡Última carta! se anuncia al jugar la penúltima"),
    "no_suit_to_name": _lazy("Con %(a_rank)s no se elige palo"),
    "must_name_suit": _lazy("Tienes que elegir un palo para el %(rank)s"),
    "last_card_names_no_suit": _lazy("Con tu última carta no eliges palo: la ronda termina"),
    "already_drew": _lazy("Ya robaste: juega la carta robada o pasa"),
    "stock_empty": _lazy("El mazo se acabó: no puedes robar"),
    "pass_can_draw": _lazy("No puedes pasar: todavía puedes robar"),
    "pass_can_play": _lazy("No puedes pasar: tienes una carta que sirve"),
}


def card_refusal(reason: ocholoco.Fact) -> tuple[str, str]:
    """Why a card of the hand cannot be played, as the card shows it ("Tienes que jugar ♠ o un
    8") and as its accessible name ends ("no: tienes que jugar picas o un 8")."""
    return _card_refusal(get_language(), reason)


def card_refusal_reason(reason: ocholoco.Fact) -> str:
    """The reason alone, as the card's accessible name says it after "no:" ("tienes que jugar
    picas o un 8"): the card carries it in a data attribute, so that the ear's answers
    (static/js/ear.js) say it once for the whole hand without cutting words of any language."""
    return _spoken_reason(get_language(), reason)


@lru_cache(maxsize=4096)
def _spoken_reason(language: str | None, reason: ocholoco.Fact) -> str:
    said = _reason(language, reason, True)
    return said[0].lower() + said[1:]


@lru_cache(maxsize=4096)
def _card_refusal(language: str | None, reason: ocholoco.Fact) -> tuple[str, str]:
    spoken = _("no: %(reason)s") % {"reason": _spoken_reason(language, reason)}
    return _reason(language, reason, False), spoken


def turn_hint(pending_draw: int, named_suit: str | None) -> str:
    """What the turn asks, said with "Tu turno": "roba 2", "el palo es picas" (a suit an 8
    named, or a joker left), both, or nothing."""
    args = {"count": pending_draw, "suit": suit_name(named_suit) if named_suit else ""}
    if pending_draw and named_suit:
        return _("roba %(count)s, el palo es %(suit)s") % args
    if pending_draw:
        return _("roba %(count)s") % args
    return _("el palo es %(suit)s") % args if named_suit else ""


# --- Rule sets --------------------------------------------------------------------------------


# The name ABRIR MESA's house rules form gives its rule set (stored with the rules, in Spanish,
# as every table ever opened has it): worded in the reader's language like a preset's.
HOUSE_RULES_LABEL = "Reglas de la casa"


def rules_name(rules: ocholoco.RuleSet) -> str:
    """A preset's name ("Clásico"), house rules' ("Reglas de la casa"), or the name the
    players gave a custom rule set."""
    if rules.label == HOUSE_RULES_LABEL:
        return _("Reglas de la casa")
    if rules.label:
        return rules.label
    names = _RULES_NAMES
    return str(names.get(rules.key) or pgettext_lazy("a rule set", "Personalizada"))


_RULES_NAMES = {
    "clasico": _lazy("Clásico"),
    "especiales": _lazy("Con especiales"),
    "libro": _lazy("Ocho locos de libro"),
    "anuncio": _lazy("Crazy Eights con anuncio"),
    "chileno": _lazy("Ocho loco chileno"),
}


def invalid_rules_sentence(reason: ocholoco.Fact) -> str:
    """Why a rule set cannot be played (a `Fact` of `ocholoco.facts.INVALID_RULES`)."""
    args = dict(reason.args)
    if "names" in args:
        args["names"] = ", ".join(args["names"])
    return _INVALID_RULES[reason.code] % args


_INVALID_RULES: dict[str, Any] = {
    "players_range": _lazy("Se juega de 2 a 8 jugadores"),
    "decks_range": _lazy("Se juega con una o dos barajas"),
    "hand_size_missing": _lazy("Falta cuántas cartas se reparten con %(players)s jugadores"),
    "hand_size_low": _lazy("Cada jugador recibe al menos una carta"),
    "not_enough_cards": _lazy("No hay cartas para repartir %(cards)s a %(players)s jugadores"),
    "decks_by_players_range": _lazy("Una o dos barajas"),
    "jokers_range": _lazy("Se juega con 0 a 4 comodines"),
    "wild_needs_suit": _lazy("Solo una carta con palo puede ser comodín de palo"),
    "effect_not_in_deck": _lazy("Hay un efecto para una carta que no está en la baraja"),
    "points_missing": _lazy("Falta el valor en puntos de alguna carta"),
    "wild_with_effect": _lazy("Una carta que cambia el palo no puede tener efecto"),
    "wild_all": _lazy("Alguna carta tiene que no ser comodín"),
    "draw_amount_range": _lazy("Una carta hace robar de 1 a 10 cartas"),
    "copy_two_players": _lazy("La carta que copia solo se juega entre dos"),
    "joker_copies": _lazy("El comodín no copia"),
    "draw_policy_unknown": _lazy("Forma de robar desconocida"),
    "empty_stock_unknown": _lazy("Mazo vacío: regla desconocida"),
    "scoring_unknown": _lazy("Puntuación desconocida"),
    "target_invalid": _lazy("Meta no válida"),
    "reshuffles_range": _lazy("El descarte se rebaraja de 1 a 20 veces"),
    "fine_range": _lazy("La multa por no anunciar es de 0 a 10 cartas"),
    "options_not_a_dict": _lazy("Las reglas tienen que ser una lista de opciones"),
    "options_unknown": _lazy("Opción desconocida: %(names)s"),
    "base_unknown": _lazy("No hay reglas base llamadas %(name)s"),
    "options_invalid": _lazy("Opciones no válidas: %(error)s"),
    "not_a_number": _lazy("%(name)s: tiene que ser un número"),
    "effect_unknown": _lazy("Efecto desconocido: %(kind)s"),
    "draw_amount_missing": _lazy("Una carta que hace robar necesita cuántas cartas"),
    "rules_unknown": _lazy("No hay reglas llamadas %(name)s"),
}


def rules_sentences(rules: ocholoco.RuleSet) -> list[str]:
    """`rules` in sentences, from who plays to how the match is won (the rules card and the
    rules page)."""
    return [rules_fact_sentence(fact) for fact in ocholoco.rules_facts(rules)]


def rules_fact_sentence(fact: ocholoco.Fact) -> str:
    """One fact of a rule set (`ocholoco.facts.RULES_FACTS`) as a sentence."""
    args = dict(fact.args)
    code = fact.code
    if code.startswith("deck_"):
        return _deck_sentence(code, args["jokers"]) % args
    if code == "deal_by_players":
        groups = [
            (_("%(cards)s con %(first)s jugadores") if first == last
             else _("%(cards)s con %(first)s a %(last)s jugadores"))
            % {"cards": cards, "first": first, "last": last}
            for first, last, cards in args["groups"]
        ]  # fmt: skip
        return _("Se reparten %(groups)s.") % {"groups": and_list(groups)}
    if code == "wilds":
        args["ranks"] = _either(a_rank(r) for r in args["ranks"])
    if code == "effect":
        return effect_sentence(args["rank"], args["effect"])
    if code == "points":
        return _("Valor de las cartas: %(worth)s.") % {"worth": "; ".join(
            _("%(cards)s, %(value)s") % {"cards": cards, "value": value}
            for cards, value in _point_rows(fact)
        )}  # fmt: skip
    if code == "draw":
        return str(_DRAW_POLICIES[args["policy"]])
    if code.startswith("target_"):
        return _target_sentence(code, args["per_player"], args["points"]) % args
    return _RULES_FACTS[code] % args


def _deck_sentence(code: str, jokers: int) -> str:
    if code == "deck_one":
        if not jokers:
            return _("Una baraja francesa de 52 cartas, sin comodines.")
        return ngettext(
            "Una baraja francesa de 52 cartas, con un comodín.",
            "Una baraja francesa de 52 cartas, con %(jokers)s comodines.",
            jokers,
        )
    if code == "deck_two":
        if not jokers:
            return _("Dos barajas francesas de 52 cartas mezcladas, sin comodines.")
        return ngettext(
            "Dos barajas francesas de 52 cartas mezcladas, con un comodín.",
            "Dos barajas francesas de 52 cartas mezcladas, con %(jokers)s comodines.",
            jokers,
        )
    if not jokers:
        return _(
            "Una baraja francesa de 52 cartas, sin comodines; desde %(players)s jugadores se"
            " mezclan dos barajas."
        )
    return ngettext(
        "Una baraja francesa de 52 cartas, con un comodín; desde %(players)s jugadores se"
        " mezclan dos barajas.",
        "Una baraja francesa de 52 cartas, con %(jokers)s comodines; desde %(players)s"
        " jugadores se mezclan dos barajas.",
        jokers,
    )


def _target_sentence(code: str, per_player: bool, points: int) -> str:
    if code == "target_penalty":
        if per_player:
            return ngettext(
                "La partida termina cuando alguien llega a %(points)s punto por jugador; gana"
                " quien tenga menos puntos (un empate comparte la victoria).",
                "La partida termina cuando alguien llega a %(points)s puntos por jugador; gana"
                " quien tenga menos puntos (un empate comparte la victoria).",
                points,
            )
        return ngettext(
            "La partida termina cuando alguien llega a %(points)s punto; gana quien tenga"
            " menos puntos (un empate comparte la victoria).",
            "La partida termina cuando alguien llega a %(points)s puntos; gana quien tenga"
            " menos puntos (un empate comparte la victoria).",
            points,
        )
    if per_player:
        return ngettext(
            "La partida termina cuando alguien llega a %(points)s punto por jugador; gana"
            " quien tenga más puntos (un empate comparte la victoria).",
            "La partida termina cuando alguien llega a %(points)s puntos por jugador; gana"
            " quien tenga más puntos (un empate comparte la victoria).",
            points,
        )
    return ngettext(
        "La partida termina cuando alguien llega a %(points)s punto; gana quien tenga más"
        " puntos (un empate comparte la victoria).",
        "La partida termina cuando alguien llega a %(points)s puntos; gana quien tenga más"
        " puntos (un empate comparte la victoria).",
        points,
    )


_RULES_FACTS: dict[str, Any] = {
    "players": _lazy("Se juega de %(min)s a %(max)s jugadores."),
    "deal_same": _lazy("Se reparten %(cards)s cartas a cada jugador."),
    "follow": _lazy(
        "En tu turno juegas una carta del palo activo o del mismo valor que la de arriba."
    ),
    "wilds": _lazy(
        "Puedes jugar %(ranks)s sobre cualquier carta: quien lo juega elige el palo."
    ),
    "joker": _lazy(
        "El comodín se juega sobre cualquier carta y deja el palo activo como estaba; nunca"
        " abre el descarte."
    ),
    "reshuffle": _lazy(
        "Cuando se acaba el mazo, se baraja el descarte salvo la carta de arriba y se forma un"
        " mazo nuevo, hasta %(times)s veces por ronda; si no queda nada que robar y nadie puede"
        " jugar, se pasa, y si pasan todos la mesa se bloquea."
    ),
    "no_reshuffle": _lazy(
        "El mazo no se rehace: sin mazo, quien no puede jugar pasa; si todos pasan seguidos, la"
        " mesa se bloquea."
    ),
    "announce": _lazy(
        "Al jugar tu penúltima carta tienes que decir «¡Última carta!»; si no lo dices, el"
        " siguiente jugador puede pillarte antes de jugar y robas %(fine)s."
    ),
    "round_won": _lazy(
        "Gana la ronda quien se queda sin cartas; una carta especial jugada como última no"
        " tiene efecto."
    ),
    "scoring_penalty": _lazy(
        "Al terminar la ronda cada jugador se anota los puntos que le quedan en la mano"
        " (también si la mesa se bloquea)."
    ),
    "scoring_winner_takes": _lazy(
        "Quien gana la ronda se anota los puntos de las manos de los demás; si la mesa se"
        " bloquea, quien tiene menos puntos en la mano cobra a cada uno la diferencia."
    ),
}


# The draw policies (`ocholoco.RuleSet.draw_policy`).
_DRAW_POLICIES = {
    "until_playable": _lazy(
        "Puedes robar cuando quieras; robar no termina el turno: robas hasta poder jugar."
    ),
    "draw_one": _lazy(
        "Si no puedes o no quieres jugar, robas una carta: si sirve puedes jugarla en el acto;"
        " si no, pasas."
    ),
    "draw_ends_turn": _lazy(
        "Si no puedes o no quieres jugar, robas una carta y pasa el turno."
    ),
}


def effect_sentence(rank: str, effect: ocholoco.Effect) -> str:
    """What a card of `rank` does, e.g. "Una reina: el siguiente jugador pierde el turno..."."""
    args = {
        "card": capfirst(the_rank(rank) if rank == "JK" else a_rank(rank)),
        "amount": effect.amount,
        "other": _("otro comodín") if rank == "JK" else a_rank(rank),
    }
    if effect.kind == "skip":
        said = _("%(card)s: el siguiente jugador pierde el turno (con dos, vuelves a jugar).")
    elif effect.kind == "reverse":
        said = _("%(card)s: cambia el sentido del juego (con dos jugadores no hace nada).")
    elif effect.kind == "copy":
        said = _("%(card)s: se juega sobre cualquier carta y repite el efecto de la que tapa.")
    elif effect.stackable:
        said = _(
            "%(card)s: el siguiente jugador roba %(amount)s y pierde el turno, salvo que"
            " responda con %(other)s: entonces la cuenta crece y pasa al siguiente."
        )
    else:
        said = _(
            "%(card)s: el siguiente jugador roba %(amount)s y pierde el turno; no se puede"
            " responder."
        )
    return said % args


def card_values(rules: ocholoco.RuleSet) -> list[tuple[str, str]]:
    """What each card is worth, grouped: [("el 8", "50"), ("el rey, la reina y la jota",
    "10"), ("el as", "1"), ("las demás (2 a 7, 9 y 10)", "su número")]."""
    return _point_rows(ocholoco.points_fact(rules))


def _point_rows(fact: ocholoco.Fact) -> list[tuple[str, str]]:
    rows = [
        (and_list(the_rank(r) for r in ranks), str(value)) for ranks, value in fact.args["groups"]
    ]
    runs = fact.args["runs"]
    if runs:
        spans = and_list(
            str(first) if first == last else _("%(first)s a %(last)s") % {
                "first": first, "last": last,
            }
            for first, last in runs
        )  # fmt: skip
        rows.append((_("las demás (%(runs)s)") % {"runs": spans}, _("su número")))
    return rows


# --- A match file that does not check out ----------------------------------------------------


def record_error_sentence(reason: ocholoco.Fact) -> str:
    """Why a match file does not check out (a `Fact` of `ocholoco.facts.RECORD_ERRORS`)."""
    args = dict(reason.args)
    if reason.code == "record_totals_wrong":
        args["totals"] = ", ".join(map(str, args["totals"]))
    if reason.code == "record_move_illegal":
        why = args.pop("reason")
        if why is not None:
            args["why"] = reason_sentence(why, words=True)
            return _("Ronda %(round)s: una jugada no se puede hacer: %(why)s.") % args
    return _RECORD_ERRORS[reason.code] % args


_RECORD_ERRORS: dict[str, Any] = {
    "record_not_ours": _lazy("No es el archivo de una partida de Ocho Loco."),
    "record_version_unknown": _lazy("Versión de archivo desconocida: %(version)s."),
    "record_malformed": _lazy("Al archivo le falta algo o tiene algo mal."),
    "record_round_after_unfinished": _lazy("Hay rondas después de una que no terminó."),
    "record_totals_wrong": _lazy("Los totales no son la suma de las rondas: %(totals)s."),
    "record_match_end_wrong": _lazy("El final de la partida no es el que dan los puntos."),
    "record_round_out_of_turn": _lazy(
        "Ronda %(round)s: no es la ronda que sigue, o no la reparte quien toca."
    ),
    "record_reveal_mismatch": _lazy(
        "Ronda %(round)s: el reparto revelado no da la huella anunciada."
    ),
    "record_reveal_unreadable": _lazy("Ronda %(round)s: el reparto revelado no se entiende."),
    "record_move_illegal": _lazy("Ronda %(round)s: una jugada no se puede hacer."),
    "record_moves_after_end": _lazy("Ronda %(round)s: hay jugadas después del final de la ronda."),
    "record_move_wrong_player": _lazy(
        "Ronda %(round)s, jugada %(move)s: no la hace quien tiene el turno."
    ),
    "record_moves_unfinished": _lazy("Ronda %(round)s: las jugadas no terminan la ronda."),
    "record_points_wrong": _lazy(
        "Ronda %(round)s: los puntos o los ganadores no son los que da el juego."
    ),
    "record_in_play_revealed": _lazy("Ronda %(round)s: una ronda en juego no se revela."),
}
