"""How well and how fast the robots play: seeded games between levels, and their figures.

Run:  .venv/bin/python bench/bots_strength.py            (the default run: see below)
      .venv/bin/python bench/bots_strength.py --quick    (a smoke run: a few minutes)
The strength targets of issue 14 alone (every line, rounds then matches):
      .venv/bin/python bench/bots_strength.py --only targets [--line especiales:4 ...]
Options: --rounds N (Difícil's rounds per product rule set with 2 players, default 100; half
as many with 4), --matches N (Difícil vs Normal matches per rule set, 2 players, default 50),
--budget S (Difícil's seconds per decision, default `DEFAULT_BUDGET`, 0.12, the product's),
--match-budget S (in matches, default the same), --easy-rounds N /
--easy-matches N (Normal vs Fácil, default 2000 / 300), --house-rounds N (Difícil vs Normal
rounds per house preset with 2 players, default 16; a quarter as many at the most players)
and --house-easy-rounds N (Normal vs Fácil per house preset, with 2 and with the most
players, default 400), --memory-rounds N (default 1000), --seed N, --rules R and
--players N (restrict the product parts to clasico / especiales, 2 / 4; repeatable),
--only PART (easy, random, normal, matches, house, targets, ladder, memory; repeatable),
--target-rounds N / --target-matches N (per line of the targets, default 400 / 40; 0
skips them), --playouts N (in the targets, Difícil makes N guesses a decision instead of
searching for a time: its choices then depend on the seeds alone, not on the machine's load,
which is how to compare two versions of the robot), --ladder-rounds N (per level and line of
the ladder, default 2000),
--line RULES:PLAYERS (restrict the targets and the ladder; repeatable), --jobs N.
The two-player targets with larger samples (about 45 minutes on two cores):
      --only random --only matches --players 2 --rounds 600 --matches 100

The games of each line are shared among ``--jobs`` processes (default: one per core), each
on its own core, so a decision's time is still one core's; ``--jobs 1`` plays everything in
one process. Every game is seeded: game ``i`` of a setting deals with
``Random(seed + i)``, the robots draw from their own ``Random``; the candidate sits in seat
``i % players`` (the others are the opponent level) and, in single rounds, seat
``i // players % players`` deals, so every seat meets every dealer; a match turns the deal
itself. Each line prints what was run.

Figures, from the candidate's side:
- round win: it collected points (``round_points > 0``). A blocked round tied for the fewest
  points collects nothing between the tied players: with two players that is a draw, and a
  draw counts as half a win (so 50% is an even contest with two players, 25% with four).
  With penalty scoring (libro, anuncio): it is the round's only winner (one of tied winners:
  half);
- match win: among the match's winners (a shared top counts as half);
- 95% Wilson interval of the win rate, and the average margin per round: the candidate's
  round points minus the average of the others' (per match: final totals, same margin;
  with penalty scoring the other way round, so that a positive margin is always good);
- decision times: Difícil over decisions with a choice (a single legal move is not searched),
  p50 / p99 / max; Normal over all its decisions;
- memory: RSS and tracemalloc's current size before and after ``--memory-rounds`` rounds with
  all levels seated, after a warm-up;
- the machine's load averages at the start and at the end (decision times depend on them).
- the targets (`TARGETS`, issue 14): Difícil against Normals, 3 and 4 players in Clásico
  and Con especiales, 2 and 4 players in each house preset; each line prints its target
  and a verdict: "SÍ" when the whole 95% interval is above it, "no" when it is all below,
  else which side the estimate falls on. Then Difícil's decision times in those games,
  wall clock and CPU (``time.thread_time``: the wall clock also counts the time the
  process waited for a core on a busy machine).
- the ladder: at each table of the targets, one seat Aleatorio, Fácil or Normal against
  Normals, to show how far skill alone moves a seat's share there (Normal's line is the fair
  share, measured).
It prints figures; it is not a test.

Sample sizes. A line's 95% interval is about ±5 points at 300 to 400 rounds: 400 rounds
tell 35% from the fair 25% of a 4-player table (an observed 35% gives [30.5%, 39.9%]) and
60% from the even 50% of two players ([55.1%, 64.7%]); 300 tell 45% from the fair 33% of
three players ([39.4%, 50.7%]). Telling the target itself from a rate 5 points below it
takes about 1400 rounds a line. Matches are 4 to 10 rounds each: 40 a line only show a
large difference (±15 points). Time, on 2 cores shared with another load, ``--jobs 2``,
300 rounds a line: 34 minutes for the ten lines (2 to 3 minutes a line; 5.5 for 4-player
and 8 for 2-player Ocho loco chileno); 30 matches take 1 to 1.5 minutes a 4-player line, 3
a 2-player one.
"""

