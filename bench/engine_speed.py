"""How fast the engine plays random rounds, next to OpenSpiel's C++ ``crazy_eights``.

Run:  .venv/bin/python bench/engine_speed.py [--seconds 3] [--seed 1]
(OpenSpiel comes from requirements-bench.txt; without it only our figures are printed.)

Single-threaded. For 2 and 4 players and both product rule sets (and, with ``--house``,
the house-rule presets, which have no OpenSpiel counterpart) it plays complete rounds choosing
uniformly among the legal moves (seeded) and prints rounds/s and moves/s three ways:

- ``playout``: `random_playout`, the path robots' rollouts use (one copy of the round,
  then legal_actions / apply in place) — the figure compared with OpenSpiel;
- ``apply_action``: the immutable int fast path, a new state per move (tree search);
- ``apply_move``: the public API (Move objects, legality checked), as the web layer uses it.

OpenSpiel: ``pyspiel.load_game("crazy_eights", {"players": N, "max_draw_cards": 52})``, a
random legal action at every node (chance nodes included: dealing and drawing are chance
outcomes there) until terminal. Its games are not ours (other rules, a 100-turn cap), so the
ratio compares whole random games per second, each engine with its own rules.
It prints figures; it is not a test.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from anywhere

from ocholoco import (
    PRESETS,
    apply_action,
    apply_move,
    legal_actions,
    legal_moves,
    new_round,
)
from ocholoco.simulate import simulate

CONFIGS = [("clasico", 2), ("clasico", 4), ("especiales", 2), ("especiales", 4)]
# The house-rule presets, measured against themselves only (OpenSpiel plays none of them).
HOUSE_CONFIGS = [("libro", 2), ("libro", 6), ("anuncio", 4), ("anuncio", 8), ("chileno", 2),
                 ("chileno", 6)]  # fmt: skip


def timed(play_one: Callable[[], int], seconds: float) -> tuple[float, float]:
    """(rounds/s, moves/s) of ``play_one`` (which plays a round and returns its moves)."""
    rounds = moves = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        moves += play_one()
        rounds += 1
    return rounds / elapsed, moves / elapsed


def immutable_round(rules: str, players: int, rng: random.Random) -> Callable[[], int]:
    def play_one() -> int:
        state = new_round(PRESETS[rules], players, rng=rng)
        moves = 0
        while not state.finished:
            actions = legal_actions(state)
            state = apply_action(state, actions[int(rng.random() * len(actions))])
            moves += 1
        return moves

    return play_one


def public_round(rules: str, players: int, rng: random.Random) -> Callable[[], int]:
    def play_one() -> int:
        state = new_round(PRESETS[rules], players, rng=rng)
        moves = 0
        while not state.finished:
            state = apply_move(state, rng.choice(legal_moves(state)))
            moves += 1
        return moves

    return play_one


def openspiel_round(players: int, rng: random.Random) -> Callable[[], int] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("crazy_eights", {"players": players, "max_draw_cards": 52})

    def play_one() -> int:
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply_action(actions[int(rng.random() * len(actions))])
            moves += 1
        return moves

    return play_one


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--house", action="store_true", help="also the house-rule presets")
    args = parser.parse_args()

    openspiel: dict[int, tuple[float, float]] = {}
    for players in sorted({p for _, p in CONFIGS}):
        play_one = openspiel_round(players, random.Random(args.seed))
        if play_one is None:
            print("OpenSpiel (open-spiel) is not installed: pip install -r requirements-bench.txt")
            break
        openspiel[players] = timed(play_one, args.seconds)
        rps, mps = openspiel[players]
        print(f"openspiel crazy_eights {players}p: {rps:8,.0f} games/s  {mps:10,.0f} actions/s")

    for rules, players in CONFIGS + (HOUSE_CONFIGS if args.house else []):
        rounds = max(1, int(args.seconds * 1000))
        report = simulate(rules, players, rounds, args.seed)
        while report.seconds < args.seconds / 2:  # aim at about `seconds` of play
            rounds *= 2
            report = simulate(rules, players, rounds, args.seed)
        line = (
            f"{rules:>10} {players}p playout:      {report.rounds_per_second:8,.0f} rounds/s"
            f"  {report.moves_per_second:10,.0f} moves/s  ({report.moves_per_round:.1f} moves"
            f"/round, {report.blocked_share:.0%} blocked)"
        )
        if players in openspiel and (rules, players) in CONFIGS:
            line += f"  x{report.rounds_per_second / openspiel[players][0]:.2f} OpenSpiel"
        print(line)
        for label, make in (("apply_action", immutable_round), ("apply_move", public_round)):
            rps, mps = timed(make(rules, players, random.Random(args.seed)), args.seconds)
            print(
                f"{rules:>10} {players}p {label + ':':<14}{rps:8,.0f} rounds/s  {mps:10,.0f}"
                " moves/s"
            )


if __name__ == "__main__":
    main()
