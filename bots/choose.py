"""The one entry point the table uses to ask a robot for its move.

A robot is given `ocholoco.view_for` of its own seat and the legal moves, never the state: it
cannot see a hidden card or the order of the stock. All its randomness comes from ``rng``.
Levels (the values tables store): ``"facil"`` (a random card that fits), ``"normal"``
(`bots.normal`) and ``"dificil"`` (`bots.dificil`); docs/rules.md tells how each plays.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from bots.dificil import DEFAULT_BUDGET, dificil_choose
from bots.normal import normal_choose
from ocholoco import Catch, Move, Play, RoundView, action_of

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
    if level not in LEVELS:
        raise ValueError(f"unknown robot level {level!r}")
    for move in moves:
        if isinstance(move, Catch):
            return move  # every level: the forgetful player draws the fine, the turn goes on
    if level == "facil":
        return _facil(view, moves, rng)
    actions = [action_of(m) for m in moves]
    if level == "normal":
        action = normal_choose(view, actions)
    else:
        action = dificil_choose(view, actions, rng, budget=budget, playouts=playouts)
    return moves[actions.index(action)]


def _facil(view: RoundView, moves: list[Move], rng: random.Random) -> Move:
    """A beginner's move: any card that fits, at random; a wild card names the suit it holds
    most (ties: at random); draws (or passes) only when nothing fits."""
    cards = sorted({m.card for m in moves if isinstance(m, Play)}, key=str)
    if not cards:
        return moves[0]
    card = rng.choice(cards)
    suits = [m.suit for m in moves if isinstance(m, Play) and m.card == card and m.suit]
    suit = None
    if suits:
        held = Counter(c.suit for c in view.hand if c != card and c.suit in suits)
        most = max((held[s] for s in suits), default=0)
        suit = rng.choice([s for s in suits if held[s] == most])
    announced = Play(card, suit, True)
    return announced if announced in moves else Play(card, suit)
