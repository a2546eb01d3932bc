"""Custom rule sets from options, their JSON, their validation and their Spanish rules card."""

import json
import random

import pytest

from ocholoco import (
    PRESETS,
    Effect,
    InvalidRules,
    describe_rules,
    from_json,
    new_match,
    new_round,
    random_playout,
    rules_from_json,
    rules_to_json,
    ruleset_from_options,
    to_json,
)

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
    ("options", "message"),
    [
        ({"max_players": 9}, "Se juega de 2 a 8 jugadores"),
        ({"max_players": 4, "hand_size": 13}, "No hay cartas para repartir 13 a 4 jugadores"),
        ({"wild_rank": "Q", "effects": {"Q": "skip"}}, "no puede tener efecto"),
        ({"effects": {"JK": "skip"}}, "carta que no está en la baraja"),
        ({"effects": {"Q": "copy"}}, "solo se juega entre dos"),
        ({"effects": {"2": {"kind": "draw"}}}, "necesita cuántas cartas"),
        ({"effects": {"2": "fly"}}, "Efecto desconocido"),
        ({"draw_policy": "never"}, "Forma de robar desconocida"),
        ({"hand_size": "mucho"}, "tiene que ser un número"),
        ({"colour": "red"}, "Opción desconocida: colour"),
        ({"base": "poker"}, "No hay reglas base"),
    ],
)
def test_an_impossible_combination_is_refused_with_a_message_in_spanish(options, message):
    with pytest.raises(InvalidRules, match=message):
        ruleset_from_options(options)
    assert issubclass(InvalidRules, ValueError)


def test_every_rule_set_is_described_in_spanish_sentences_that_follow_its_data():
    for rules in PRESETS.values():
        lines = describe_rules(rules)
        assert all(line.endswith(".") for line in lines)
        assert f"de {rules.min_players} a {rules.max_players} jugadores" in lines[0]
    text = " ".join(describe_rules(ruleset_from_options(CUSTOM)))
    for part in ("2 comodines", "desde 5 jugadores se mezclan dos barajas", "una jota",
                 "Un 8: el siguiente jugador roba 3", "no se puede responder",
                 "robas una carta: si sirve", "se baraja el descarte", "robas 3",
                 "el comodín, 25", "llega a 200 puntos", "gana quien tenga menos"):  # fmt: skip
        assert part in text, part
    clasico = " ".join(describe_rules(PRESETS["clasico"]))
    assert "El mazo no se rehace" in clasico and "más puntos" in clasico
    assert "Se reparten 7 con 2 jugadores y 5 con 3 a 4 jugadores." in describe_rules(
        PRESETS["clasico"]
    )


def test_presets_come_in_order_with_their_spanish_labels():
    assert [(k, r.label) for k, r in PRESETS.items()] == [
        ("clasico", "Clásico"), ("especiales", "Con especiales"),
        ("libro", "Ocho locos de libro"), ("anuncio", "Crazy Eights con anuncio"),
        ("chileno", "Ocho loco chileno"),
    ]  # fmt: skip
