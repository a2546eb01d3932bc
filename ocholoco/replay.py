"""Replay a round from its setup and its moves: the deal, then each move in order.

A round is fully determined by its rules, its players, its dealer, the `fairness.Deal` it
was dealt from (the deck, and the salt that orders its reshuffles) and the list of moves
made, so a finished round can be stepped through again, move by move, with every hand face up.
"""

from __future__ import annotations

from collections.abc import Iterable

from .fairness import Deal
from .moves import Move
from .round import apply_move, new_round
from .rules import RuleSet
from .state import Round


def replay(
    rules: RuleSet, players: int, dealer: int, deal: Deal, moves: Iterable[Move | str]
) -> list[Round]:
    """The round as dealt, then after each move: ``len(moves) + 1`` states. The moves stop
    being read once the round is over; an illegal one raises `IllegalMove`."""
    state = new_round(rules, players, dealer, deck=deal.deck, salt=deal.salt)
    states = [state]
    for move in moves:
        if state.finished:
            break
        state = apply_move(state, move)
        states.append(state)
    return states
