"""A hand's card buttons are rendered once per distinct card state and kept: what is kept must
be exactly what the template renders for that state, never another state's markup."""

from django.template.loader import render_to_string

import ocholoco
from tables.card_display import card_info, suit_info
from tables.templatetags.hand_cards import hand_card


def _card(code: str, **state) -> dict:
    card = ocholoco.Card(code[:-1], code[-1])
    info = card_info(card, code)
    info.update(playable=False, move="", suit_moves=[], needs_suit=False, why_not="")
    info.update(state)
    return info


def _template(card: dict) -> str:
    return render_to_string("tables/table.html#hand_card", {"c": card})


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
