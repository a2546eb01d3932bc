"""Coming back to a table: what happened while you were away, and the round's whole log."""

from __future__ import annotations

import pytest

from .helpers import Person, robot_play, round_of, started

pytestmark = pytest.mark.django_db


def test_the_summary_tells_the_moves_made_since_the_version_seen_last():
    table, (ana,) = started("Ana", robots=1)
    seen = table.version
    # The robot (after the dealer) moves, then Ana draws twice and plays or passes on.
    while round_of(table).turn == 1:
        table.refresh_from_db()
        assert robot_play(table_id=table.pk, version=table.version)
    assert ana.move(table, "draw").status_code == 200
    assert ana.move(table, "draw").status_code == 200

    page = Person("Carla").get(f"/mesa/{table.code}/resumen/?desde={seen}").content.decode()
    assert "Mientras no estabas" in page
    assert "Robotina" in page
    assert "Ana robó 2 cartas" in page


def test_nothing_new_means_no_summary():
    table, (ana, _) = started("Ana", "Beto")
    table.refresh_from_db()
    page = ana.get(f"/mesa/{table.code}/resumen/?desde={table.version}").content.decode()
    assert "Mientras no estabas" not in page
    garbage = ana.get(f"/mesa/{table.code}/resumen/?desde=abc").content.decode()
    assert "Mientras no estabas" not in garbage


def test_the_round_log_is_one_tap_away_for_players_and_spectators():
    table, (ana, beto) = started("Ana", "Beto")
    assert beto.move(table, "draw").status_code == 200
    for person in (ana, Person("Carla")):
        page = person.get(f"/mesa/{table.code}/registro/").content.decode()
        assert "Abre la mesa" in page
        assert "Beto robó una carta" in page
