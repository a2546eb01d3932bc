"""A turn's clock has one owner (`tables.state.turn_clock`): its decisions, and no other module
writing a deadline, reading a turn limit or converting seats and players by hand."""

from __future__ import annotations

import ast
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest

from tables.models import Seat, Table
from tables.state import clock, turn_clock
from tables.state.turn_clock import Then, deadline_update, turn_end

ROOT = Path(__file__).resolve().parents[2]
OWNER = ROOT / "tables/state/turn_clock.py"
NOW = datetime(2026, 12, 7, 5, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def now(monkeypatch: pytest.MonkeyPatch) -> datetime:
    monkeypatch.setattr(clock, "now", lambda: NOW)
    return NOW


def _at_table(status=Table.Status.PLAYING, limit=60, deadline=None, turn=1, robots=()):
    """Ana (seat 0) and Beto (seat 2) in a match, Beto (the engine's player 1) to move;
    `robots`: the seats a robot plays."""
    table = Table(
        status=status, match_seats=[0, 2], turn_limit=limit, turn_deadline=deadline
    )
    seats = {
        n: Seat(number=n, name=name, kind=Seat.Kind.ROBOT if n in robots else Seat.Kind.HUMAN)
        for n, name in ((0, "Ana"), (2, "Beto"))
    }
    return SimpleNamespace(table=table, seats=seats, round=SimpleNamespace(turn=turn))


def test_a_robot_seat_is_due_its_delay_after_the_change(settings):
    settings.ROBOT_DELAY = 0.75
    at = _at_table(robots={2}, deadline=NOW + timedelta(seconds=9))
    end = turn_end(at)
    assert (end.then, end.due_in, end.seat.number) == (Then.ROBOT_MOVES, 0.75, 2)
    assert end.at == NOW + timedelta(seconds=0.75)


def test_a_persons_turn_ends_at_its_deadline_and_nothing_happens_without_one():
    at = _at_table(deadline=NOW + timedelta(seconds=40))
    end = turn_end(at)
    assert (end.then, end.due_in, end.at, end.seat.name) == (
        Then.PLAYED_FOR, 40, NOW + timedelta(seconds=40), "Beto"
    )
    assert turn_end(_at_table(limit=0, deadline=None)) is None


def test_a_person_whose_time_ran_out_is_played_for_at_once():
    end = turn_end(_at_table(deadline=NOW - timedelta(seconds=5)))
    assert (end.then, end.due_in, end.at) == (Then.PLAYED_FOR, 0, NOW)


def test_only_robots_left_after_a_round_deal_the_next_and_nothing_else_waits():
    over = _at_table(status=Table.Status.ROUND_OVER, robots={0, 2}, turn=0)
    end = turn_end(over)
    assert (end.then, end.due_in, end.seat) == (
        Then.ROBOTS_DEAL, turn_clock.ROBOTS_NEXT_ROUND_DELAY, None
    )
    assert turn_end(_at_table(status=Table.Status.ROUND_OVER, robots={2})) is None
    for status in (Table.Status.LOBBY, Table.Status.MATCH_OVER, Table.Status.ARCHIVED):
        assert turn_end(_at_table(status=status, robots={0, 2})) is None


def test_a_persons_new_turn_gets_the_turn_limit_and_the_same_turn_keeps_its_time():
    at = _at_table(limit=60)
    deadline_update(at, turn_passed=True)
    assert at.table.turn_deadline == NOW + timedelta(seconds=60)

    at.table.turn_deadline = NOW + timedelta(seconds=12)  # the turn goes on: a draw
    deadline_update(at, turn_passed=False)
    assert at.table.turn_deadline == NOW + timedelta(seconds=12)


def test_no_deadline_for_a_robot_nor_without_a_limit_nor_out_of_play():
    for at in (
        _at_table(robots={2}),
        _at_table(limit=0),
        _at_table(status=Table.Status.ROUND_OVER),
        _at_table(status=Table.Status.ARCHIVED),
    ):
        at.table.turn_deadline = NOW  # whatever ran before
        deadline_update(at, turn_passed=True)
        assert at.table.turn_deadline is None


def test_a_new_turn_limit_restarts_the_turn_in_course():
    at = _at_table(limit=60, deadline=NOW + timedelta(seconds=5))
    assert turn_clock.turn_limit_set(at.table, 3600)
    deadline_update(at, turn_passed=False)
    assert at.table.turn_deadline == NOW + timedelta(seconds=3600)
    assert not turn_clock.turn_limit_set(at.table, 3600)  # the same: nothing to log


def test_the_robot_keeps_the_seat_at_the_third_turn_in_a_row_run_out():
    seat = Seat(number=2, name="Beto")
    assert [turn_clock.timeout_count(seat) for _ in range(3)] == [False, False, True]
    assert seat.away and seat.plays_as_robot and seat.timeouts_in_row == 3


@pytest.mark.django_db
def test_the_clocks_are_given_back_the_downtime():
    ticking = Table.objects.create(
        rules_key="clasico", turn_deadline=NOW + timedelta(seconds=30), version=7
    )
    still = Table.objects.create(rules_key="clasico", version=3)
    assert turn_clock.turn_clocks_shift(by=timedelta(minutes=5)) == 1
    ticking.refresh_from_db(), still.refresh_from_db()
    assert ticking.turn_deadline == NOW + timedelta(minutes=5, seconds=30)
    assert ticking.version == 7 and still.turn_deadline is None


def test_a_robot_task_is_late_by_the_time_since_it_was_due():
    assert turn_clock.late_by(NOW - timedelta(seconds=0.5)) == 0.5
    assert turn_clock.late_by(NOW + timedelta(seconds=1)) == -1


# --- No other owner -------------------------------------------------------------------------


def _site_modules() -> list[Path]:
    paths = [p for app in ("tables", "bots", "chat", "config") for p in (ROOT / app).rglob("*.py")]
    return sorted(p for p in paths if "migrations" not in p.parts)


def _clock_shortcuts(tree: ast.AST) -> list[int]:
    """Lines that write a turn's deadline (`x.turn_deadline = ...`, `turn_deadline=` to a call,
    `F("turn_deadline")`, `setattr`) or read a turn limit (`x.turn_limit`)."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and (
            node.attr == "turn_deadline" and not isinstance(node.ctx, ast.Load)
            or node.attr == "turn_limit" and isinstance(node.ctx, ast.Load)
        ):
            lines.append(node.lineno)
        elif isinstance(node, ast.Call):
            named = [kw.value for kw in node.keywords if kw.arg == "turn_deadline"]
            args = [a.value for a in node.args if isinstance(a, ast.Constant)]
            if named or "turn_deadline" in args:
                lines.append(node.lineno)
    return lines


def test_no_module_but_the_turn_clock_writes_a_deadline_or_reads_a_turn_limit():
    found = {
        str(path.relative_to(ROOT)): lines
        for path in _site_modules()
        if path != OWNER and (lines := _clock_shortcuts(ast.parse(path.read_text())))
    }
    assert found == {}
    assert _clock_shortcuts(ast.parse(OWNER.read_text()))  # the check sees the owner's


def test_no_module_but_the_models_reads_the_matchs_seat_order():
    """A seat's number and the engine's player index are converted by `Table` only
    (`seat_of_player`, `player_of_seat`, `seat_in_match`, `seats_in_play`); a match's start
    writes the order."""
    found = {}
    for path in _site_modules():
        if path == ROOT / "tables/models.py":
            continue
        lines = [
            node.lineno
            for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.Attribute) and node.attr == "match_seats"
            and isinstance(node.ctx, ast.Load)
        ]
        if lines:
            found[str(path.relative_to(ROOT))] = lines
    assert found == {}
