"""Nobody waits forever: a turn limit makes a Normal robot play an absent person's turn."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tables.changes import services
from tables.models import Seat, Table, TableEvent
from tables.state import clock
from tables.state.lookup import table_at
from tables.state.turn_clock import Then, tables_awaiting_turn, turn_end

from .helpers import Person, robot_play, round_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def now(monkeypatch: pytest.MonkeyPatch):
    """A clock the test moves: `now.advance(seconds)`."""

    class Clock:
        value = clock.now()

        def __call__(self):
            return self.value

        def advance(self, seconds: float) -> None:
            self.value += timedelta(seconds=seconds)

    fake = Clock()
    monkeypatch.setattr(clock, "now", fake)
    return fake


def _limited_table(now, limit: int = 60) -> tuple[Table, Person, Person]:
    """Ana (host, dealer) and Beto, a one-minute turn limit; Beto is to move."""
    ana, beto = Person("Ana"), Person("Beto")
    response = ana.post("/abrir/", {"name": "Ana", "rules": "clasico", "turn_limit": limit},
                        htmx=False)
    table = Table.objects.get(player_code=response.url.strip("/").split("/")[-1])
    assert beto.join(table).status_code == 200
    assert ana.act(table, "empezar").status_code == 200
    table.refresh_from_db()
    return table, ana, beto


def test_a_person_to_move_gets_the_tables_turn_limit_as_deadline(now):
    table, _, _ = _limited_table(now)
    assert table.turn_limit == 60
    assert table.turn_deadline == now.value + timedelta(seconds=60)
    end = turn_end(table_at(table.pk, table.version))
    assert (end.then, end.due_in, end.seat.number) == (Then.PLAYED_FOR, 60, 1)


def test_before_the_deadline_nothing_is_played_for_the_absent_person(now):
    table, _, _ = _limited_table(now)
    now.advance(59)
    assert not robot_play(table_id=table.pk, version=table.version)
    table.refresh_from_db()
    assert round_of(table).turn == 1


def test_when_the_time_runs_out_a_robot_plays_that_turn_and_hands_it_back(now):
    table, ana, beto = _limited_table(now)
    now.advance(61)
    assert robot_play(table_id=table.pk, version=table.version)
    table.refresh_from_db()
    state = round_of(table)
    # Beto's whole turn was played (drawing keeps a turn): now it is Ana's.
    assert state.turn == 0 or state.finished
    moves = TableEvent.objects.filter(table=table, kind="move", seat=1)
    assert moves.exists() and all(e.data.get("by") == "timeout" for e in moves)
    beto_seat = table.seats.get(number=1)
    assert beto_seat.timeouts_in_row == 1 and not beto_seat.away
    # The seat stays Beto's: his browser still proves it.
    assert beto.secret(table) and beto_seat.secret_matches(beto.secret(table))
    # Ana's new turn has its own full minute.
    assert table.turn_deadline == now.value + timedelta(seconds=60)


def _time_out(table: Table, now) -> None:
    table.refresh_from_db()
    now.advance(table.turn_limit + 1)
    assert robot_play(table_id=table.pk, version=table.version)


def test_after_three_turns_in_a_row_run_out_the_robot_keeps_the_seat_until_taken_back(now):
    table, ana, beto = _limited_table(now)
    for _ in range(3):
        if round_of(table).turn == 0:
            _time_out(table, now)  # Ana's turns run out too; only Beto's count for Beto
        _time_out(table, now)
    seat = Seat.objects.get(table=table, number=1)
    assert seat.away and seat.plays_as_robot
    assert TableEvent.objects.filter(table=table, kind="away", seat=1).exists()
    page = beto.get(f"/mesa/{table.code}/", follow=True).content.decode()
    assert "VOLVER A JUGAR" in page

    refused = beto.move(table, "draw")
    assert refused.status_code == 409 and "VOLVER A JUGAR" in refused.content.decode()

    assert beto.act(table, "volver-a-jugar").status_code == 200
    seat.refresh_from_db()
    assert not seat.away and seat.timeouts_in_row == 0


def test_a_move_of_their_own_resets_the_count_of_turns_run_out(now):
    table, ana, beto = _limited_table(now)
    _time_out(table, now)  # Beto's turn runs out
    assert Seat.objects.get(table=table, number=1).timeouts_in_row == 1
    table.refresh_from_db()
    if round_of(table).turn == 0:
        assert ana.move(table, "draw").status_code == 200
        while round_of(table).turn == 0:
            _time_out(table, now)  # Ana's turn (drawing kept it) runs out
    assert round_of(table).turn == 1
    assert beto.move(table, "draw").status_code == 200
    assert Seat.objects.get(table=table, number=1).timeouts_in_row == 0


def test_deadlines_are_kept_in_the_database_and_found_again_after_a_restart(now):
    table, _, _ = _limited_table(now)
    now.advance(20)
    pending = {t: (v, end.due_in) for t, v, end in tables_awaiting_turn()}
    assert pending[table.pk] == (table.version, 40)


def test_the_host_changes_the_turn_limit_from_the_menu_and_others_cannot(now):
    table, ana, beto = _limited_table(now)
    assert beto.act(table, "tiempo", seconds=3600).status_code == 409
    assert ana.act(table, "tiempo", seconds=3600).status_code == 200
    table.refresh_from_db()
    assert table.turn_limit == 3600
    assert table.turn_deadline == now.value + timedelta(seconds=3600)
    assert ana.act(table, "tiempo", seconds=7).status_code == 409  # not one of the choices


def test_a_table_left_thirty_days_is_archived_read_only_and_still_viewable(now):
    table, ana, beto = _limited_table(now)
    Table.objects.filter(pk=table.pk).update(
        updated_at=clock.now() - timedelta(days=Table.ARCHIVE_AFTER_DAYS + 1)
    )
    assert services.tables_archive_stale() == 1
    table.refresh_from_db()
    assert table.status == Table.Status.ARCHIVED and table.turn_deadline is None
    response = beto.move(table, "draw")
    assert response.status_code == 409 and "archivada" in response.content.decode()
    page = Person("Carla").get(f"/mesa/{table.code}/", follow=True)
    assert page.status_code == 200 and "Mesa archivada" in page.content.decode()


def test_a_turn_played_for_an_absent_person_is_told_in_the_chat(now):
    from chat.selectors import event_text

    table, _, beto = _limited_table(now)
    _time_out(table, now)
    event = TableEvent.objects.get(table=table, kind="timeout")
    seats = {s.number: s for s in table.seats.all()}
    assert event_text(event, seats) == "A Beto se le acabó el tiempo: un robot jugó su turno."
