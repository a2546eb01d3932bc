"""Faults: Redis restarting, a process killed, PostgreSQL restarting.

Real server processes, real HTTP posts and websockets opened with a browser's cookies, as the
pages do (tests/scale/faults.py). What must happen is asserted: every page catches up with the
table as it is, no committed move ever answers 500 or is lost, a database that cannot be
reached answers "try again" and moves are taken again once it is back. How long each of those
takes is a benchmark's figure, never a test's: `bench/faults.py` prints their percentiles.

Nothing here stops the machine's Redis or PostgreSQL: the tests that restart one start a
private one on a free port, in a temporary directory, and stop it afterwards.
"""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from tests.live import live_servers, run_async
from tests.scale.faults import (
    REDIS_SERVER,
    TRY_AGAIN,
    PrivatePostgres,
    accepted_again,
    assert_each_logged_once,
    next_move,
    no_private_postgres,
    play,
    private_postgres,
    private_redis,
    server_on,
    table_in_play,
    table_state,
    watched_table,
)

ON_POSTGRES = os.environ.get("DATABASE_URL", "").startswith("postgres")

pytestmark = pytest.mark.scale
# PostgreSQL stays away for this many tries of a person who waits as each answer's Retry-After
# says (2 s); a try waits for the connection pool's own timeout first (seconds).
OUTAGE_TRIES = 3


@pytest.mark.skipif(not ON_POSTGRES, reason="needs DATABASE_URL (PostgreSQL)")
@pytest.mark.skipif(not Path(REDIS_SERVER).exists(), reason="needs redis-server")
def test_a_redis_restart_loses_no_move_and_every_page_catches_up():
    with private_redis() as redis, live_servers(2, REDIS_URL=redis.url) as servers:
        first, second = servers
        database = servers.env["DATABASE_URL"]

        async def scenario() -> None:
            async with (
                aiohttp.ClientSession() as http,
                watched_table(http, first, second, second) as table,
            ):
                code, players = table.code, table.players
                version, _ = table_state(database, code)
                assert await table.all_pages(lambda p: p.version >= version)

                # Redis dies; a few moves are made meanwhile (a round is longer), and their
                # pushes are lost.
                redis.kill()
                acknowledged, statuses = [], []
                while len(statuses) < 3:
                    player, version, move = await next_move(code, players)
                    status, body = await play(code, player, version, move)
                    statuses.append(status)
                    assert status < 500 or status == 503, (status, body[:500])
                    if status == 200:
                        acknowledged.append(version)
                redis.start()

                current, logged = table_state(database, code)
                assert acknowledged, f"no move was accepted while Redis was down: {statuses}"
                assert_each_logged_once(logged, acknowledged)
                assert await table.all_pages(lambda p: p.version >= current), (
                    current, [p.version for p in table.pages],
                )

                # With Redis back, a move reaches every page again, on both processes.
                version, _, _ = await table.move_reaches_every_page()
                _, logged = table_state(database, code)
                assert_each_logged_once(logged, [*acknowledged, version])

        run_async(scenario())


@pytest.mark.skipif(
    not ON_POSTGRES or not os.environ.get("REDIS_URL"),
    reason="needs DATABASE_URL (PostgreSQL) and REDIS_URL",
)
def test_the_viewers_of_a_killed_process_play_on_a_live_one():
    with live_servers(2) as servers:
        doomed, live = servers
        database = servers.env["DATABASE_URL"]

        async def scenario() -> None:
            async with (
                aiohttp.ClientSession() as http,
                watched_table(http, doomed, doomed, doomed) as table,
            ):
                code, players, pages = table.code, table.players, table.pages
                player, version, move = await next_move(code, players)
                status, body = await play(code, player, version, move)
                assert status == 200, body[:500]
                assert await table.all_pages(lambda p: p.version > version)

                # The process dies; a proxy sends its people (and their pages) to the other.
                for page in pages:
                    page.person.base = live
                servers.processes[0].send_signal(signal.SIGKILL)
                servers.processes[0].wait(timeout=30)
                current, _ = table_state(database, code)
                # Each page reconnects, to the live process, and gets the whole current table
                # at once.
                assert await table.all_pages(
                    lambda p: p.connections >= 2 and p.first_frame_of(p.connections)
                ), "a page reconnected to the live process got no table"
                greetings = [p.first_frame_of(p.connections)[1] for p in pages]
                assert greetings == [current] * len(pages), (greetings, current)

                # A player moves on the live process; every page sees it.
                version, _, _ = await table.move_reaches_every_page()
                assert version == current

        run_async(scenario())


