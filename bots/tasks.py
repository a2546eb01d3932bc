"""The robots' background work, as tasks on the task queue (django-tasks, database backend).

When a table's turn ends and what happens then is the turn clock's (`tables.state.turn_clock`):
`turn_schedule`, a recorder (`tables.plug`), asks it in the change's transaction and enqueues
`robot_turn` for then (a robot to move, a person's time running out, the next round of a table
of robots). A worker runs it: it asks the clock again, the robots choose the moves without the
lock, and `tables.changes.services.turn_play_for` applies them only if the table is still at
that version. A worker that is behind gives Difícil less time to think.
"""

from __future__ import annotations

import random
from datetime import datetime

from django_tasks import task

import ocholoco
from bots.choose import choose
from bots.dificil import DEFAULT_BUDGET
from tables.changes import services
from tables.metrics import ROBOT_LAG
from tables.models import Seat
from tables.state import turn_clock
from tables.state.lookup import table_at
from tables.state.snapshot import AppliedChange
from tables.state.turn_clock import Then

# Behind by this many seconds or more, Difícil thinks for its shortest time.
LATE_LIMIT = 0.25
SHORTEST_BUDGET = 0.01


def turn_schedule(committed: AppliedChange) -> None:
    """Inside a change: enqueue the robots' next task if the table's turn ends by itself."""
    end = turn_clock.turn_end(committed.snapshot)
    if end is not None:
        robot_turn_enqueue(committed.table.pk, committed.version, end.at)


def robot_turn_enqueue(table_id: int, version: int, due: datetime) -> None:
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
    """Do what the table's turn clock says its turn at `version` ends with, if the table is
    still at that version: the robots choose the moves. Returns whether it played."""
    snapshot = table_at(table_id, version)
    if snapshot is None:
        return False  # someone moved meanwhile: that change scheduled what follows
    end = turn_clock.turn_end(snapshot)
    if end is None:
        return False
    if end.then == Then.ROBOTS_DEAL:
        return services.round_deal_for_robots(table_id=table_id, version=version)
    state, rng, due_at = snapshot.round, random.Random(), datetime.fromisoformat(due)
    if end.then == Then.PLAYED_FOR:  # a person's time ran out: Normal plays their whole turn
        played = services.turn_play_for(
            table_id=table_id, version=version, moves=absent_turn(state, rng), timeout=True
        )
    else:
        move = choose(
            ocholoco.view_for(state, state.turn), ocholoco.legal_moves(state),
            level=end.seat.robot_level or Seat.Level.NORMAL, rng=rng,
            budget=think_budget(turn_clock.late_by(due_at)),
        )
        played = services.turn_play_for(table_id=table_id, version=version, moves=[move])
    if played:  # how late the move was applied (committed) against when it was due
        ROBOT_LAG.observe(max(0.0, turn_clock.late_by(due_at)))
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
    """When workers start: every table whose turn ends by itself gets its task again (a worker
    that died mid-task left it unfinished; a duplicate is harmless). Returns how many."""
    pending = turn_clock.tables_awaiting_turn()
    for table_id, version, end in pending:
        robot_turn_enqueue(table_id, version, end.at)
    return len(pending)
