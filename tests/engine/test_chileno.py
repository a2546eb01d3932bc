""" "Ocho loco chileno" (house rules): 54 cards with two jokers, 2 / 3 / 7 / Q / joker effects."""

import pytest

from ocholoco import (
    JOKER,
    PRESETS,
    Card,
    Draw,
    InvalidRules,
    Play,
    from_json,
    legal_moves,
    new_match,
    new_round,
    parse_move,
    ruleset_from_options,
    stacked_deck,
    to_json,
)

from .positions import play, position


def test_fifty_four_cards_with_two_jokers_and_eight_cards_each():
    state = new_round("chileno", 4, seed=2)
    assert [len(hand) for hand in state.hands] == [8] * 4
    everything = [*(c for h in state.hands for c in h), *state.stock, state.top]
    assert len(everything) == 54 and everything.count(JOKER) == 2


def test_the_joker_is_written_jk_and_has_no_suit():
    joker = Card.parse("JK")
    assert (str(joker), joker.rank, joker.suit, joker.is_joker) == ("JK", "JK", "", True)
    assert parse_move("JK") == Play(joker)


def test_a_two_makes_the_next_player_draw_two_unless_they_answer_with_a_two():
    state = position("chileno", [["2H", "KS", "4D"], ["2S", "3H", "4S"], ["KC"]], "5H",
                     stock=["3C", "4D", "7S", "9S"])  # fmt: skip
    state = play(state, "2H")
    assert legal_moves(state) == [Play(Card.parse("2S")), Draw()]
    assert play(state, "2S").pending_draw == 4


def test_a_three_makes_the_next_player_draw_three_stacking_only_with_threes():
    state = position("chileno", [["3H", "KS", "4D"], ["3S", "2H", "4S"], ["KC", "4C"]], "5H",
                     stock=["3C", "4D", "7S", "9S", "10S", "JS", "QS"])  # fmt: skip
    state = play(state, "3H")
    assert (state.pending_draw, state.pending_rank) == (3, "3")
    assert legal_moves(state) == [Play(Card.parse("3S")), Draw()]
    state = play(state, "3S", "draw")
    assert (len(state.hands[2]), state.turn) == (8, 0)  # 2 + 6


def test_a_seven_makes_the_next_player_lose_the_turn():
    state = play(position("chileno", [["7H", "KS"], ["9H"], ["4H"]], "5H", stock=["3C"]), "7H")
    assert state.turn == 2 and state.history[-1].kind == "skip"


def test_a_queen_reverses_the_direction():
    hands = [["QH", "KS"], ["9H", "JS"], ["4H", "KD"], ["6H", "KC"]]
    state = play(position("chileno", hands, "5H", stock=["3C"]), "QH")
    assert (state.direction, state.turn) == (-1, 3)


def test_an_eight_is_wild_and_names_a_suit():
    state = position("chileno", [["8D", "KS", "4D"], ["9H"]], "5H", stock=["3C"])
    assert {str(m) for m in legal_moves(state) if isinstance(m, Play)} == {
        "8D:S", "8D:H", "8D:D", "8D:C"
    }  # fmt: skip


def test_a_joker_goes_on_any_card_and_leaves_the_active_suit_as_it_was():
    state = position("chileno", [["JK", "KS"], ["9H", "4C"], ["7C"]], "8D", suit="C",
                     stock=["3C", "4D", "7S", "9S", "10S"])  # fmt: skip
    assert Play(JOKER) in legal_moves(state)
    state = play(state, "JK")
    assert (state.top, state.active_suit) == (JOKER, "C")


def test_a_joker_makes_the_next_player_draw_four_with_no_answer_not_even_a_joker():
    state = position("chileno", [["JK", "KS", "4D"], ["JK", "2H", "5H"], ["7C"]], "5H",
                     stock=["3C", "4D", "7S", "9S", "10S"])  # fmt: skip
    state = play(state, "JK")
    assert (state.pending_draw, state.pending_rank) == (4, None)
    assert legal_moves(state) == [Draw()]
    state = play(state, "draw")
    assert (len(state.hands[1]), state.turn) == (7, 2)


