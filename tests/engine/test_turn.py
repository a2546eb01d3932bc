"""A turn: play, play an 8, draw, pass (docs/rules.md "A turn"), and the messages for mistakes."""

import pytest

from ocholoco import (
    Card,
    Draw,
    Fact,
    IllegalMove,
    Pass,
    Play,
    apply_move,
    legal_moves,
    why_not_playable,
)

from .positions import play, position

OTHER = ["KS", "KC", "KD"]


def plays(state):
    return {str(m) for m in legal_moves(state) if isinstance(m, Play)}


def test_a_card_of_the_active_suit_or_of_the_top_cards_rank_can_be_played():
    state = position("clasico", [["7H", "5C", "9S", "JD"], OTHER], "5H", stock=["2C"])
    assert plays(state) == {"7H", "5C"}
    assert play(state, "5C").active_suit == "C"


def test_an_eight_can_be_played_on_anything_and_is_listed_once_per_suit():
    state = position("clasico", [["8D", "9S"], OTHER], "5H", stock=["2C"])
    assert plays(state) == {"8D:S", "8D:H", "8D:D", "8D:C"}


def test_an_eight_may_name_any_suit_even_its_own():
    state = play(position("clasico", [["8D", "9S"], OTHER], "5H"), "8D:D")
    assert (state.top, state.active_suit) == (Card.parse("8D"), "D")


def test_after_an_eight_only_the_named_suit_or_another_eight_may_follow():
    state = play(position("clasico", [["8D", "9S"], ["KS", "5D", "8C", "9H"]], "5H"), "8D:S")
    assert plays(state) == {"KS", "8C:S", "8C:H", "8C:D", "8C:C"}
    assert why_not_playable(state, "5D") == Fact.of("must_follow_suit", suit="S", wilds=("8",))


def test_drawing_is_allowed_while_holding_a_playable_card_and_keeps_the_turn():
    state = position("clasico", [["7H", "9S"], OTHER], "5H", stock=["2C", "3C"])
    assert Draw() in legal_moves(state)
    after = play(state, "draw", "draw")
    assert after.turn == 0
    assert after.hands[0] == tuple(map(Card.parse, ["9S", "7H", "2C", "3C"]))
    assert after.stock_size == 0
    assert [(e.kind, e.player, e.card, e.count) for e in after.history[-2:]] == [
        ("draw", 0, None, 1),
        ("draw", 0, None, 1),
    ]


def test_passing_needs_an_empty_stock_and_no_playable_card():
    with_stock = position("clasico", [["9S", "JD"], OTHER], "5H", stock=["2C"])
    assert legal_moves(with_stock) == [Draw()]
    stuck = position("clasico", [["9S", "JD"], OTHER], "5H")
    assert legal_moves(stuck) == [Pass()]
    after = play(stuck, "pass")
    assert (after.turn, after.history[-1].kind, after.idle_turns) == (1, "pass", 1)


def test_no_draw_from_an_empty_stock():
    state = position("clasico", [["7H", "JD"], OTHER], "5H")
    assert legal_moves(state) == [Play(Card.parse("7H"))]


@pytest.mark.parametrize(
    ("stock", "hand", "move", "reason"),
    [
        (["2C"], ["7H", "JD"], "QH", Fact("not_in_hand")),
        (["2C"], ["7H", "JD"], "JD", Fact.of("must_follow", suit="H", rank="5", wilds=("8",))),
        (["2C"], ["8S", "JD"], "8S", Fact.of("must_name_suit", rank="8")),
        (["2C"], ["7H", "JD"], "7H:S", Fact.of("no_suit_to_name", rank="7")),
        (["2C"], ["7H", "JD"], "pass", Fact("pass_can_draw")),
        ([], ["7H", "JD"], "pass", Fact("pass_can_play")),
        ([], ["7H", "JD"], "draw", Fact("stock_empty")),
        (["2C"], ["8S"], "8S:H", Fact("last_card_names_no_suit")),
    ],
)
def test_an_illegal_move_is_refused_with_its_reason_and_its_arguments(stock, hand, move, reason):
    state = position("clasico", [hand, OTHER], "5H", stock=stock)
    with pytest.raises(IllegalMove) as refused:
        apply_move(state, move)
    assert refused.value.reason == reason


def test_why_a_card_is_not_playable_is_told_and_none_when_it_is():
    state = position("clasico", [["7H", "JD", "8C"], OTHER], "5H", stock=["2C"])
    assert why_not_playable(state, "7H") is None
    assert why_not_playable(state, "8C") is None
    assert why_not_playable(state, "JD") == Fact.of(
        "must_follow", suit="H", rank="5", wilds=("8",)
    )
    assert why_not_playable(state, "KS") == Fact("not_in_hand")


def test_play_goes_on_in_the_current_direction():
    state = position("clasico", [["7H", "2S"], ["9H", "3S"], ["JH", "4S"]], "5H", stock=["2C"])
    assert [s.turn for s in (play(state, "7H"), play(state, "7H", "9H"))] == [1, 2]
    reversed_ = position("clasico", [["7H", "2S"], ["9H", "3S"], ["JH", "4S"]], "5H",
                         stock=["2C"], direction=-1)  # fmt: skip
    assert play(reversed_, "7H").turn == 2
