"""Difícil: determinized Monte Carlo search with the Normal robot as the playout policy.

Each iteration deals one guess of the hidden cards (`determinize.sample_round`), plays every
candidate move on it and finishes the round with `normal_action` for everyone, the others with
a random move now and then. Normal's own move is played unless another beats it on the same
guesses by more than one standard error. Why this search: docs/architecture.md, "The robots".
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from bots.determinize import sample_round
from bots.inference import ATTACK_SIZE, SUIT_MASKS, public_info
from bots.normal import normal_action, normal_choose
from ocholoco import Round, RoundView, apply_action, legal_actions, step
from ocholoco.encoding import ANNOUNCED, CATCH, DRAW, N_SUITS, Tables, V

DEFAULT_BUDGET = 0.12  # seconds per decision: 99% of decisions end within 150 ms
_WIN_BONUS = 20.0
_CONFIDENCE = 1.0
# How often another player makes a random move in a playout: people (and Fácil) are not
# Normal, and a search that expects only good replies misjudges them. Measured with 60
# guesses per decision over 200 two-player rounds: against random play +0 to +5 points of
# rounds won (as much as the noise of such samples), against Normal no change.
_OPPONENT_NOISE = 0.3
_NOISE_LEN = 251  # random numbers drawn per guess, shared by every candidate's playout
_CLOCK_EVERY = 31  # the clock is read every 32 moves of a playout
_MAX_MOVES = 20_000  # a safety net: the engine ends every round long before


def dificil_choose(
    view: RoundView,
    actions: list[int],
    rng: random.Random,
    *,
    budget: float = DEFAULT_BUDGET,
    playouts: int | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> int:
    """The Difícil move among ``actions``: search for ``budget`` seconds of ``clock``, or for
    ``playouts`` iterations (one guess of the hidden cards each) when given."""
    if len(actions) == 1:
        return actions[0]
    if actions[-1] == CATCH:
        return CATCH  # the forgetful player draws the fine, and the turn goes on: free
    if len(view.hand) == 1 and actions[0] < DRAW:
        return actions[0]  # the last card fits: going out cannot be bettered
    deadline = clock() + budget
    info = public_info(view)
    t = info.tables
    candidates = _distinct(_announcing(actions), t)
    anchor = normal_choose(view, actions, info)
    if anchor not in candidates:  # an equivalent wild card was dropped: judge this one
        candidates.append(anchor)
    me = view.player
    rows: list[list[float]] = []
    timed = playouts is None
    while timed or len(rows) < playouts:
        guess = sample_round(view, info, rng)
        noise = [rng.random() for _ in range(_NOISE_LEN)] if _OPPONENT_NOISE else None
        outcomes = _outcomes(guess, candidates, t, me, noise, deadline if timed else None, clock)
        if outcomes is None:  # out of time mid-guess (or a playout without end, never seen):
            break  # dropped, so every move is judged on the same guesses; none: Normal's move
        rows.append(outcomes)
        if timed and clock() >= deadline:
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
    guess: Round,
    candidates: list[int],
    t: Tables,
    me: int,
    noise: list[float] | None,
    deadline: float | None,
    clock: Callable[[], float],
) -> list[float] | None:
    """Each candidate's outcome on one guess; None if ``deadline`` passes before the end."""
    outcomes = []
    for action in candidates:
        state = apply_action(guess, action)
        if _play_out(state, t, me, noise, deadline, clock) is None:
            return None
        outcomes.append(_outcome(state, me))
        if deadline is not None and clock() >= deadline:
            return None
    return outcomes


def _announcing(actions: list[int]) -> list[int]:
    """The actions without the plays that could announce "¡Última carta!" and do not (not
    announcing only lets the next player catch us)."""
    if all(a < ANNOUNCED for a in actions):
        return actions
    announced = {a - ANNOUNCED for a in actions if a >= ANNOUNCED}
    return [a for a in actions if a not in announced]


def _distinct(actions: list[int], t: Tables) -> list[int]:
    """The actions that can lead to different rounds: two wild cards naming the same suit
    are the same move (only the named suit and the points matter, and points are equal)."""
    named = set()
    out = []
    for a in actions:
        play = a - ANNOUNCED if a >= ANNOUNCED else a
        if V <= play < DRAW:
            key = (play // V, t.points[play % V], a >= ANNOUNCED)
            if key in named:
                continue
            named.add(key)
        out.append(a)
    return out


def _play_out(
    state: Round,
    t: Tables,
    me: int,
    noise: list[float] | None,
    deadline: float | None,
    clock: Callable[[], float],
) -> Round | None:
    """Finish ``state`` (a private copy, changed in place) with every player playing Normal,
    but the others now and then a random move (``noise``: the guess's random numbers, the
    same for every candidate); None if ``deadline`` passes first."""
    hands = state.hand_masks  # changed in place by every step
    players = state.players
    moves = 0
    while not state.finished:
        moves += 1
        if not moves & _CLOCK_EVERY and (
            moves > _MAX_MOVES or deadline is not None and clock() >= deadline
        ):
            return None
        p = state.turn
        hand = hands[p]
        actions = legal_actions(state)
        if len(actions) == 1:
            action = actions[0]
        elif noise is not None and p != me and noise[moves % _NOISE_LEN] < _OPPONENT_NOISE:
            action = actions[int(noise[(moves + 1) % _NOISE_LEN] * len(actions))]
        else:
            after = hands[(p + state.direction) % players]
            after_size = after.bit_count()
            attack = 0
            if after_size <= ATTACK_SIZE:  # the guess stands in for what a player infers
                values = after if t.decks == 1 else t.values(after)
                attack = sum(1 << s for s in range(N_SUITS) if not values & SUIT_MASKS[s])
            action = normal_action(
                t, actions, hand, state.pending_draw > 0, players, after_size,
                hands[(p - state.direction) % players].bit_count(), attack, state.suit_index,
            )  # fmt: skip
        step(state, action)
    return state


def _outcome(state: Round, me: int) -> float:
    points = state.round_points
    mine = points[me]
    if state.rules.scoring == "penalty":  # points are what each player adds: lower is better
        others = min(x for i, x in enumerate(points) if i != me)
        won = me in state.winners and len(state.winners) == 1
        return others - mine + (_WIN_BONUS if won else 0.0)
    others = max(x for i, x in enumerate(points) if i != me)
    return mine - others + (_WIN_BONUS if mine > 0 else 0.0)
