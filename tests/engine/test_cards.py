import pytest

from ocholoco import (
    SUIT_NAMES,
    SUIT_SYMBOLS,
    Card,
    Draw,
    Pass,
    Play,
    card_name,
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


def test_cards_have_spanish_names_and_suit_symbols():
    assert card_name("10H") == "10 de corazones"
    assert card_name("AS") == "as de picas"
    assert card_name("QC") == "reina de tréboles"
    assert card_name("KD") == "rey de diamantes"
    assert SUIT_SYMBOLS == {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    assert SUIT_NAMES["C"] == "tréboles"


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


def test_history_events_read_as_spanish_log_lines():
    from ocholoco import Event, describe_event

    names = ["Ana", "Beto"].__getitem__
    play8 = Event("play", 0, Card.parse("8H"), "S")
    assert describe_event(play8, names) == "Ana jugó el 8 de corazones y pidió picas"
    assert describe_event(Event("play", 1, Card.parse("QC")), names) == (
        "Beto jugó la reina de tréboles"
    )
    assert describe_event(Event("penalty", 1, count=4), names) == (
        "Beto robó 4 cartas y pierde el turno"
    )


def test_a_players_own_events_are_said_to_them_and_others_by_name():
    from ocholoco import Event, describe_event

    names = ["Ana", "Beto"].__getitem__
    play8 = Event("play", 0, Card.parse("8H"), "S")
    assert describe_event(play8, names, me=0) == "Jugaste el 8 de corazones y pediste picas"
    assert describe_event(play8, names, me=1) == "Ana jugó el 8 de corazones y pidió picas"
    assert describe_event(Event("draw", 1), names, me=1) == "Robaste una carta"
    assert describe_event(Event("penalty", 1, count=2), names, me=1) == (
        "Robaste 2 cartas y pierdes el turno"
    )
    assert describe_event(Event("pass", 0), names, me=0) == "Pasaste"
    assert describe_event(Event("skip", 0), names, me=0) == "Pierdes el turno"
    # What is nobody's (the card that opens the pile) reads the same for everyone.
    opening = Event("open", 0, Card.parse("9H"))
    assert describe_event(opening, names, me=0) == describe_event(opening, names)


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
