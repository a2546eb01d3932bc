"""The engine's facts in words (`tables.audiences.wording`): every code the engine may say has
its sentence, and the sentences are the ones the pages have always shown."""

from __future__ import annotations

import re

import pytest

import ocholoco
from ocholoco import Card, Event, Fact
from ocholoco.facts import INVALID_RULES, REASONS, RECORD_ERRORS, RULES_FACTS
from ocholoco.history import KINDS
from tables.audiences import wording

NAMES = ["Ana", "Beto"].__getitem__

# One example of every reason, with its sentence (and with the suit said by its name).
REASON_SENTENCES = {
    Fact("round_over"): "La ronda terminó",
    Fact("not_your_turn"): "No es tu turno",
    Fact("not_in_hand"): "Esa carta no está en tu mano",
    Fact("only_drawn_card"): "Después de robar solo puedes jugar la carta que robaste, o pasar",
    Fact.of("must_draw", count=4): "Tienes que robar 4",
    Fact.of("must_answer_or_draw", rank="2", count=2): "Tienes que responder con un 2 o robar 2",
    Fact.of("must_follow", suit="H", rank="5", wilds=("8",)): "Tienes que jugar ♥, un 5 o un 8",
    Fact.of("must_follow_suit", suit="S", wilds=("8", "J")): "Tienes que jugar ♠ o un 8 o una jota",
    Fact("nobody_to_catch"): "No hay nadie a quien pillar sin anunciar su última carta",
    Fact("no_announcing"): "En estas reglas no se anuncia la última carta",
    Fact("announce_second_last"): "¡Última carta! se anuncia al jugar la penúltima",
    Fact.of("no_suit_to_name", rank="Q"): "Con una reina no se elige palo",
    Fact.of("must_name_suit", rank="8"): "Tienes que elegir un palo para el 8",
    Fact("last_card_names_no_suit"): "Con tu última carta no eliges palo: la ronda termina",
    Fact("already_drew"): "Ya robaste: juega la carta robada o pasa",
    Fact("stock_empty"): "El mazo se acabó: no puedes robar",
    Fact("pass_can_draw"): "No puedes pasar: todavía puedes robar",
    Fact("pass_can_play"): "No puedes pasar: tienes una carta que sirve",
}  # fmt: skip

INVALID_EXAMPLES = {
    "players_range": {}, "decks_range": {}, "hand_size_missing": {"players": 3},
    "hand_size_low": {}, "not_enough_cards": {"cards": 13, "players": 4},
    "decks_by_players_range": {}, "jokers_range": {}, "wild_needs_suit": {},
    "effect_not_in_deck": {}, "points_missing": {}, "wild_with_effect": {}, "wild_all": {},
    "draw_amount_range": {}, "copy_two_players": {}, "joker_copies": {},
    "draw_policy_unknown": {}, "empty_stock_unknown": {}, "scoring_unknown": {},
    "target_invalid": {}, "reshuffles_range": {}, "fine_range": {}, "options_not_a_dict": {},
    "options_unknown": {"names": ("colour", "size")}, "base_unknown": {"name": "'poker'"},
    "options_invalid": {"error": "bad"}, "not_a_number": {"name": "hand_size"},
    "effect_unknown": {"kind": "'fly'"}, "draw_amount_missing": {},
    "rules_unknown": {"name": "'nada'"},
}  # fmt: skip

# Rule sets that between them say every rule fact.
CUSTOM = {
    "label": "La de casa", "max_players": 5, "hand_size": 6, "hand_size_two": 8,
    "two_decks_from": 5, "jokers": 2, "joker_points": 25, "wild_rank": "J",
    "effects": {"8": {"kind": "draw", "amount": 3, "stackable": False}, "K": "skip"},
    "draw_policy": "draw_one", "empty_stock": "reshuffle", "scoring": "penalty", "target": 200,
    "announce_fine": 3,
}  # fmt: skip
ALL_RULES = [
    *ocholoco.PRESETS.values(),
    ocholoco.ruleset_from_options(CUSTOM),
    ocholoco.ruleset_from_options({"base": "libro", "target": 0, "decks": 2}),
    ocholoco.ruleset_from_options({"base": "chileno", "target": 0, "jokers": 1}),
]
PLACEHOLDER = re.compile(r"%\(|%s|\{|\}")


