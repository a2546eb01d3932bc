"""The round's summary: who won what and why, each hand's points, the scoreboard and the
distance to the target; at the end of a match, the match's result alone."""

from __future__ import annotations

import dataclasses
import re

import pytest

from .helpers import match_of, page, panel, position, set_round, started

pytestmark = pytest.mark.django_db


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def _ana_goes_out(totals=(0, 0)):
    """Ana (to move) plays her last card; Beto is left with K♦ and 9♣ (19 points)."""
    table, (ana, beto) = started("Ana", "Beto")
    match = dataclasses.replace(match_of(table), totals=totals)
    set_round(table, position("clasico", [["5H"], ["KD", "9C"]], "7H"), match)
    assert ana.move(table, "5H").status_code == 200
    return table, ana, beto


def test_the_summary_says_who_won_what_and_why_and_how_far_each_is_from_the_target():
    table, ana, beto = _ana_goes_out()
    summary = _text(panel(page(beto, table)))
    assert "Ana se quedó sin cartas y gana +19: la suma de lo que les quedó en la mano" in summary
    assert "Le faltan para 100" in summary
    # Ana: no cards, +19, 19 in all, 81 to go; Beto: 19 points in hand, nothing won, 100 to go.
    assert "Ana sin cartas 0 puntos +19 19 81" in summary
    assert "19 puntos — 0 100 Se gana con 100 puntos." in summary
    assert "Suma" not in summary
    assert "SIGUIENTE RONDA" in summary


def test_a_blocked_table_says_who_had_the_lightest_hand_and_what_each_paid():
    table, (ana, beto) = started("Ana", "Beto")
    set_round(table, position("clasico", [["KS", "3C"], ["5D", "9D"]], "7H"))
    assert ana.move(table, "pass").status_code == 200
    assert beto.move(table, "pass").status_code == 200
    summary = _text(panel(page(ana, table)))
    assert "La mesa se bloqueó" in summary
    # Ana's K♠ 3♣ (13) against Beto's 5♦ 9♦ (14): Ana collects the difference, 1.
    assert "Ana tenía la mano que menos vale (13 puntos) y cobra a cada uno" in summary
    assert "13 puntos +1 1 99" in summary


def test_at_the_end_of_a_match_the_dialog_is_the_match_and_nothing_is_left_under_it():
    table, ana, beto = _ana_goes_out(totals=(90, 40))
    for person in (ana, beto):
        shown = panel(page(person, table))
        summary = _text(shown)
        assert "¡Partida terminada!" in summary
        assert "Gana Ana con 109 puntos" in summary
        assert summary.index("Ana 109") < summary.index("Beto 40")
        assert "REVANCHA" in summary
        assert "ABANDONAR" not in summary
        assert 'class="hand' not in shown and "SIGUIENTE RONDA" not in summary
