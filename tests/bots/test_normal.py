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


def normal_cases(rules: RuleSet, players: int, holds, chosen=None, want: int = 8):
    """(state, legal moves, Normal's move) at the positions of random rounds where
    ``holds(state, moves)`` and Normal's move is ``chosen(move)`` (if given): the first
    ``want`` of them (fewer only if they do not show up in `LOOKED_AT` positions; each test
    checks that it saw them all, so that none passes on no case)."""
    for state in itertools.islice(positions(rules, players, seed=players, every=1), LOOKED_AT):
        moves = legal_moves(state)
        if not holds(state, moves):
            continue
        move = choose(view_for(state, state.turn), moves, level="normal", rng=None)
        if chosen is None or chosen(move):
            yield state, moves, move
            want -= 1
            if not want:
                return


LOOKED_AT = 20_000  # positions looked at, at most, for a test's cases
CASES = 8
# The tables where a case can arise: a wild card, a penalty that a card may answer (a
# stackable one), the announcement.
WILD_TABLES = [t for t in TABLES if t.values[0].wild_ranks]
ANSWER_TABLES = [
    t for t in TABLES if any(e.kind == "draw" and e.stackable for _, e in t.values[0].effects)
]
ANNOUNCE_TABLES = [t for t in TABLES if t.values[0].announces]


def plays(state, moves) -> bool:
    """Whether a card may be played."""
    return any(isinstance(m, Play) for m in moves)


@pytest.mark.parametrize(("rules", "players"), WILD_TABLES)
def test_normal_never_spends_a_wild_card_while_another_card_fits(rules, players):
    wild = rules.wild_ranks

    def a_wild_card_fits(state, moves):
        return any(isinstance(m, Play) and m.card.rank in wild for m in moves)

    def spends_it(move):
        return isinstance(move, Play) and move.card.rank in wild

    cases = 0
    for _, moves, move in normal_cases(rules, players, a_wild_card_fits, spends_it):
        others = [m for m in moves if isinstance(m, Play) and m.card.rank not in wild]
        assert not others, (move, others)
        cases += 1
    assert cases == CASES


@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_normal_never_draws_while_a_card_fits(rules, players):
    def a_card_fits(state, moves):
        return plays(state, moves) and not state.pending_draw

    cases = 0
    for _, moves, move in normal_cases(rules, players, a_card_fits):
        assert isinstance(move, (Play, Catch)), (moves, move)
        cases += 1
    assert cases == CASES


@pytest.mark.parametrize(("rules", "players"), ANSWER_TABLES)
def test_normal_never_takes_a_penalty_it_could_pass_on(rules, players):
    def a_card_answers(state, moves):
        return state.pending_draw and plays(state, moves)

    cases = 0
    for _, moves, move in normal_cases(rules, players, a_card_answers):
        assert isinstance(move, (Play, Catch)), (moves, move)
        cases += 1
    assert cases == CASES


@pytest.mark.parametrize(("rules", "players"), ANNOUNCE_TABLES)
def test_normal_catches_first_and_announces_only_with_its_second_to_last_card(rules, players):
    def may_catch_or_play(state, moves):
        return Catch() in moves or plays(state, moves)

    cases = 0
    for state, moves, move in normal_cases(rules, players, may_catch_or_play, want=60):
        if Catch() in moves:
            assert move == Catch()  # the forgetful player draws the fine first
        else:
            assert isinstance(move, Play), (moves, move)
            assert move.announce == (len(state.hands[state.turn]) == 2), move
        cases += 1
    assert cases == 60


@pytest.mark.parametrize(("rules", "players"), ANNOUNCE_TABLES)
def test_normal_announces_when_it_plays_its_second_to_last_card(rules, players):
    def holds_two_cards(state, moves):
        return len(state.hands[state.turn]) == 2 and plays(state, moves)

    def a_play(move):
        return isinstance(move, Play)

    cases = 0
    for _, _, move in normal_cases(rules, players, holds_two_cards, a_play):
        assert move.announce, move
        cases += 1
    assert cases == CASES


@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_normal_goes_out_whenever_its_last_card_fits(rules, players):
    def last_card_fits(state, moves):
        return len(state.hands[state.turn]) == 1 and plays(state, moves)

    cases = 0
    for _, moves, move in normal_cases(rules, players, last_card_fits):
        assert isinstance(move, (Play, Catch)), (moves, move)
        cases += 1
    assert cases == CASES
