"""A rule set in plain Spanish sentences: the table's rules card and the rules page.

Generated from the `RuleSet` itself, so neither ever disagrees with the game.
"""

from __future__ import annotations

from .cards import JOKER_RANK, RANKS
from .notation import JOKER_NAME, rank_with_article
from .rules import Effect, RuleSet


def describe_rules(rules: RuleSet) -> list[str]:
    """``rules`` as a list of Spanish sentences, from who plays to how the match is won."""
    lines = [
        f"Se juega de {rules.min_players} a {rules.max_players} jugadores.",
        _deck(rules),
        _deal(rules),
        "En tu turno juegas una carta del palo activo o del mismo valor que la de arriba.",
    ]
    wilds = [r for r in RANKS if r in rules.wild_ranks]
    if wilds:
        names = " o ".join(rank_with_article(r) for r in wilds)
        lines.append(f"Puedes jugar {names} sobre cualquier carta: quien lo juega elige el palo.")
    if rules.jokers:
        lines.append(
            f"El {JOKER_NAME} se juega sobre cualquier carta y deja el palo activo como estaba;"
            " nunca abre el descarte."
        )
    for rank, effect in rules.effects:
        lines.append(effect_sentence(rank, effect))
    lines.append(_draw(rules))
    lines.append(_empty_stock(rules))
    if rules.announces:
        lines.append(
            "Al jugar tu penúltima carta tienes que decir «¡Última carta!»; si no lo dices, el"
            f" siguiente jugador puede pillarte antes de jugar y robas {rules.announce_fine}."
        )
    lines.append(
        "Gana la ronda quien se queda sin cartas; una carta especial jugada como última no"
        " tiene efecto."
    )
    lines.extend(_scoring(rules))
    return lines


def _deck(rules: RuleSet) -> str:
    jokers = {0: "sin comodines", 1: "con un comodín"}.get(
        rules.jokers, f"con {rules.jokers} comodines"
    )
    two = sorted(n for n in range(rules.min_players, rules.max_players + 1)
                 if rules.decks_for(n) == 2)  # fmt: skip
    if not two:
        return f"Una baraja francesa de 52 cartas, {jokers}."
    if len(two) == rules.max_players - rules.min_players + 1:
        return f"Dos barajas francesas de 52 cartas mezcladas, {jokers}."
    return (
        f"Una baraja francesa de 52 cartas, {jokers}; desde {two[0]} jugadores se mezclan"
        " dos barajas."
    )


def _deal(rules: RuleSet) -> str:
    sizes = [(n, rules.hand_size(n)) for n in range(rules.min_players, rules.max_players + 1)]
    if len({size for _, size in sizes}) == 1:
        return f"Se reparten {sizes[0][1]} cartas a cada jugador."
    groups: list[tuple[int, int, int]] = []  # (first players, last players, cards)
    for n, size in sizes:
        if groups and groups[-1][2] == size:
            groups[-1] = (groups[-1][0], n, size)
        else:
            groups.append((n, n, size))
    parts = [
        f"{size} con {first} jugadores" if first == last
        else f"{size} con {first} a {last} jugadores"
        for first, last, size in groups
    ]  # fmt: skip
    return "Se reparten " + ", ".join(parts[:-1]) + f" y {parts[-1]}." if len(parts) > 1 else ""


def _card(rank: str) -> str:
    return f"El {JOKER_NAME}" if rank == JOKER_RANK else rank_with_article(rank).capitalize()


def effect_sentence(rank: str, effect: Effect) -> str:
    """What a card of ``rank`` does, e.g. "Una reina: el siguiente jugador pierde el turno..."."""
    card = _card(rank)
    if effect.kind == "skip":
        return f"{card}: el siguiente jugador pierde el turno (con dos, vuelves a jugar)."
    if effect.kind == "reverse":
        return f"{card}: cambia el sentido del juego (con dos jugadores no hace nada)."
    if effect.kind == "copy":
        return f"{card}: se juega sobre cualquier carta y repite el efecto de la que tapa."
    if effect.stackable:
        other = "otro comodín" if rank == JOKER_RANK else rank_with_article(rank)
        return (
            f"{card}: el siguiente jugador roba {effect.amount} y pierde el turno, salvo que"
            f" responda con {other}: entonces la cuenta crece y pasa al siguiente."
        )
    return (
        f"{card}: el siguiente jugador roba {effect.amount} y pierde el turno; no se puede"
        " responder."
    )


