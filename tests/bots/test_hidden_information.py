"""A robot decides from its view only: hidden cards never change its move."""

from __future__ import annotations

import itertools
import random

import pytest

from bots import choose
from ocholoco import PRESETS, Round, from_json, legal_moves, to_json, view_for

from .helpers import positions


def with_hidden_cards_shuffled(state: Round, rng: random.Random) -> Round:
    """The same round for the player to move, with the other hands and the stock dealt anew."""
    data = to_json(state)
    me = state.turn
    others = [p for p in range(state.players) if p != me]
    hidden = [c for p in others for c in data["hands"][p]] + data["stock"]
    rng.shuffle(hidden)
    for p in others:
        size = len(data["hands"][p])
        data["hands"][p], hidden = hidden[:size], hidden[size:]
    data["stock"] = hidden
    return from_json(data)


@pytest.mark.parametrize("rules", list(PRESETS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_hidden_cards_do_not_change_any_levels_move(rules, players):
    rng = random.Random(5)
    differ = 0
    for state in itertools.islice(positions(PRESETS[rules], players, seed=players), 0, 120, 4):
        other = with_hidden_cards_shuffled(state, rng)
        differ += other.hands != state.hands or other.stock != state.stock
        me = state.turn
        assert view_for(other, me) == view_for(state, me)
        for level in ("facil", "normal", "dificil"):
            seed = rng.random()
            move = choose(view_for(state, me), legal_moves(state), level=level,
                          rng=random.Random(seed), playouts=4)  # fmt: skip
            again = choose(view_for(other, me), legal_moves(other), level=level,
                           rng=random.Random(seed), playouts=4)  # fmt: skip
            assert move == again, (level, state, other)
    assert differ >= 25  # the hidden cards really were different
