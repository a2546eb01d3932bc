"""The robots' background work, as tasks on the task queue (django-tasks, database backend).

`turn_schedule`, a recorder (`tables.plug`), enqueues `robot_turn` in the change's transaction
when the table now waits on a robot, on a person's time running out, or on the next round of a
table of robots. A worker runs it: the robot thinks without the lock, and
`tables.changes.services.turn_play_for` applies its move only if the table is still at that
version. A worker that is behind gives Difícil less time to think.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from django.conf import settings
from django_tasks import task

import ocholoco
from bots.choose import choose
from bots.dificil import DEFAULT_BUDGET
from tables.changes import services
from tables.metrics import ROBOT_LAG
from tables.models import Seat, Table
from tables.state import clock
from tables.state.lookup import table_at, tables_awaiting_turn, turn_due_in
from tables.state.snapshot import AppliedChange

# Behind by this many seconds or more, Difícil thinks for its shortest time.
LATE_LIMIT = 0.25
SHORTEST_BUDGET = 0.01


def turn_schedule(committed: AppliedChange) -> None:
    """Inside a change: enqueue the robots' next task if the table now waits on one."""
    due = turn_due_in(committed.snapshot, settings.ROBOT_DELAY)
    if due is not None:
        robot_turn_enqueue(committed.table.pk, committed.version, due)


def robot_turn_enqueue(table_id: int, version: int, due_in: float) -> None:
    due = clock.now() + timedelta(seconds=due_in)
    robot_turn.using(run_after=due).enqueue(
        table_id=table_id, version=version, due=due.isoformat()
    )


def think_budget(late: float) -> float:
    """Difícil's time for a move when the task runs `late` seconds after it was due."""
    if late <= 0:
        return DEFAULT_BUDGET
    share = max(0.0, 1 - late / LATE_LIMIT)
    return max(SHORTEST_BUDGET, DEFAULT_BUDGET * share)


@task()
def robot_turn(*, table_id: int, version: int, due: str) -> bool:
    """Play what the table waits on at `version`, if it still does. Returns whether it played."""
    snapshot = table_at(table_id, version)
    if snapshot is None:
        return False  # someone moved meanwhile: that change scheduled what follows
    table, state = snapshot.table, snapshot.round
    if table.status == Table.Status.ROUND_OVER:
        return services.round_deal_for_robots(table_id=table_id, version=version)
    if table.status != Table.Status.PLAYING:
        return False
    seat = snapshot.seat_of_player(state.turn)
    rng = random.Random()
    due_at = datetime.fromisoformat(due)
    if not seat.plays_as_robot:  # a person's time ran out: Normal plays their whole turn
        played = services.turn_play_for(
            table_id=table_id, version=version, moves=absent_turn(state, rng), timeout=True
        )
    else:
        late = (clock.now() - due_at).total_seconds()
        move = choose(
            ocholoco.view_for(state, state.turn), ocholoco.legal_moves(state),
            level=seat.robot_level or Seat.Level.NORMAL, rng=rng, budget=think_budget(late),
        )
        played = services.turn_play_for(table_id=table_id, version=version, moves=[move])
    if played:  # how late the move was applied (committed) against when it was due
        ROBOT_LAG.observe(max(0.0, (clock.now() - due_at).total_seconds()))
    return played


def absent_turn(state: ocholoco.Round, rng: random.Random) -> list[ocholoco.Move]:
    """The moves a Normal robot makes for the player to move until their turn ends."""
    player, moves = state.turn, []
    while not state.finished and state.turn == player:
        move = choose(
            ocholoco.view_for(state, player), ocholoco.legal_moves(state),
            level=Seat.Level.NORMAL, rng=rng,
        )
        moves.append(move)
        state = ocholoco.apply_move(state, move)
    return moves


def pending_turns_enqueue() -> int:
    """When workers start: every table waiting on a robot gets its task again (a worker that
    died mid-task left it unfinished; a duplicate is harmless). Returns how many."""
    pending = tables_awaiting_turn(settings.ROBOT_DELAY)
    for table_id, version, due in pending:
        robot_turn_enqueue(table_id, version, due)
    return len(pending)
