"""Invariants over random rounds: 2, 3 and 4 players, both product rule sets."""

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from ocholoco import (
    CARDS,
    PRESETS,
    Draw,
    IllegalMove,
    Pass,
    Play,
    apply_move,
    from_json,
    legal_moves,
    legal_moves_for_view,
    new_match,
    new_round,
    random_playout,
    to_json,
    view_for,
    why_not_playable,
)

rules_keys = st.sampled_from(sorted(PRESETS))
player_counts = st.integers(min_value=2, max_value=4)
seeds = st.integers(min_value=0, max_value=2**32)
MAX_MOVES = 1000  # far above any round: a round never runs that long


def points(hand, rules):
    return sum(rules.card_points(card.rank) for card in hand)


def round_trip(obj):
    return from_json(json.loads(json.dumps(to_json(obj))))


def check_position(state):
    rules = state.rules
    everything = [*(c for hand in state.hands for c in hand), *state.stock, *state.discard]
    assert Counter(everything) == Counter(CARDS), "cards are conserved"
    assert round_trip(state) == state
    for player in range(state.players):
        view = view_for(state, player)
        assert round_trip(view) == view
        public = {e.card for e in view.history if e.kind != "back"} | {view.top}
        others = {c for p, hand in enumerate(state.hands) if p != player for c in hand}
        assert not public & (others | set(state.stock)), "a view shows no hidden card"
        assert set(json.dumps(to_json(view)).split('"')) & {str(c) for c in others} <= {
            str(e.card) for e in view.history if e.kind == "back"
        }
    if state.finished:
        assert legal_moves(state) == []
        hand_points = [points(hand, rules) for hand in state.hands]
        if state.blocked:
            low = min(hand_points)
            assert state.winners == tuple(i for i, x in enumerate(hand_points) if x == low)
            expected = [sum(x - low for x in hand_points) if x == low else 0 for x in hand_points]
        else:
            (winner,) = state.winners
            assert state.hands[winner] == ()
            expected = [sum(hand_points) if i == winner else 0 for i in range(state.players)]
        assert list(state.round_points) == expected
        return
    moves = legal_moves(state)
    assert moves, "the player to move always has a legal move"
    assert legal_moves_for_view(view_for(state, state.turn)) == moves
    hand = state.hands[state.turn]
    for card in hand:
        playable = any(isinstance(m, Play) and m.card == card for m in moves)
        assert (why_not_playable(state, card) is None) == playable
    candidates = [Draw(), Pass(), *(Play(c, s) for c in hand for s in (None, "S", "H", "D", "C"))]
    for move in candidates:
        if move not in moves:
            try:
                apply_move(state, move)
            except IllegalMove as refusal:
                assert str(refusal)
            else:
                raise AssertionError(f"{move} was accepted but is not legal")


@settings(max_examples=100, deadline=None)
@given(rules_keys, player_counts, seeds)
def test_random_rounds_keep_every_invariant_to_their_end(key, players, seed):
    rng = random.Random(seed)
    state = new_round(PRESETS[key], players, rng.randrange(players), seed=seed)
    for _ in range(MAX_MOVES):
        check_position(state)
        if state.finished:
            break
        before = to_json(state)
        move = rng.choice(legal_moves(state))
        assert round_trip(move) == move
        following = apply_move(state, move)
        assert to_json(state) == before, "apply_move never mutates its input"
        state = following
    assert state.finished, "every round ends"


@settings(max_examples=200, deadline=None)
@given(rules_keys, player_counts, seeds)
def test_a_random_playout_ends_with_the_cards_conserved(key, players, seed):
    state = new_round(PRESETS[key], players, seed=seed)
    done = random_playout(state, random.Random(seed))
    assert done.finished and state == new_round(PRESETS[key], players, seed=seed)
    everything = [*(c for hand in done.hands for c in hand), *done.stock, *done.discard]
    assert Counter(everything) == Counter(CARDS)
    assert sum(done.round_points) > 0 or done.blocked


@settings(max_examples=20, deadline=None)
@given(rules_keys, player_counts, seeds)
def test_a_match_reaches_its_end(key, players, seed):
    rng = random.Random(seed)
    match = new_match(key, players)
    for _ in range(500):
        if match.finished:
            break
        match = match.apply_round(random_playout(match.deal(rng=rng), rng))
        assert round_trip(match) == match
    assert match.finished and match.winners
    assert max(match.totals) >= match.target