from __future__ import annotations

import argparse
import gc
import math
import multiprocessing
import os
import random
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from anywhere

from bots import choose
from bots.dificil import DEFAULT_BUDGET
from ocholoco import (
    PRESETS,
    Match,
    Move,
    Round,
    RoundView,
    apply_move,
    legal_moves,
    new_match,
    new_round,
    view_for,
)

Robot = Callable[[RoundView, list[Move], random.Random], Move]
NAMES = {"random": "Aleatorio", "facil": "Fácil", "normal": "Normal", "dificil": "Difícil"}


@dataclass
class Timings:
    """Decision times in seconds, per level."""

    by_level: dict[str, list[float]] = field(default_factory=dict)

    def robot(self, level: str, key: str | None = None, **options: float) -> Robot:
        """``level``'s robot, its times kept under ``key`` (default: the level)."""
        times = self.by_level.setdefault(key or level, [])
        cpu = self.by_level.setdefault(f"{key or level}-cpu", [])

        def play(view: RoundView, moves: list[Move], rng: random.Random) -> Move:
            start, start_cpu = time.perf_counter(), time.thread_time()
            move = choose(view, moves, level=level, rng=rng, **options)
            if len(moves) > 1:
                times.append(time.perf_counter() - start)
                cpu.append(time.thread_time() - start_cpu)
            return move

        return play


def random_robot(view: RoundView, moves: list[Move], rng: random.Random) -> Move:
    return rng.choice(moves)


def play_round(state: Round, seats: list[Robot], rng: random.Random) -> Round:
    while not state.finished:
        moves = legal_moves(state)
        state = apply_move(state, seats[state.turn](view_for(state, state.turn), moves, rng))
    return state


def play_match(rules: str, seats: list[Robot], deal: random.Random, rng: random.Random) -> Match:
    match = new_match(rules, len(seats))
    while not match.finished:
        match = match.apply_round(play_round(match.deal(rng=deal), seats, rng))
    return match


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def verdict(rate: float, low: float, high: float, target: float) -> str:
    """Whether a win rate meets its target: "SÍ" when the whole 95% interval is above it,
    "no" when the whole interval is below it, else which side the estimate falls on."""
    if low >= target:
        return "SÍ"
    if high < target:
        return "no"
    return "sí (dentro del intervalo)" if rate >= target else "no (dentro del intervalo)"


def round_score(final: Round, me: int) -> float:
    """1 for a round won, 0.5 for a draw, else 0 (see the module docstring)."""
    points = final.round_points
    if final.rules.scoring == "penalty":  # the winners: the lowest hands (one who went out)
        return (1.0 if len(final.winners) == 1 else 0.5) if me in final.winners else 0.0
    if points[me] > 0:
        return 1.0
    return 0.5 if not any(points) else 0.0


def match_score(me: int, winners: tuple[int, ...]) -> float:
    return (1.0 if len(winners) == 1 else 0.5) if me in winners else 0.0


