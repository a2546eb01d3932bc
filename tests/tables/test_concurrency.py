"""Moves that race for the same turn: the table's row lock and version let exactly one in.

These run on a transactional database with real threads, each on its own connection, calling
the services at the same instant (a barrier releases them together).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from tables.changes import services
from tables.models import Seat, Table, TableEvent
from tables.state.refusal import TableError

from .helpers import ANA_HAND, BETO_HAND, deal, robot_play, round_of

pytestmark = pytest.mark.django_db(transaction=True)

ATTEMPTS = 4  # races per test: each one a fresh turn


def at_once(*calls: Callable[[], object]) -> list[object]:
    """Run the calls in threads released together; each result is its return or its refusal."""
    barrier = threading.Barrier(len(calls))

    def run(call: Callable[[], object]) -> object:
        try:
            barrier.wait()
            return call()
        except TableError as refused:
            return refused
        finally:
            connection.close()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


@pytest.fixture
def two_players() -> tuple[Table, str, str]:
    table, ana = services.table_open(rules_key="clasico", host_name="Ana")
    _, beto = services.seat_claim(table_id=table.pk, name="Beto")
    services.match_start(table_id=table.pk, secret=ana)
    deal(table, [ANA_HAND, BETO_HAND], top="9H", stock=("4D", "KC", "2D", "JC", "6D"))
    return table, ana, beto


def moves_logged(table: Table) -> int:
    return TableEvent.objects.filter(table=table, kind="move").count()


def test_two_different_moves_for_the_same_turn_at_the_same_instant_apply_exactly_one(
    two_players, sent
):
    table, _, beto = two_players
    for attempt in range(ATTEMPTS):
        table.refresh_from_db()
        version, logged = table.version, moves_logged(table)

        def play(move: str, version: int = version) -> None:
            services.table_play_move(table_id=table.pk, secret=beto, move=move, version=version)

        # Two of Beto's devices: one draws, the other draws too (a drawing turn goes on).
        results = at_once(lambda: play("draw"), lambda: play("draw"))

        assert sum(r is None for r in results) == 1, (attempt, results)
        refusal = next(r for r in results if r is not None)
        assert "La mesa cambió" in refusal.message
        table.refresh_from_db()
        assert (table.version, moves_logged(table)) == (version + 1, logged + 1)
        assert len(round_of(table).hands[1]) == len(BETO_HAND) + attempt + 1
    # One publication per applied move: a frame went to Beto's seat once each time.
    assert sum(group == table.seat_group_name(1) for group, _ in sent) == ATTEMPTS


def test_two_cards_played_for_the_same_turn_at_the_same_instant_apply_exactly_one(two_players):
    table, ana, beto = two_players
    version = table.version

    def play(move: str) -> None:
        services.table_play_move(table_id=table.pk, secret=beto, move=move, version=version)

    results = at_once(lambda: play("5H"), lambda: play("6H"))

    assert sum(r is None for r in results) == 1
    state = round_of(table)
    played = str(state.top)
    assert played in {"5H", "6H"} and len(state.hands[1]) == len(BETO_HAND) - 1
    assert {"5H", "6H"} - {played} <= {str(c) for c in state.hands[1]}
    assert moves_logged(table) == 1 and table.version == version + 1


def test_a_robot_turn_handed_out_twice_is_played_once(two_players):
    table, _, beto = two_players
    Seat.objects.filter(table=table, number=1).update(abandoned=True, secret_hash="")
    for _ in range(ATTEMPTS):
        table.refresh_from_db()
        if round_of(table).turn != 1:
            break
        version, logged = table.version, moves_logged(table)

        def robot(version: int = version) -> bool:
            return robot_play(table_id=table.pk, version=version)

        assert sorted(at_once(robot, robot, robot)) == [False, False, True]
        table.refresh_from_db()
        assert (table.version, moves_logged(table)) == (version + 1, logged + 1)
