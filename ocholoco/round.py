"""The rules of one round of Ocho Loco, as pure functions over an immutable `Round`.

Here: dealing (`new_round`), a move (`apply_move`, `apply_action`, `step`) and the cards'
effects (`card_effect`). The state is `state.Round`; which moves are legal, and in which order
they are listed, is `legal`; random playouts are `playout`. The rules are docs/rules.md, held by
tests/engine; why every round ends is in docs/architecture.md ("The engine").
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from .cards import ALL_VALUES, Card
from .encoding import (
    ANNOUNCED,
    CATCH,
    COPY,
    DRAW,
    JOKER,
    N_RANKS,
    NO_EFFECT,
    PASS,
    PENALTY,
    REVERSE,
    SKIP,
    Tables,
    V,
    action_of,
    ids_for,
    ids_of,
    tables_for,
)
from .fairness import reshuffle_permutation
from .history import (
    ANNOUNCE,
    BACK,
    BLOCKED,
    CAUGHT,
    OPEN,
    OUT,
    PLAY,
    RESHUFFLE,
    Chain,
    Event,
    event_of,
)
from .history import DRAW as DRAW_EVENT
from .history import PASS as PASS_EVENT
from .history import PENALTY as PENALTY_EVENT
from .history import SKIP as SKIP_EVENT
from .legal import IllegalMove, legal_actions, why_illegal
from .moves import Move, parse_move
from .rules import PRESETS, RuleSet, deck_cards
from .state import Round, assemble

# --- Setting up a round ---------------------------------------------------------------

_last_deal: tuple = (None, 0, 0, None)  # new_round's (rules, players, hand size, tables)


def _shuffle(x: list[int], rng: random.Random) -> None:
    """``rng.shuffle(x)``: the same permutation from the same generator state (the deals
    seeded rounds replay), with CPython's algorithm spelled out in one loop
    instead of a method call per card; another kind of generator shuffles itself."""
    if type(rng) is not random.Random:
        rng.shuffle(x)
        return
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def new_round(
    rules: RuleSet | str,
    players: int,
    dealer: int = 0,
    *,
    seed: int | None = None,
    deck: Sequence[Card | str] | None = None,
    rng: random.Random | None = None,
    salt: str | None = None,
) -> Round:
    """A dealt round; ``deck`` (``deck[0]`` the top, the whole deck) replaces the shuffle,
    else the deck is shuffled by ``rng`` or by a ``random.Random(seed)``. ``salt`` orders
    the reshuffles (a committed `fairness.Deal`'s); by default it is drawn from the shuffle's
    generator, or with a ``deck`` it is the ``seed`` written in decimal."""
    if isinstance(rules, str):
        rules = PRESETS[rules]
    global _last_deal
    last = _last_deal  # one read: another thread may replace it
    if last[0] is rules and last[1] == players:  # it holds `rules`, so `is` is safe
        size, t = last[2], last[3]
    else:
        size = rules.hand_size(players)
        t = tables_for(rules, players)  # hashes the whole RuleSet: once per rules, players
        _last_deal = (rules, players, size, t)
    if not 0 <= dealer < players:
        raise ValueError(f"no player {dealer} to deal")
    if deck is None:
        ids = list(t.ids)
        rng = rng or random.Random(seed)
        _shuffle(ids, rng)
        if rules.reshuffles and salt is None:  # only then: the product's deals stay the same
            salt = f"{rng.getrandbits(32):08x}"
    else:
        ids = ids_for(deck, t.decks)
        if sorted(ids) != sorted(t.ids):
            raise ValueError(f"a deck has {t.n_ids} cards, not those {len(ids)}")
        if salt is None:
            salt = str(seed or 0)
    hands = [0] * players
    for i in range(size * players):
        hands[(dealer + 1 + i) % players] |= 1 << ids[i]
    stock = ids[size * players :]
    history: Chain = None
    turned = 0
    while t.no_open >> (stock[0] % V) & 1:
        if turned == len(stock):
            # A small stock can send the same cards round and round (six players with 8
            # cards each leave six): open with the first card that may open, if any.
            first = next((i for i, c in enumerate(stock) if not t.no_open >> (c % V) & 1), 0)
            stock.insert(0, stock.pop(first))
            break
        wild = stock.pop(0)
        stock.insert(len(stock) // 2, wild)
        history = ((BACK, dealer, wild % V), history)
        turned += 1
    top = stock.pop(0) % V

    # A fresh round: the other fields take `assemble`'s defaults (no penalty, no winner...).
    history = ((OPEN, dealer, top), history)
    st = assemble(rules, players, dealer, t, hands, tuple(stock), top, top // N_RANKS, dealer,
                  history, salt or "")  # fmt: skip
    _after_play(st, t, dealer, top, top)  # the opening card acts as if the dealer played it
    return st


def stacked_deck(
    rules: RuleSet | str,
    hands: Sequence[Sequence[Card | str]],
    top: Card | str,
    stock: Sequence[Card | str] = (),
    dealer: int = 0,
) -> list[Card]:
    """The deck (``deck[0]`` the top) that deals ``hands`` (in player order) with ``dealer``,
    turns ``top`` and leaves ``stock`` on top of the stock, the other cards below it in card
    order. For scripted positions: ``new_round(rules, len(hands), dealer, deck=...)``."""
    if isinstance(rules, str):
        rules = PRESETS[rules]
    players = len(hands)
    size = rules.hand_size(players)
    if any(len(hand) != size for hand in hands):
        raise ValueError(f"each hand needs {size} cards")
    dealt = [hands[(dealer + 1 + i) % players][i // players] for i in range(size * players)]
    chosen = [Card.parse(c) for c in [*dealt, top, *stock]]
    rest = Counter(deck_cards(rules, players)) - Counter(chosen)
    return chosen + sorted(rest.elements())


# --- Applying moves -------------------------------------------------------------------


def apply_action(state: Round, action: int) -> Round:
    """The round after ``action``, which must come from ``legal_actions(state)``
    (not checked: this is the fast path; `apply_move` checks)."""
    new = state._copy()
    step(new, action)
    return new


def apply_move(state: Round, move: Move | str) -> Round:
    """The round after ``move`` (a `Move` or its notation); raises `IllegalMove`."""
    if isinstance(move, str):
        move = parse_move(move)
    action = action_of(move)
    if action not in legal_actions(state):
        raise IllegalMove(why_illegal(state, move))
    return apply_action(state, action)


def events_between(before: Round, after: Round) -> tuple[Event, ...]:
    """The public events ``after`` added to the history of ``before``, oldest first
    (``after`` reached from ``before`` by moves: the two share the older history)."""
    added = []
    chain, stop = after._history, before._history
    while chain is not None and chain is not stop:
        added.append(chain[0])
        chain = chain[1]
    return tuple(event_of(record) for record in reversed(added))


# --- One move and its effects ---------------------------------------------------------


def step(st: Round, action: int) -> None:
    """Apply ``action``, which must come from ``legal_actions(st)``, to ``st`` in place.

    The single step of playouts, for a round nobody else holds: `apply_action`'s result or
    `round_from_guess`'s (everywhere else rounds are immutable; `apply_action` copies, then
    steps). Not checked, like `apply_action`."""
    p = st.turn
    t = st._t
    if not t.plain and st._exposed >= 0 and action != CATCH:
        st._exposed = -1  # the next player acted: too late to catch
    announce = False
    if action >= DRAW:
        if action < ANNOUNCED:
            _no_play(st, p, action)
            return
        action -= ANNOUNCED
        announce = True
    value = action % V
    hand = st._hands[p]
    copies = hand & t.copies[value]
    hand ^= copies & -copies
    st._hands[p] = hand
    covered = st._top
    st._top = value
    st._history = ((PLAY, p, action), st._history)
    if not t.plain:
        st._drawn = -1
        if announce:
            st._history = ((ANNOUNCE, p, 0), st._history)
        elif st.rules.announces and hand and not hand & (hand - 1):
            st._exposed = p
    if not hand:
        if value != JOKER:
            st._suit = value // N_RANKS
        st._history = ((OUT, p, 0), st._history)
        if st.rules.scoring == "penalty":
            _finish(st, (p,), tuple(t.hand_points(h) for h in st._hands))
        else:
            others = sum(t.hand_points(h) for h in st._hands)
            _finish(st, (p,), tuple(others if i == p else 0 for i in range(st.players)))
        return
    if action >= V:
        st._suit = action // V - 1
    elif value != JOKER:  # a joker leaves the active suit as it was
        st._suit = value // N_RANKS
    st._idle = 0
    _after_play(st, t, p, value, covered)


def _no_play(st: Round, p: int, action: int) -> None:
    """A draw, a pass, a penalty taken or a catch."""
    if action == PASS:
        st._history = ((PASS_EVENT, p, 0), st._history)
        if not st._t.plain and st._drawn >= 0:  # draw_one: the drawn card was kept
            st._drawn = -1
            _drew_and_ended(st, p)
        else:
            _idle_turn(st, p)
    elif action == CATCH:
        caught = st._exposed
        st._exposed = -1
        count = _draw_cards(st, caught, st.rules.announce_fine)
        st._history = ((CAUGHT, caught, count), st._history)
    elif st.pending_draw:
        count = _draw_cards(st, p, st.pending_draw)
        st.pending_draw = 0
        st._pending_rank = -1
        st._history = ((PENALTY_EVENT, p, count), st._history)
        _idle_turn(st, p)
    elif st._t.plain:
        st._hands[p] |= 1 << st._stock[st._pos]
        st._pos += 1
        st._history = ((DRAW_EVENT, p, 1), st._history)
    else:
        _draw_cards(st, p, 1)
        st._history = ((DRAW_EVENT, p, 1), st._history)
        policy = st.rules.draw_policy
        if policy == "draw_one":
            st._drawn = st._stock[st._pos - 1]
        elif policy == "draw_ends_turn":
            _drew_and_ended(st, p)


def _after_play(st: Round, t: Tables, p: int, value: int, covered: int) -> None:
    """Pass the turn on after ``p`` played ``value`` on ``covered``, applying its effect."""
    if t.effect[value] == NO_EFFECT:
        st.turn = (p + st.direction) % st.players
    else:
        st.turn, st.direction, st.pending_draw, st._pending_rank, st._history = card_effect(
            t, st.players, p, st.direction, value, covered, st.pending_draw, st._pending_rank,
            st._history,
        )  # fmt: skip


def card_effect(
    t: Tables,
    players: int,
    p: int,
    d: int,
    value: int,
    covered: int,
    pending: int,
    pending_rank: int,
    history: Chain,
) -> tuple[int, int, int, int, Chain]:
    """The effect of a card: ``p`` played ``value`` (a card with an effect, ``t.effect``) on
    ``covered`` with the play going in direction ``d``, ``pending`` cards of penalty pending
    (answered by ``pending_rank``). Returns the player to move next, the direction, the
    penalty and its rank, and the history (a skip adds its event).

    The one definition of the effects: a move (`step`, and the deal's opening card) and the
    fused playout loop (`playout`) both call it. A card without an effect passes the turn
    to the next player, ``(p + d) % players``."""
    effect = t.effect[value]
    if effect == COPY:  # repeats the covered card's effect (a copy of a copy: nothing)
        value = covered
        effect = t.effect[value] if t.effect[value] != COPY else NO_EFFECT
    if effect == PENALTY:
        pending += t.amount[value]
        pending_rank = t.answer_rank[value]
    elif effect == SKIP:
        p = (p + d) % players  # the skipped player has no turn: not an idle turn
        history = ((SKIP_EVENT, p, 0), history)
    elif effect == REVERSE and players > 2:  # with two players nothing
        d = -d
    return (p + d) % players, d, pending, pending_rank, history


def _draw_cards(st: Round, p: int, count: int) -> int:
    """``p`` draws up to ``count`` cards, reshuffling the discard if the rules say so;
    returns how many were drawn (fewer when there are no more)."""
    drawn = 0
    for _ in range(count):
        if st._pos == len(st._stock) and not (st.can_reshuffle and _reshuffle(st, p)):
            break
        st._hands[p] |= 1 << st._stock[st._pos]
        st._pos += 1
        drawn += 1
    return drawn


def _reshuffle(st: Round, p: int) -> bool:
    """The discard pile but its top card becomes the stock, in the order the round's salt
    gives it (`fairness.reshuffle_order`); False when there is nothing below the top card."""
    t = st._t
    rest = t.full
    for hand in st._hands:
        rest &= ~hand
    for i in st._stock[st._pos :]:
        rest &= ~(1 << i)
    top = rest & t.copies[st._top]
    rest ^= top & -top
    if not rest:
        return False
    ids = ids_of(rest)
    cards = [ALL_VALUES[i % V] for i in ids]
    order = reshuffle_permutation(st._salt, st._reshuffled + 1, cards)
    st._stock = tuple(ids[i] for i in order)
    st._pos = 0
    st._reshuffled += 1
    st._history = ((RESHUFFLE, p, len(ids)), st._history)
    return True


def _drew_and_ended(st: Round, p: int) -> None:
    """``p``'s turn ended after drawing a card, without a play."""
    if st.can_reshuffle:  # cards still flow: not an idle turn
        st._idle = 0
        st.turn = (p + st.direction) % st.players
    else:
        _idle_turn(st, p)


def _idle_turn(st: Round, p: int) -> None:
    """``p``'s turn ended without a play (a pass or a penalty): maybe the table blocks."""
    st._idle += 1
    if st._idle < st.players:
        st.turn = (p + st.direction) % st.players
        return
    st._history = ((BLOCKED, p, 0), st._history)
    points = [st._t.hand_points(h) for h in st._hands]
    low = min(points)
    winners = tuple(i for i, x in enumerate(points) if x == low)
    if st.rules.scoring == "penalty":
        _finish(st, winners, tuple(points))
    else:
        collected = sum(x - low for x in points)  # tied winners differ by 0 from each other
        _finish(st, winners, tuple(collected if x == low else 0 for x in points))
    st.blocked = True


def _finish(st: Round, winners: tuple[int, ...], points: tuple[int, ...]) -> None:
    st.finished = True
    st.winners = winners
    st.round_points = points
    st.pending_draw = 0
    st._pending_rank = -1
    st._drawn = -1
    st._exposed = -1
