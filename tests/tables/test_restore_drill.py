"""The restore drill (#50; docs/operating.md, "Backups"), on SQLite, and on PostgreSQL when
DATABASE_URL points at it: a table with two people and a robot, a turn limit, moves and chat;
a backup mid-round while the site plays; two more moves; everything stopped and the database
deleted; the backup restored; the site started again. Real server processes (their task
workers play the robot and time turns out), people as HTTP clients with their cookies."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlparse, urlunparse

import aiohttp
import psycopg

import ocholoco
from tests.live import free_port, fresh_database, run_async, server_processes
from tests.scale.faults import WAIT, Person, max_version, next_move, play, table_opened
from tests.tables.backup_cast import ON_POSTGRES, backup, database_read, manage

ROBOT_SEAT = 2
# The turn's time left at the backup (set as a fixture). The restore gives the clock back the
# time since the backup, measured by the test between two instants it reads itself (before the
# restore starts, after it ends): a clock not given back, or given back any other amount, fails
# that check, however short the downtime. No wait for the turn's time to run out meanwhile: the
# person has that long again from the restore, long enough for a machine as busy as can be to
# start the site and let them finish their turn (a draw, then a card) before it runs out.
TIME_LEFT = 120


async def table_of_two_and_a_robot(http: aiohttp.ClientSession, base: str):
    """ABRIR MESA (Ana, a minute a turn), Beto sits, Ana adds a robot, EMPEZAR."""
    code, ana = await table_opened(http, base, turn_limit=60)
    beto = Person(http, base)
    await beto.request("GET", f"/mesa/{code}/")
    status, body, _ = await beto.request("POST", f"/mesa/{code}/sentarse/", {"name": "Beto"})
    assert status == 200, body[:500]
    status, body, _ = await ana.request("POST", f"/mesa/{code}/robot/", {"level": "facil"})
    assert status == 200, body[:500]
    _, body, _ = await ana.request("GET", f"/mesa/{code}/")
    status, body, _ = await ana.request(
        "POST", f"/mesa/{code}/empezar/", {"version": max_version(body)}
    )
    assert status == 200, body[:500]
    return code, ana, beto


async def persons_turn(code: str, people: list[Person]) -> tuple[Person, int, str]:
    """Once the robot is done: whose turn it is, at which version, and a legal move."""
    deadline = time.monotonic() + WAIT
    while True:
        try:
            return await next_move(code, people)
        except AssertionError:  # the robot's turn: it plays within its ROBOT_DELAY
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.1)


async def person_moves(code: str, people: list[Person]) -> int:
    """The person to move makes a legal move; returns the version it was made at."""
    player, version, move = await persons_turn(code, people)
    status, body = await play(code, player, version, move)
    assert status == 200, body[:500]
    return version


async def turn_played_out(code: str, people: list[Person]) -> int:
    """The person to move plays until the turn is no longer theirs (a draw may leave it
    theirs), without a pause between their moves; returns the version of their first move."""
    player, version, move = await persons_turn(code, people)
    first = version
    while True:
        status, body = await play(code, player, version, move)
        assert status == 200, body[:500]
        try:
            _, version, move = await next_move(code, [player])
        except AssertionError:  # not theirs any more
            return first


def deadline_set(env: dict[str, str], code: str, at: datetime) -> None:
    """The turn's deadline put at `at` (a fixture, as tests.live.set_round puts a position)."""
    script = (
        "from datetime import datetime; from tables.models import Table; "
        f"Table.objects.filter(code={code!r}).update("
        f"turn_deadline=datetime.fromisoformat({at.isoformat()!r}))"
    )
    done = manage(env, "shell", "-c", script)
    assert done.returncode == 0, done.stderr


def database_delete(env: dict[str, str]) -> None:
    """The database gone: SQLite's file (and its WAL), or PostgreSQL's database made anew,
    empty (as scripts/production.sh makes a missing one)."""
    if ON_POSTGRES:
        url = urlparse(env["DATABASE_URL"])
        name = url.path.lstrip("/")
        with psycopg.connect(urlunparse(url._replace(path="/postgres")), autocommit=True) as db:
            db.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
            db.execute(f'CREATE DATABASE "{name}"')
    else:
        for suffix in ("", "-wal", "-shm"):
            Path(env["SQLITE_PATH"] + suffix).unlink(missing_ok=True)


