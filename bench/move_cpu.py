"""A move's CPU in one process, without sockets or a network: two people play through Django's
test client (ABRIR MESA, the invitation, EMPEZAR, then their moves, as bench/load.py's players
choose them) and each move's POST is timed on the process's CPU clock, its commit hook (the
frames of every audience rendered and published) included; the GETs that tell who moves next
are not counted. With --calls, the Python calls a move (cProfile), which do not drift with the
machine.

    .venv/bin/python bench/move_cpu.py --code <before> --code . --runs 3 [--calls]

Each checkout (a folder with this repository at some revision, its own `staticfiles/` made by
`collectstatic` with DEBUG=0) runs in a process of its own, on a fresh SQLite database, the
revisions alternating. It prints figures; it is not a test.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# As bench/load.py's players read a panel. Not imported from it: bench/load.py puts this
# checkout first on the path, and the child process must import the checkout it measures.
MOVE_RE = re.compile(r'name="move" value="([^"]+)"')
VERSION_RE = re.compile(r'data-version="(\d+)"')
NOT_CARDS = {"draw", "pass", "catch"}


def child(moves: int, calls: bool, profile_to: str | None = None) -> None:
    """In the checkout this process runs in: `moves` moves, then one line of figures."""
    import cProfile
    import pstats

    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    call_command("migrate", verbosity=0)

    def table() -> tuple[str, list[Client]]:
        host, guest = Client(), Client()
        host.get("/")
        page = host.post("/abrir/", {"rules": "clasico", "name": "Ana", "deck": "clasica",
                                     "turn_limit": 0})["Location"]
        invitation = re.search(r'data-invite="(/mesa/[^/"]+/)"',
                               host.get(page).content.decode()).group(1)
        guest.get(invitation)
        guest.post(invitation + "sentarse/", {"name": "Beto"}, HTTP_HX_REQUEST="true")
        version = max(map(int, VERSION_RE.findall(host.get(page).content.decode())))
        host.post(page + "empezar/", {"version": version}, HTTP_HX_REQUEST="true")
        return page, [host, guest]

    random.seed(1)
    page, players = table()
    profile = cProfile.Profile() if calls else None
    done, refused, cpu = 0, 0, 0.0
    while done < moves:
        for player in players:
            body = player.get(page).content.decode()
            version = max(map(int, VERSION_RE.findall(body)))
            if 'siguiente/"' in body:
                player.post(page + "siguiente/", {"version": version}, HTTP_HX_REQUEST="true")
                break
            if 'revancha/"' in body:
                page, players = table()
                break
            if "your-turn" not in body:
                continue
            offered = MOVE_RE.findall(body)
            cards = [m for m in offered if m.lower() not in NOT_CARDS]
            move = random.choice(cards) if cards else ("draw" if "draw" in offered else "pass")
            began = time.process_time()
            if profile:
                profile.enable()
            answer = player.post(page + "jugar/", {"move": move, "version": version},
                                 HTTP_HX_REQUEST="true")
            if profile:
                profile.disable()
            if answer.status_code == 200:
                cpu += time.process_time() - began
                done += 1
            else:
                refused += 1
            break
    said = f"{cpu / moves * 1000:.3f} ms CPU a move"
    if profile:
        said += f" (under cProfile), {pstats.Stats(profile).total_calls / moves:,.0f} calls a move"
        if profile_to:
            profile.dump_stats(profile_to)
    if refused:
        said += f"; {refused} moves refused (not counted)"
    print(said)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", action="append", required=True,
                        help="a checkout to measure; repeat: they alternate")
    parser.add_argument("--runs", type=int, default=3, help="runs of each checkout")
    parser.add_argument("--moves", type=int, default=400, help="moves a run")
    parser.add_argument("--calls", action="store_true", help="count Python calls (cProfile)")
    parser.add_argument("--profile", metavar="FOLDER",
                        help="with --calls, keep each run's profile there (pstats files)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--profile-to", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.moves, args.calls, args.profile_to)
        return
    profiles = Path(args.profile).resolve() if args.profile else None
    for run in range(1, args.runs + 1):
        for code in args.code:
            folder = Path(code).resolve()
            with tempfile.TemporaryDirectory() as scratch:
                env = {
                    **os.environ, "DJANGO_SETTINGS_MODULE": "config.settings",
                    "DATABASE_URL": f"sqlite:///{scratch}/moves.sqlite3", "DEBUG": "0",
                    "SECRET_KEY": "move-cpu-" + "x" * 40, "ALLOWED_HOSTS": "testserver",
                    "SECURE_COOKIES": "0", "LOG_LEVEL": "WARNING", "PYTHONPATH": str(folder),
                }
                env.pop("REDIS_URL", None)
                done = subprocess.run(
                    [sys.executable, str(Path(__file__).resolve()), "--child", "--code", code,
                     "--moves", str(args.moves)] + (["--calls"] if args.calls else [])
                    + (["--profile-to", str(profiles / f"{folder.name}-{run}.pstats")]
                       if args.calls and profiles else []),
                    cwd=folder, env=env, capture_output=True, text=True,
                )
            said = done.stdout.strip().splitlines()[-1:] or [done.stderr.strip()[-300:]]
            print(f"run {run}, {folder}: {said[0]}", flush=True)


if __name__ == "__main__":
    main()
