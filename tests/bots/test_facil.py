"""Fácil looks like it plays (a card that fits, a suit it holds) and a beginner beats it."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from bots import choose
from ocholoco import PRESETS, Move, Play, RoundView, apply_move, legal_moves, new_round, view_for

from .helpers import TABLES, positions


def facil(view: RoundView, moves: list[Move], rng: random.Random) -> Move:
    return choose(view, moves, level="facil", rng=rng)


def beginner(view: RoundView, moves: list[Move], rng: random.Random) -> Move:
    """The first card that fits, an 8 only when nothing else does (naming the suit held
    most); no other thought."""
    plays = [m for m in moves if isinstance(m, Play)]
    if not plays:
        return moves[0]
    plain = [m for m in plays if m.card.rank not in view.rules.wild_ranks]
    held = Counter(card.suit for card in view.hand)
    move = plain[0] if plain else max(plays, key=lambda m: held[m.suit])
    announced = Play(move.card, move.suit, True)
    return announced if announced in moves else move


@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_facil_plays_a_card_whenever_one_fits(rules, players):
    rng = random.Random(3)
    cases = 0
    for state in itertools.islice(positions(rules, players, seed=players), 120):
        moves = legal_moves(state)
        move = facil(view_for(state, state.turn), moves, rng)
        if any(isinstance(m, Play) for m in moves) and str(moves[-1]) != "catch":
            assert isinstance(move, Play), (moves, move)
            cases += 1
    assert cases


@pytest.mark.parametrize(("rules", "players"), [t for t in TABLES if t.values[0].wild_ranks])
def test_facil_names_a_suit_it_holds(rules, players):
    rng = random.Random(3)
    cases = 0
    for state in itertools.islice(positions(rules, players, seed=players), 120):
        move = facil(view_for(state, state.turn), legal_moves(state), rng)
        if isinstance(move, Play) and move.suit:
            suits = {c.suit for c in state.hands[state.turn] if c != move.card}
            assert move.suit in suits or not suits & {"S", "H", "D", "C"}, move
            cases += 1
    assert cases


def test_facil_does_not_always_make_the_same_choice():
    choices = (s for s in positions(PRESETS["clasico"], 2, seed=5) if len(legal_moves(s)) >= 4)
    state = next(s for s in choices if sum(isinstance(m, Play) for m in legal_moves(s)) >= 3)
    moves = legal_moves(state)
    view = view_for(state, state.turn)
    assert len({facil(view, moves, random.Random(seed)) for seed in range(20)}) > 1


def test_a_beginner_who_keeps_the_eights_beats_facil():
    # Measured over 400 two-player Clásico rounds, seats alternated: the beginner wins 57%.
    won = 0
    rounds = 400
    for i in range(rounds):
        rng = random.Random(i)
        state = new_round("clasico", 2, i // 2 % 2, rng=rng)
        while not state.finished:
            robot = beginner if state.turn == i % 2 else facil
            state = apply_move(state, robot(view_for(state, state.turn), legal_moves(state), rng))
        won += state.round_points[i % 2] > 0
    assert won / rounds > 0.52
