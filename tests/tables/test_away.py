"""Coming back to a table: what happened while you were away, and the round's whole log."""

from __future__ import annotations

import pytest

import ocholoco

from .helpers import Person, position, robot_play, round_of, set_round, started

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


def _away(table, seen: int) -> list[str]:
    from tables.audiences.narration import away_summary

    table.refresh_from_db()
    return away_summary(table, seen)


def _especiales(hands, top, stock=(), turn=0):
    """Ana and Beto at a 'con especiales' table, in an exact position; the version seen."""
    table, (ana, beto) = started("Ana", "Beto", rules="especiales")
    set_round(table, position("especiales", hands, top, stock=stock, turn=turn))
    table.refresh_from_db()
    return table, ana, beto, table.version


def test_a_penalty_of_two_reads_as_two_cards_drawn_and_the_turn_lost():
    table, ana, beto, seen = _especiales(
        [["2H", "KS", "3C"], ["5D", "9C", "JD"]], "7H", stock=("4D", "6D", "7D", "8C")
    )
    assert ana.move(table, "2H").status_code == 200
    assert beto.move(table, "draw").status_code == 200
    assert _away(table, seen) == [
        "Ana jugó el 2 de corazones", "Beto robó 2 cartas y pierde el turno",
    ]


def test_a_stacked_penalty_of_four_reads_as_four_cards_drawn():
    table, ana, beto, seen = _especiales(
        [["2H", "KS", "3C"], ["2D", "9C", "JD"]], "7H", stock=("4D", "6D", "7D", "8C", "9D")
    )
    assert ana.move(table, "2H").status_code == 200
    assert beto.move(table, "2D").status_code == 200
    assert ana.move(table, "draw").status_code == 200
    assert _away(table, seen)[-1] == "Ana robó 4 cartas y pierde el turno"


def test_a_queen_tells_the_turn_lost_and_an_ace_is_told_as_played():
    table, ana, beto, seen = _especiales(
        [["QH", "AH", "3C"], ["5D", "9C", "JD"]], "7H", stock=("4D",)
    )
    assert ana.move(table, "QH").status_code == 200
    assert ana.move(table, "AH").status_code == 200
    assert _away(table, seen) == [
        "Ana jugó la reina de corazones", "Beto pierde el turno", "Ana jugó el as de corazones",
    ]


def test_an_eight_tells_the_suit_named_and_a_pass_is_told():
    table, ana, beto, seen = _especiales([["8H", "KS"], ["5D", "9C"]], "7H")
    assert ana.move(table, "8H:D").status_code == 200
    assert beto.move(table, "5D").status_code == 200
    assert ana.move(table, "pass").status_code == 200
    assert _away(table, seen) == [
        "Ana jugó el 8 de corazones y pidió diamantes", "Beto jugó el 5 de diamantes",
        "Ana pasó",
    ]


def test_the_last_card_the_round_and_the_next_round_are_told():
    table, ana, beto, seen = _especiales([["5H"], ["KD", "9C"]], "7H")
    assert ana.move(table, "5H").status_code == 200
    assert beto.act(table, "siguiente").status_code == 200
    assert _away(table, seen) == [
        "Ana jugó el 5 de corazones", "Ana se quedó sin cartas",
        "Ana ganó la ronda con 19 puntos", "Empezó la ronda 2: reparte Beto",
    ]


def test_a_blocked_table_is_told_with_who_collected():
    table, ana, beto, seen = _especiales([["KS", "3C"], ["5D", "9D"]], "7H")
    assert ana.move(table, "pass").status_code == 200
    assert beto.move(table, "pass").status_code == 200
    lines = _away(table, seen)
    assert lines[:3] == ["Ana pasó", "Beto pasó", "La mesa se bloqueó"]
    assert lines[3] == "La mesa se bloqueó: Ana ganó la ronda con 1 punto"


def test_a_catch_and_a_reshuffle_are_told_with_their_counts():
    table, (ana, beto) = started("Ana", "Beto", rules="anuncio")
    set_round(table, position("anuncio", [["KS", "3C"], ["5H", "9C"]], "9H",
                              stock=("2D", "4D", "6D", "7D"), turn=1))
    table.refresh_from_db()
    seen = table.version
    assert beto.move(table, "5H").status_code == 200
    assert ana.move(table, "catch").status_code == 200
    assert _away(table, seen)[-1] == "Beto no dijo «¡Última carta!» y robó 2 cartas"

    table, (ana, beto) = started("Ana", "Beto", rules="libro")
    data = ocholoco.to_json(position("libro", [["KD", "3D"], ["QH"]], "9C", turn=0))
    data["history"] = [["open", 0, "JC", None, 0], ["play", 1, "2C", None, 0],
                       ["play", 0, "4C", None, 0], ["play", 1, "6C", None, 0]]
    set_round(table, ocholoco.from_json(data))
    table.refresh_from_db()
    seen = table.version
    assert ana.move(table, "draw").status_code == 200
    reshuffled = _away(table, seen)[0]
    assert reshuffled.startswith("Se baraja el descarte: ")
    assert reshuffled.endswith(" cartas forman el mazo nuevo")


def test_a_said_last_card_and_a_robot_taking_over_are_told():
    table, (ana, beto) = started("Ana", "Beto", rules="anuncio")
    set_round(table, position("anuncio", [["KS", "3C"], ["5H", "9C"]], "9H",
                              stock=("2D", "4D"), turn=1))
    table.refresh_from_db()
    seen = table.version
    assert beto.move(table, "5H!").status_code == 200
    assert beto.post(f"/mesa/{table.code}/abandonar/").status_code in (200, 286)
    assert _away(table, seen) == [
        "Beto jugó el 5 de corazones", "Beto dijo «¡Última carta!»",
        "Beto abandonó: un robot juega su lugar",
    ]
