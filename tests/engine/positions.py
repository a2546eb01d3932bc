"""Scripted positions for the engine tests.

A scripted deal (`ocholoco.stacked_deck`) sets up the start of a round; `position` sets up
any moment of one (an empty stock, a pending penalty...) through the round's JSON form.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import reduce

from ocholoco import PRESETS, Card, Round, apply_move, from_json


def position(
    rules: str,
    hands: Sequence[Sequence[str]],
    top: str,
    *,
    stock: Sequence[str] = (),
    turn: int = 0,
    suit: str | None = None,
    direction: int = 1,
    pending_draw: int = 0,
    pending_rank: str | None = "2",
    idle_turns: int = 0,
    reshuffled: int = 0,
) -> Round:
    """A round in play with exactly these cards (others are out of play; with the house
    rules that reshuffle the discard, the others are the discard pile under ``top``).
    ``reshuffled``: how many times the stock was already rebuilt this round."""
    state = from_json(
        {
            "type": "round",
            "rules": PRESETS[rules].key,
            "players": len(hands),
            "dealer": (turn - direction) % len(hands),
            "hands": [list(hand) for hand in hands],
            "stock": list(stock),
            "top": top,
            "active_suit": suit or Card.parse(top).suit,
            "turn": turn,
            "direction": direction,
            "pending_draw": pending_draw,
            "pending_rank": pending_rank if pending_draw else None,
            "idle_turns": idle_turns,
            "finished": False,
            "blocked": False,
            "winners": [],
            "round_points": [0] * len(hands),
            "history": [["open", 0, top, None, 0]] + [["reshuffle", 0, None, None, 0]] * reshuffled,
        }
    )
    assert isinstance(state, Round)
    return state


def play(state: Round, *moves: str) -> Round:
    """``state`` after ``moves``, written in move notation."""
    return reduce(apply_move, moves, state)
