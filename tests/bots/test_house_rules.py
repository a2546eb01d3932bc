"""The robots follow the house rules: they announce, catch, play jokers, keep to draw one."""

from __future__ import annotations

import random

import pytest

from bots import choose
from bots.inference import public_info
from ocholoco import Card, Catch, Play, Round, legal_moves, new_round, view_for
from ocholoco.encoding import JOKER
from tests.engine.positions import play, position

LEVELS = ["facil", "normal", "dificil"]


def robot(state: Round, level: str, seed: int = 1) -> object:
    return choose(
        view_for(state, state.turn), legal_moves(state), level=level, rng=random.Random(seed),
        playouts=20,
    )  # fmt: skip


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_announces_its_last_card_when_it_plays_the_second_to_last(level):
    state = position("anuncio", [["5H", "KS"], ["9C", "4C", "JD"]], "5D", stock=["2C", "3C"])
    for seed in range(5):
        move = robot(state, level, seed)
        assert move == Play(Card.parse("5H"), announce=True), (level, move)


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_announces_with_a_wild_card_too(level):
    state = position("anuncio", [["8H", "KS"], ["9C", "4C", "JD"]], "5D", stock=["2C", "3C"])
    move = robot(state, level)
    assert isinstance(move, Play) and move.card == Card.parse("8H") and move.announce


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_catches_the_player_who_forgot_to_announce(level):
    state = position("anuncio", [["5H", "KS"], ["9H", "4C", "JD"]], "5D", stock=["2C", "3C"])
    state = play(state, "5H")  # no "¡Última carta!"
    assert state.exposed == 0
    assert robot(state, level) == Catch()
    caught = play(state, "catch")
    assert len(caught.hands[0]) == 3 and Catch() not in legal_moves(caught)


@pytest.mark.parametrize("level", LEVELS)
def test_catching_comes_even_before_going_out(level):
    # The robot could go out at once, but the fine first adds to the other's hand.
    state = position("chileno", [["5H", "KS"], ["9H"]], "5D", stock=["2C", "3C", "4C"])
    state = play(state, "5H")
    assert state.exposed == 0 and Play(Card.parse("9H")) in legal_moves(state)
    assert robot(state, level) == Catch()


@pytest.mark.parametrize("level", ["normal", "dificil"])
def test_a_joker_makes_the_player_about_to_go_out_draw_four(level):
    # Chileno with two players: the joker (draw 4, not stackable) also takes the other's turn.
    state = position(
        "chileno",
        [["JK", "5H", "9C", "KD", "KS", "JS", "6D", "10C"], ["6H"]],
        "4H",
        stock=["2C", "3C", "4C", "5C", "6C", "7C", "9D", "10D"],
    )
    assert robot(state, level) == Play(Card.parse("JK"))


@pytest.mark.parametrize("level", LEVELS)
def test_a_joker_is_played_when_nothing_else_fits(level):
    state = position(
        "chileno",
        [["JK", "5C", "9C", "KD", "KS", "JS", "6D", "10C"], ["6H", "9H", "JH"]],
        "4H",
        stock=["2C"],
    )
    move = robot(state, level)
    assert move in (Play(Card.parse("JK")), *[m for m in legal_moves(state) if str(m) == "draw"])
    if level != "facil":  # Fácil only promises a card that fits; the others keep the turn
        assert move == Play(Card.parse("JK"))


@pytest.mark.parametrize("level", ["normal"])  # (for Difícil, here a close call)
def test_after_drawing_one_the_card_drawn_is_played_if_it_fits(level):
    state = position("libro", [["5C", "KC"], ["2D", "3D", "9D"]], "3H", stock=["9H", "2S"])
    state = play(state, "draw")
    assert state.drawn == Card.parse("9H")
    assert robot(state, level) == Play(Card.parse("9H"))
    state = position("libro", [["5C", "KC"], ["2D", "3D", "9D"]], "3H", stock=["9S", "2S"])
    state = play(state, "draw")
    assert str(robot(state, level)) == "pass"


def test_after_a_reshuffle_the_discard_pile_is_hidden_again():
    # Libro: the stock runs out, the discard but its top becomes the stock again.
    for seed in range(200):
        state = new_round("libro", 3, seed=seed)
        rng = random.Random(seed)
        while not state.finished and not any(e.kind == "reshuffle" for e in state.history):
            moves = legal_moves(state)
            state = play(state, str(rng.choice(moves)))
        if state.finished:
            continue
        me = state.turn
        info = public_info(view_for(state, me))
        hidden = [c.value for p, hand in enumerate(state.hands) if p != me for c in hand]
        hidden += [c.value for c in state.stock]
        assert sorted(i % 53 for i in (*info.hidden, *info.placed)) == sorted(hidden)
        assert info.reshuffles >= 1 and JOKER not in hidden
        return
    pytest.fail("no round reached a reshuffle")
