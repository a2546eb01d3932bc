import pytest

from ocholoco import (
    Card,
    Draw,
    Pass,
    Play,
    parse_move,
)


def test_a_card_parses_from_and_prints_as_its_notation():
    card = Card.parse("10H")
    assert (card.rank, card.suit, str(card)) == ("10", "H", "10H")
    assert Card.parse(" qs ") is Card("Q", "S")


def test_cards_are_interned_hashable_and_ordered_by_suit_then_rank():
    assert Card.parse("AS") is Card.parse("AS")
    assert len({Card.parse("AS"), Card.parse("AS"), Card.parse("KS")}) == 2
    assert sorted(map(Card.parse, ["KS", "2H", "AS", "AC"])) == list(
        map(Card.parse, ["AS", "KS", "2H", "AC"])
    )


@pytest.mark.parametrize("text", ["1H", "10X", "", "8", "JOKER"])
def test_a_malformed_card_is_rejected(text):
    with pytest.raises(ValueError):
        Card.parse(text)


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("10H", Play(Card.parse("10H"))),
        ("8H:S", Play(Card.parse("8H"), "S")),
        ("8H", Play(Card.parse("8H"))),
        ("draw", Draw()),
        ("pass", Pass()),
    ],
)
def test_moves_have_a_string_notation_that_parses_back(text, move):
    assert parse_move(text) == move
    assert str(move) == text
    assert hash(parse_move(text)) == hash(move)


@pytest.mark.parametrize("text", ["8H:X", "robar", "10", ""])
def test_a_malformed_move_is_rejected(text):
    with pytest.raises(ValueError):
        parse_move(text)


def test_a_turn_begins_after_the_last_event_of_someone_else():
    from ocholoco import Event, turn_began_at

    history = (
        Event("open", 0, Card.parse("9H")), Event("play", 1, Card.parse("5H")),
        Event("draw", 0), Event("reshuffle", 0, count=20), Event("draw", 0),
    )
    assert turn_began_at(history, 0) == 2  # drawing keeps the turn
    assert turn_began_at(history[:2], 0) == 2
    # A dealer who plays first: the card they opened is not their move.
    assert turn_began_at(history[:1], 0) == 1
    # A skip against the only opponent: Ana's next turn is a new one.
    skipped = (*history[:2], Event("play", 0, Card.parse("QH")), Event("skip", 1))
    assert turn_began_at(skipped, 0) == 4


def test_only_a_reverse_card_with_three_or_more_turns_the_direction():
    from ocholoco import PRESETS

    especiales = PRESETS["especiales"]
    assert especiales.reverses("A", 3) and not especiales.reverses("A", 2)
    assert not especiales.reverses("Q", 4) and not PRESETS["clasico"].reverses("A", 4)
