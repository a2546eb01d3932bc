"""Difícil searches: it finds what wins, keeps to its time budget and is reproducible."""

from __future__ import annotations

import itertools
import random
import time

from bots import choose
from ocholoco import PRESETS, Card, Play, Round, legal_moves, view_for
from tests.engine.positions import position

from .helpers import positions


def dificil(state: Round, seed: int = 1, **options) -> Play:
    options.setdefault("playouts", 30)
    return choose(
        view_for(state, state.turn), legal_moves(state), level="dificil",
        rng=random.Random(seed), **options,
    )  # fmt: skip


def test_dificil_goes_out_with_its_last_card():
    state = position("especiales", [["2H"], ["2D", "3D", "5C"]], "2S", stock=["9C"], pending_draw=2)
    assert dificil(state) == Play(Card.parse("2H"))


def test_dificil_plays_the_skip_first_when_that_wins_on_the_spot():
    # With two players a Q lets Difícil play again: QH then 5H goes out; 5H first does not.
    state = position(
        "especiales", [["5H", "QH"], ["4H", "6H", "KD", "KS"]], "3H", stock=["9C", "9D"]
    )
    assert dificil(state) == Play(Card.parse("QH"))


def test_dificil_keeps_to_its_time_budget():
    source = positions(PRESETS["especiales"], 4, seed=8)
    longest = 0.0
    for state in itertools.islice(source, 0, 40, 4):
        start = time.perf_counter()
        dificil(state, budget=0.02, playouts=None)
        longest = max(longest, time.perf_counter() - start)
    assert longest < 0.2  # 20 ms asked; generous for a shared machine


def test_dificil_with_the_same_seed_makes_the_same_choices():
    source = positions(PRESETS["clasico"], 3, seed=9)
    for state in itertools.islice(source, 0, 60, 6):
        assert dificil(state, seed=4, playouts=8) == dificil(state, seed=4, playouts=8)


def test_dificil_without_time_to_search_plays_normals_move():
    # A busy server may leave it no time at all (bots.tasks.think_budget): never a silly move.
    for rules in PRESETS.values():
        for state in itertools.islice(positions(rules, 3, seed=5), 0, 60, 3):
            view, moves = view_for(state, state.turn), legal_moves(state)
            normal = choose(view, moves, level="normal", rng=None)
            assert dificil(state, budget=0.0, playouts=None) == normal
