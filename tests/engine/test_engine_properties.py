"""Invariants over random rounds: every preset, every player count it allows."""

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from ocholoco import (
    PRESETS,
    Catch,
    Draw,
    IllegalMove,
    Pass,
    Play,
    apply_move,
    deck_cards,
    from_json,
    legal_actions,
    legal_moves,
    legal_moves_for_view,
    new_match,
    new_round,
    random_playout,
    step,
    to_json,
    view_for,
    why_not_playable,
)
from ocholoco.facts import REASONS

GAMES = [(key, n) for key, rules in PRESETS.items()
         for n in range(rules.min_players, rules.max_players + 1)]  # fmt: skip
games = st.sampled_from(GAMES)
seeds = st.integers(min_value=0, max_value=2**32)
MAX_MOVES = 3000  # far above any round: a round never runs that long
PRODUCT = ("clasico", "especiales")
STRIDE = 13


def points(hand, rules):
    return sum(rules.card_points(card.rank) for card in hand)


def round_trip(obj):
    return from_json(json.loads(json.dumps(to_json(obj))))


def check_position(state):
    rules = state.rules
    everything = [*(c for hand in state.hands for c in hand), *state.stock, *state.discard]
    deck = deck_cards(rules, state.players)
    assert Counter(everything) == Counter(deck), "cards are conserved"
    assert state.discard_size == len(state.discard) and state.discard[-1] == state.top
    assert round_trip(state) == state
    for player in range(state.players):
        view = view_for(state, player)
        assert round_trip(view) == view
        assert view.hand == state.hands[player]
        assert view.drawn is None or player == state.turn
        if rules.decks_for(state.players) == 1 and not rules.reshuffles:
            public = {e.card for e in view.history if e.kind != "back"} | {view.top}
            others = {c for p, hand in enumerate(state.hands) if p != player for c in hand}
            assert not public & (others | set(state.stock)), "a view shows no hidden card"
        shown = set(json.dumps(to_json(view)).split('"')) & {str(c) for c in deck}
        told = {str(e.card) for e in view.history if e.card} | {str(c) for c in view.hand}
        assert shown <= told, "a view names no card but its own and public ones"
    if state.finished:
        assert legal_moves(state) == []
        hand_points = [points(hand, rules) for hand in state.hands]
        if rules.scoring == "penalty":
            assert list(state.round_points) == hand_points
            low = min(hand_points)
            if state.blocked:
                assert state.winners == tuple(i for i, x in enumerate(hand_points) if x == low)
            else:
                assert state.hands[state.winners[0]] == ()
            return
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
    candidates = [Draw(), Pass(), Catch()] + [
        Play(c, s, a) for c in set(hand) for s in (None, "S", "H", "D", "C") for a in (False, True)
    ]
    refused = 0
    for move in candidates:
        if move not in moves:
            try:
                apply_move(state, move)
            except IllegalMove as refusal:
                assert refusal.reason.code in REASONS
            else:
                raise AssertionError(f"{move} was accepted but is not legal")
            refused += 1
    assert refused  # (a catch, a pass or a draw, a suit named with a plain card: never all legal)


@settings(max_examples=100, deadline=None)
@given(games, seeds)
def test_random_rounds_keep_every_invariant_to_their_end(game, seed):
    key, players = game
    rng = random.Random(seed)
    state = new_round(PRESETS[key], players, rng.randrange(players), seed=seed)
    # Every position of the product's short rounds; one in STRIDE of the house rules' longer
    # ones (and always the last), to keep the suite quick.
    stride = 1 if key in PRODUCT else STRIDE
    for n in range(MAX_MOVES):
        if n % stride == 0 or state.finished:
            check_position(state)
        if state.finished:
            break
        before = to_json(state) if n % stride == 0 else None
        move = rng.choice(legal_moves(state))
        assert round_trip(move) == move
        following = apply_move(state, move)
        assert before is None or to_json(state) == before, "apply_move never mutates its input"
        state = following
    assert state.finished, "every round ends"


@settings(max_examples=60, deadline=None)
@given(games, seeds)
def test_a_round_read_back_from_its_json_plays_on_as_the_round_itself(game, seed):
    # A table keeps the round a move made and hands it to the next move instead of reading
    # the JSON it saved: the two must go on alike, move after move, to the round's end.
    key, players = game
    rng = random.Random(seed)
    state = new_round(PRESETS[key], players, rng.randrange(players), seed=seed)
    read = round_trip(state)
    for _ in range(MAX_MOVES):
        assert to_json(read) == to_json(state) and read.history == state.history
        if state.finished:
            break
        move = rng.choice(legal_moves(state))
        assert legal_moves(read) == legal_moves(state)
        state, read = apply_move(state, move), round_trip(apply_move(read, move))
    assert state.finished


@settings(max_examples=40, deadline=None)
@given(games, seeds)
def test_the_history_of_a_round_changed_in_place_follows_it(game, seed):
    # `history` is read once per chain of events; `step` changes a playout's own round.
    key, players = game
    rng = random.Random(seed)
    own = round_trip(new_round(PRESETS[key], players, seed=seed))
    while not own.finished:
        seen = own.history
        step(own, rng.choice(legal_actions(own)))
        assert own.history == round_trip(own).history
        assert own.history[: len(seen)] == seen and len(own.history) > len(seen)


@settings(max_examples=200, deadline=None)
@given(games, seeds)
def test_a_random_playout_ends_with_the_cards_conserved(game, seed):
    key, players = game
    state = new_round(PRESETS[key], players, seed=seed)
    done = random_playout(state, random.Random(seed))
    assert done.finished and state == new_round(PRESETS[key], players, seed=seed)
    everything = [*(c for hand in done.hands for c in hand), *done.stock, *done.discard]
    assert Counter(everything) == Counter(deck_cards(PRESETS[key], players))
    assert sum(done.round_points) > 0 or done.blocked


@settings(max_examples=20, deadline=None)
@given(games, seeds)
def test_a_match_reaches_its_end(game, seed):
    key, players = game
    rng = random.Random(seed)
    match = new_match(key, players)
    for _ in range(500):
        if match.finished:
            break
        match = match.apply_round(random_playout(match.deal(rng=rng), rng))
        assert round_trip(match) == match
    assert match.finished and match.winners
    assert max(match.totals) >= match.target
