"""Deploy benchmark: the site replaced process by process while tables play, through the
repository's nginx, on this machine's PostgreSQL and Redis.

    .venv/bin/python bench/deploy.py
    .venv/bin/python bench/deploy.py --tables 60 --robot-tables 15 --idle-pages 600 --rolls 2

It starts the production shape with `scripts/production.sh` (DETACH=1: nginx in front of
--web web processes and one task worker, a fresh database, a channel prefix of its own), sets
tables up as browsers do (through the proxy): --tables tables playing, of which
--robot-tables are robots' alone (the host adds three robots, starts and leaves), the others
two people moving --rate times a second each, every table watched by --spectators spectators;
and --idle-pages more pages open on tables nobody moves at. Then, after --calm seconds, it
runs `scripts/deploy.sh` --rolls times in a row (every web process and the worker replaced,
the release unchanged), then --rolls times with a new release, then --calm seconds more.

Every page is a client that behaves as the page does (bench/load.py's Viewer, as a browser:
its own connections and cookies, Chromium's headers): it reconnects
when its socket closes (1012 when its process drains), and, when a greeting says the server
runs a later release than the page's, it loads the page again (as static/js/socket.js does):
a GET of the page and a new socket, each to whichever process the proxy picks.

Printed: moves applied; acknowledged moves missing from or doubled in the table's log; error
answers to the players' posts; the robots' tables' progress during each roll; every page's
time from its socket closing to its table back on a new one (p99); reloads per page after the
release deploy (each page exactly once) and after the plain ones (none); move -> every viewer
p50/p99 before, during and after the rolls; each roll's steps as deploy.sh printed them.
It prints figures; it is not a test.

So that a figure says what it measured, this client runs on a CPU of its own (`taskset`,
--client-cpu, the last one by default) and the production shape, deploy.sh and what they start
on the others; the machine's PostgreSQL and Redis are services of the machine and run where
the kernel puts them. For each roll it prints, second by second, where the machine's CPU went
(each web process, the worker, nginx, PostgreSQL, Redis, deploy.sh's own commands, this
client), and the new web processes' CPU per page they greeted.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load import (  # noqa: E402
    REDIS_URL,
    Bench,
    Server,
    Table,
    Viewer,
    log_check,
    ms,
    pct,
    raise_file_limit,
    update_delays,
)
from tests.live import GENEROUS_LIMITS, fresh_database, production_ports  # noqa: E402

SPREAD = 60.0  # seconds: a page due to reload waits a random time below this (socket.js)
WANTED = "ocholoco_release"  # the cookie that says which release a reload wants
RELEASE_RE = re.compile(r'id="release"[^>]*data-release="([^"]*)"')
PAGE_RELEASE_RE = re.compile(r'id="table-page"[^>]*data-release="([^"]*)"', re.S)


def machine_busy() -> tuple[int, int]:
    """(busy, total) clock ticks of the whole machine so far (/proc/stat): every process,
    the servers, PostgreSQL, Redis, nginx and this client alike."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


TICK = os.sysconf("SC_CLK_TCK")


def cpu_split(web_ports: frozenset[str]) -> dict[int, tuple[str, int]]:
    """Each process's kind and the clock ticks of CPU it has used so far. Kinds: "web PORT" (the
    production shape's, on `web_ports`),
    "worker", "nginx", "postgres", "redis", "deploy" (deploy.sh and its commands: the backup,
    migrate, collectstatic, setup.sh's pip), "client" (this bench), "other"."""
    ticks: dict[int, tuple[str, int]] = {}
    me = os.getpid()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:  # (gone meanwhile)
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        used = int(fields[11]) + int(fields[12])  # utime + stime
        if not used:
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        port = re.search(r"config\.server .*--port (\d+)", command)
        if int(entry.name) == me:
            kind = "client"
        elif port and port.group(1) in web_ports:
            kind = f"web {port.group(1)}"
        elif "tasks_worker" in command:
            kind = "worker"
        elif name.startswith("nginx"):
            kind = "nginx"
        elif name.startswith("postgres") or command.startswith("postgres"):
            kind = "postgres"
        elif name.startswith("redis"):
            kind = "redis"
        elif "manage.py" in command or "deploy.sh" in command or "setup.sh" in command \
                or name in {"pip", "npm", "git", "taskset"}:
            kind = "deploy"
        else:
            kind = "other"
        ticks[int(entry.name)] = (kind, used)
    return ticks


