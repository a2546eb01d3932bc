"""Difícil searches: it finds what wins, stops when its time is spent and is reproducible."""

from __future__ import annotations

import itertools
import random

from bots import choose
from bots.dificil import dificil_choose
from ocholoco import PRESETS, Card, Play, Round, action_of, legal_moves, view_for
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


class FakeClock:
    """A clock that moves on ``step`` seconds each time it is read, and remembers the reads."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step
        self.reads: list[float] = []

    def __call__(self) -> float:
        self.reads.append(self.now)
        self.now += self.step
        return self.reads[-1]


def test_dificil_stops_thinking_when_its_budget_is_spent():
    # Its clock is read after every playout and every 32 moves of one: the first read at or
    # past the budget is the last, and until then it goes on thinking.
    searched = 0
    for state in itertools.islice(positions(PRESETS["especiales"], 4, seed=8), 0, 120, 4):
        view, moves = view_for(state, state.turn), legal_moves(state)
        actions = [action_of(m) for m in moves]
        for step, budget in ((0.001, 0.02), (0.0001, 0.02)):
            clock = FakeClock(step)
            action = dificil_choose(view, actions, random.Random(1), budget=budget, clock=clock)
            assert action in actions
            if not clock.reads:
                continue  # nothing to search: one move, a catch, or the last card going out
            deadline = clock.reads[0] + budget
            assert clock.reads[-1] >= deadline  # it thought until the budget was spent...
            assert all(read < deadline for read in clock.reads[:-1])  # ...and stopped there
            searched += 1
    assert searched >= 10


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
