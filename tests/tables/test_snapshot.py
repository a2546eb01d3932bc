"""A table's game state, decoded once: the next change and each render read the state the last
change saved; a state stored by other means (another process, by hand) is decoded afresh."""

from __future__ import annotations

import pytest

import ocholoco
from tables.changes import services
from tables.live import frames
from tables.models import Table
from tables.state.snapshot import TableSnapshot

from .helpers import round_of, set_round, started

pytestmark = pytest.mark.django_db


def loaded_round(table: Table) -> ocholoco.Round:
    return TableSnapshot.load(Table.objects.get(pk=table.pk)).round


@pytest.fixture
def moved():
    """Ana and Beto in play, after Ana's draw."""
    table, (ana, beto) = started("Ana", "Beto")
    player = table.match_seats.index(0)
    if round_of(table).turn != player:
        ana, beto = beto, ana
    services.table_play_move(
        table_id=table.pk, secret=ana.secret(table), move="draw", version=table.version
    )
    table.refresh_from_db()
    return table


def test_the_round_a_move_saved_is_the_one_the_next_reader_gets(moved):
    first, again = loaded_round(moved), loaded_round(moved)

    assert first is again  # decoded at most once
    assert first == ocholoco.from_json(moved.round_state)  # and what the table holds
    assert first.history[-1].kind == "draw"


def test_a_round_stored_by_other_means_is_read_from_what_is_stored(moved):
    kept = loaded_round(moved)
    other = ocholoco.new_round(moved.rules, 2, dealer=1, seed=5)
    assert other != kept

    set_round(moved, other)  # the row written elsewhere: same table, other JSON

    assert loaded_round(moved) == other


def test_a_table_gone_quiet_keeps_no_decoded_state(moved):
    kept = loaded_round(moved)

    frames.frames_release(moved.pk)  # its last open page here closed

    again = loaded_round(moved)
    assert again is not kept and again == kept
