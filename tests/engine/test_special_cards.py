"""Special cards in "especiales": 2, Q and A, also as the opening card."""

import pytest

from ocholoco import (
    Card,
    Draw,
    Fact,
    IllegalMove,
    Play,
    apply_move,
    legal_moves,
    new_round,
    stacked_deck,
)

from .positions import play, position

HANDS_3 = [["AS", "3S", "4S", "5S", "6S"], ["AH", "3H", "4H", "5H", "6H"],
           ["AD", "3D", "4D", "5D", "6D"]]  # fmt: skip
HANDS_2 = [h + ["9S" if h[0] == "AS" else "9H", "10S" if h[0] == "AS" else "10H"]
           for h in HANDS_3[:2]]  # fmt: skip


def test_a_two_makes_the_next_player_draw_two_and_lose_the_turn():
    state = position("especiales", [["2H", "KS"], ["9C", "JD"], ["KC", "4C"]], "5H",
                     stock=["3C", "4D", "7S"])  # fmt: skip
    state = play(state, "2H")
    assert (state.turn, state.pending_draw, state.pending_rank) == (1, 2, "2")
    assert legal_moves(state) == [Draw()]
    state = play(state, "draw")
    assert set(state.hands[1]) == set(map(Card.parse, ["JD", "3C", "9C", "4D"]))
    assert (state.turn, state.pending_draw, state.stock_size) == (2, 0, 1)
    assert (state.history[-1].kind, state.history[-1].count) == ("penalty", 2)


def test_a_two_answered_with_a_two_passes_on_a_penalty_grown_by_two():
    state = position("especiales", [["2H", "KS"], ["2S", "JD"], ["KC", "4C"]], "5H",
                     stock=["3C", "4D", "7S", "9S", "10S"])  # fmt: skip
    state = play(state, "2H", "2S")
    assert (state.turn, state.pending_draw) == (2, 4)
    state = play(state, "draw")
    assert (len(state.hands[2]), state.turn, state.pending_draw) == (6, 0, 0)


def test_while_a_penalty_is_pending_only_a_two_or_taking_it_are_legal():
    state = position("especiales", [["2H", "KS"], ["2C", "8S", "5H", "JD"], ["KC"]], "5H",
                     stock=["3C", "4D"])  # fmt: skip
    state = play(state, "2H")
    assert legal_moves(state) == [Play(Card.parse("2C")), Draw()]
    for move in ("8S:H", "5H"):
        with pytest.raises(IllegalMove) as refused:
            apply_move(state, move)
        assert refused.value.reason == Fact.of("must_answer_or_draw", rank="2", count=2)


def test_a_penalty_larger_than_the_stock_draws_what_there_is():
    state = position("especiales", [["2H", "KS"], ["9C", "JD"], ["KC"]], "5H", stock=["3C"])
    state = play(state, "2H", "draw")
    assert (len(state.hands[1]), state.stock_size, state.turn) == (3, 0, 2)
    assert state.history[-1].count == 1


def test_a_penalty_with_an_empty_stock_draws_nothing_and_still_ends_the_turn():
    state = position("especiales", [["2H", "KS"], ["9C", "JD"], ["KC"]], "5H")
    state = play(state, "2H")
    assert legal_moves(state) == [Draw()]
    state = play(state, "draw")
    assert (len(state.hands[1]), state.turn, state.pending_draw) == (2, 2, 0)
    assert (state.history[-1].kind, state.history[-1].count) == ("penalty", 0)


def test_a_queen_makes_the_next_player_lose_the_turn():
    state = position("especiales", [["QH", "KS"], ["9H"], ["7H"]], "5H", stock=["3C"])
    state = play(state, "QH")
    assert state.turn == 2
    assert [(e.kind, e.player) for e in state.history[-2:]] == [("play", 0), ("skip", 1)]


def test_a_queen_with_two_players_lets_the_same_player_play_again():
    state = play(position("especiales", [["QH", "KS"], ["9H"]], "5H", stock=["3C"]), "QH")
    assert state.turn == 0


def test_an_ace_reverses_the_direction():
    hands = [["AH", "KS"], ["9H", "JS"], ["7H", "KD"], ["6H", "KC"]]
    state = position("especiales", hands, "5H", stock=["3C"])
    state = play(state, "AH")
    assert (state.direction, state.turn) == (-1, 3)
    assert play(state, "6H").turn == 2


def test_an_ace_with_two_players_does_nothing():
    state = play(position("especiales", [["AH", "KS"], ["9H"]], "5H", stock=["3C"]), "AH")
    assert (state.direction, state.turn) == (1, 1)


def test_in_clasico_the_two_queen_and_ace_are_plain_cards():
    hands = [["2H", "QH", "AH", "KS"], ["9H", "JH", "10H"], ["7H", "6H", "4H"]]
    state = position("clasico", hands, "5H", stock=["3C"])
    for card, turn in (("2H", 1), ("QH", 1), ("AH", 1)):
        after = play(state, card)
        assert (after.turn, after.direction, after.pending_draw) == (turn, 1, 0)


def test_an_opening_two_acts_as_played_by_the_dealer_the_first_player_faces_robar_2():
    state = new_round("especiales", 3, deck=stacked_deck("especiales", HANDS_3, "2C"))
    assert (state.turn, state.pending_draw) == (1, 2)
    assert legal_moves(state) == [Draw()]


def test_an_opening_two_with_two_players_also_makes_the_first_player_draw():
    state = new_round("especiales", 2, deck=stacked_deck("especiales", HANDS_2, "2C"))
    assert (state.turn, state.pending_draw) == (1, 2)


def test_an_opening_queen_skips_the_first_player():
    state = new_round("especiales", 3, dealer=0, deck=stacked_deck("especiales", HANDS_3, "QC"))
    assert state.turn == 2
    assert [(e.kind, e.player) for e in state.history] == [("open", 0), ("skip", 1)]


def test_an_opening_queen_with_two_players_lets_the_dealer_play_first():
    deck = stacked_deck("especiales", HANDS_2, "QC", dealer=1)
    assert new_round("especiales", 2, dealer=1, deck=deck).turn == 1


def test_an_opening_ace_reverses_so_the_player_before_the_dealer_starts():
    hands = HANDS_3 + [["7C", "9C", "10C", "JC", "KC"]]
    deck = stacked_deck("especiales", hands, "AC", dealer=1)
    state = new_round("especiales", 4, dealer=1, deck=deck)
    assert (state.direction, state.turn) == (-1, 0)


def test_an_opening_ace_with_two_players_does_nothing():
    state = new_round("especiales", 2, deck=stacked_deck("especiales", HANDS_2, "AC"))
    assert (state.direction, state.turn) == (1, 1)
