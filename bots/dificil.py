"""Difícil: determinized Monte Carlo search with the Normal robot as the playout policy.

Each iteration deals one guess of the hidden cards (`determinize.sample_round`, consistent
with everything public and leaning on what the history suggests), then plays every candidate
move on that same guess and finishes the round with every player following `normal_action`.
Comparing the moves on the same guesses (common random numbers) makes the differences
between them much less noisy than their values. Normal's own move is the default: another
move is played only when, on the same guesses, it beats Normal's by more than one standard
error (at small budgets the plain best average is often a bad move that got lucky).

Outcome of a playout, from the robot's side: the round points it gains minus those of the
best other player, plus a bonus for winning the round (a blocked round won on a tie gains
nothing, so it counts as nothing).

Why this search: a round is short (tens of moves) and the Normal policy is a fair model of a
sensible player, so flat determinized rollouts spend the whole budget on full-depth
evaluations; information-set MCTS builds a tree whose deeper nodes get too few visits at
~100 ms in Python to beat that. The time budget is checked after every playout (a guess cut
short is dropped); with ``playouts`` instead, the number of iterations is fixed and the choice depends only on the
view and ``rng`` (what the tests use).
"""

from __future__ import annotations

import math
import random
import time

from bots.determinize import sample_round
from bots.inference import SUIT_MASKS, public_info
from bots.normal import normal_action, normal_choose
from ocholoco import Round, RoundView
from ocholoco.encoding import DRAW, N_SUITS, Tables, V
from ocholoco.round import _step, actions_for

DEFAULT_BUDGET = 0.1  # seconds per decision
_WIN_BONUS = 20.0
_CONFIDENCE = 1.0


def dificil_choose(
    view: RoundView,
    actions: list[int],
    rng: random.Random,
    *,
    budget: float = DEFAULT_BUDGET,
    playouts: int | None = None,
) -> int:
    """The Difícil move among ``actions``: search for ``budget`` seconds, or for ``playouts``
    iterations (one guess of the hidden cards each) when given."""
    if len(actions) == 1:
        return actions[0]
    if len(view.hand) == 1 and actions[0] < DRAW:
        return actions[0]  # the last card fits: going out cannot be bettered
    deadline = time.perf_counter() + budget
    info = public_info(view)
    t = info.tables
    candidates = _distinct(actions, t)
    anchor = normal_choose(view, actions, info)
    if anchor not in candidates:  # an equivalent wild card was dropped: judge this one
        candidates.append(anchor)
    me = view.player
    rows: list[list[float]] = []
    timed = playouts is None
    while timed or len(rows) < playouts:
        guess = sample_round(view, info, rng)
        outcomes = _outcomes(guess, candidates, t, me, deadline if timed and rows else None)
        if outcomes is None:
            break  # out of time mid-guess: dropped, so every move is judged on the same guesses
        rows.append(outcomes)
        if timed and time.perf_counter() >= deadline:
            break
    return candidates[_best(rows, candidates.index(anchor))]


def _best(rows: list[list[float]], anchor: int) -> int:
    """The candidate to play: Normal's move (``anchor``) unless another one beats it, on the
    same guesses, by more than `_CONFIDENCE` standard errors. With few guesses the averages
    are noisy, and the plain best average would often be a bad move that got lucky."""
    n = len(rows)
    best, best_score = anchor, 0.0
    if n < 2:
        return best
    for c in range(len(rows[0])):
        diffs = [row[c] - row[anchor] for row in rows]
        mean = sum(diffs) / n
        variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        score = mean - _CONFIDENCE * math.sqrt(variance / n)
        if score > best_score:
            best, best_score = c, score
    return best


def _outcomes(
    guess: Round, candidates: list[int], t: Tables, me: int, deadline: float | None
) -> list[float] | None:
    """Each candidate's outcome on one guess; None if ``deadline`` passes before the end."""
    outcomes = []
    for action in candidates:
        state = guess._copy()
        _step(state, action)
        outcomes.append(_outcome(_play_out(state, t), me))
        if deadline is not None and time.perf_counter() >= deadline:
            return None
    return outcomes


def _distinct(actions: list[int], t: Tables) -> list[int]:
    """The actions that can lead to different rounds: two wild cards naming the same suit
    are the same move (only the named suit and the points matter, and points are equal)."""
    named = set()
    out = []
    for a in actions:
        if V <= a < DRAW:
            key = (a // V, t.points[a % V])
            if key in named:
                continue
            named.add(key)
        out.append(a)
    return out


def _play_out(state: Round, t: Tables) -> Round:
    """Finish ``state`` (a private copy, changed in place) with every player playing Normal."""
    hands = state._hands
    players = state.players
    while not state.finished:
        p = state.turn
        hand = hands[p]
        actions = actions_for(
            t, hand, state._top, state._suit, state.pending_draw, state._pending_rank,
            state._pos < len(state._stock),
        )  # fmt: skip
        if len(actions) > 1:
            after = hands[(p + state.direction) % players]
            after_size = after.bit_count()
            attack = 0
            if after_size <= 2:  # the guess's cards stand in for what a player would infer
                values = after if t.decks == 1 else t.values(after)
                attack = sum(1 << s for s in range(N_SUITS) if not values & SUIT_MASKS[s])
            action = normal_action(
                t, actions, hand, state.pending_draw > 0, players, after_size,
                hands[(p - state.direction) % players].bit_count(), attack,
            )  # fmt: skip
        else:
            action = actions[0]
        _step(state, action)
    return state


def _outcome(state: Round, me: int) -> float:
    points = state.round_points
    mine = points[me]
    others = max(x for i, x in enumerate(points) if i != me)
    return mine - others + (_WIN_BONUS if mine > 0 else 0.0)
