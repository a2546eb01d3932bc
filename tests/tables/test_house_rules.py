"""ABRIR MESA with a preset or with house rules ("Reglas de la casa")."""

from __future__ import annotations

import pytest

from tables.models import Table

from .helpers import Person

pytestmark = pytest.mark.django_db

HOUSE = {
    "rules": "casa", "name": "Ana", "max_players": "6", "hand_size": "6", "hand_size_two": "8",
    "wild_rank": "J", "jokers": "2", "effect_JK": "draw4", "effect_7": "skip",
    "effect_K": "reverse", "effect_2": "draw2", "draw_policy": "draw_one",
    "empty_stock": "reshuffle", "scoring": "penalty", "target": "100", "announce": "1",
}


def test_abrir_mesa_offers_every_preset_with_the_products_two_first_and_house_rules():
    page = Person().get("/").content.decode()
    positions = [page.index(f'value="{key}"') for key in
                 ("clasico", "especiales", "libro", "anuncio", "chileno", "casa")]
    assert positions == sorted(positions)
    assert "Reglas de la casa" in page
    # each preset says in one line what sets it apart
    for note in ("Solo el 8 es especial.", "Se roba una sola carta", "¡Última carta!", "comodines"):
        assert note in page, note


@pytest.mark.parametrize("rules, seats", [("clasico", 4), ("libro", 6), ("anuncio", 8)])
def test_the_seat_count_follows_the_rule_set(rules, seats):
    host = Person("Ana")
    table = host.open_table(rules)
    assert table.seat_count == seats
    page = host.get(f"/mesa/{table.code}/", follow=True).content.decode()
    assert page.count('class="player seat-') == seats


def test_house_rules_are_kept_with_the_table_and_told_on_its_rules_card():
    host = Person("Ana")
    response = host.post("/abrir/", HOUSE, htmx=False)
    assert response.status_code == 302
    table = Table.objects.get()
    rules = table.rules
    assert (rules.key, table.seat_count, rules.jokers, rules.scoring) == ("casa", 6, 2, "penalty")
    assert rules.wild_ranks == frozenset({"J"}) and rules.announce_fine == 2
    assert rules.effect("2").amount == 2 and rules.effect("JK").amount == 4
    card = Person("Carla").get(f"/mesa/{table.code}/").content.decode()  # a spectator too
    assert "comodín" in card.lower() and "Reglas de la casa" in card


def test_impossible_house_rules_are_refused_in_spanish_and_open_nothing():
    too_many = {**HOUSE, "max_players": "8", "hand_size": "12", "jokers": "0"}
    response = Person().post("/abrir/", too_many, htmx=False)
    assert response.status_code == 400
    assert "Esas reglas no se pueden jugar" in response.content.decode()
    assert not Table.objects.exists()


def test_a_forged_card_effect_is_refused_in_spanish_and_opens_nothing():
    forged = {**HOUSE, "effect_5": "draw99"}
    response = Person().post("/abrir/", forged, htmx=False)
    assert response.status_code == 400
    assert "Efecto desconocido" in response.content.decode()
    assert not Table.objects.exists()