@pytest.fixture(scope="module")
def postgres() -> Iterator[tuple[PrivatePostgres, str]]:
    """A private PostgreSQL with a migrated database: (the cluster, the database's URL)."""
    if not ON_POSTGRES:
        pytest.skip("needs DATABASE_URL (PostgreSQL)")
    if reason := no_private_postgres():
        pytest.skip(reason)
    with private_postgres() as running:
        yield running, running.new_database()


def test_a_postgresql_restart_answers_try_again_and_loses_no_move(postgres):
    cluster, database = postgres
    with server_on(cluster, database) as server:

        async def scenario() -> None:
            async with (
                aiohttp.ClientSession() as http,
                watched_table(http, server, server, server) as table,
            ):
                code, players, watcher = table.code, table.players, table.watcher
                page = table.pages[-1]
                acknowledged = []
                player, version, move = await next_move(code, players)
                status, body = await play(code, player, version, move)
                assert status == 200, body[:500]
                acknowledged.append(version)
                player, version, move = await next_move(code, players)

                cluster.stop()
                # The move (htmx: a notice) and a page load (a whole page), at once.
                (status, body, headers), (page_status, page_body, _) = await asyncio.gather(
                    player.request(
                        "POST", f"/mesa/{code}/jugar/", {"move": move, "version": version}
                    ),
                    watcher.request("GET", f"/mesa/{code}/"),
                )
                assert status == 503, (status, body[:500])
                assert TRY_AGAIN in body and 'id="notice"' in body, body[:500]
                assert headers.get("Retry-After") == "2"
                assert page_status == 503, (page_status, page_body[:500])
                assert TRY_AGAIN in page_body

                cluster.start()
                answers, _ = await accepted_again(code, player, version, move)
                assert answers[-1] == 200, f"never accepted after the restart: {answers}"
                acknowledged.append(version)
                assert await table.news.until(lambda: page.version >= version + 1), (
                    page.version, version + 1,
                )
                _, logged = table_state(database, code)
                # Nothing committed while PostgreSQL was down: the log holds exactly the
                # moves answered 200, once each.
                assert sorted(logged) == sorted(v + 1 for v in acknowledged), (
                    logged, acknowledged,
                )

        run_async(scenario())


def test_moves_are_taken_again_after_postgresql_was_away_for_a_while(postgres):
    """Away longer than the connection pool's tries of a connection: the next request asks
    for one anew, so the site is back as soon as PostgreSQL is (bench/faults.py --only outage
    says how soon)."""
    cluster, database = postgres
    with server_on(cluster, database) as server:

        async def scenario() -> None:
            async with aiohttp.ClientSession() as http:
                code, host, guest = await table_in_play(http, server, server)
                player, version, move = await next_move(code, [host, guest])
                cluster.stop()
                for _ in range(OUTAGE_TRIES):  # people keep trying, when the answer says
                    status, body, headers = await player.request(
                        "POST", f"/mesa/{code}/jugar/", {"move": move, "version": version}
                    )
                    assert status == 503, (status, body[:500])
                    await asyncio.sleep(float(headers["Retry-After"]))
                cluster.start()
                answers, _ = await accepted_again(code, player, version, move)
                assert answers[-1] == 200, f"never accepted after the outage: {answers}"

        run_async(scenario())
