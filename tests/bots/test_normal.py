"""Normal plays like a good player: the advice to beginners (docs/rules.md, "The robots")."""

from __future__ import annotations

import itertools

import pytest

from bots import choose
from ocholoco import Card, Catch, Play, Round, RuleSet, legal_moves, view_for
from tests.engine.positions import play, position

from .helpers import TABLES, positions


def normal(state: Round) -> Play:
    return choose(view_for(state, state.turn), legal_moves(state), level="normal", rng=None)


def test_normal_keeps_an_eight_when_another_card_fits():
    state = position("clasico", [["8S", "5H", "KC"], ["2D", "3D", "4D"]], "3H", stock=["9C"])
    assert normal(state) == Play(Card.parse("5H"))


def test_normal_draws_rather_than_wait_when_nothing_fits_and_plays_an_eight_when_only_it_fits():
    nothing = position("clasico", [["5C", "KC"], ["2D", "3D"]], "3H", stock=["9C"])
    assert str(normal(nothing)) == "draw"
    only_eight = position("clasico", [["8S", "5C", "KC"], ["2D", "3D"]], "3H", stock=["9C"])
    assert normal(only_eight).card == Card.parse("8S")


def test_normal_names_the_suit_it_holds_most():
    state = position(
        "clasico",
        [["8S", "2C", "5C", "9C", "KD", "4H"], ["2D", "3D", "4D", "5D", "6D"]],
        "7H",
        suit="S",
        stock=["9D"],
    )
    move = normal(state)
    assert (move.card, move.suit) == (Card.parse("8S"), "C")


def test_normal_changes_suit_by_rank_toward_the_suit_it_holds():
    state = position(
        "clasico", [["9H", "9C", "2C", "4C", "6C"], ["2D", "3D", "4D"]], "9D", stock=["7D"]
    )
    assert normal(state) == Play(Card.parse("9C"))


def test_normal_sheds_a_high_card_when_the_choice_is_otherwise_even():
    state = position("clasico", [["3H", "KH", "5C", "6C"], ["2D", "3D", "4D"]], "7H", stock=["9D"])
    assert normal(state) == Play(Card.parse("KH"))


def test_normal_goes_out_when_its_last_card_fits():
    state = position("especiales", [["QH"], ["2D", "3D"]], "3H", stock=["9D"])
    assert normal(state) == Play(Card.parse("QH"))


def test_normal_answers_a_penalty_with_a_card_of_its_rank():
    state = position(
        "especiales", [["2C", "5H", "KH"], ["2D", "3D"]], "2H", stock=["9C"], pending_draw=2
    )
    assert normal(state) == Play(Card.parse("2C"))


def test_normal_attacks_the_player_with_one_card_left_with_a_penalty_card():
    state = position("especiales", [["2H", "5H", "KH"], ["3D"]], "7H", stock=["9C"])
    assert normal(state) == Play(Card.parse("2H"))


def test_normal_skips_the_player_with_one_card_left_among_four():
    state = position(
        "especiales",
        [["QH", "4H", "6C"], ["3D"], ["5S", "6S", "7S"], ["9S", "10S", "JS"]],
        "7H",
        stock=["9C"],
    )
    assert normal(state) == Play(Card.parse("QH"))


def test_normal_names_a_suit_the_player_with_one_card_left_drew_on():
    # Player 1 drew when diamonds were asked for, then played the card drawn: it holds one
    # card, probably no diamond. Normal holds as many clubs as hearts and names diamonds.
    state = position(
        "clasico",
        [["8S", "4C", "5C", "6H", "7H"], ["KH"]],
        "3D",
        turn=1,
        stock=["QD", "9S", "10S"],
    )
    state = play(state, "draw", "QD")
    move = normal(state)
    assert (move.card, move.suit) == (Card.parse("8S"), "D")


# What a club player would call a blunder, checked over positions of random rounds at every
# rule set and table size (the presets, and house rule sets with other special ranks).


def normal_decisions(rules: RuleSet, players: int, count: int = 120):
    """(state, legal moves, Normal's move) along random rounds."""
    for state in itertools.islice(positions(rules, players, seed=players), count):
        moves = legal_moves(state)
        yield state, moves, choose(view_for(state, state.turn), moves, level="normal", rng=None)


@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_normal_never_spends_a_wild_card_while_another_card_fits(rules, players):
    for _, moves, move in normal_decisions(rules, players):
        wild = rules.wild_ranks
        if isinstance(move, Play) and move.card.rank in wild:
            others = [m for m in moves if isinstance(m, Play) and m.card.rank not in wild]
            assert not others, (move, others)


@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_normal_never_draws_while_a_card_fits(rules, players):
    for state, moves, move in normal_decisions(rules, players):
        if any(isinstance(m, Play) for m in moves) and not state.pending_draw:
            assert isinstance(move, (Play, Catch)), (moves, move)


@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_normal_never_takes_a_penalty_it_could_pass_on(rules, players):
    for state, moves, move in normal_decisions(rules, players, count=400):
        if state.pending_draw and any(isinstance(m, Play) for m in moves):
            assert isinstance(move, (Play, Catch)), (moves, move)


@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_normal_announces_exactly_when_it_plays_its_second_to_last_card(rules, players):
    for state, moves, move in normal_decisions(rules, players, count=400):
        if Catch() in moves:
            assert move == Catch()  # the forgetful player draws the fine first
        elif isinstance(move, Play) and rules.announces:
            assert move.announce == (len(state.hands[state.turn]) == 2), move


@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_normal_goes_out_whenever_its_last_card_fits(rules, players):
    for state, moves, move in normal_decisions(rules, players, count=400):
        if len(state.hands[state.turn]) == 1 and any(isinstance(m, Play) for m in moves):
            assert isinstance(move, (Play, Catch)), (moves, move)
