"""Positions and games for the robot tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from ocholoco import (
    PRESETS,
    Effect,
    Round,
    RuleSet,
    apply_action,
    legal_actions,
    new_round,
    ruleset_from_options,
)

# A house rule set whose special ranks are not the presets': the robots must read them.
CASERA = RuleSet(
    key="casera",
    label="Casera",
    wild_ranks=frozenset({"J"}),
    effects=(
        ("3", Effect("draw", 3, stackable=False)),
        ("7", Effect("skip")),
        ("K", Effect("reverse")),
    ),
)
# Custom rule sets that push every option the robots must follow: two decks and four jokers
# up to eight players, no wild card at all, draw one and end the turn, reshuffles, the
# announcement; and a duel with a copying card, a joker without effect, draw one, penalty
# scoring.
MEZCLA = ruleset_from_options(
    {
        "key": "mezcla", "min_players": 2, "max_players": 8, "hand_size": 6, "decks": 2,
        "jokers": 4, "joker_points": 25, "wild_rank": "", "draw_policy": "draw_ends_turn",
        "empty_stock": "reshuffle", "announce_fine": 1,
        "effects": {"JK": {"kind": "skip"}, "5": {"kind": "draw", "amount": 1}},
    }
)  # fmt: skip
DUELO = ruleset_from_options(
    {
        "key": "duelo", "max_players": 2, "jokers": 1, "joker_points": 20,
        "draw_policy": "draw_one", "scoring": "penalty",
        "effects": {"9": {"kind": "copy"}, "2": {"kind": "draw", "amount": 2}},
    }
)  # fmt: skip
RULE_SETS = [*PRESETS.values(), CASERA, MEZCLA, DUELO]
# Every rule set with every player count it allows (2 to 8), as pytest parameters.
TABLES = [
    pytest.param(rules, players, id=f"{rules.key}-{players}")
    for rules in RULE_SETS
    for players in range(rules.min_players, rules.max_players + 1)
]


def positions(rules: RuleSet, players: int, seed: int, every: int = 3) -> Iterator[Round]:
    """Positions along random rounds (every ``every``-th move), round after round."""
    rng = random.Random(seed)
    while True:
        state = new_round(rules, players, rng.randrange(players), rng=rng)
        moves = 0
        while not state.finished:
            if moves % every == 0:
                yield state
            actions = legal_actions(state)
            state = apply_action(state, actions[int(rng.random() * len(actions))])
            moves += 1