def test_every_reason_the_engine_gives_has_its_sentence():
    assert {fact.code for fact in REASON_SENTENCES} == REASONS
    for fact, sentence in REASON_SENTENCES.items():
        assert wording.reason_sentence(fact) == sentence
    follow = Fact.of("must_follow", suit="H", rank="5", wilds=("8",))
    assert wording.reason_sentence(follow, words=True) == "Tienes que jugar corazones, un 5 o un 8"
    assert wording.card_refusal(follow) == (
        "Tienes que jugar ♥, un 5 o un 8", "no: tienes que jugar corazones, un 5 o un 8",
    )  # fmt: skip


def test_every_reason_a_rule_set_is_refused_for_has_its_sentence():
    assert set(INVALID_EXAMPLES) == INVALID_RULES
    for code, args in INVALID_EXAMPLES.items():
        said = wording.invalid_rules_sentence(Fact.of(code, **args))
        assert said and not PLACEHOLDER.search(said), code
    with pytest.raises(ocholoco.InvalidRules) as refused:
        ocholoco.ruleset_from_options({"max_players": 4, "hand_size": 13})
    assert wording.invalid_rules_sentence(refused.value.reason) == (
        "No hay cartas para repartir 13 a 4 jugadores"
    )
    assert wording.invalid_rules_sentence(Fact.of("options_unknown", names=("a", "b"))) == (
        "Opción desconocida: a, b"
    )


def test_every_rule_fact_has_its_sentence_and_the_rule_sets_read_as_always():
    said = {fact.code for rules in ALL_RULES for fact in ocholoco.rules_facts(rules)}
    assert said == RULES_FACTS
    for rules in ALL_RULES:
        for sentence in wording.rules_sentences(rules):
            assert sentence.endswith(".") and not PLACEHOLDER.search(sentence), sentence
    clasico = wording.rules_sentences(ocholoco.PRESETS["clasico"])
    assert clasico[:3] == [
        "Se juega de 2 a 4 jugadores.",
        "Una baraja francesa de 52 cartas, sin comodines.",
        "Se reparten 7 con 2 jugadores y 5 con 3 a 4 jugadores.",
    ]
    assert "Valor de las cartas: el 8, 50; el rey, la reina y la jota, 10; el as, 1; las demás" \
        " (2 a 7, 9 y 10), su número." in clasico  # fmt: skip
    text = " ".join(wording.rules_sentences(ocholoco.ruleset_from_options(CUSTOM)))
    for part in ("con 2 comodines; desde 5 jugadores se mezclan dos barajas", "una jota",
                 "Un 8: el siguiente jugador roba 3", "no se puede responder",
                 "robas una carta: si sirve", "se baraja el descarte", "robas 3",
                 "el comodín, 25", "llega a 200 puntos", "gana quien tenga menos"):  # fmt: skip
        assert part in text, part
    chileno = ocholoco.PRESETS["chileno"]
    assert wording.effect_sentence("JK", chileno.effect("JK")) == (
        "El comodín: el siguiente jugador roba 4 y pierde el turno; no se puede responder."
    )
    assert wording.card_values(ocholoco.PRESETS["clasico"])[-1] == (
        "las demás (2 a 7, 9 y 10)", "su número",
    )  # fmt: skip


def test_presets_have_their_spanish_names_and_a_custom_set_its_own():
    assert [wording.rules_name(r) for r in ocholoco.PRESETS.values()] == [
        "Clásico", "Con especiales", "Ocho locos de libro", "Crazy Eights con anuncio",
        "Ocho loco chileno",
    ]  # fmt: skip
    assert wording.rules_name(ocholoco.ruleset_from_options(CUSTOM)) == "La de casa"
    assert wording.rules_name(ocholoco.ruleset_from_options({})) == "Personalizada"