def pit(
    label: str,
    rules: str,
    players: int,
    games: int,
    candidate: Robot,
    opponent: Robot,
    seed: int,
    *,
    matches: bool = False,
    target: float | None = None,
) -> None:
    """Play ``games`` rounds (or matches) of ``candidate`` against ``players - 1`` opponents,
    split among `JOBS` processes (forked: they share the robots and send back their times).
    With a ``target`` (a win rate), the line says whether it is met (`verdict`)."""
    global _PIT
    _PIT = (rules, players, candidate, opponent, seed, matches)
    start = time.perf_counter()
    chunks = [range(j, games, JOBS) for j in range(JOBS)]
    if JOBS > 1:
        with multiprocessing.get_context("fork").Pool(JOBS) as pool:
            results = pool.map(_games, chunks)
    else:
        results = [_games(chunks[0])]
    won = sum(r[0] for r in results)
    margin = sum(r[1] for r in results)
    rounds = sum(r[2] for r in results)
    if JOBS > 1:
        for *_, times in results:
            for key, added in times.items():
                TIMINGS.by_level.setdefault(key, []).extend(added)
    low, high = wilson(won, games)
    unit = "partidas" if matches else "rondas"
    extra = f" ({rounds} rondas)" if matches else ""
    print(
        f"{label:<34} {rules:<10} {players}j  {games:>5} {unit}{extra}: "
        f"gana {won / games:6.1%} [{low:.1%}, {high:.1%}]  "
        f"margen {margin / games:+6.1f} pts/{'partida' if matches else 'ronda'}  "
        f"({time.perf_counter() - start:.0f} s)"
        + (f"  objetivo {target:.0%}: {verdict(won / games, low, high, target)}" if target else ""),
        flush=True,
    )


def _games(games: range) -> tuple[float, float, int, dict[str, list[float]]]:
    """Games ``games`` of the `pit` in `_PIT`: won, margin, rounds, and the decision times
    this process added."""
    rules, players, candidate, opponent, seed, matches = _PIT
    before = {key: len(times) for key, times in TIMINGS.by_level.items()}
    won = margin = 0.0
    rounds = 0
    for i in games:
        me = i % players
        seats = [candidate if p == me else opponent for p in range(players)]
        deal, rng = random.Random(seed + i), random.Random(10**6 + seed + i)
        if matches:
            match = play_match(rules, seats, deal, rng)
            points = list(match.totals)
            rounds += match.round_number - 1
            won += match_score(me, match.winners)
        else:
            dealer = i // players % players
            final = play_round(new_round(rules, players, dealer, rng=deal), seats, rng)
            points = list(final.round_points)
            rounds += 1
            won += round_score(final, me)
        mine = points.pop(me)
        sign = -1 if PRESETS[rules].scoring == "penalty" else 1  # penalty points: fewer is better
        margin += sign * (mine - sum(points) / len(points))
    added = {key: times[before.get(key, 0) :] for key, times in TIMINGS.by_level.items()}
    return won, margin, rounds, added


def percentiles(times: list[float]) -> str:
    if not times:
        return "no decisions"
    times = sorted(times)
    pick = lambda q: times[min(len(times) - 1, int(q * len(times)))] * 1000  # noqa: E731
    return (
        f"{len(times)} decisiones: p50 {pick(0.5):.2f} ms, p99 {pick(0.99):.2f} ms, "
        f"máx {times[-1] * 1000:.2f} ms"
    )


def rss_kib() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4


