"""Positions and games for the robot tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

from ocholoco import PRESETS, Effect, Round, RuleSet, apply_action, legal_actions, new_round

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
RULE_SETS = [*PRESETS.values(), CASERA]


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