def test_a_joker_turned_to_open_goes_back_into_the_stock_like_an_eight():
    hands = [[r + "S" for r in ["A", "2", "3", "4", "5", "6", "7", "9"]],
             [r + "H" for r in ["A", "2", "3", "4", "5", "6", "7", "9"]]]  # fmt: skip
    deck = stacked_deck("chileno", hands, "JK", ["10D"])
    state = new_round("chileno", 2, deck=deck)
    assert state.top == Card.parse("10D")
    assert [(e.kind, str(e.card)) for e in state.history] == [("back", "JK"), ("open", "10D")]


def test_drawing_a_card_ends_the_turn():
    state = play(position("chileno", [["7H", "KS"], ["9C"]], "5H", stock=["2C", "3C"]), "draw")
    assert state.turn == 1 and len(state.hands[0]) == 3


def test_the_winner_takes_the_sum_of_the_other_hands_with_the_joker_worth_thirty():
    state = play(position("chileno", [["5H"], ["JK", "8C"], ["AS", "9D"]], "9H"), "5H")
    assert state.round_points == (30 + 50 + 1 + 9, 0, 0)
    assert new_match("chileno", 4).target == 100


def test_an_ultima_not_said_costs_two_cards():
    assert PRESETS["chileno"].announce_fine == 2
    state = position("chileno", [["5H", "KS"], ["9H", "4C"], ["7C"]], "9H", stock=["2D", "3D"])
    state = play(state, "5H", "catch")
    assert len(state.hands[0]) == 3 and state.history[-1].kind == "caught"


TWO_PLAYER_COPY = ruleset_from_options(
    {"base": "chileno", "max_players": 2, "effects": {
        "2": {"kind": "draw", "amount": 2}, "3": {"kind": "draw", "amount": 3},
        "7": "skip", "Q": "copy", "JK": {"kind": "draw", "amount": 4, "stackable": False}}}
)  # fmt: skip


def test_two_player_option_a_queen_goes_on_any_card_and_copies_its_effect():
    hands = [["QC", "KS", "4D"], ["9H", "4C"]]
    data = to_json(position("chileno", hands, "7H", stock=["3C", "5D", "6D"]))
    data["rules"] = to_json(new_match(TWO_PLAYER_COPY, 2))["rules"]
    state = from_json(data)
    assert Play(Card.parse("QC")) in legal_moves(state)
    after = play(state, "QC")  # copies the 7: the other player loses the turn
    assert after.turn == 0 and after.history[-1].kind == "skip"
    data["top"], data["active_suit"] = "3H", "H"
    copied_three = play(from_json(data), "QC")
    assert (copied_three.pending_draw, copied_three.turn) == (3, 1)


def test_the_queen_copy_is_only_for_two_players():
    with pytest.raises(InvalidRules) as refused:
        ruleset_from_options({"base": "chileno", "effects": {"Q": "copy"}})
    assert refused.value.reason.code == "copy_two_players"


def test_a_tiny_stock_of_eights_and_a_joker_opens_with_the_first_card_that_may_open():
    # Six players with eight cards each leave six in the stock: 8♠ 8♦ and the joker went
    # round and round here (each back to the middle brings the next one up).
    import ocholoco

    rules = ocholoco.PRESETS["chileno"]
    stock = ["8S", "8D", "JK", "3H", "6H", "5C"]
    rest = [str(c) for c in ocholoco.deck_cards(rules, 6)]
    for card in stock:
        rest.remove(card)
    state = ocholoco.new_round(rules, 6, deck=[*rest, *stock])
    assert str(state.top) == "3H"
    assert sorted(str(c) for c in state.stock) == sorted(["8S", "8D", "JK", "6H", "5C"])