class CpuSampler:
    """Every second, the CPU each kind of process used in it (cpu_split), kept with its time."""

    def __init__(self, web_ports: frozenset[str]) -> None:
        self.web_ports = web_ports
        self.seconds: list[tuple[float, dict[str, float]]] = []  # (at, kind -> % of a CPU)
        self.task: asyncio.Task | None = None

    async def run(self) -> None:
        last, last_at = await asyncio.to_thread(cpu_split, self.web_ports), time.monotonic()
        while True:
            await asyncio.sleep(1)
            now, now_at = await asyncio.to_thread(cpu_split, self.web_ports), time.monotonic()
            span = (now_at - last_at) * TICK / 100  # ticks in 1 % of a CPU over the span
            split: Counter = Counter()
            for pid, (kind, used) in now.items():  # (a process new in it: all its ticks)
                split[kind] += used - last.get(pid, (kind, 0))[1]
            self.seconds.append(
                (now_at, {kind: ticks / span for kind, ticks in split.items() if ticks > 0})
            )
            last, last_at = now, now_at

    def between(self, start: float, end: float) -> list[tuple[float, dict[str, float]]]:
        return [(at, split) for at, split in self.seconds if start < at <= end + 1]


def pinned(cpu: int) -> None:
    """Run this bench on `cpu` alone (taskset), starting itself again there if it is not."""
    if os.sched_getaffinity(0) != {cpu}:
        os.execvp("taskset", ["taskset", "-c", str(cpu), sys.executable, *sys.argv])


def servers_cpus(client_cpu: int) -> str:
    """The CPUs left to the production shape: all but the client's (taskset's list)."""
    others = sorted(set(range(os.cpu_count() or 1)) - {client_cpu})
    return ",".join(map(str, others)) or str(client_cpu)


def release_name(tag: str) -> str:
    """A release identifier as scripts/deploy.sh names them: later ones sort after."""
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime()) + f"-{tag}"


class Page(Viewer):
    """A page as static/js/socket.js makes it: reloads once into a later release."""

    def __init__(self, bench: Bench, table: Table, role: str, server: int) -> None:
        super().__init__(bench, table, role, server)
        self.release = ""
        self.reloads: list[str] = []  # the releases it reloaded into
        self.reloading = False

    def take(self, html: str, at: float) -> None:
        super().take(html, at)
        found = RELEASE_RE.search(html)
        if found and self.release and found.group(1) > self.release and not self.reloading:
            self.reloading = True
            asyncio.get_running_loop().create_task(self.reload_into(found.group(1)))

    async def reload_into(self, release: str) -> None:
        await asyncio.sleep(random.random() * SPREAD)  # as socket.js spreads its reloads
        self.cookies[WANTED] = release  # which release the reload wants (config/health.py)
        try:
            for _ in range(5):
                try:
                    status, body, _ = await self.request("GET", f"/mesa/{self.table.code}/")
                except (TimeoutError, aiohttp.ClientError):
                    await asyncio.sleep(0.5)
                    continue
                page = PAGE_RELEASE_RE.search(body)
                if status == 200 and page:
                    self.release = page.group(1)
                    self.reloads.append(self.release)
                    self.take(body, time.monotonic())
                    # A reloaded page opens a new socket, to whichever process the proxy
                    # picks: it is greeted again (and would reload again if that one were
                    # of an earlier release than the page it loaded).
                    if self.socket is not None:
                        await self.socket.close(code=4000)
                    return
                await asyncio.sleep(0.5)
        finally:
            self.cookies.pop(WANTED, None)
            self.reloading = False


class DeployBench(Bench):
    def viewer(self, table: Table, role: str, number: int) -> Viewer:
        page = Page(self, table, role, 0)
        table.viewers.append(page)
        return page


def production(run_dir: Path, env: dict[str, str], *arguments: str) -> None:
    subprocess.run(["taskset", "-c", env["SERVERS_CPUS"], "bash", "scripts/production.sh",
                    *arguments], cwd=ROOT,
                   env={**os.environ, **env, "RUN_DIR": str(run_dir)}, check=True)


