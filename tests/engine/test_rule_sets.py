"""Rule sets are data: the presets, and what a rule set may and may not say."""

import random

import pytest

from ocholoco import PRESETS, Effect, RuleSet, new_round, random_playout


def test_the_product_presets_clasico_and_especiales():
    clasico, especiales = PRESETS["clasico"], PRESETS["especiales"]
    assert (clasico.key, especiales.key) == ("clasico", "especiales")
    assert clasico.effects == ()
    assert especiales.effect("2") == Effect("draw", 2)
    assert especiales.effect("Q") == Effect("skip")
    assert especiales.effect("A") == Effect("reverse")
    for rules in (clasico, especiales):
        assert rules.wild_ranks == frozenset({"8"})
        assert (rules.min_players, rules.max_players, rules.decks) == (2, 4, 1)
        assert [rules.hand_size(n) for n in (2, 3, 4)] == [7, 5, 5]
        assert [rules.target(n) for n in (2, 3, 4)] == [100, 150, 200]


@pytest.mark.parametrize(
    "fields",
    [
        {"max_players": 5},
        {"wild_ranks": frozenset({"8", "Z"})},
        {"effects": (("8", Effect("skip")),)},
        {"hand_sizes": ((2, 30), (3, 5), (4, 5))},
    ],
)
def test_an_inconsistent_rule_set_is_refused(fields):
    with pytest.raises(ValueError):
        RuleSet(key="x", label="x", **fields)


def test_a_house_rule_set_is_data_two_decks_eight_players_other_special_ranks():
    chileno_like = RuleSet(
        key="grande",
        label="Grande",
        max_players=8,
        hand_sizes=tuple((n, 8) for n in range(2, 9)),
        decks=2,
        effects=(("2", Effect("draw", 2)), ("3", Effect("draw", 3)), ("7", Effect("skip")),
                 ("Q", Effect("reverse")), ("K", Effect("draw", 4, stackable=False))),
    )  # fmt: skip
    rng = random.Random(1)
    for players in (2, 5, 8):
        state = new_round(chileno_like, players, seed=players)
        assert sum(map(len, state.hands)) + state.stock_size + 1 == 104
        done = random_playout(state, rng)
        assert done.finished
        cards = sorted([*(c for h in done.hands for c in h), *done.stock, *done.discard])
        assert len(cards) == 104 and len(set(cards)) == 52