def _draw(rules: RuleSet) -> str:
    if rules.draw_policy == "draw_one":
        return (
            "Si no puedes o no quieres jugar, robas una carta: si sirve puedes jugarla en el"
            " acto; si no, pasas."
        )
    if rules.draw_policy == "draw_ends_turn":
        return "Si no puedes o no quieres jugar, robas una carta y pasa el turno."
    return "Puedes robar cuando quieras; robar no termina el turno: robas hasta poder jugar."


def _empty_stock(rules: RuleSet) -> str:
    if rules.reshuffles:
        return (
            "Cuando se acaba el mazo, se baraja el descarte salvo la carta de arriba y se forma"
            f" un mazo nuevo, hasta {rules.max_reshuffles} veces por ronda; si no queda nada"
            " que robar y nadie puede jugar, se pasa, y si pasan todos la mesa se bloquea."
        )
    return (
        "El mazo no se rehace: sin mazo, quien no puede jugar pasa; si todos pasan seguidos,"
        " la mesa se bloquea."
    )


def _scoring(rules: RuleSet) -> list[str]:
    worth = "; ".join(f"{cards}, {value}" for cards, value in card_values(rules))
    card_line = f"Valor de las cartas: {worth}."
    target = (
        f"{rules.target_points} puntos"
        if rules.target_points
        else f"{rules.target_per_player} puntos por jugador"
    )
    if rules.scoring == "penalty":
        return [
            "Al terminar la ronda cada jugador se anota los puntos que le quedan en la mano"
            " (también si la mesa se bloquea).",
            card_line,
            f"La partida termina cuando alguien llega a {target}; gana quien tenga menos"
            " puntos (un empate comparte la victoria).",
        ]
    return [
        "Quien gana la ronda se anota los puntos de las manos de los demás; si la mesa se"
        " bloquea, quien tiene menos puntos en la mano cobra a cada uno la diferencia.",
        card_line,
        f"La partida termina cuando alguien llega a {target}; gana quien tenga más puntos"
        " (un empate comparte la victoria).",
    ]


_DEFINITE = {"A": "el as", "J": "la jota", "Q": "la reina", "K": "el rey", JOKER_RANK: "el comodín"}


def card_values(rules: RuleSet) -> list[tuple[str, str]]:
    """What each card is worth, grouped: ``[("el 8", "50"), ("el rey, la reina y la jota",
    "10"), ("el as", "1"), ("las demás (2 a 7, 9 y 10)", "su número")]``."""
    points = dict(rules.points)
    numbered = [r for r in RANKS if r.isdigit() and points[r] == int(r)]
    by_value: dict[int, list[str]] = {}
    for rank in [*RANKS, JOKER_RANK]:
        if rank in points and rank not in numbered:
            by_value.setdefault(points[rank], []).append(rank)
    rows = [
        (_and([_DEFINITE.get(r, f"el {r}") for r in reversed(ranks)]), str(value))
        for value, ranks in sorted(by_value.items(), key=lambda item: -item[0])
    ]
    if numbered:
        rows.append((f"las demás ({_runs(numbered)})", "su número"))
    return rows


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " y " + items[-1]


def _runs(ranks: list[str]) -> str:
    """``["2", "3", "4", "9", "10"]`` -> ``"2 a 4, 9 y 10"``."""
    numbers = sorted(int(r) for r in ranks)
    runs: list[list[int]] = []
    for n in numbers:
        if runs and runs[-1][-1] == n - 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    parts = []
    for run in runs:
        if len(run) > 2:
            parts.append(f"{run[0]} a {run[-1]}")
        else:
            parts.extend(str(n) for n in run)
    return _and(parts)
