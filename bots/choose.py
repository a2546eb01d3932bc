"""The one entry point the table uses to ask a robot for its move.

A robot is given `ocholoco.view_for` of its own seat and the legal moves, never the state: it
cannot see a hidden card or the order of the stock.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any


def choose(view: Any, legal_moves: Sequence[Any], *, level: str, rng: random.Random) -> Any:
    """The robot's move, one of `legal_moves`. Every level plays a random legal move for now."""
    if not legal_moves:
        raise ValueError("A robot was asked to move with no legal move.")
    return rng.choice(list(legal_moves))
