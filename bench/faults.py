"""Fault recovery times: how long the pages and the servers take to get over each fault of
tests/scale/test_faults.py (which asserts only that they do), over several runs.

    .venv/bin/python bench/faults.py                 # every fault, 5 runs each
    .venv/bin/python bench/faults.py --only redis,kill --runs 10

It needs PostgreSQL's initdb and pg_ctl and redis-server, and starts a PostgreSQL cluster and a
Redis of its own (free ports, temporary folders; never the machine's), and two server
processes on a fresh database of that cluster for every run. The people and their pages are
the fault tests' own (tests/scale/faults.py): HTTP posts and websockets with a browser's
cookies; a page reconnects 0.3 s after its socket closes, as the page's script does.

Printed per fault, in seconds, as p50 / p90 / max over every run (and page):
  redis     Redis killed, three moves made, Redis started: from Redis back to each page
            showing the table as it is (< 0: the page caught up while Redis was still down);
            then a move, to every page showing it.
  kill      the process serving every page killed (kill -9), the pages sent to the other: from
            a page's reconnection to the whole table arriving; from the kill to every page
            showing the table (the page's own 0.3 s pause included); then a move, to every page.
  postgres  PostgreSQL stopped at once (a crash): the "try again" answer while it is down;
            from PostgreSQL back to the move accepted (tried again every 0.2 s); to the
            watcher's page showing it.
  outage    the same after PostgreSQL was away 20 s or more (people trying again meanwhile,
            as each answer's Retry-After says).
It prints figures; it is not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402

from tests.live import server_processes  # noqa: E402
from tests.scale.faults import (  # noqa: E402
    PrivatePostgres,
    PrivateRedis,
    accepted_again,
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

OUTAGE = 20.0  # seconds PostgreSQL stays away in `outage` (a restart, a failover)

Figures = dict[str, list[float]]


def two_servers(cluster: PrivatePostgres, redis: PrivateRedis):
    return server_processes(
        {"DATABASE_URL": cluster.new_database(), "REDIS_URL": redis.url,
         "CHANNEL_PREFIX": f"b{time.monotonic_ns()}"},
        count=2,
    )


async def redis_restart(cluster: PrivatePostgres, redis: PrivateRedis, out: Figures) -> None:
    with two_servers(cluster, redis) as servers:
        first, second = servers
        database = servers.env["DATABASE_URL"]
        async with (
            aiohttp.ClientSession() as http,
            watched_table(http, first, second, second) as table,
        ):
            version, _ = table_state(database, table.code)
            assert await table.all_pages(lambda p: p.version >= version)
            redis.kill()
            for _ in range(3):
                player, version, move = await next_move(table.code, table.players)
                await play(table.code, player, version, move)
            redis.start()
            up_at = time.monotonic()
            current, _ = table_state(database, table.code)
            assert await table.all_pages(lambda p: p.version >= current), "a page never caught up"
            out["Redis back -> a page shows the table"] += [
                p.reached_at(current) - up_at for p in table.pages
            ]
            _, sent, reached = await table.move_reaches_every_page()
            out["then a move -> every page"].append(max(reached) - sent)


async def process_kill(cluster: PrivatePostgres, redis: PrivateRedis, out: Figures) -> None:
    with two_servers(cluster, redis) as servers:
        doomed, live = servers
        async with (
            aiohttp.ClientSession() as http,
            watched_table(http, doomed, doomed, doomed) as table,
        ):
            player, version, move = await next_move(table.code, table.players)
            await play(table.code, player, version, move)
            assert await table.all_pages(lambda p: p.version > version)
            for page in table.pages:
                page.person.base = live
            servers.processes[0].send_signal(signal.SIGKILL)
            killed_at = time.monotonic()
            servers.processes[0].wait(timeout=30)
            assert await table.all_pages(
                lambda p: p.connections >= 2 and p.first_frame_of(p.connections)
            ), "a page never got the table again"
            greetings = [p.first_frame_of(p.connections)[0] for p in table.pages]
            out["a page reconnects -> the whole table"] += [
                at - p.attempts[-1] for at, p in zip(greetings, table.pages, strict=True)
            ]
            out["kill -> every page shows the table"].append(max(greetings) - killed_at)
            _, sent, reached = await table.move_reaches_every_page()
            out["then a move -> every page"].append(max(reached) - sent)


async def postgres_restart(cluster: PrivatePostgres, away: float, out: Figures) -> None:
    with server_on(cluster, cluster.new_database()) as server:
        async with (
            aiohttp.ClientSession() as http,
            watched_table(http, server, server, server) as table,
        ):
            page = table.pages[-1]
            player, version, move = await next_move(table.code, table.players)
            cluster.stop()
            sent = time.monotonic()
            status, _, headers = await player.request(
                "POST", f"/mesa/{table.code}/jugar/", {"move": move, "version": version}
            )
            out["a move while down -> 'try again'"].append(time.monotonic() - sent)
            assert status == 503, status
            while time.monotonic() - sent < away:  # people keep trying when told
                await asyncio.sleep(float(headers["Retry-After"]))
                status, _, headers = await player.request(
                    "POST", f"/mesa/{table.code}/jugar/", {"move": move, "version": version}
                )
            cluster.start()
            up_at = time.monotonic()
            answers, _ = await accepted_again(table.code, player, version, move)
            assert answers[-1] == 200, answers
            out["PostgreSQL back -> the move accepted"].append(time.monotonic() - up_at)
            assert await table.news.until(lambda: page.version > version)
            out["PostgreSQL back -> the watcher's page shows it"].append(
                page.reached_at(version + 1) - up_at
            )


async def _table_ready(cluster: PrivatePostgres) -> None:
    """A first table on a fresh server: the server's pool is warm before the first run."""
    with server_on(cluster, cluster.new_database()) as server:
        async with aiohttp.ClientSession() as http:
            await table_in_play(http, server, server)


def summary(values: list[float]) -> str:
    ordered = sorted(values)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    return (f"p50 {statistics.median(ordered):6.2f}  p90 {at(0.9):6.2f}  "
            f"max {ordered[-1]:6.2f}  (n={len(ordered)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each fault")
    parser.add_argument("--only", default="redis,kill,postgres,outage",
                        help="comma-separated: redis, kill, postgres, outage")
    args = parser.parse_args()
    faults = args.only.split(",")
    if reason := no_private_postgres():
        sys.exit(f"bench/faults.py {reason}")
    with private_postgres() as cluster, private_redis() as redis:
        asyncio.run(_table_ready(cluster))
        runs: dict[str, Callable[[Figures], Awaitable[None]]] = {
            "redis": lambda out: redis_restart(cluster, redis, out),
            "kill": lambda out: process_kill(cluster, redis, out),
            "postgres": lambda out: postgres_restart(cluster, 0, out),
            "outage": lambda out: postgres_restart(cluster, OUTAGE, out),
        }
        for fault in faults:
            out: Figures = defaultdict(list)
            started = time.monotonic()
            for _ in range(args.runs):
                asyncio.run(runs[fault](out))
            print(f"{fault}: {args.runs} runs in {time.monotonic() - started:.0f} s")
            for what, values in out.items():
                print(f"  {what:<48} {summary(values)} s")


if __name__ == "__main__":
    main()