def deploy(run_dir: Path, env: dict[str, str], release: str) -> tuple[float, list[str]]:
    """scripts/deploy.sh with `release`: its seconds and its lines."""
    began = time.monotonic()
    done = subprocess.run(
        ["taskset", "-c", env["SERVERS_CPUS"], "bash", "scripts/deploy.sh"], cwd=ROOT,
        capture_output=True, text=True,
        env={**os.environ, **env, "RUN_DIR": str(run_dir), "RELEASE": release},
    )
    lines = (done.stdout + done.stderr).strip().splitlines()
    if done.returncode != 0:
        raise RuntimeError("deploy.sh failed:\n" + "\n".join(lines[-20:]))
    return time.monotonic() - began, lines


async def play(bench: DeployBench, run_dir: Path, env: dict[str, str], first: str) -> dict:
    args = bench.args
    figures: dict = {"rolls": []}
    timeout = aiohttp.ClientTimeout(total=30)
    async with aiohttp.ClientSession(
        connector=aiohttp.TCPConnector(limit=0), timeout=timeout,
        cookie_jar=aiohttp.DummyCookieJar(),
    ) as bench.http, aiohttp.ClientSession(
        connector=aiohttp.TCPConnector(limit=0, force_close=True),
        cookie_jar=aiohttp.DummyCookieJar(),
    ) as bench.sockets:
        limit = asyncio.Semaphore(8)

        async def set_up(table: Table) -> None:
            async with limit:
                await bench.set_up(table)

        began = time.monotonic()
        robots = [Table(i) for i in range(args.robot_tables)]
        people = [Table(i) for i in range(args.robot_tables, args.tables)]
        idle_count = -(-args.idle_pages // (args.spectators + 2))
        idle = [Table(i) for i in range(args.tables, args.tables + idle_count)]
        bench.tables = robots + people + idle
        args.scenario = "robots"
        await asyncio.gather(*(set_up(t) for t in robots))
        args.scenario = "people"
        await asyncio.gather(*(set_up(t) for t in people + idle))
        for page in bench.pages():
            page.release = first
        print(f"{len(bench.tables)} tables set up ({len(bench.pages())} pages open) in "
              f"{time.monotonic() - began:.0f} s")

        start = time.monotonic()
        bench.window = (start, start + 10 ** 6)  # the tables play until told to stop
        watcher = asyncio.create_task(bench.watch_loop())  # this client's own loop lag
        first_port = int(env["PORT"])
        # Both sets of ports: deploy.sh starts the new release on the other (web_ports_other).
        sampler = CpuSampler(frozenset(str(first_port + i) for i in range(2 * args.web)))
        sampler.task = asyncio.create_task(sampler.run())
        drivers = [asyncio.create_task(bench.drive(t, start)) for t in people]
        busy0 = machine_busy()
        await asyncio.sleep(args.calm)
        phases = [("before", start, time.monotonic(), busy0, machine_busy())]
        rolls = [("restart", first)] * args.rolls
        rolls += [("release", release_name("next"))] * args.rolls
        for number, (kind, release) in enumerate(rolls, 1):
            versions = {t.code: t.viewers[-1].version for t in robots}
            reloads = sum(len(p.reloads) for p in bench.pages())
            opens = sum(p.opens for p in bench.pages())
            at, busy0 = time.monotonic(), machine_busy()
            seconds, lines = await asyncio.to_thread(deploy, run_dir, env, release)
            phases.append((f"roll {number}", at, time.monotonic(), busy0, machine_busy()))
            await asyncio.sleep(3)  # the last pages come back, robots play on
            moved = sum(t.viewers[-1].version > versions[t.code] for t in robots)
            figures["rolls"].append((number, kind, release, seconds, moved, lines,
                                     sum(len(p.reloads) for p in bench.pages()) - reloads,
                                     at, time.monotonic(),
                                     sum(p.opens for p in bench.pages()) - opens))
            print(f"roll {number} ({kind}, release {release}): {seconds:.0f} s; robots' tables "
                  f"that moved on: {moved} of {len(robots)}")
        # The pages due to reload into the new release do so within SPREAD s of learning of it:
        # the calm after is measured once they all have.
        # (Measured too: the moves meanwhile are as much the rolls' as those during them.)
        wait, busy0 = time.monotonic(), machine_busy()
        while any(p.reloading for p in bench.pages()) and time.monotonic() < wait + SPREAD + 10:
            await asyncio.sleep(0.5)
        if time.monotonic() - wait > 1:
            phases.append(("the last reloads", wait, time.monotonic(), busy0, machine_busy()))
        after, busy0 = time.monotonic(), machine_busy()
        await asyncio.sleep(args.calm)
        phases.append(("after", after, time.monotonic(), busy0, machine_busy()))
        bench.window = (start, time.monotonic())
        for driver in drivers:
            driver.cancel()
        watcher.cancel()
        sampler.task.cancel()
        await asyncio.sleep(3)
        figures["phases"] = phases
        figures["cpu"] = sampler
        await bench.close_all()
    return figures


def report(bench: DeployBench, figures: dict, db_env: dict[str, str], first: str) -> None:
    args = bench.args
    print()
    print(f"== rolling deploy: {args.web} web processes + 1 worker behind nginx, "
          f"{args.tables} tables playing ({args.robot_tables} robots' alone), "
          f"{args.spectators} spectators each, {len(bench.pages())} pages open ==")
    print(f"moves applied: {len(bench.moves)}")
    for line in log_check(bench, db_env):
        print(line)
    statuses = Counter()
    for (_, status), n in bench.statuses.items():
        statuses[status] += n
    errors = sum(n for status, n in statuses.items() if status != 200)
    print(f"players' posts: {dict(sorted(statuses.items(), key=str))}; error answers: {errors}")
    for (what, status, reason), n in bench.refusals.most_common(5):
        print(f"  refused {what} {status} x{n}: {reason}")
    back = [x for p in bench.pages() for x in p.reconnects]
    lost = sum(p.disconnects for p in bench.pages())
    print(f"sockets lost: {lost}; page back on its table after its socket closed: {ms(back)}"
          f" (p99 {pct(back, 99):.2f} s)")
    accepted = [x for p in bench.pages() for x in p.handshakes]
    print(f"  of which until a new socket was accepted: {ms(accepted)}; handshakes refused "
          f"{sum(p.refused for p in bench.pages())}, failed {sum(p.failed for p in bench.pages())}")
    sampler: CpuSampler = figures["cpu"]
    before = figures["phases"][0]
    calm_web = _web_share(sampler.between(before[1], before[2]))
    for number, kind, _, seconds, moved, lines, reloads, at, end, greeted in figures["rolls"]:
        print(f"roll {number} ({kind}): {seconds:.0f} s, pages reloaded {reloads}, robots' "
              f"tables that moved on {moved} of {args.robot_tables}")
        for line in lines:
            print(f"    {line}")
        seconds_in = sampler.between(at, end)
        extra = sum(_web_share([second]) - calm_web for second in seconds_in) / 100
        print(f"  sockets greeted {greeted}; the web processes' CPU above their calm "
              f"{calm_web:.0f}% of a CPU (the new ones' starts included): {extra:.1f} CPU-s, "
              f"{extra * 1000 / max(greeted, 1):.1f} ms a page greeted")
        print("  where the CPU went, second by second (% of one CPU; the client on CPU "
              f"{args.client_cpu}, the rest on {servers_cpus(args.client_cpu)}):")
        for second_at, split in seconds_in:
            parts = ", ".join(f"{kind} {share:.0f}" for kind, share
                              in sorted(split.items(), key=lambda item: -item[1]) if share >= 1)
            pairs, _, never = update_delays(bench, second_at - 1, second_at)
            slow = sum(delay > 0.5 for delay in pairs) + never
            moves = (f"; its moves: slowest viewer {max(pairs) * 1000:.0f} ms, "
                     f"{slow} of {len(pairs) + never} (move, viewer) over 500 ms"
                     if pairs else "")
            print(f"    {second_at - at:5.0f} s  total {sum(split.values()):.0f}: {parts}{moves}")
    per_page = Counter(len(p.reloads) for p in bench.pages())
    later = [p for p in bench.pages() if p.reloads]
    print(f"reloads per page: {dict(sorted(per_page.items()))}; pages on the new release: "
          f"{sum(p.release > first for p in bench.pages())} of {len(bench.pages())}"
          + (f" (the last reload into {max(p.reloads[-1] for p in later)})" if later else ""))
    print("move -> every viewer updated, from the POST sent:")
    for name, start, end, (busy0, total0), (busy1, total1) in figures["phases"]:
        pairs, last, never = update_delays(bench, start, end)
        busy = (busy1 - busy0) / max(total1 - total0, 1) * 100
        late = [x for at, x in bench.loop_lag if start <= at <= end]
        print(f"  {name}: every (move, viewer) {ms(pairs)}"
              + (f"; never updated {never}" if never else "")
              + f"; the machine's CPUs {busy:.0f}% busy; this client's loop late by "
              f"p99 {pct(late, 99) * 1000:.0f} ms")


def _web_share(seconds: list[tuple[float, dict[str, float]]]) -> float:
    """The web processes' mean CPU over `seconds`, in % of one CPU."""
    if not seconds:
        return 0.0
    return sum(share for _, split in seconds for kind, share in split.items()
               if kind.startswith("web ")) / len(seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--web", type=int, default=3, help="web processes")
    parser.add_argument("--tables", type=int, default=60, help="tables playing")
    parser.add_argument("--robot-tables", type=int, default=15,
                        help="of those, tables the robots play alone")
    parser.add_argument("--spectators", type=int, default=4, help="spectators per table")
    parser.add_argument("--idle-pages", type=int, default=600,
                        help="more pages open, on tables nobody moves at")
    parser.add_argument("--rate", type=float, default=1.0, help="moves per second per table")
    parser.add_argument("--rolls", type=int, default=2,
                        help="deploys in a row, then as many with a new release")
    parser.add_argument("--calm", type=float, default=20,
                        help="seconds measured before the first roll and after the last")
    parser.add_argument("--robot-level", choices=["facil", "normal", "dificil"], default="normal")
    parser.add_argument("--robot-delay", type=float, default=1.0)
    parser.add_argument("--client-cpu", type=int, default=(os.cpu_count() or 1) - 1,
                        help="the CPU this client runs on alone (taskset); the rest run the site")
    args = parser.parse_args()
    pinned(args.client_cpu)
    # What bench/load.py's Bench reads.
    args.scenario, args.idle, args.churn, args.fault, args.duplicates = "people", False, 0, "", 0
    # Each person as a browser (bench/load.py --client browser): their own connections kept
    # alive and cookies, Chromium's headers, a POST's body in a write after its headers.
    args.client, args.languages = "browser", "es"
    args.body_gap, args.late_bodies, args.late_body_gap = 0.0, 0.0, 0.2
    print(f"open files allowed: {raise_file_limit()}")
    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    prefix = f"deploy{uuid.uuid4().hex[:8]}"
    first = release_name("first")
    web, proxy = production_ports(args.web)
    env = {
        **GENEROUS_LIMITS, "REDIS_URL": os.environ.get("REDIS_URL") or REDIS_URL,
        "CHANNEL_PREFIX": prefix, "CACHE_PREFIX": prefix, "ROBOT_DELAY": str(args.robot_delay),
        "WEB": str(args.web), "WORKERS": "1", "PORT": str(web), "PROXY_PORT": str(proxy),
        "RELEASE": first, "LOG_LEVEL": "WARNING",
        "SERVERS_CPUS": servers_cpus(args.client_cpu),  # (read by taskset here, not the site)
    }
    with fresh_database() as db_env:
        env.update(db_env)
        run_dir = Path(tempfile.mkdtemp(prefix="ocholoco-deploy-"))  # its logs stay there
        production(run_dir, {**env, "DETACH": "1"})
        try:
            url = f"http://127.0.0.1:{proxy}"
            bench = DeployBench(args, [Server("web", url, None, run_dir / "nginx.log")])
            figures = asyncio.run(play(bench, run_dir, env, first))
        finally:
            production(run_dir, env, "stop")
        report(bench, figures, db_env, first)
        print(f"logs: {run_dir}")


if __name__ == "__main__":
    main()