def test_the_restore_drill_brings_back_the_table_as_backed_up_and_play_goes_on(tmp_path):
    with fresh_database() as db_env:
        prefix = f"t{uuid.uuid4().hex[:8]}"
        env = {
            **db_env, "BACKUP_DIR": str(tmp_path / "backups"), "ROBOT_DELAY": "0.3",
            "CHANNEL_PREFIX": prefix, "CACHE_PREFIX": prefix,
        }
        port = free_port()

        async def before() -> tuple[str, list[Person], Path, dict]:
            with server_processes(env, ports=[port]) as servers:
                async with aiohttp.ClientSession() as http:
                    code, ana, beto = await table_of_two_and_a_robot(http, servers[0])
                    people = [ana, beto]
                    for person, text in ((ana, "¡Suerte a todos!"), (beto, "Igualmente")):
                        status, body, _ = await person.request(
                            "POST", f"/mesa/{code}/chat/", {"text": text}
                        )
                        assert status == 200, body[:500]
                    await person_moves(code, people)
                    await person_moves(code, people)
                    await persons_turn(code, people)  # the robot is done: a person to move
                    deadline_set(env, code, datetime.now(UTC) + timedelta(seconds=TIME_LEFT))
                    # A person's turn: nothing changes until they move.
                    at_backup = database_read(env)
                    copy = backup(env)  # while the site plays
                    await person_moves(code, people)
                    await person_moves(code, people)
                    return code, people, copy, at_backup

        code, people, copy, at_backup = run_async(before())
        # Everything stopped (the server and its task worker) and the database deleted.
        database_delete(env)
        taken_at = datetime.fromisoformat(
            json.loads(copy.with_suffix(".json").read_text())["taken_at"]
        )
        since_from = datetime.now(UTC)  # the time since the backup: at least up to here
        done = manage(env, "restore", "--noinput", str(copy))
        since_to = datetime.now(UTC)  # and at most up to here, the restore ended
        assert done.returncode == 0, done.stderr

        restored = database_read(env)
        table, was = restored["tables"][0], at_backup["tables"][0]
        # The clock given back exactly the time since the backup (the restore measures it as it
        # ends: between the two instants), the rest the same.
        given_back = datetime.fromisoformat(table["deadline"]) - datetime.fromisoformat(
            was["deadline"]
        )
        assert since_from - taken_at <= given_back <= since_to - taken_at, given_back
        assert since_from - taken_at > timedelta(0)
        assert {**table, "deadline": None} == {**was, "deadline": None}
        assert {k: v for k, v in restored.items() if k != "tables"} == {
            k: v for k, v in at_backup.items() if k != "tables"
        }
        assert restored["chat"] == ["¡Suerte a todos!", "Igualmente"]

        async def after() -> None:
            with server_processes(env, ports=[port]) as servers:
                async with aiohttp.ClientSession() as http:
                    for person in people:  # the same browsers, their cookies
                        person.http = http
                    assert servers[0] == people[0].base
                    # The person whose turn it was at the backup plays it out, in the time
                    # it had left then; then play goes on, a turn at a time, until the robot
                    # has moved.
                    version = await turn_played_out(code, people)
                    assert version == was["version"]
                    while not _robot_moved_after(env, code, version):
                        await turn_played_out(code, people)

        run_async(after())
        final = database_read(env)
        after_restore = [e for e in final["events"] if e[0] > was["version"]]
        assert [e for e in after_restore if e[1] == "move" and e[2] == ROBOT_SEAT]
        assert not [e for e in after_restore if e[1] in ("timeout", "away")]
        assert all(not away and not timeouts for *_, away, timeouts in final["seats"])
        commitment, reveal = final["rounds"][-1]
        assert ocholoco.Deal.parse(reveal).commitment == commitment
        assert commitment == final["tables"][0]["commitment"] == was["commitment"]


def _robot_moved_after(env: dict[str, str], code: str, version: int) -> bool:
    events = database_read(env)["events"]
    return any(e[0] > version + 1 and e[1] == "move" and e[2] == ROBOT_SEAT for e in events)
