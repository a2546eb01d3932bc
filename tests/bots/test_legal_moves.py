"""Every level answers with one of the legal moves, whatever the rules and the table."""

from __future__ import annotations

import itertools
import random

import pytest

from bots import choose
from ocholoco import apply_move, legal_moves, legal_moves_for_view, view_for

from .helpers import RULE_SETS, TABLES, positions

LEVELS = ["facil", "normal", "dificil"]


@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_every_level_returns_one_of_the_legal_moves(rules, players):
    rng = random.Random(players)
    for state in itertools.islice(positions(rules, players, seed=players), 60):
        moves = legal_moves(state)
        view = view_for(state, state.turn)
        assert legal_moves_for_view(view) == moves
        for level in LEVELS:
            move = choose(view, moves, level=level, rng=rng, playouts=2)
            assert move in moves, (level, state, move)
    state = next(positions(rules, players, seed=players + 100))
    while not state.finished:  # a whole round between Difícil robots with tiny searches
        moves = legal_moves(state)
        move = choose(view_for(state, state.turn), moves, level="dificil", rng=rng, playouts=1)
        assert move in moves
        state = apply_move(state, move)


def test_an_unknown_level_is_refused():
    state = next(positions(RULE_SETS[0], 2, seed=1))
    with pytest.raises(ValueError):
        choose(
            view_for(state, state.turn), legal_moves(state), level="experto", rng=random.Random()
        )


def test_a_robot_with_no_legal_move_is_refused():
    state = next(positions(RULE_SETS[0], 2, seed=1))
    with pytest.raises(ValueError):
        choose(view_for(state, state.turn), [], level="normal", rng=random.Random())
