"""Custom rule sets: built from a dict of options (the web form's, or stored JSON) and back.

``ruleset_from_options(options)`` starts from a preset and changes what the options say (they
are listed there); every problem is an `InvalidRules` carrying why (a `Fact`).
``rules_to_json(rules)`` is a preset's key, or for a custom set the dict of all its fields;
``rules_from_json`` reads either: ``rules_from_json(rules_to_json(r)) == r``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from .cards import JOKER_RANK, RANKS
from .facts import Fact
from .rules import PRESETS, Effect, InvalidRules, RuleSet

_FIELDS = {f.name for f in dataclasses.fields(RuleSet)}
_CONVENIENCE = {
    "base", "hand_size", "hand_size_two", "two_decks_from", "joker_points", "wild_rank",
    "target",
}  # fmt: skip


def ruleset_from_options(options: dict[str, Any]) -> RuleSet:
    """The rule set the options describe; raises `InvalidRules` if impossible.

    Options (all optional; the names of `RuleSet` fields are accepted as they are):

    - ``base``: the preset to start from, default "clasico";
    - ``key``/``label``: default "personalizada" / "" (the players' name for the rule set);
    - ``min_players``, ``max_players``; ``hand_size`` (cards each) and ``hand_size_two`` (with
      two players), or ``hand_sizes`` as ``[[players, cards], ...]``;
    - ``decks`` (1 or 2) and ``two_decks_from`` (two decks from that many players on);
    - ``jokers`` (0 to 4) and ``joker_points``;
    - ``wild_rank`` (``"8"``, or ``""`` for none) or ``wild_ranks`` (a list);
    - ``effects``: ``{rank: {"kind": "skip"|"reverse"|"draw"|"copy", "amount": n,
      "stackable": bool}}`` (rank ``"JK"`` for the jokers), or ``[[rank, {...}], ...]``; an
      effect may also be one of the `NAMED_EFFECTS` ("draw2", "skip", ...), as the form sends;
    - ``draw_policy`` ("until_playable", "draw_one", "draw_ends_turn"), ``empty_stock``
      ("pass_and_block", "reshuffle"), ``scoring`` ("winner_takes", "penalty");
    - ``target`` (a fixed target; 0: 50 per player) or ``target_points`` /
      ``target_per_player``; ``announce_fine`` (0: no announcement)."""
    if not isinstance(options, dict):
        raise InvalidRules(Fact("options_not_a_dict"))
    unknown = set(options) - _FIELDS - _CONVENIENCE
    if unknown:
        raise InvalidRules(Fact.of("options_unknown", names=tuple(sorted(unknown))))
    base = PRESETS.get(options.get("base", "clasico"))
    if base is None:
        raise InvalidRules(Fact.of("base_unknown", name=repr(options.get("base"))))
    try:
        fields = dataclasses.asdict(base) | {"key": "personalizada", "label": ""}
        fields["effects"] = base.effects
        fields.update({k: v for k, v in options.items() if k in _FIELDS})
        return RuleSet(**_normalized(fields, options))
    except InvalidRules:
        raise
    except (TypeError, ValueError, KeyError, AttributeError) as error:
        raise InvalidRules(Fact.of("options_invalid", error=str(error))) from None


def _normalized(fields: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    players = range(int(fields["min_players"]), int(fields["max_players"]) + 1)
    for name in ("min_players", "max_players", "decks", "jokers", "announce_fine"):
        fields[name] = _int(fields[name], name)
    sizes = {int(n): int(c) for n, c in fields["hand_sizes"]}
    if "hand_size" in options:
        sizes = {n: _int(options["hand_size"], "hand_size") for n in players}
    if "hand_size_two" in options:
        sizes[2] = _int(options["hand_size_two"], "hand_size_two")
    fields["hand_sizes"] = tuple((n, sizes[n]) for n in sorted(sizes) if n in players)
    fields["decks_by_players"] = tuple((int(n), int(d)) for n, d in fields["decks_by_players"])
    if options.get("two_decks_from"):
        start = _int(options["two_decks_from"], "two_decks_from")
        fields["decks_by_players"] = tuple((n, 2) for n in players if n >= start)
    if "wild_rank" in options:
        fields["wild_ranks"] = [options["wild_rank"]] if options["wild_rank"] else []
    fields["wild_ranks"] = frozenset(fields["wild_ranks"])
    effects = fields["effects"]
    if isinstance(effects, dict):
        effects = list(effects.items())
    fields["effects"] = tuple((str(rank), _effect(e)) for rank, e in effects)
    if "target" in options:
        fields["target_points"] = _int(options["target"], "target")
    points = dict(fields["points"])
    if fields["jokers"]:
        points[JOKER_RANK] = _int(options.get("joker_points", points.get(JOKER_RANK, 30)), "")
    else:
        points.pop(JOKER_RANK, None)
    fields["points"] = tuple(points.items())
    return fields


def _order(rank: str) -> int:
    return RANKS.index(rank) if rank in RANKS else len(RANKS)


def _int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise InvalidRules(Fact.of("not_a_number", name=name))
    try:
        return int(value)
    except ValueError:
        raise InvalidRules(Fact.of("not_a_number", name=name)) from None


# What a card can do, by the names the house rules form uses.
NAMED_EFFECTS: dict[str, dict[str, Any]] = {
    "skip": {"kind": "skip"},
    "reverse": {"kind": "reverse"},
    "draw2": {"kind": "draw", "amount": 2, "stackable": True},
    "draw3": {"kind": "draw", "amount": 3, "stackable": True},
    "draw4": {"kind": "draw", "amount": 4, "stackable": False},
    "copy": {"kind": "copy"},
}


def _effect(data: Any) -> Effect:
    if isinstance(data, Effect):
        return data
    if isinstance(data, str):
        data = NAMED_EFFECTS.get(data, {"kind": data})
    kind = data.get("kind")
    if kind not in ("skip", "reverse", "draw", "copy"):
        raise InvalidRules(Fact.of("effect_unknown", kind=repr(kind)))
    amount = _int(data.get("amount", 0), "amount")
    if kind == "draw" and amount < 1:
        raise InvalidRules(Fact("draw_amount_missing"))
    return Effect(kind, amount if kind == "draw" else 0, bool(data.get("stackable", True)))


def rules_to_json(rules: RuleSet) -> str | dict[str, Any]:
    """A preset's key, or every field of a custom rule set as plain JSON types."""
    if PRESETS.get(rules.key) == rules:
        return rules.key
    data = dataclasses.asdict(rules)
    data["hand_sizes"] = [list(pair) for pair in rules.hand_sizes]
    data["decks_by_players"] = [list(pair) for pair in rules.decks_by_players]
    data["wild_ranks"] = sorted(rules.wild_ranks, key=_order)
    data["effects"] = {rank: dataclasses.asdict(e) for rank, e in rules.effects}
    data["points"] = dict(rules.points)
    return data


def rules_from_json(data: str | dict[str, Any]) -> RuleSet:
    """The rule set `rules_to_json` wrote."""
    if isinstance(data, str):
        try:
            return PRESETS[data]
        except KeyError:
            raise InvalidRules(Fact.of("rules_unknown", name=repr(data))) from None
    data = dict(data)
    data["points"] = list(data.get("points", {}).items())
    return ruleset_from_options(data)
