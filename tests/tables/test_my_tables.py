"""My tables: every table this browser has a seat at, and no other."""

from __future__ import annotations

import re

import pytest

from .helpers import Person, lobby, round_of, started

pytestmark = pytest.mark.django_db


def _listed_codes(person: Person) -> list[str]:
    page = person.get("/mis-mesas/").content.decode()
    return re.findall(r'href="/mesa/([^/"]+)/"', page)


def test_my_tables_lists_the_tables_of_this_browser_and_no_others():
    first, (ana, beto) = started("Ana", "Beto")
    second, (carla, _) = lobby("Carla", "Dani")
    assert beto.join(second).status_code == 200
    third, _ = lobby("Eva")

    assert sorted(_listed_codes(beto)) == sorted([first.player_code, second.player_code])
    assert _listed_codes(ana) == [first.player_code]
    assert third.player_code not in _listed_codes(carla)
    assert _listed_codes(Person("Nadie")) == []


def test_the_table_where_it_is_my_turn_comes_first_with_te_toca():
    waiting, (ana, beto) = started("Ana", "Beto")  # Beto (after the dealer) is to move
    newer, (carla, _) = lobby("Carla", "Dani")
    assert ana.join(newer).status_code == 200
    assert round_of(waiting).turn == 1

    page = beto.get("/mis-mesas/").content.decode()
    assert "Te toca" in page
    assert _listed_codes(ana)[0] == newer.player_code  # newest first when it is nobody's turn
    ana_page = ana.get("/mis-mesas/").content.decode()
    assert "Turno de Beto" in ana_page and "Te toca" not in ana_page


def test_a_seat_whose_person_left_is_no_longer_listed():
    table, (ana, beto) = started("Ana", "Beto")
    assert beto.act(table, "abandonar").status_code == 200
    assert _listed_codes(beto) == []


def test_the_home_page_offers_my_tables_once_the_browser_has_a_seat():
    person = Person("Ana")
    assert "Mis mesas" not in person.get("/").content.decode()
    person.open_table()
    assert "Mis mesas" in person.get("/").content.decode()
