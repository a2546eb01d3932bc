""" "Ocho locos de libro" (house rules): reshuffled discard, draw one, penalty points, 2 to 6."""

import pytest

from ocholoco import (
    Card,
    Draw,
    Fact,
    IllegalMove,
    Match,
    Pass,
    Play,
    apply_move,
    legal_moves,
    new_match,
    new_round,
    ruleset_from_options,
    why_not_playable,
)

from .positions import play, position

OTHER = ["KS", "KC", "KD"]


def test_an_empty_stock_is_rebuilt_from_the_discard_pile_but_its_top_card():
    state = position("libro", [["9S", "JD"], OTHER], "5H")
    assert state.stock_size == 0 and state.can_draw
    state = play(state, "draw")
    assert [e.kind for e in state.history[-2:]] == ["reshuffle", "draw"]
    assert state.history[-2].count == 52 - 5 - 1
    assert state.top == Card.parse("5H") and state.discard == (Card.parse("5H"),)
    assert state.stock_size == 52 - 5 - 1 - 1


def test_the_reshuffle_follows_the_rounds_salt_so_the_same_round_reshuffles_the_same_way():
    first = play(position("libro", [["9S", "JD"], OTHER], "5H"), "draw")
    again = play(position("libro", [["9S", "JD"], OTHER], "5H"), "draw")
    assert first.stock == again.stock and first.hands == again.hands
    assert len({new_round("libro", 2, seed=s).salt for s in range(5)}) == 5


def test_a_player_may_draw_one_card_even_holding_a_playable_one():
    state = position("libro", [["7H", "QS"], OTHER], "5H", stock=["2C", "3C"])
    assert Draw() in legal_moves(state)


def test_after_drawing_only_the_drawn_card_may_be_played_if_it_fits_or_the_player_passes():
    state = play(position("libro", [["7H", "QS"], OTHER], "5H", stock=["9H", "3C"]), "draw")
    assert legal_moves(state) == [Play(Card.parse("9H")), Pass()]
    assert why_not_playable(state, "7H") == Fact("only_drawn_card")
    with pytest.raises(IllegalMove) as refused:
        apply_move(state, "draw")
    assert refused.value.reason == Fact("already_drew")
    assert play(state, "9H").turn == 1


def test_a_drawn_card_that_does_not_fit_leaves_only_the_pass_and_the_turn_goes_on():
    state = play(position("libro", [["7H", "QS"], OTHER], "5H", stock=["3C", "9H"]), "draw")
    assert legal_moves(state) == [Pass()]
    state = play(state, "pass")
    assert state.turn == 1 and state.idle_turns == 0  # a turn that drew is not idle


def test_the_variant_robar_hasta_poder_draws_until_the_player_plays():
    rules = ruleset_from_options({"base": "libro", "draw_policy": "until_playable"})
    state = new_round(rules, 2, seed=1)
    assert rules.reshuffles and rules.draw_policy == "until_playable"
    before = state.turn
    state = apply_move(state, "draw")
    assert state.turn == before and Draw() in legal_moves(state)


def test_going_out_each_other_player_adds_the_points_left_in_their_own_hand():
    state = play(position("libro", [["5H"], ["KS", "8C"], ["AS", "9D"]], "9H"), "5H")
    assert state.finished and state.winners == (0,)
    assert state.round_points == (0, 60, 10)


def test_with_stock_and_discard_exhausted_and_nobody_able_to_play_the_round_ends_blocked():
    hands = [["KS", "3C"], ["QD", "9C"], ["JS", "4C", "AD"]]
    state = position("libro", hands, "5H", reshuffled=3)
    assert legal_moves(state) == [Pass()]
    state = play(state, "pass", "pass", "pass")
    assert state.finished and state.blocked
    assert (state.winners, state.round_points) == ((0,), (13, 19, 15))


def test_the_stock_is_rebuilt_at_most_three_times_a_round():
    state = position("libro", [["9S", "JD"], OTHER], "5H", reshuffled=2)
    assert state.can_draw
    assert not position("libro", [["9S", "JD"], OTHER], "5H", reshuffled=3).can_draw


def test_the_match_ends_at_one_hundred_penalty_points_and_the_lowest_total_wins():
    match = new_match("libro", 3)
    assert match.target == 100
    assert Match(match.rules, 3, (40, 100, 40)).winners == (0, 2)
    assert not Match(match.rules, 3, (40, 99, 40)).finished


@pytest.mark.parametrize("target", [50, 100, 200])
def test_the_target_may_be_fifty_one_hundred_or_two_hundred(target):
    rules = ruleset_from_options({"base": "libro", "target": target})
    assert new_match(rules, 4).target == target


@pytest.mark.parametrize(("players", "size"), [(2, 7), (3, 5), (6, 5)])
def test_two_to_six_players_seven_cards_each_with_two(players, size):
    state = new_round("libro", players, seed=players)
    assert [len(hand) for hand in state.hands] == [size] * players
    with pytest.raises(ValueError):
        new_round("libro", 7, seed=1)
