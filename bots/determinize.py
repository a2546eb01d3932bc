"""Determinization: a complete `Round` that agrees with everything a view shows.

Difícil searches over guesses: the hidden cards are dealt at random to the other players (as
many as each holds) and the rest become the stock, respecting what the public history proves and
leaning on what it suggests (`bots.inference`). The engine puts the guess together
(`ocholoco.round_from_guess`), and its fast path plays it out.
"""

from __future__ import annotations

import random

from bots.inference import ATTACK_SIZE, PublicInfo, SeenPlay
from bots.normal import normal_action
from ocholoco import Round, RoundView, actions_for, round_from_guess
from ocholoco.encoding import ANNOUNCED, V, ids_of

# How much a soft "probably holds no such card" is trusted when dealing a guess: such a card
# is refused this often (never always, since drawing while able to play is legal). Measured
# against random play (2000 two-player rounds, 30 guesses a decision): 0.85 won 91.2%,
# 0.97 92.4%, 1.0 91.3%; ignoring what draws suggest (0) lost about 3 points (400 rounds,
# 100 guesses: 93.9% with 0.85, 91.1% with 0).
_TRUST = 0.97
_ATTEMPTS = 20  # deals tried before a proven exclusion may be broken
# Hands tried for a player until one would have made their plays since they last took a card
# as Normal would (else the last one tried is kept: people are not Normal). With 6, 84 to 88%
# of the guesses agree (4-player Con especiales, 3-player Clásico, 2-player libro).
_READINGS = 6


def sample_round(view: RoundView, info: PublicInfo, rng: random.Random) -> Round:
    """One guess of the full round behind ``view``; all randomness from ``rng``."""
    for _ in range(_ATTEMPTS):
        guess = _deal(view, info, rng, strict=True)
        if guess is not None:
            return guess
    return _deal(view, info, rng, strict=False)  # a proven exclusion is broken, rarely


def _deal(view: RoundView, info: PublicInfo, rng: random.Random, strict: bool) -> Round | None:
    """Deal the hidden cards; None when ``strict`` and a player's proven exclusions cannot
    be met by the cards left (the greedy deal went wrong: try again)."""
    players = view.players
    hands = [0] * players
    hands[view.player] = sum(1 << i for i in info.my_ids)
    stock_placed: dict[int, int] = {}
    for i, where in info.placed.items():
        if where >= 0:
            hands[where] |= 1 << i
        else:
            stock_placed[-1 - where] = i
    pool = list(info.hidden)
    rand = rng.random
    # The most constrained players choose first, so that proven exclusions can be met.
    order = sorted(
        (p for p in range(players) if p != view.player),
        key=lambda p: (-info.excluded[p].bit_count(), p),
    )
    for p in order:
        need = view.hand_sizes[p] - hands[p].bit_count()
        if need <= 0:
            continue
        excluded = info.excluded[p]
        unlikely = info.unlikely[p]
        seen = info.plays[p] if info.plays and any(x.telling for x in info.plays[p]) else ()
        for _ in range(_READINGS if seen else 1):
            rng.shuffle(pool)
            taken, refused, barred, rest = [], [], [], []
            for i in pool:
                if len(taken) == need:
                    rest.append(i)
                elif excluded >> (i % V) & 1:
                    barred.append(i)
                elif rand() < _TRUST * unlikely[i % V]:
                    refused.append(i)
                else:
                    taken.append(i)
            if len(taken) < need:  # not enough likely cards: the unlikely ones, then barred
                more = need - len(taken)
                if strict and len(refused) < more:
                    return None
                refused.extend(barred)
                taken.extend(refused[:more])
                rest.extend(refused[more:])
            else:
                rest.extend(refused)
                rest.extend(barred)
            hand = hands[p]
            for i in taken:
                hand |= 1 << i
            if not seen or _plays_as_seen(info, hand, seen, players):
                break
        hands[p] = hand
        pool = rest
    if not strict:
        _repair(hands, pool, order, info)
    rng.shuffle(pool)
    stock = pool[: view.stock_size - len(stock_placed)]
    for depth in sorted(stock_placed):
        stock.insert(depth, stock_placed[depth])
    # The house rules' state: the reshuffle's order is unknown, so any salt is a fair guess.
    salt = f"{rng.getrandbits(32):08x}"
    return round_from_guess(view, hands, tuple(stock), salt=salt, reshuffles=info.reshuffles)


def _plays_as_seen(info: PublicInfo, hand: int, seen: tuple[SeenPlay, ...], players: int) -> bool:
    """Whether a Normal player whose hand is now ``hand`` would have made the plays ``seen``
    (their plays since they last took a card, see `inference.SeenPlay`): each is checked
    with the hand they held then, going back from the latest."""
    t = info.tables
    big = ATTACK_SIZE + 1
    before = hand
    for play in reversed(seen):
        value = play.action % V
        layer = 0
        while before >> (layer * V + value) & 1:
            layer += 1
        before |= 1 << (layer * V + value)
        if not play.telling:
            continue
        actions = actions_for(
            t, before, play.top, play.suit, play.pending, play.pending_rank, True
        )  # (whether the stock was empty only matters when nothing fits)
        action = normal_action(
            t, actions, before, play.pending > 0, players, big, big, 0, play.suit
        )
        if action % ANNOUNCED != play.action:
            return False
    return True


def _repair(hands: list[int], pool: list[int], others: list[int], info: PublicInfo) -> None:
    """Swap away the cards the greedy deal gave to players proven not to hold them: each
    goes to another player who may hold it (for one of theirs the first may hold) or into
    the stock (for one of its cards), whenever such a swap exists. Known places are kept."""
    placed = info.placed
    excluded = info.excluded
    for p in others:
        for i in ids_of(hands[p]):
            if not excluded[p] >> (i % V) & 1 or i in placed:
                continue
            for k, j in enumerate(pool):
                if not excluded[p] >> (j % V) & 1:
                    pool[k] = i
                    hands[p] ^= 1 << i | 1 << j
                    break
            else:
                for q in others:
                    if q == p or excluded[q] >> (i % V) & 1:
                        continue
                    j = next(
                        (j for j in ids_of(hands[q])
                         if j not in placed and not excluded[p] >> (j % V) & 1),
                        -1,
                    )  # fmt: skip
                    if j >= 0:
                        hands[p] ^= 1 << i | 1 << j
                        hands[q] ^= 1 << i | 1 << j
                        break
