"""The fused playout loop plays the same rounds as the step path, under every rule set.

`random_playout` runs a round to its end in one loop over local variables (`playout`); the
step path lists `legal_actions` and applies one with `apply_action` at every move. Given the
same random numbers they must reach the same round: the same hands, stock and discard pile,
turn and direction, penalty, idle turns, winners and points, and the same history. Every
preset at every player count it allows, and custom rule sets built from random options
(wild cards, effects of every kind, jokers, two decks, the house policies), 10,000 rounds of
the presets and custom sets together, derandomized so that a run is repeatable.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ocholoco import (
    PRESETS,
    RANKS,
    Round,
    RuleSet,
    apply_action,
    legal_actions,
    new_round,
    random_playout,
    ruleset_from_options,
)

ROUNDS = 20  # rounds an example plays, each dealt by the example's generator
# Rounds per preset. The fused loop plays the product's rules; under the house rules
# `random_playout` steps too (fewer of their long rounds keep the suite quick).
PRESET_ROUNDS = {"clasico": 3000, "especiales": 3000, "libro": 200, "anuncio": 200, "chileno": 200}
CUSTOM_ROUNDS = 3600  # with the presets' 6,600: 10,200 rounds
seeds = st.integers(min_value=0, max_value=2**32)


def stepped(state: Round, rng: random.Random) -> Round:
    """``state`` played to its end by the step path, choosing as `random_playout` does."""
    while not state.finished:
        actions = legal_actions(state)
        state = apply_action(state, actions[int(rng.random() * len(actions))])
    return state


def same_rounds(rules: RuleSet, players: int, seed: int) -> int:
    """Play `ROUNDS` rounds both ways and check that they agree; returns the rounds played."""
    rng = random.Random(seed)
    for n in range(ROUNDS):
        start = new_round(rules, players, n % players, rng=rng)
        choices = rng.getrandbits(32)
        fused = random_playout(start, random.Random(choices))
        step = stepped(start, random.Random(choices))
        assert fused.finished and step.finished
        assert fused.hands == step.hands
        assert (fused.stock, fused.discard) == (step.stock, step.discard)
        assert (fused.turn, fused.direction) == (step.turn, step.direction)
        assert (fused.pending_draw, fused.pending_rank) == (step.pending_draw, step.pending_rank)
        assert fused.idle_turns == step.idle_turns
        assert (fused.winners, fused.round_points) == (step.winners, step.round_points)
        assert fused.blocked == step.blocked
        assert fused.history == step.history
        assert fused == step
    return ROUNDS


def test_the_rounds_cover_every_preset():
    assert set(PRESET_ROUNDS) == set(PRESETS)
    assert sum(PRESET_ROUNDS.values()) + CUSTOM_ROUNDS >= 10_000


@pytest.mark.parametrize("key", list(PRESETS))
def test_every_preset_plays_the_same_rounds_both_ways(key):
    rules = PRESETS[key]
    played = []

    @settings(max_examples=PRESET_ROUNDS[key] // ROUNDS, derandomize=True, deadline=None)
    @given(players=st.integers(rules.min_players, rules.max_players), seed=seeds)
    def check(players, seed):
        played.append(same_rounds(rules, players, seed))

    check()
    assert sum(played) >= PRESET_ROUNDS[key]


@st.composite
def custom_rules(draw) -> RuleSet:
    """A valid custom rule set from random options: ranks and effects of every kind."""
    most = draw(st.integers(2, 8))
    decks = draw(st.sampled_from([1, 2]))
    jokers = draw(st.integers(0, 4))
    cards = 52 * decks + jokers
    options = {
        "max_players": most,
        "decks": decks,
        "jokers": jokers,
        "hand_size": draw(st.integers(1, min(10, (cards - 1) // most))),
    }
    wild = draw(st.lists(st.sampled_from(RANKS), max_size=2, unique=True))
    options["wild_ranks"] = wild
    special = [r for r in RANKS if r not in wild] + (["JK"] if jokers else [])
    effects = {}
    for rank in draw(st.lists(st.sampled_from(special), max_size=5, unique=True)):
        kinds = ["skip", "reverse", "draw"] + (["copy"] if most == 2 and rank != "JK" else [])
        kind = draw(st.sampled_from(kinds))
        effects[rank] = {"kind": kind}
        if kind == "draw":
            effects[rank] |= {"amount": draw(st.integers(1, 5)), "stackable": draw(st.booleans())}
    options["effects"] = effects
    # One in four with the house policies; the others with the product's (the fused loop).
    if draw(st.sampled_from([False, False, False, True])):
        options["draw_policy"] = draw(
            st.sampled_from(["until_playable", "draw_one", "draw_ends_turn"])
        )
        options["empty_stock"] = draw(st.sampled_from(["pass_and_block", "reshuffle"]))
        options["scoring"] = draw(st.sampled_from(["winner_takes", "penalty"]))
        options["announce_fine"] = draw(st.integers(0, 2))
    return ruleset_from_options(options)


def test_custom_rule_sets_play_the_same_rounds_both_ways():
    played = []
    plain = []

    @settings(max_examples=CUSTOM_ROUNDS // ROUNDS, derandomize=True, deadline=None)
    @given(rules=custom_rules(), data=st.data(), seed=seeds)
    def check(rules, data, seed):
        players = data.draw(st.integers(rules.min_players, rules.max_players))
        played.append(same_rounds(rules, players, seed))
        plain.append(
            rules.draw_policy == "until_playable"
            and rules.empty_stock == "pass_and_block"
            and not rules.announces
        )

    check()
    assert sum(played) >= CUSTOM_ROUNDS
    assert sum(plain) >= len(plain) // 2  # most of them in the fused loop
