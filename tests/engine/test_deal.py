"""Players, seats, deal and the opening card (docs/rules.md "Players, seats, deal")."""

import pytest

from ocholoco import RANKS, SUITS, Card, legal_moves, new_round, stacked_deck

CARDS_52 = [rank + suit for suit in SUITS for rank in RANKS]


def cards(text: str) -> tuple[Card, ...]:
    return tuple(sorted(map(Card.parse, text.split())))


def test_cards_are_dealt_one_at_a_time_starting_with_the_player_after_the_dealer():
    state = new_round("clasico", 3, dealer=1, deck=CARDS_52)
    # deck[0] goes to player 2, deck[1] to player 0, deck[2] to player 1, and so on.
    assert state.hands[2] == cards("AS 4S 7S 10S KS")
    assert state.hands[0] == cards("2S 5S 8S JS AH")
    assert state.hands[1] == cards("3S 6S 9S QS 2H")
    assert state.top == Card.parse("3H")
    assert state.stock[0] == Card.parse("4H")


@pytest.mark.parametrize(("players", "size"), [(2, 7), (3, 5), (4, 5)])
def test_five_cards_each_and_seven_when_only_two_play(players, size):
    state = new_round("clasico", players, seed=3)
    assert [len(hand) for hand in state.hands] == [size] * players
    assert state.stock_size == 52 - size * players - 1


@pytest.mark.parametrize("players", [1, 5])
def test_two_to_four_players(players):
    with pytest.raises(ValueError):
        new_round("clasico", players, seed=1)


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_the_player_after_the_dealer_plays_first(dealer):
    state = new_round("clasico", 4, dealer=dealer, deck=CARDS_52)
    assert (state.turn, state.dealer, state.direction) == ((dealer + 1) % 4, dealer, 1)


def test_the_top_card_of_the_stock_opens_the_discard_pile():
    deck = stacked_deck(
        "clasico",
        [["AS", "2S", "3S", "4S", "5S", "6S", "7S"], ["AH", "2H", "3H", "4H", "5H", "6H", "7H"]],
        "9D",
        ["JC"],
    )
    state = new_round("clasico", 2, deck=deck)
    assert (state.top, state.active_suit, state.stock[0]) == (Card.parse("9D"), "D", Card("J", "C"))
    assert [e.kind for e in state.history] == ["open"]


def test_an_eight_opening_card_goes_back_to_the_middle_of_the_stock():
    hands = [["AS", "2S", "3S", "4S", "5S"], ["AH", "2H", "3H", "4H", "5H"],
             ["AD", "2D", "3D", "4D", "5D"], ["AC", "2C", "3C", "4C", "5C"]]  # fmt: skip
    state = new_round("clasico", 4, deck=stacked_deck("clasico", hands, "8H", ["9D", "KC"]))
    # The 8 leaves the 32-card stock, goes in at 31 // 2 = 15, then 9D is turned.
    assert state.top == Card.parse("9D")
    assert state.stock[0] == Card.parse("KC")
    assert state.stock[15 - 1] == Card.parse("8H")
    assert state.stock_size == 31
    assert [(e.kind, str(e.card)) for e in state.history] == [("back", "8H"), ("open", "9D")]


def test_eights_keep_going_back_until_the_opening_card_is_not_an_eight():
    hands = [["AS", "2S", "3S", "4S", "5S", "6S", "7S"], ["AH", "2H", "3H", "4H", "5H", "6H", "7H"]]
    deck = stacked_deck("clasico", hands, "8H", ["8C", "10D"])
    state = new_round("clasico", 2, deck=deck)
    assert state.top == Card.parse("10D")
    assert [str(e.card) for e in state.history] == ["8H", "8C", "10D"]
    assert Card.parse("8H") in state.stock and Card.parse("8C") in state.stock
    assert state.stock_size == 52 - 14 - 1


def test_the_same_seed_deals_the_same_round():
    assert new_round("especiales", 4, seed=7) == new_round("especiales", 4, seed=7)
    assert new_round("especiales", 4, seed=7) != new_round("especiales", 4, seed=8)


def test_a_scripted_deck_must_be_one_whole_deck():
    with pytest.raises(ValueError):
        new_round("clasico", 2, deck=CARDS_52[:-1])
    with pytest.raises(ValueError):
        new_round("clasico", 2, deck=CARDS_52[:-1] + ["AS"])


def test_a_new_round_offers_the_first_player_their_moves():
    state = new_round("clasico", 2, deck=CARDS_52)
    assert legal_moves(state)
