"""Random self-play: complete rounds with uniformly random legal moves, and their figures.

Used by ``manage.py simulate`` and the benchmark; robots' playouts use the same
`random_playout`.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from .history import CAUGHT, DRAW, PASS, PENALTY, PLAY, records
from .playout import random_playout
from .round import new_round
from .rules import PRESETS

_MOVE_KINDS = frozenset((PLAY, DRAW, PASS, PENALTY, CAUGHT))


@dataclass(frozen=True)
class SimulationReport:
    rules: str
    players: int
    rounds: int
    moves: int
    seconds: float
    blocked: int
    wins: tuple[int, ...]  # rounds won per seat (a shared blocked win counts for each)

    @property
    def rounds_per_second(self) -> float:
        return self.rounds / self.seconds

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.seconds

    @property
    def moves_per_round(self) -> float:
        return self.moves / self.rounds

    @property
    def blocked_share(self) -> float:
        return self.blocked / self.rounds


def simulate(rules: str, players: int, rounds: int, seed: int = 0) -> SimulationReport:
    """Play ``rounds`` random rounds (dealer rotating as in a match) and count.

    Only dealing and playing are timed. Moves are counted from each round's history:
    plays, draws, passes, penalties taken and catches.
    """
    ruleset = PRESETS[rules]
    rng = random.Random(seed)
    wins = [0] * players
    moves = blocked = 0
    seconds = 0.0
    for n in range(rounds):
        start = time.perf_counter()
        final = random_playout(new_round(ruleset, players, n % players, rng=rng), rng)
        seconds += time.perf_counter() - start
        blocked += final.blocked
        for winner in final.winners:
            wins[winner] += 1
        moves += sum(kind in _MOVE_KINDS for kind, _, _ in records(final._history))
    return SimulationReport(rules, players, rounds, moves, seconds, blocked, tuple(wins))
