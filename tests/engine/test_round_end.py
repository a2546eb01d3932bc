"""Going out, the blocked table and scoring (docs/rules.md, the blocked table, going out)."""

import pytest

from ocholoco import PRESETS, Card, Play, legal_moves

from .positions import play, position


def test_going_out_ends_the_round_and_scores_the_points_left_in_the_other_hands():
    state = position("clasico", [["5H"], ["KS", "8C", "3D"], ["AS", "9D"]], "9H", stock=["2C"])
    state = play(state, "5H")
    assert state.finished and not state.blocked
    assert (state.winners, state.round_points) == ((0,), (63 + 10, 0, 0))
    assert legal_moves(state) == []
    assert [e.kind for e in state.history[-2:]] == ["play", "out"]


@pytest.mark.parametrize(
    ("rank", "points"),
    [("8", 50), ("K", 10), ("Q", 10), ("J", 10), ("10", 10), ("A", 1), ("2", 2), ("7", 7),
     ("9", 9)],
)  # fmt: skip
def test_card_points_follow_the_table(rank, points):
    state = play(position("clasico", [["5H"], [rank + "S"]], "9H"), "5H")
    assert state.round_points == (points, 0)
    assert PRESETS["especiales"].card_points(rank) == points


def test_an_eight_played_as_the_last_card_names_no_suit():
    state = position("clasico", [["8S"], ["KS", "3D"]], "9H", stock=["2C"])
    assert [m for m in legal_moves(state) if isinstance(m, Play)] == [Play(Card.parse("8S"))]
    state = play(state, "8S")
    assert state.finished and state.history[-2].suit is None


@pytest.mark.parametrize("last", ["2H", "QH", "AH"])
def test_a_special_card_played_as_the_last_card_has_no_effect(last):
    state = play(position("especiales", [[last], ["KS"], ["3D"]], "9H", stock=["2C"]), last)
    assert state.finished and state.winners == (0,)
    assert (state.pending_draw, state.direction) == (0, 1)
    assert [e.kind for e in state.history][-2:] == ["play", "out"]
    assert state.hands[1] == (Card.parse("KS"),)


def test_a_blocked_table_ends_the_round_after_as_many_idle_turns_as_players():
    state = play(position("clasico", [["KS", "3C"], ["QD", "9C"]], "5H"), "pass")
    assert not state.finished
    state = play(state, "pass")
    assert state.finished and state.blocked
    assert state.history[-1].kind == "blocked"


def test_a_blocked_table_the_fewest_points_collect_the_difference_from_each_other():
    state = position("clasico", [["KS", "3C"], ["QD", "9C"], ["JS", "4C", "AD"]], "5H")
    state = play(state, "pass", "pass", "pass")
    # Hands: 13, 19, 15 points; player 0 collects 6 + 2.
    assert (state.winners, state.round_points) == ((0,), (8, 0, 0))


def test_a_blocked_table_tie_for_fewest_points_both_collect():
    state = position("clasico", [["KS"], ["JS"], ["9C", "6D"], ["KC", "QC"]], "5H")
    state = play(state, "pass", "pass", "pass", "pass")
    # Hands: 10, 10, 15, 20: each of the two tied collects 5 + 10, nothing from the other.
    assert (state.winners, state.round_points) == ((0, 1), (15, 15, 0, 0))


def test_a_play_starts_the_count_of_idle_turns_again():
    hands = [["KS", "3C"], ["5D", "9C"], ["JS", "4C"]]
    state = play(position("clasico", hands, "5H"), "pass", "5D")
    assert state.idle_turns == 0
    state = play(state, "pass", "pass")
    assert not state.finished
    assert play(state, "pass").blocked


def test_a_player_skipped_by_a_queen_had_no_turn_so_it_does_not_count_as_idle():
    hands = [["QH", "3C", "4D"], ["KS", "9C"], ["JS", "4C"]]
    state = play(position("especiales", hands, "5H"), "QH")
    assert state.turn == 2
    state = play(state, "pass", "pass")  # players 2 and 0; player 1 was skipped
    assert not state.finished and state.turn == 1
    assert play(state, "pass").blocked


def test_a_penalty_taken_counts_as_an_idle_turn():
    hands = [["2H", "3C", "4D"], ["KS", "9C"], ["JS", "4C"]]
    state = play(position("especiales", hands, "5H"), "2H", "draw", "pass")
    assert not state.finished
    state = play(state, "pass")
    assert state.blocked
    # Hands: 7, 19, 14 points.
    assert (state.winners, state.round_points) == ((0,), (19, 0, 0))
