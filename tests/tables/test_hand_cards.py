"""A hand's card buttons, face-up cards and card backs are rendered once per distinct card
state and kept: what is kept must be exactly what the template renders for that state, never
another state's markup."""

import pytest
from django.template.loader import render_to_string
from django.utils import translation

import ocholoco
from tables.audiences.cards import card_info, suit_info
from tables.templatetags.hand_cards import card_backs, face_card, hand_card, hand_cards


def _card(code: str, **state) -> dict:
    card = ocholoco.Card(code[:-1], code[-1])
    info = card_info(card, code)
    info.update(playable=False, move="", suit_moves=[], needs_suit=False, why_not="")
    info.update(state)
    return info


def _template(card: dict, partial: str = "hand_card") -> str:
    return render_to_string(f"tables/table.html#{partial}", {"c": card})


def test_each_state_of_a_card_gets_its_own_markup_and_the_templates_own():
    states = [
        _card("7H"),
        _card("7H", why_not="No es del palo ni del número de la carta de arriba."),
        _card("7H", playable=True, move="7H"),
        _card("8S", playable=True, move="8S:H", needs_suit=True, suit_moves=[
            {"suit": suit_info(s), "move": f"8S:{s}"} for s in "SHDC"
        ]),
        _card("8S", playable=True, move="8S:D", needs_suit=False, suit_moves=[
            {"suit": suit_info("D"), "move": "8S:D"}
        ]),
    ]
    for _ in range(2):  # the second time from what was kept
        for card in states:
            assert hand_card(card) == _template(card)
    assert len({hand_card(card) for card in states}) == len(states)
    assert "data-playable" not in hand_card(states[0])
    assert 'data-why="No es del palo' in hand_card(states[1])
    assert 'value="7H"' in hand_card(states[2])
    assert hand_card(states[3]).count('name="move"') == 4
    assert hand_cards(states) == "".join(_template(card) for card in states)


def test_face_up_cards_and_backs_are_the_templates_own_each_kept_apart():
    cards = [card_info(ocholoco.Card(code[:-1], code[-1]), code) for code in ("7H", "8S", "QD")]
    cards.append(card_info(ocholoco.JOKER, "★"))
    for _ in range(2):  # the second time from what was kept
        for card in cards:
            assert face_card(card) == _template(card, "card")
        for count in (0, 1, 7, 12):
            assert card_backs(count) == render_to_string(
                "tables/table.html#backs", {"backs": range(count)}
            )
    assert len({face_card(card) for card in cards}) == len(cards)
    assert card_backs(7).count('class="card back"') == 7 and card_backs(0) == ""
    assert 'data-card="QD"' in face_card(cards[2]) and 'aria-label="comodín"' in face_card(cards[3])


def test_a_face_up_card_is_a_dict_of_the_callers_own():
    card = ocholoco.Card("7", "H")
    first = card_info(card, "7H")
    first.update(playable=True, code="changed")
    again = card_info(card, "7H")
    assert again["code"] == "7H" and "playable" not in again
    assert card_info(card, "7H#2")["code"] == "7H#2"


def test_a_card_kept_in_one_language_is_not_served_in_another():
    """The partials hold words ("se puede jugar", the suit dialog): each language keeps its own."""
    with translation.override("en"):
        if translation.gettext("Elige el palo") == "Elige el palo":
            pytest.skip("the English catalog is not compiled (manage.py compilemessages)")
    card = _card("8S", playable=True, move="8S:H", needs_suit=True, suit_moves=[
        {"suit": suit_info(s), "move": f"8S:{s}"} for s in "SHDC"
    ])
    with translation.override("es"):
        spanish = hand_card(card)
    with translation.override("en"):
        english = hand_card(card)
        assert english == _template(card)
    assert "Elige el palo" in spanish and "Elige el palo" not in english
