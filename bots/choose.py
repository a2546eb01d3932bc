"""The one entry point the table uses to ask a robot for its move.

A robot is given `ocholoco.view_for` of its own seat and the legal moves, never the state: it
cannot see a hidden card or the order of the stock. All its randomness comes from ``rng``.

Levels (the values tables store): ``"facil"`` plays a random card that fits and draws only
when none does; ``"normal"`` plays like a good player, at once (`bots.normal`); ``"dificil"``
searches for about 100 ms (`bots.dificil`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bots.dificil import DEFAULT_BUDGET, dificil_choose
from bots.normal import normal_choose
from ocholoco import Move, Play, RoundView, action_of

LEVELS = ("facil", "normal", "dificil")


def choose(
    view: RoundView,
    legal_moves: Sequence[Move],
    *,
    level: str,
    rng: random.Random,
    budget: float = DEFAULT_BUDGET,
    playouts: int | None = None,
) -> Move:
    """The robot's move, one of ``legal_moves``.

    ``budget`` (seconds) and ``playouts`` tune the Difícil search (see `dificil_choose`);
    the other levels ignore them.
    """
    moves = list(legal_moves)
    if not moves:
        raise ValueError("A robot was asked to move with no legal move.")
    if level == "facil":
        plays = [m for m in moves if isinstance(m, Play)]
        return rng.choice(plays) if plays else moves[0]
    actions = [action_of(m) for m in moves]
    if level == "normal":
        action = normal_choose(view, actions)
    elif level == "dificil":
        action = dificil_choose(view, actions, rng, budget=budget, playouts=playouts)
    else:
        raise ValueError(f"unknown robot level {level!r}")
    return moves[actions.index(action)]
