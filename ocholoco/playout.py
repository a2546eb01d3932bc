"""Random playouts: a round finished by uniformly random legal moves.

`random_playout` is the hot path of the benchmark and of random self-play (`simulate`).
Under the product's policies it runs `_plain_playout`, `legal.actions_for` and `round.step`
fused into one loop over local variables; it draws the same random numbers and reaches the
same round as listing `legal_actions` and applying one of them at every move
(tests/engine/test_playout.py plays both ways and compares).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .encoding import DRAW, JOKER, N_RANKS, N_SUITS, PASS, V
from .history import DRAW as DRAW_EVENT
from .history import PASS as PASS_EVENT
from .history import PENALTY as PENALTY_EVENT
from .history import PLAY
from .legal import house_actions
from .round import card_effect, step
from .state import Round


def random_playout(state: Round, rng: random.Random) -> Round:
    """The finished round reached by uniformly random legal moves from ``state``."""
    st = state._copy()
    rand = rng.random
    if not st._t.plain:
        while not st.finished:
            actions = house_actions(st)
            step(st, actions[int(rand() * len(actions))])
    elif not st.finished:
        _plain_playout(st, rand)
    return st


def _plain_playout(st: Round, rand: Callable[[], float]) -> None:
    """`random_playout` of an unfinished round under the product's policies, in place.

    The hot path of robots' rollouts and of the benchmark: `actions_for` and `step` fused
    into one loop over local variables; a card's effect is `card_effect`, as in `step`. It
    counts the legal actions instead of listing them and picks the one `actions_for` would
    list at ``int(rand() * count)`` (same order, one ``rand()`` per move, so exactly the
    rounds the two functions give). The move that ends the round (a last card, the idle turn
    that blocks the table) goes through `step`.
    """
    t = st._t
    hands = st._hands  # the copy's own list: updated in place
    players = st.players
    stock = st._stock
    n_stock = len(stock)
    follow = t.follow
    wild_mask = t.wild
    rank_mask = t.rank_mask
    copies = t.copies
    effect = t.effect
    values_of = None if t.decks == 1 else t.values
    pos = st._pos
    top = st._top
    suit = st._suit
    p = st.turn
    d = st.direction
    pending = st.pending_draw
    pending_rank = st._pending_rank
    idle = st._idle
    history = st._history
    drew = [(DRAW_EVENT, q, 1) for q in range(players)]  # each player's draw record, shared
    follows = follow[top * N_SUITS + suit]  # what follows the top card: changes with a play
    while True:
        hand = hands[p]
        values = hand if values_of is None else values_of(hand)
        if pending:  # answer with the pending rank (listed first) or take the penalty
            playable = values & rank_mask[pending_rank] if pending_rank >= 0 else 0
            n = playable.bit_count()
            k = int(rand() * (n + 1))
            if k == n:
                if idle + 1 >= players:  # the table blocks
                    action = DRAW
                    break
                count = min(pending, n_stock - pos)
                for i in range(pos, pos + count):
                    hand |= 1 << stock[i]
                hands[p] = hand
                pos += count
                history = ((PENALTY_EVENT, p, count), history)
                pending = 0
                pending_rank = -1
                idle += 1
                p = (p + d) % players
                continue
            while k:
                playable &= playable - 1
                k -= 1
            action = value = (playable & -playable).bit_length() - 1
        else:  # the cards that follow, each wild card once per suit, then draw or pass
            playable = values & follows
            wild = values & wild_mask
            n = playable.bit_count()
            multi = hand & (hand - 1)
            plays = n + (wild.bit_count() * (N_SUITS if multi else 1) if wild else 0)
            if pos < n_stock:
                k = int(rand() * (plays + 1))
                if k == plays:
                    hands[p] = hand | 1 << stock[pos]
                    pos += 1
                    history = (drew[p], history)
                    continue
            elif plays:
                k = int(rand() * plays)
            else:
                rand()  # the one listed action, chosen as `random_playout` always did
                if idle + 1 >= players:  # the table blocks
                    action = PASS
                    break
                history = ((PASS_EVENT, p, 0), history)
                idle += 1
                p = (p + d) % players
                continue
            if k < n:
                while k:
                    playable &= playable - 1
                    k -= 1
                action = value = (playable & -playable).bit_length() - 1
            elif multi:
                k -= n
                wild_suit = k % N_SUITS
                k //= N_SUITS
                while k:
                    wild &= wild - 1
                    k -= 1
                value = (wild & -wild).bit_length() - 1
                action = V * (1 + wild_suit) + value
            else:
                action = value = wild.bit_length() - 1
        if not hand & (hand - 1):  # the last card: the round ends
            break
        # step's play, then its effect (`card_effect`, as `step` applies it)
        c = hand & copies[value]
        hands[p] = hand ^ (c & -c)
        history = ((PLAY, p, action), history)
        covered = top
        top = value
        if action >= V:
            suit = action // V - 1
        elif value != JOKER:  # a joker leaves the active suit as it was
            suit = value // N_RANKS
        follows = follow[top * N_SUITS + suit]
        idle = 0
        if effect[value]:
            p, d, pending, pending_rank, history = card_effect(
                t, players, p, d, value, covered, pending, pending_rank, history
            )
        else:
            p = (p + d) % players
    st._pos = pos
    st._top = top
    st._suit = suit
    st.turn = p
    st.direction = d
    st.pending_draw = pending
    st._pending_rank = pending_rank
    st._idle = idle
    st._history = history
    step(st, action)