def memory(rounds: int, seed: int) -> None:
    """Rounds with every level seated (Difícil with a tiny budget, so that it is quick)."""

    def robot(level: str, **options: float) -> Robot:  # untimed: no list grows meanwhile
        return lambda view, moves, rng: choose(view, moves, level=level, rng=rng, **options)

    seats = [robot("normal"), robot("dificil", budget=0.002), robot("facil"), random_robot]

    def run(n: int, offset: int) -> None:
        for i in range(n):
            rules = ("clasico", "especiales")[i % 2]
            deal, rng = random.Random(seed + offset + i), random.Random(seed - offset - i)
            play_round(new_round(rules, 4, i % 4, rng=deal), seats, rng)

    run(100, 0)  # warm-up: caches, interned objects
    gc.collect()
    tracemalloc.start()
    before, rss_before = tracemalloc.get_traced_memory()[0], rss_kib()
    start = time.perf_counter()
    run(rounds, 10**5)
    gc.collect()
    after, rss_after = tracemalloc.get_traced_memory()[0], rss_kib()
    tracemalloc.stop()
    print(
        f"Memoria, {rounds} rondas de 4 (Normal, Difícil 2 ms, Fácil, Aleatorio, ambas reglas; "
        f"{time.perf_counter() - start:.0f} s): tracemalloc {before / 1024:.0f} -> "
        f"{after / 1024:.0f} KiB, RSS {rss_before / 1024:.1f} -> {rss_after / 1024:.1f} MiB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--budget", type=float, default=DEFAULT_BUDGET)
    parser.add_argument("--match-budget", type=float, default=DEFAULT_BUDGET)
    parser.add_argument("--easy-rounds", type=int, default=2000)
    parser.add_argument("--easy-matches", type=int, default=300)
    parser.add_argument("--house-rounds", type=int, default=16)
    parser.add_argument("--house-easy-rounds", type=int, default=400)
    parser.add_argument("--memory-rounds", type=int, default=1000)
    parser.add_argument("--target-rounds", type=int, default=400)
    parser.add_argument("--target-matches", type=int, default=40)
    parser.add_argument("--ladder-rounds", type=int, default=2000)
    parser.add_argument("--playouts", type=int, default=0)
    parser.add_argument("--line", action="append", choices=[f"{r}:{n}" for r, n, _ in TARGETS])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", action="append", choices=PRODUCT)
    parser.add_argument("--players", type=int, action="append", choices=(2, 4))
    parser.add_argument("--only", action="append", choices=PARTS)
    parser.add_argument("--quick", action="store_true", help="a smoke run, tiny samples")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    if args.quick:
        args.rounds, args.matches, args.easy_rounds, args.easy_matches = 6, 4, 200, 20
        args.house_rounds, args.house_easy_rounds, args.memory_rounds = 4, 40, 100
        args.target_rounds, args.target_matches, args.ladder_rounds = 8, 2, 40
    parts = args.only or PARTS
    print(" ".join(sys.argv[1:]) or "(default options)", vars(args), flush=True)
    print(f"Carga de la máquina al empezar: {load()}", flush=True)
    global JOBS
    JOBS = max(1, args.jobs)
    timings = TIMINGS
    normal = timings.robot("normal")
    dificil = timings.robot("dificil", budget=args.budget)
    ms = f"{args.budget * 1000:.0f} ms"
    for rules in args.rules or PRODUCT:
        for players in args.players or (2, 4):
            if "easy" in parts:
                fac = timings.robot("facil")
                pit("Normal vs Fácil", rules, players, args.easy_rounds, normal, fac, args.seed)
                pit(
                    "Normal vs Fácil", rules, players, args.easy_matches, normal, fac,
                    args.seed, matches=True,
                )  # fmt: skip
            rounds = args.rounds if players == 2 else args.rounds // 2
            if "random" in parts:
                pit(
                    f"Difícil {ms} vs Aleatorio", rules, players, rounds, dificil, random_robot,
                    args.seed,
                )  # fmt: skip
            if "normal" in parts:
                pit(f"Difícil {ms} vs Normal", rules, players, rounds, dificil, normal, args.seed)
        if "matches" in parts:
            pit(
                f"Difícil {args.match_budget * 1000:.0f} ms vs Normal", rules, 2, args.matches,
                timings.robot("dificil", "dificil-match", budget=args.match_budget), normal,
                args.seed,
                matches=True,
            )  # fmt: skip
    if "house" in parts:
        house = timings.robot("dificil", "dificil-house", budget=args.budget)
        fac = timings.robot("facil")
        for rules in HOUSE:
            most = PRESETS[rules].max_players
            for players in (2, most):
                easy = args.house_easy_rounds
                pit("Normal vs Fácil", rules, players, easy, normal, fac, args.seed)
            pit(f"Difícil {ms} vs Normal", rules, 2, args.house_rounds, house, normal, args.seed)
            pit(
                f"Difícil {ms} vs Normal", rules, most, max(1, args.house_rounds // 4), house,
                normal, args.seed,
            )  # fmt: skip
    if "targets" in parts:
        targets(args, normal)
    if "ladder" in parts:
        ladder(args, normal)
    print(f"Tiempo Normal: {percentiles(timings.by_level.get('normal', []))}")
    print(
        f"Tiempo Difícil (presupuesto {ms}, en las rondas de {'/'.join(args.rules or PRODUCT)}): "
        f"{percentiles(timings.by_level.get('dificil', []))}"
    )
    if "matches" in parts:
        print(
            f"Tiempo Difícil (presupuesto {args.match_budget * 1000:.0f} ms, en las partidas): "
            f"{percentiles(timings.by_level['dificil-match'])}"
        )
    if "house" in parts:
        print(
            f"Tiempo Difícil (presupuesto {ms}, reglas de la casa): "
            f"{percentiles(timings.by_level['dificil-house'])}"
        )
    if "memory" in parts:
        memory(args.memory_rounds, args.seed)
    print(f"Carga de la máquina al terminar: {load()}", flush=True)


def targets(args: argparse.Namespace, normal: Robot) -> None:
    """Every line of the robots' strength targets: Difícil against Normals at each table
    size and rule set (`TARGETS`), in rounds and in matches, with its decision times."""
    ms = f"{args.budget * 1000:.0f} ms"
    in_rounds, in_matches = {"budget": args.budget}, {"budget": args.match_budget}
    if args.playouts:  # the same choices on any machine: for comparing changes to the robot
        ms = f"{args.playouts} conjeturas"
        in_rounds = in_matches = {"playouts": args.playouts}
    rounds = TIMINGS.robot("dificil", "dificil-targets", **in_rounds)
    matches = TIMINGS.robot("dificil", "dificil-target-matches", **in_matches)
    for rules, players, target in TARGETS:
        if args.line and f"{rules}:{players}" not in args.line:
            continue
        label = f"Objetivo: Difícil {ms} vs Normal"
        if args.target_rounds:
            pit(label, rules, players, args.target_rounds, rounds, normal, args.seed, target=target)
        if args.target_matches:
            pit(
                label, rules, players, args.target_matches, matches, normal, args.seed,
                matches=True, target=target,
            )  # fmt: skip
    for key, what in (("dificil-targets", "rondas"), ("dificil-target-matches", "partidas")):
        if TIMINGS.by_level[key]:
            print(
                f"Tiempo Difícil (objetivos, {what}, presupuesto {ms}): "
                f"{percentiles(TIMINGS.by_level[key])}; "
                f"CPU: {percentiles(TIMINGS.by_level[key + '-cpu'])}"
            )


def ladder(args: argparse.Namespace, normal: Robot) -> None:
    """How much a seat's skill changes its share at each table of the targets: one seat
    Aleatorio, Fácil or Normal, the others Normal (Difícil's line is the target's). Where
    the three are close, the table is mostly luck, and no robot can go far above its share."""
    easy = TIMINGS.robot("facil")
    for rules, players, _ in TARGETS:
        if args.line and f"{rules}:{players}" not in args.line:
            continue
        for name, robot in (("Aleatorio", random_robot), ("Fácil", easy), ("Normal", normal)):
            pit(f"Escalera: {name} vs Normal", rules, players, args.ladder_rounds, robot, normal,
                args.seed)  # fmt: skip


def load() -> str:
    """The load averages (1, 5, 15 minutes) and the cores: how quiet the machine was."""
    with open("/proc/loadavg") as f:
        one, five, fifteen = f.read().split()[:3]
    return f"{one} {five} {fifteen} ({os.cpu_count()} núcleos)"


TIMINGS = Timings()
JOBS = 1  # processes playing the games of a `pit` (--jobs)
_PIT: tuple = ()  # the `pit` being played, read by its forked processes

PARTS = ["easy", "random", "normal", "matches", "house", "targets", "ladder", "memory"]
# The strength targets (issue 14): Difícil's share of rounds (and of matches) against Normals.
TARGETS = [
    ("clasico", 4, 0.35), ("clasico", 3, 0.45), ("especiales", 4, 0.35), ("especiales", 3, 0.45),
    ("libro", 2, 0.60), ("libro", 4, 0.35), ("anuncio", 2, 0.60), ("anuncio", 4, 0.35),
    ("chileno", 2, 0.60), ("chileno", 4, 0.35),
]  # fmt: skip
PRODUCT = ["clasico", "especiales"]
HOUSE = ["libro", "anuncio", "chileno"]

if __name__ == "__main__":
    main()
