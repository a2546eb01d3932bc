""" "Crazy Eights con anuncio" (house rules): "¡Última carta!", two decks above four players."""

import pytest

from ocholoco import (
    Card,
    Catch,
    Draw,
    Fact,
    IllegalMove,
    Play,
    apply_move,
    copy_labels,
    legal_moves,
    legal_moves_for_view,
    new_match,
    new_round,
    parse_move,
    stacked_deck,
    view_for,
)

from .positions import play, position

HANDS = [["5H", "KS"], ["9H", "4C", "JD"], ["7C", "2D", "3D"]]
STOCK = ["2C", "3C", "4D", "6S"]


def test_playing_the_second_to_last_card_may_announce_ultima_carta():
    state = position("anuncio", HANDS, "9C", stock=STOCK)
    five = Card.parse("5H")
    assert Play(five, announce=True) not in legal_moves(state)  # 5H does not fit 9C
    state = position("anuncio", HANDS, "5D", stock=STOCK)
    assert legal_moves(state) == [Play(five), Play(five, announce=True), Draw()]
    assert str(Play(five, announce=True)) == "5H!" and parse_move("5H!") == Play(five, None, True)
    state = play(state, "5H!")
    assert state.history[-1].kind == "announce" and Catch() not in legal_moves(state)


def test_who_forgets_to_announce_is_caught_by_the_next_player_and_draws_two():
    state = play(position("anuncio", HANDS, "5D", stock=STOCK), "5H")
    assert state.exposed == 0 and legal_moves(state)[-1] == Catch()
    view = view_for(state, 1)
    assert legal_moves_for_view(view) == legal_moves(state)
    state = play(state, "catch")
    assert len(state.hands[0]) == 3 and state.turn == 1  # the catcher still has the turn
    assert (state.history[-1].kind, state.history[-1].count) == ("caught", 2)
    assert Catch() not in legal_moves(state)


def test_once_the_next_player_acts_it_is_too_late_to_catch():
    state = play(position("anuncio", HANDS, "5D", stock=STOCK), "5H", "9H")
    assert state.exposed is None and Catch() not in legal_moves(state)
    with pytest.raises(IllegalMove) as refused:
        apply_move(state, "catch")
    assert refused.value.reason == Fact("nobody_to_catch")


def test_an_announcement_is_only_for_the_second_to_last_card():
    state = position("anuncio", [["5H", "KS", "6H"], ["9H"]], "5D", stock=STOCK)
    with pytest.raises(IllegalMove) as refused:
        apply_move(state, "5H!")
    assert refused.value.reason == Fact("announce_second_last")


def test_queen_skips_ace_reverses_and_two_makes_draw_two_as_in_especiales():
    hands = [["QH", "AH", "2H", "KS"], ["9H", "JS"], ["7H", "KD"], ["6H", "KC"]]
    assert play(position("anuncio", hands, "5H", stock=STOCK), "QH").turn == 2
    assert play(position("anuncio", hands, "5H", stock=STOCK), "AH").direction == -1
    assert play(position("anuncio", hands, "5H", stock=STOCK), "2H").pending_draw == 2


def test_a_special_first_card_acts_as_played_by_the_dealer():
    hands = [["AS", "3S", "4S", "5S", "6S"], ["AH", "3H", "4H", "5H", "6H"],
             ["AD", "3D", "4D", "5D", "6D"]]  # fmt: skip
    state = new_round("anuncio", 3, deck=stacked_deck("anuncio", hands, "2C"))
    assert (state.turn, state.pending_draw) == (1, 2)


@pytest.mark.parametrize(("players", "cards"), [(2, 52), (4, 52), (5, 104), (8, 104)])
def test_two_to_eight_players_with_two_decks_shuffled_together_above_four(players, cards):
    state = new_round("anuncio", players, seed=players)
    assert sum(map(len, state.hands)) + state.stock_size + 1 == cards


def test_the_copies_of_two_decks_share_their_notation_and_get_distinct_labels():
    hands = [["10H", "10H", "KS", "3C", "4C"]] + [
        [r + s for r in ("5", "6", "7", "9", "J")] for s in "SHDC"
    ]
    state = new_round("anuncio", 5, deck=stacked_deck("anuncio", hands, "2S"))
    assert state.hands[0].count(Card.parse("10H")) == 2
    assert copy_labels(state.hands[0]) == ["KS", "10H", "10H#2", "3C", "4C"]
    assert Card.parse("10H#2") is Card.parse("10H")


def test_penalty_points_each_adds_their_own_hand_and_the_match_goes_to_one_hundred():
    state = play(position("anuncio", [["5H"], ["KS", "8C"], ["AS"]], "9H", stock=STOCK), "5H")
    assert state.round_points == (0, 60, 1)
    assert new_match("anuncio", 6).target == 100
