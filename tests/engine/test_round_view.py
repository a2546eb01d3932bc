"""What a player may know: `view_for`, `legal_moves_for_view`, `revealed_hands`."""

import random

import pytest

from ocholoco import (
    Card,
    Fact,
    legal_moves,
    legal_moves_for_view,
    new_round,
    random_playout,
    revealed_hands,
    view_for,
    why_not_playable,
    why_not_playable_for_view,
)

from .positions import play, position


def test_a_spectators_view_holds_no_hand_and_no_move_and_the_same_table_as_a_players():
    state = new_round("especiales", 3, seed=4)
    watcher, player = view_for(state, None), view_for(state, state.turn)
    assert watcher.player is None and watcher.hand == () and watcher.drawn is None
    assert not watcher.my_turn and legal_moves_for_view(watcher) == []
    public = ("hand_sizes", "top", "active_suit", "stock_size", "turn", "direction", "history")
    assert all(getattr(watcher, field) == getattr(player, field) for field in public)


def test_a_view_holds_the_own_hand_and_only_the_card_counts_of_the_others():
    state = new_round("especiales", 3, seed=4)
    view = view_for(state, 1)
    assert view.hand == state.hands[1]
    assert view.hand_sizes == (5, 5, 5)
    assert (view.top, view.active_suit, view.stock_size) == (state.top, state.active_suit, 36)
    assert (view.turn, view.direction, view.pending_draw) == (state.turn, 1, state.pending_draw)
    assert not hasattr(view, "hands") and not hasattr(view, "stock")


def test_the_history_tells_who_drew_but_not_which_card():
    state = play(position("clasico", [["9S", "7H"], ["KS"]], "5H", stock=["2C"]), "draw", "7H")
    events = view_for(state, 1).history
    assert [(e.kind, e.player, e.card) for e in events[1:]] == [
        ("draw", 0, None),
        ("play", 0, Card.parse("7H")),
    ]


def test_legal_moves_from_a_view_are_those_of_the_round_on_the_viewers_turn():
    state = position("especiales", [["2H", "8C", "KS"], ["2S", "9D", "QD"]], "5H", stock=["3C"])
    assert legal_moves_for_view(view_for(state, 0)) == legal_moves(state)
    assert legal_moves_for_view(view_for(state, 1)) == []
    state = play(state, "2H")
    assert legal_moves_for_view(view_for(state, 1)) == legal_moves(state)


def test_why_a_card_is_not_playable_is_told_from_the_view_too():
    state = position("clasico", [["7H", "JD"], ["KS"]], "5H", stock=["2C"])
    assert why_not_playable_for_view(view_for(state, 0), "JD") == why_not_playable(state, "JD")
    assert why_not_playable_for_view(view_for(state, 1), "KS") == Fact("not_your_turn")


def test_hands_are_revealed_only_once_the_round_is_over():
    state = new_round("clasico", 2, seed=5)
    with pytest.raises(ValueError):
        revealed_hands(state)
    done = random_playout(state, random.Random(5))
    assert revealed_hands(done) == done.hands