def test_cards_and_suits_have_spanish_names():
    assert wording.card_name("10H") == "10 de corazones"
    assert wording.card_name("AS") == "as de picas"
    assert wording.card_name("QC") == "reina de tréboles"
    assert wording.card_name("KD") == "rey de diamantes"
    assert wording.card_name("JK") == "comodín" and wording.suit_name("") == "comodín"
    assert wording.suit_name("C") == "tréboles"
    assert wording.a_rank("J") == "una jota" and wording.the_rank("10") == "el 10"


def test_every_event_kind_reads_as_a_log_line_to_everyone_and_to_its_player():
    card = Card.parse("QC")
    for kind in KINDS:
        event = Event(kind, 1, card if kind in ("open", "back", "play") else None, count=2)
        for me in (None, 0, 1):
            said = wording.event_sentence(event, NAMES, me)
            assert said and not PLACEHOLDER.search(said), (kind, me)


def test_history_events_read_as_spanish_log_lines():
    play8 = Event("play", 0, Card.parse("8H"), "S")
    assert wording.event_sentence(play8, NAMES) == "Ana jugó el 8 de corazones y pidió picas"
    assert wording.event_sentence(Event("play", 1, Card.parse("QC")), NAMES) == (
        "Beto jugó la reina de tréboles"
    )
    assert wording.event_sentence(Event("penalty", 1, count=4), NAMES) == (
        "Beto robó 4 cartas y pierde el turno"
    )
    assert wording.event_sentence(Event("caught", 1, count=2), NAMES) == (
        "Beto no dijo «¡Última carta!» y robó 2 cartas"
    )
    assert wording.event_sentence(Event("reshuffle", 0, count=30), NAMES) == (
        "Se baraja el descarte: 30 cartas forman el mazo nuevo"
    )
    assert wording.event_sentence(Event("open", 0, Card.parse("JK")), NAMES) == (
        "Abre la mesa el comodín"
    )
    assert wording.draws_sentence("Ana", 3) == "Ana robó 3 cartas"
    reverse = Event("play", 0, Card.parse("AH"))
    assert wording.event_sentence(reverse, NAMES, reverses=True) == (
        "Ana jugó el as de corazones: cambia el sentido"
    )
    assert wording.event_sentence(reverse, NAMES, 0, reverses=True) == (
        "Jugaste el as de corazones: cambia el sentido"
    )


def test_a_players_own_events_are_said_to_them_and_others_by_name():
    play8 = Event("play", 0, Card.parse("8H"), "S")
    assert wording.event_sentence(play8, NAMES, 0) == "Jugaste el 8 de corazones y pediste picas"
    assert wording.event_sentence(play8, NAMES, 1) == "Ana jugó el 8 de corazones y pidió picas"
    assert wording.event_sentence(Event("draw", 1), NAMES, 1) == "Robaste una carta"
    assert wording.event_sentence(Event("penalty", 1, count=2), NAMES, 1) == (
        "Robaste 2 cartas y pierdes el turno"
    )
    assert wording.event_sentence(Event("pass", 0), NAMES, 0) == "Pasaste"
    assert wording.event_sentence(Event("skip", 0), NAMES, 0) == "Pierdes el turno"
    # What is nobody's (the card that opens the pile) reads the same for everyone.
    opening = Event("open", 0, Card.parse("9H"))
    assert wording.event_sentence(opening, NAMES, 0) == wording.event_sentence(opening, NAMES)


def test_what_a_turn_asks_is_said_whole():
    assert wording.turn_hint(2, "S") == "roba 2, el palo es picas"
    assert wording.turn_hint(2, None) == "roba 2"
    assert wording.turn_hint(0, "D") == "el palo es diamantes"
    assert wording.turn_hint(0, None) == ""


def test_every_reason_a_match_file_is_refused_for_is_worded():
    for code in RECORD_ERRORS:
        reason = ocholoco.Fact.of(
            code, round=2, move=3, version="7", totals=(1, 2), reason=None,
        )
        said = wording.record_error_sentence(reason)
        assert said.endswith(".") and "%(" not in said, code
    illegal = ocholoco.Fact.of(
        "record_move_illegal", round=1, reason=ocholoco.Fact.of("stock_empty")
    )
    assert wording.record_error_sentence(illegal).startswith("Ronda 1: una jugada no se puede")
