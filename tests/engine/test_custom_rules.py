"""Custom rule sets from options, their JSON, their validation and the facts they say."""

import json
import random

import pytest

from ocholoco import (
    PRESETS,
    Effect,
    Fact,
    InvalidRules,
    from_json,
    new_match,
    new_round,
    random_playout,
    rules_facts,
    rules_from_json,
    rules_to_json,
    ruleset_from_options,
    to_json,
)
from ocholoco.facts import RULES_FACTS

CUSTOM = {
    "label": "La de casa",
    "max_players": 5,
    "hand_size": 6,
    "hand_size_two": 8,
    "two_decks_from": 5,
    "jokers": 2,
    "joker_points": 25,
    "wild_rank": "J",
    "effects": {"8": {"kind": "draw", "amount": 3, "stackable": False}, "K": "skip",
                "4": "reverse", "JK": {"kind": "draw", "amount": 5}},
    "draw_policy": "draw_one",
    "empty_stock": "reshuffle",
    "scoring": "penalty",
    "target": 200,
    "announce_fine": 3,
}  # fmt: skip


def test_a_custom_rule_set_is_built_from_every_kind_of_option():
    rules = ruleset_from_options(CUSTOM)
    assert (rules.key, rules.label, rules.max_players) == ("personalizada", "La de casa", 5)
    assert [rules.hand_size(n) for n in (2, 3, 5)] == [8, 6, 6]
    assert (rules.decks_for(4), rules.decks_for(5), rules.jokers) == (1, 2, 2)
    assert rules.wild_ranks == frozenset({"J"})
    assert rules.effect("8") == Effect("draw", 3, stackable=False)
    assert rules.effect("JK") == Effect("draw", 5)
    assert (rules.card_points("JK"), rules.target(3), rules.announce_fine) == (25, 200, 3)


def test_presets_are_stored_by_key_and_custom_rule_sets_whole_and_both_read_back():
    assert rules_to_json(PRESETS["chileno"]) == "chileno"
    rules = ruleset_from_options(CUSTOM)
    data = json.loads(json.dumps(rules_to_json(rules)))
    assert rules_from_json(data) == rules
    for key, preset in PRESETS.items():
        assert rules_from_json(rules_to_json(preset)) is preset
        copy = ruleset_from_options({"base": key, "label": "Copia"})
        assert rules_from_json(json.loads(json.dumps(rules_to_json(copy)))) == copy


@pytest.mark.parametrize("players", [2, 5])
def test_rounds_and_matches_with_custom_rules_survive_a_json_round_trip(players):
    rules = ruleset_from_options(CUSTOM)
    state = new_round(rules, players, seed=players)
    done = random_playout(state, random.Random(players))
    for obj in (state, done, new_match(rules, players)):
        assert from_json(json.loads(json.dumps(to_json(obj)))) == obj


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        ({"max_players": 9}, Fact("players_range")),
        ({"max_players": 4, "hand_size": 13}, Fact.of("not_enough_cards", cards=13, players=4)),
        ({"wild_rank": "Q", "effects": {"Q": "skip"}}, Fact("wild_with_effect")),
        ({"effects": {"JK": "skip"}}, Fact("effect_not_in_deck")),
        ({"effects": {"Q": "copy"}}, Fact("copy_two_players")),
        ({"effects": {"2": {"kind": "draw"}}}, Fact("draw_amount_missing")),
        ({"effects": {"2": "fly"}}, Fact.of("effect_unknown", kind="'fly'")),
        ({"draw_policy": "never"}, Fact("draw_policy_unknown")),
        ({"hand_size": "mucho"}, Fact.of("not_a_number", name="hand_size")),
        ({"colour": "red"}, Fact.of("options_unknown", names=("colour",))),
        ({"base": "poker"}, Fact.of("base_unknown", name="'poker'")),
    ],
)
def test_an_impossible_combination_is_refused_with_its_reason(options, reason):
    with pytest.raises(InvalidRules) as refused:
        ruleset_from_options(options)
    assert refused.value.reason == reason
    assert issubclass(InvalidRules, ValueError)


def test_every_rule_set_is_described_by_facts_that_follow_its_data():
    for rules in PRESETS.values():
        facts = rules_facts(rules)
        assert facts[0] == Fact.of("players", min=rules.min_players, max=rules.max_players)
        assert {f.code for f in facts} <= RULES_FACTS
    facts = {f.code: dict(f.args) for f in rules_facts(ruleset_from_options(CUSTOM))}
    assert facts["deck_two_from"] == {"jokers": 2, "players": 5}
    assert facts["wilds"] == {"ranks": ("J",)}
    assert facts["draw"] == {"policy": "draw_one"} and facts["reshuffle"] == {"times": 3}
    assert facts["announce"] == {"fine": 3}
    assert facts["target_penalty"] == {"points": 200, "per_player": False}
    assert (("JK",), 25) in facts["points"]["groups"]
    clasico = {f.code: dict(f.args) for f in rules_facts(PRESETS["clasico"])}
    assert "no_reshuffle" in clasico and "scoring_winner_takes" in clasico
    assert clasico["deal_by_players"] == {"groups": ((2, 2, 7), (3, 4, 5))}
    assert clasico["points"] == {
        "groups": ((("8",), 50), (("K", "Q", "J"), 10), (("A",), 1)),
        "runs": ((2, 7), (9, 9), (10, 10)),
    }


def test_presets_come_in_order():
    assert list(PRESETS) == ["clasico", "especiales", "libro", "anuncio", "chileno"]
