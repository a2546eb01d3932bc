"""What robots infer from a view agrees with the round behind it, and guesses are consistent."""

from __future__ import annotations

import itertools
import random

import pytest

from bots import choose
from bots.determinize import _plays_as_seen, sample_round
from bots.inference import public_info
from ocholoco import PRESETS, Card, apply_move, legal_actions, legal_moves, new_round, view_for
from ocholoco.encoding import V, ids_of, tables_for
from tests.engine.positions import play, position

from .helpers import TABLES, positions


@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_a_guess_agrees_with_everything_the_view_shows_and_the_round_proves(rules, players):
    rng = random.Random(2)
    reshuffled = 0
    for state in itertools.islice(positions(rules, players, seed=players + 10), 80):
        me = state.turn
        view = view_for(state, me)
        info = public_info(view)
        hidden = sorted(c.value for p, hand in enumerate(state.hands) if p != me for c in hand)
        hidden = sorted(hidden + [c.value for c in state.stock])
        assert sorted(i % V for i in (*info.hidden, *info.placed)) == hidden
        for card, where in info.placed.items():  # wild cards put back at the deal
            if where >= 0:
                assert Card.from_value(card) in state.hands[where]
            else:
                assert state.stock[-1 - where] == Card.from_value(card)
        for p in range(players):  # what a pass proves holds in the real round
            assert not info.excluded[p] & sum(1 << c.value for c in state.hands[p])
        guess = sample_round(view, info, rng)
        assert guess.hand_sizes == state.hand_sizes
        assert guess.stock_size == state.stock_size
        assert guess.discard_size == state.discard_size
        assert guess.hands[me] == state.hands[me]
        for p in range(players):
            assert not info.excluded[p] & sum(1 << c.value for c in guess.hands[p])
        # the guess holds the real deck's cards (a joker only where the rules have jokers)...
        dealt = sorted([*(c for hand in guess.hands for c in hand), *guess.stock])
        assert dealt == sorted([*(c for hand in state.hands for c in hand), *state.stock])
        ids = [*guess.stock_ids, *(i for hand in guess.hand_masks for i in ids_of(hand))]
        assert len(set(ids)) == len(ids) and set(ids) <= set(tables_for(rules, players).ids)
        # ...and offers the player to move the same moves as the real round, in the same order
        assert legal_actions(guess) == legal_actions(state)
        reshuffled += any(e.kind == "reshuffle" for e in view.history)
    if rules.reshuffles and rules.decks_for(players) == 1 and players > 2:
        assert reshuffled  # the inference was checked after a reshuffle too


def test_a_wild_card_turned_at_the_deal_is_found_where_it_went_back():
    found = 0
    for seed in range(300):
        state = new_round(PRESETS["clasico"], 2, seed=seed)
        if not any(e.kind == "back" for e in state.history):
            continue
        info = public_info(view_for(state, 0))
        for card, where in info.placed.items():
            assert where < 0 and state.stock[-1 - where] == Card.from_value(card)
            found += 1
    assert found > 5


def test_a_player_who_drew_on_a_suit_probably_lacks_it_and_one_who_passed_surely_does():
    drew = play(position("clasico", [["5C"], ["KH", "2S"]], "3D", turn=1, stock=["QD"]), "draw")
    info = public_info(view_for(drew, 0))
    assert info.lacks[1][2] == 1.0  # diamonds
    # nor, probably, a card of the top's rank or a wild card; of anything else, no idea
    for card, unlikely in (("9D", 1.0), ("3H", 1.0), ("8C", 1.0), ("KH", 0.0), ("QS", 0.0)):
        assert info.unlikely[1][Card.parse(card).value] == unlikely, card
    passed = position("clasico", [["5C", "9C"], ["KH", "2S"]], "3D", turn=1)
    passed = play(passed, "pass")
    info = public_info(view_for(passed, 0))
    excluded = [Card.from_value(v) for v in range(V) if info.excluded[1] >> v & 1]
    assert Card.parse("8S") in excluded and Card.parse("QD") in excluded
    assert Card.parse("3C") in excluded and Card.parse("KH") not in excluded


# A copying card's effect depends on the pile, so its plays are never read (`inference`).
READABLE_TABLES = [t for t in TABLES if all(e.kind != "copy" for _, e in t.values[0].effects)]


@pytest.mark.parametrize(("rules", "players"), READABLE_TABLES)
def test_normal_players_hands_agree_with_the_plays_they_were_seen_to_make(rules, players):
    # What `determinize` checks its guesses against holds for the true hands of Normal players.
    rng = random.Random(players)
    checked = 0
    for game in range(6):
        state = new_round(rules, players, game % players, rng=rng)
        while not state.finished:
            info = public_info(view_for(state, 0))
            for p in range(1, players):
                if any(play.telling for play in info.plays[p]):
                    assert _plays_as_seen(info, state.hand_masks[p], info.plays[p], players)
                    checked += 1
            view = view_for(state, state.turn)
            state = apply_move(state, choose(view, legal_moves(state), level="normal", rng=rng))
    assert checked
