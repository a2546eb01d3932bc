"""Robots at the table: their task (`bots.tasks.robot_turn`), and how a change queues it."""

from __future__ import annotations

import pytest

from bots import tasks
from tables.changes.workers import worker_new
from tables.models import Table, TableEvent
from tables.state import clock
from tables.state.lookup import table_at
from tables.state.turn_clock import ROBOTS_NEXT_ROUND_DELAY, Then, tables_awaiting_turn, turn_end

from .helpers import (
    ANA_HAND,
    BETO_HAND,
    deal,
    fingerprint,
    lobby,
    position,
    queued_turns,
    robot_play,
    round_of,
    set_round,
    started,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def with_robot():
    """Ana and a robot (seat 1), scripted: the robot plays first on a 9♥."""
    table, (ana,) = started("Ana", robots=1)
    deal(table, [ANA_HAND, BETO_HAND], top="9H", stock=("4D", "KC"))
    table.refresh_from_db()
    return table, ana


def test_robot_play_plays_the_robots_turn_with_a_legal_move(with_robot):
    table, _ = with_robot
    version = table.version

    assert robot_play(table_id=table.pk, version=version) is True

    table.refresh_from_db()
    event = TableEvent.objects.filter(table=table).last()
    assert (table.version, event.kind, event.seat, event.data["robot"]) == (
        version + 1, "move", 1, True
    )
    assert event.data["move"] in {"5H", "6H", "draw"}


def test_robot_play_at_a_stale_version_changes_nothing(with_robot):
    table, _ = with_robot
    before = fingerprint(table)
    assert robot_play(table_id=table.pk, version=table.version - 1) is False
    assert robot_play(table_id=table.pk, version=table.version + 1) is False
    assert fingerprint(table) == before


def test_robot_play_on_a_humans_turn_changes_nothing(with_robot):
    table, ana = with_robot
    set_round(table, position("clasico", [["5S", "KD"], ["5H", "6H"]], "9S", stock=("2C",)))
    table.refresh_from_db()
    before = fingerprint(table)
    assert robot_play(table_id=table.pk, version=table.version) is False
    assert fingerprint(table) == before


def test_robot_play_outside_a_round_in_play_changes_nothing():
    table, _ = lobby("Ana", robots=1)
    before = fingerprint(table)
    assert robot_play(table_id=table.pk, version=table.version) is False
    assert robot_play(table_id=table.pk + 1000, version=1) is False
    assert fingerprint(table) == before


def test_robots_play_a_round_to_its_end_among_themselves():
    table, (ana,) = started("Ana", robots=3, rules="especiales")
    ana.act(table, "abandonar")
    for _ in range(2000):
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            break
        assert robot_play(table_id=table.pk, version=table.version)
    assert table.status in (Table.Status.ROUND_OVER, Table.Status.MATCH_OVER)
    assert round_of(table).finished


def test_a_robot_turn_is_due_only_at_the_current_version_with_a_robot_to_move(
    with_robot, settings
):
    settings.ROBOT_DELAY = 0.5
    table, _ = with_robot
    end = turn_end(table_at(table.pk, table.version))
    assert (end.then, end.due_in, end.seat.number) == (Then.ROBOT_MOVES, 0.5, 1)
    assert table_at(table.pk, table.version - 1) is None

    set_round(table, position("clasico", [["5S", "KD"], ["5H", "6H"]], "9S", stock=("2C",)))
    table.refresh_from_db()
    assert turn_end(table_at(table.pk, table.version)) is None


def test_at_start_every_table_waiting_for_a_robot_is_found_and_no_other(with_robot, settings):
    settings.ROBOT_DELAY = 0.5
    waiting, _ = with_robot
    started("Caro", "Dani")  # a person to move, without a turn limit
    lobby("Eva", robots=1)  # not started
    abandoned, (_, hugo) = started("Gus", "Hugo")
    deal(abandoned, [ANA_HAND, BETO_HAND], top="9H")  # Hugo to move...
    hugo.act(abandoned, "abandonar")  # ...and a robot plays his seat now
    abandoned.refresh_from_db()

    found = [(t, v, end.due_in) for t, v, end in tables_awaiting_turn()]
    assert sorted(found) == sorted(
        [(waiting.pk, waiting.version, 0.5), (abandoned.pk, abandoned.version, 0.5)]
    )


def test_a_change_that_leaves_a_robot_to_move_queues_its_turn_with_the_change(settings):
    table, (ana,) = lobby("Ana", robots=1)
    ana.act(table, "empezar")
    table.refresh_from_db()
    assert round_of(table).turn == 1  # in "clasico" the player after the dealer starts
    [(version, wait)] = queued_turns(table)
    assert version == table.version
    # Paced so that people can follow it.
    assert settings.ROBOT_DELAY - 1 < wait <= settings.ROBOT_DELAY


def test_a_refused_change_queues_nothing(with_robot):
    table, ana = with_robot
    before = len(queued_turns(table))
    assert ana.move(table, "3H").status_code == 409  # not Ana's turn
    assert len(queued_turns(table)) == before


def test_a_change_that_leaves_a_person_to_move_queues_nothing():
    table, (ana, beto) = started("Ana", "Beto")
    deal(table, [ANA_HAND, BETO_HAND], top="9H")
    beto.move(table, "5H")
    assert queued_turns(table) == []


def test_when_workers_start_every_robot_turn_left_pending_is_queued_again(with_robot):
    table, _ = with_robot
    before = len(queued_turns(table))
    assert tasks.pending_turns_enqueue() == 1
    assert len(queued_turns(table)) == before + 1
    assert queued_turns(table)[-1][0] == table.version


@pytest.mark.django_db(transaction=True)  # a worker opens and closes its own connections
def test_a_worker_plays_the_queued_turns_and_survives_a_failing_one(monkeypatch, with_robot):
    table, _ = with_robot
    broken, _ = started("Eva", robots=1)  # a robot to move there too
    original = tasks.table_at

    def table_at(table_id: int, version: int):
        if table_id == broken.pk:
            raise RuntimeError("a broken table")
        return original(table_id, version)

    monkeypatch.setattr(tasks, "table_at", table_at)
    tasks.robot_turn_enqueue(broken.pk, broken.version, clock.now())
    tasks.robot_turn_enqueue(table.pk, table.version, clock.now())
    version = table.version
    worker = worker_new()
    worker.batch = True  # stop once the queue has nothing ready
    worker.run()

    table.refresh_from_db()
    assert table.version == version + 1
    assert TableEvent.objects.filter(table=table, kind="move", data__robot=True).count() == 1


def test_a_late_robot_thinks_less_but_never_less_than_its_shortest_time():
    assert tasks.think_budget(-1) == tasks.think_budget(0) == tasks.DEFAULT_BUDGET
    assert tasks.SHORTEST_BUDGET < tasks.think_budget(0.2) < tasks.DEFAULT_BUDGET
    assert tasks.think_budget(tasks.LATE_LIMIT) == tasks.think_budget(60) == tasks.SHORTEST_BUDGET


def test_a_table_where_only_robots_are_left_deals_the_next_round_by_itself():
    table, (ana,) = started("Ana", robots=1)
    assert ana.act(table, "abandonar").status_code == 200
    # The robot in seat 1 goes out with its last card; 13 points do not end the match.
    set_round(table, position("clasico", [["KS", "3C"], ["5H"]], "9H", stock=("2D",), turn=1))
    table.refresh_from_db()
    assert robot_play(table_id=table.pk, version=table.version)
    table.refresh_from_db()
    assert table.status == Table.Status.ROUND_OVER
    end = turn_end(table_at(table.pk, table.version))
    assert (end.then, end.due_in) == (Then.ROBOTS_DEAL, ROBOTS_NEXT_ROUND_DELAY)
    assert robot_play(table_id=table.pk, version=table.version)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
