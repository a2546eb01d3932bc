"""Robots at the table: `services.robot_play` and how the bot runner is handed their turns."""

from __future__ import annotations

import threading

import pytest

from bots import runner
from tables import services
from tables.models import Table, TableEvent
from tables.selectors import tables_awaiting_turn, turn_due_in

from .helpers import (
    ANA_HAND,
    BETO_HAND,
    deal,
    fingerprint,
    lobby,
    position,
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

    assert services.robot_play(table_id=table.pk, version=version) is True

    table.refresh_from_db()
    event = TableEvent.objects.filter(table=table).last()
    assert (table.version, event.kind, event.seat, event.data["robot"]) == (
        version + 1, "move", 1, True
    )
    assert event.data["move"] in {"5H", "6H", "draw"}


def test_robot_play_at_a_stale_version_changes_nothing(with_robot):
    table, _ = with_robot
    before = fingerprint(table)
    assert services.robot_play(table_id=table.pk, version=table.version - 1) is False
    assert services.robot_play(table_id=table.pk, version=table.version + 1) is False
    assert fingerprint(table) == before


def test_robot_play_on_a_humans_turn_changes_nothing(with_robot):
    table, ana = with_robot
    set_round(table, position("clasico", [["5S", "KD"], ["5H", "6H"]], "9S", stock=("2C",)))
    table.refresh_from_db()
    before = fingerprint(table)
    assert services.robot_play(table_id=table.pk, version=table.version) is False
    assert fingerprint(table) == before


def test_robot_play_outside_a_round_in_play_changes_nothing():
    table, _ = lobby("Ana", robots=1)
    before = fingerprint(table)
    assert services.robot_play(table_id=table.pk, version=table.version) is False
    assert services.robot_play(table_id=table.pk + 1000, version=1) is False
    assert fingerprint(table) == before


def test_robots_play_a_round_to_its_end_among_themselves():
    table, (ana,) = started("Ana", robots=3, rules="especiales")
    ana.act(table, "abandonar")
    for _ in range(2000):
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            break
        assert services.robot_play(table_id=table.pk, version=table.version)
    assert table.status in (Table.Status.ROUND_OVER, Table.Status.MATCH_OVER)
    assert round_of(table).finished


def test_a_robot_turn_is_due_only_at_the_current_version_with_a_robot_to_move(with_robot):
    table, _ = with_robot
    assert turn_due_in(table_id=table.pk, version=table.version, robot_delay=0.5) == 0.5
    assert turn_due_in(table_id=table.pk, version=table.version - 1, robot_delay=0.5) is None

    set_round(table, position("clasico", [["5S", "KD"], ["5H", "6H"]], "9S", stock=("2C",)))
    table.refresh_from_db()
    assert turn_due_in(table_id=table.pk, version=table.version, robot_delay=0.5) is None


def test_at_start_every_table_waiting_for_a_robot_is_found_and_no_other(with_robot):
    waiting, _ = with_robot
    started("Caro", "Dani")  # a person to move, without a turn limit
    lobby("Eva", robots=1)  # not started
    abandoned, (_, hugo) = started("Gus", "Hugo")
    deal(abandoned, [ANA_HAND, BETO_HAND], top="9H")  # Hugo to move...
    hugo.act(abandoned, "abandonar")  # ...and a robot plays his seat now
    abandoned.refresh_from_db()

    assert sorted(tables_awaiting_turn(0.5)) == sorted(
        [(waiting.pk, waiting.version, 0.5), (abandoned.pk, abandoned.version, 0.5)]
    )


class FakeRunner:
    """Stands in for the runner's thread: records the turns it is handed, plays none."""

    def __init__(self) -> None:
        self.turns: list[tuple[int, int]] = []
        self.delays: list[float | None] = []

    def add(self, table_id: int, version: int, delay: float | None = None) -> None:
        self.turns.append((table_id, version))
        self.delays.append(delay)


@pytest.fixture
def queued(monkeypatch, settings) -> FakeRunner:
    """The turns handed to the runner (robots in process, the runner replaced)."""
    settings.ROBOTS_IN_PROCESS = True
    fake = FakeRunner()
    monkeypatch.setattr(runner, "_get_runner", lambda: fake)
    return fake


def test_a_change_that_leaves_a_robot_to_move_hands_its_turn_to_the_runner(
    queued, settings, django_capture_on_commit_callbacks
):
    table, (ana,) = lobby("Ana", robots=1)
    with django_capture_on_commit_callbacks(execute=True):
        ana.act(table, "empezar")
    table.refresh_from_db()
    assert round_of(table).turn == 1  # in "clasico" the player after the dealer starts
    assert queued.turns == [(table.pk, table.version)]
    assert queued.delays == [settings.ROBOT_DELAY]  # paced so that people can follow it


def test_a_change_that_leaves_a_person_to_move_queues_nothing(
    queued, django_capture_on_commit_callbacks
):
    table, (ana, beto) = started("Ana", "Beto")
    deal(table, [ANA_HAND, BETO_HAND], top="9H")
    with django_capture_on_commit_callbacks(execute=True):
        beto.move(table, "5H")
    assert queued.turns == []


def test_without_robots_in_process_nothing_is_queued(
    queued, settings, django_capture_on_commit_callbacks, with_robot
):
    settings.ROBOTS_IN_PROCESS = False
    table, ana = with_robot
    with django_capture_on_commit_callbacks(execute=True):
        services.seat_abandon(table_id=table.pk, secret=ana.secret(table))
    runner.robot_runner_start()
    assert queued.turns == []


def test_the_runner_start_picks_up_every_robot_turn_left_pending(queued, with_robot):
    table, _ = with_robot
    runner.robot_runner_start()
    assert queued.turns == [(table.pk, table.version)]


def test_the_runner_plays_queued_turns_and_survives_a_failing_one(monkeypatch):
    played: list[tuple[int, int]] = []
    done = threading.Event()

    def robot_play(*, table_id: int, version: int) -> bool:
        if table_id == 1:
            raise RuntimeError("a broken table")
        played.append((table_id, version))
        done.set()
        return True

    monkeypatch.setattr(services, "robot_play", robot_play)
    robots = runner.RobotRunner(delay=0)
    robots.add(1, 5)
    robots.add(2, 7)
    assert done.wait(timeout=10)
    assert played == [(2, 7)]


def test_a_table_where_only_robots_are_left_deals_the_next_round_by_itself():
    from tables.selectors import ROBOTS_NEXT_ROUND_DELAY

    table, (ana,) = started("Ana", robots=1)
    assert ana.act(table, "abandonar").status_code == 200
    # The robot in seat 1 goes out with its last card; 13 points do not end the match.
    set_round(table, position("clasico", [["KS", "3C"], ["5H"]], "9H", stock=("2D",), turn=1))
    table.refresh_from_db()
    assert services.robot_play(table_id=table.pk, version=table.version)
    table.refresh_from_db()
    assert table.status == Table.Status.ROUND_OVER
    due = turn_due_in(table_id=table.pk, version=table.version, robot_delay=1)
    assert due == ROBOTS_NEXT_ROUND_DELAY
    assert services.robot_play(table_id=table.pk, version=table.version)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
