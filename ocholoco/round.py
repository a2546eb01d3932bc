"""The rules of one round of Ocho Loco, as pure functions over an immutable `Round`.

Rules (docs/rules.md is the full text; the decisions it marks are held by tests/engine):
- Deal one card at a time from the top of the deck, starting with the player after the
  dealer; the rest is the stock (top first). Its top card opens the discard pile; an 8 (a
  wild rank) goes back into the stock at ``len(stock) // 2`` (counted without it) and the
  next card is turned (**decision**: after as many turns as the stock has cards, the first
  card that may open is turned instead, so a tiny stock cannot cycle). A special opening
  card acts as if the dealer had played it.
- A turn: play a card of the active suit or of the top card's rank, or a wild card naming
  any suit; draw whenever the stock is not empty (drawing never ends the turn); pass only
  when the stock is empty and nothing can be played. A pending penalty (a 2 in
  "especiales") allows only answering with a card of that rank or taking the penalty
  (drawing what the stock has, maybe nothing; it ends the turn).
- Effects: skip (the next player loses the turn and the turn does not count as idle),
  reverse (nothing with two players), draw N (stackable with the same rank).
- The round ends when a player plays their last card (no effect, no suit named; that player
  scores the other hands) or when as many consecutive turns as there are players end
  without a play (blocked: the fewest hand points collect the difference from each player
  with more; tied lowest players each collect).

House rules (`RuleSet` fields; docs/rules.md, "House-rule presets"):
- ``empty_stock="reshuffle"``: a draw from an empty stock first shuffles the discard pile but
  its top card into a new stock (a ``reshuffle`` event). The order follows from the round's
  salt (`fairness`: the deal's committed salt, or one drawn from the dealing rng; kept in the
  round and its JSON) and the reshuffle's number, so a round replays identically and anyone
  holding the revealed salt can check it. Drawing is possible while the stock or the
  discard below its top has a card; a pass is forced only when neither has. A turn in which
  a card was drawn is not idle, so the table blocks only after a full lap of forced passes
  or penalties (everybody stuck with nothing left to draw).
- ``draw_policy="draw_one"``: a voluntary draw takes one card; then the only moves are
  playing THAT card (if it fits) or passing. ``"draw_ends_turn"``: drawing one card ends the
  turn. ``"until_playable"`` is the product's.
- ``scoring="penalty"``: at the end of a round every player gains the points of their own
  hand (the player who went out 0; blocked: everybody, the lowest hands are the winners).
- ``announce_fine``: a player who plays their second-to-last card may announce "¡Última
  carta!" with it (the play's ``announce`` flag). If they did not, the player to move next
  may, before their own move, catch them (`Catch`): the forgetful player draws the fine and
  the catcher goes on with their turn. Any other move ends the chance.
- Jokers: playable on any card (unless a penalty is pending), they name no suit and leave
  the active suit as it was; they never open the discard (back into the stock, as an 8).
  A ``copy`` card (two players only) may be played on any card and repeats the effect of
  the card it covers.

Termination: every turn is finite (draw_one / draw_ends_turn draw once; until_playable can
draw only the cards outside the hands, and only plays feed the discard). Without reshuffles
every play takes a card out of the hands for good and every draw takes one from a finite
stock, so a round ends within a bounded number of moves. A round rebuilds the stock at most
``max_reshuffles`` times (3 in the presets: real rounds rarely need one); after that it goes
on as "pass_and_block", so it ends too.

Move encoding: see `encoding` (``legal_actions`` / ``apply_action`` on ints, the fast path
robots' playouts use); ``legal_moves`` / ``apply_move`` are the same on `Move` values.
An 8 is listed once per suit it can name, except as a player's last card: then it is listed
once, naming no suit. With the announcement, a play that leaves one card is listed twice:
plain, then announcing; ``Catch`` comes last.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence

from .cards import ALL_VALUES, JOKER_RANK, RANKS, SUITS, Card
from .encoding import (
    ANNOUNCED,
    CATCH,
    COPY,
    DRAW,
    JOKER,
    N_RANKS,
    N_SUITS,
    NO_EFFECT,
    PASS,
    PENALTY,
    REVERSE,
    SKIP,
    Tables,
    V,
    action_of,
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
    records,
)
from .history import DRAW as DRAW_EVENT
from .history import PASS as PASS_EVENT
from .history import PENALTY as PENALTY_EVENT
from .history import SKIP as SKIP_EVENT
from .moves import Catch, Draw, Move, Play, parse_move
from .notation import SUIT_SYMBOLS, rank_with_article
from .rules import PRESETS, RuleSet, deck_cards


class IllegalMove(ValueError):
    """A move the rules do not allow now; the message is for the player, in Spanish."""


class Round:
    """One round: hands, stock, discard, whose turn, and how it ended.

    Immutable by contract: the engine only ever changes a private copy before returning it.
    Public fields: ``rules``, ``players``, ``dealer``, ``turn``, ``direction`` (+1 / -1),
    ``pending_draw`` (0 when no penalty is pending), ``finished``, ``blocked``, ``winners``
    (tuple of players, empty until the end) and ``round_points`` (what each player gained
    when the round ended; zeros before). Cards come through the properties below; the
    house rules add ``drawn``, ``exposed``, ``salt``, ``discard_size`` and ``can_draw``.
    """

    __slots__ = (
        "rules", "players", "dealer", "_t", "_hands", "_stock", "_pos", "_top", "_suit",
        "turn", "direction", "pending_draw", "_pending_rank", "_idle", "finished", "blocked",
        "winners", "round_points", "_history", "_salt", "_drawn", "_exposed", "_reshuffled",
    )  # fmt: skip

    rules: RuleSet
    players: int
    dealer: int
    _t: Tables
    _hands: list[int]  # bitmask of card ids per player
    _stock: tuple[int, ...]  # card ids, top first; _stock[:_pos] is already drawn
    _pos: int
    _top: int  # value of the top card of the discard pile
    _suit: int  # index of the active suit
    turn: int
    direction: int
    pending_draw: int
    _pending_rank: int  # rank index that may answer the pending penalty, -1 for none
    _idle: int  # consecutive turns ended without a play
    finished: bool
    blocked: bool
    winners: tuple[int, ...]
    round_points: tuple[int, ...]
    _history: Chain
    _salt: str  # orders the reshuffles of the discard pile (`fairness.reshuffle_order`)
    _drawn: int  # draw_one: the id of the card drawn this turn, -1 before a draw
    _exposed: int  # the player who may be caught without "¡Última carta!", -1 for none
    _reshuffled: int  # times the stock was rebuilt from the discard pile

    def _copy(self) -> Round:
        new = object.__new__(Round)
        new.rules = self.rules
        new.players = self.players
        new.dealer = self.dealer
        new._t = self._t
        new._hands = self._hands.copy()
        new._stock = self._stock
        new._pos = self._pos
        new._top = self._top
        new._suit = self._suit
        new.turn = self.turn
        new.direction = self.direction
        new.pending_draw = self.pending_draw
        new._pending_rank = self._pending_rank
        new._idle = self._idle
        new.finished = self.finished
        new.blocked = self.blocked
        new.winners = self.winners
        new.round_points = self.round_points
        new._history = self._history
        if not self._t.plain:
            # Only the house rules read these; a round assembled field by field (robots'
            # guesses) may lack them, and its first copy gives them their neutral values.
            new._salt = getattr(self, "_salt", "")
            new._drawn = getattr(self, "_drawn", -1)
            new._exposed = getattr(self, "_exposed", -1)
            new._reshuffled = getattr(self, "_reshuffled", 0)
        return new

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Each player's cards, in player order; a hand is listed in card order."""
        return tuple(cards_of(hand) for hand in self._hands)

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(hand.bit_count() for hand in self._hands)

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock, top card first."""
        return tuple(ALL_VALUES[i % V] for i in self._stock[self._pos :])

    @property
    def stock_size(self) -> int:
        return len(self._stock) - self._pos

    @property
    def top(self) -> Card:
        return ALL_VALUES[self._top]

    @property
    def active_suit(self) -> str:
        return SUITS[self._suit]

    @property
    def pending_rank(self) -> str | None:
        """The rank that may answer the pending penalty (None if none may)."""
        if self.pending_draw and self._pending_rank >= 0:
            return rank_text(self._pending_rank)
        return None

    @property
    def history(self) -> tuple[Event, ...]:
        return tuple(event_of(rec) for rec in records(self._history))

    @property
    def discard(self) -> tuple[Card, ...]:
        """The discard pile, bottom first (the opening card, then every card played; after a
        reshuffle, the card left on top then)."""
        pile: list[Card] = []
        for kind, _, x in records(self._history):
            if kind in (PLAY, OPEN):
                pile.append(ALL_VALUES[x % V])
            elif kind == RESHUFFLE:
                del pile[:-1]
        return tuple(pile)

    @property
    def discard_size(self) -> int:
        return self._t.n_ids - sum(h.bit_count() for h in self._hands) - self.stock_size

    @property
    def can_draw(self) -> bool:
        """Whether a draw can take a card: from the stock, or reshuffling the discard."""
        return self._pos < len(self._stock) or (self.can_reshuffle and self.discard_size > 1)

    @property
    def can_reshuffle(self) -> bool:
        """Whether the rules let the stock be rebuilt (once more) from the discard pile."""
        return self.rules.reshuffles and self._reshuffled < self.rules.max_reshuffles

    @property
    def drawn(self) -> Card | None:
        """draw_one: the card the player to move drew this turn (only it may be played)."""
        if self._t.plain or self._drawn < 0:
            return None
        return ALL_VALUES[self._drawn % V]

    @property
    def exposed(self) -> int | None:
        """The player who may be caught without having announced "¡Última carta!"."""
        return None if self._t.plain or self._exposed < 0 else self._exposed

    @property
    def idle_turns(self) -> int:
        """Consecutive turns ended without a play; the table blocks at ``players``."""
        return self._idle

    def _key(self) -> tuple:
        return (
            self.rules, self.players, self.dealer, tuple(map(cards_of, self._hands)),
            self.stock, self._top, self._suit, self.turn, self.direction, self.pending_draw,
            self._pending_rank, self._idle, self.finished, self.blocked, self.winners,
            self.round_points, tuple(records(self._history)), self.salt, self.drawn,
            self.exposed,
        )  # fmt: skip

    @property
    def salt(self) -> str:
        """What orders the reshuffles of the discard pile ("" when the rules never do)."""
        return "" if self._t.plain else self._salt

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Round) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        hands = " | ".join(" ".join(map(str, hand)) for hand in self.hands)
        return (
            f"<Round {self.rules.key} top={self.top}{SUIT_SYMBOLS[self.active_suit]} "
            f"turn={self.turn} stock={self.stock_size} hands=[{hands}]>"
        )


def rank_text(rank: int) -> str:
    """A rank index as notation; 13 is the joker's."""
    return JOKER_RANK if rank == N_RANKS else RANKS[rank]


def cards_of(hand: int) -> tuple[Card, ...]:
    """The cards of a hand bitmask, in card order (copies of extra decks included)."""
    return tuple(sorted(ALL_VALUES[i % V] for i in ids_of(hand)))


def ids_for(cards: Iterable[Card | str], decks: int) -> list[int]:
    """Card ids for a sequence of cards: the n-th copy of a value gets the n-th layer's id
    (``decks``: the id layers, `Tables.decks`)."""
    seen: Counter[int] = Counter()
    ids = []
    for card in cards:
        value = Card.parse(card).value
        if seen[value] >= decks:
            raise ValueError(f"too many copies of {ALL_VALUES[value]}")
        ids.append(seen[value] * V + value)
        seen[value] += 1
    return ids


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

    st = object.__new__(Round)
    st.rules = rules
    st.players = players
    st.dealer = dealer
    st._t = t
    st._hands = hands
    st._stock = tuple(stock)
    st._pos = 0
    st._top = top
    st._suit = top // N_RANKS
    st.turn = dealer
    st.direction = 1
    st.pending_draw = 0
    st._pending_rank = -1
    st._idle = 0
    st.finished = False
    st.blocked = False
    st.winners = ()
    st.round_points = (0,) * players
    st._history = ((OPEN, dealer, top), history)
    st._salt = salt or ""
    st._drawn = -1
    st._exposed = -1
    st._reshuffled = 0
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


# --- Legal moves ----------------------------------------------------------------------


def legal_actions(state: Round) -> list[int]:
    """The actions of the player to move (see `encoding`); empty once the round is over."""
    if state.finished:
        return []
    if not state._t.plain:
        return house_actions(state)
    return actions_for(
        state._t,
        state._hands[state.turn],
        state._top,
        state._suit,
        state.pending_draw,
        state._pending_rank,
        state._pos < len(state._stock),
    )


def actions_for(
    t: Tables, hand: int, top: int, suit: int, pending: int, pending_rank: int, can_draw: bool
) -> list[int]:
    """The legal actions of a hand in a position under the product's policies: the one
    definition of which cards may be played (`house_actions` adds the house rules)."""
    values = hand if t.decks == 1 else t.values(hand)
    actions = []
    if pending:
        playable = values & t.rank_mask[pending_rank] if pending_rank >= 0 else 0
        while playable:
            low = playable & -playable
            actions.append(low.bit_length() - 1)
            playable ^= low
        actions.append(DRAW)  # take the penalty, even from an empty stock
        return actions
    playable = values & t.follow[top * N_SUITS + suit]
    while playable:
        low = playable & -playable
        actions.append(low.bit_length() - 1)
        playable ^= low
    wild = values & t.wild
    if wild:
        if hand & (hand - 1):
            while wild:
                low = wild & -wild
                actions.extend(t.wild_actions[low.bit_length() - 1])
                wild ^= low
        else:  # the wild card is the last card: the round ends, no suit is named
            actions.append(wild.bit_length() - 1)
    if can_draw:
        actions.append(DRAW)
    elif not actions:
        actions.append(PASS)
    return actions


def house_actions(st: Round) -> list[int]:
    """`actions_for` with the house rules: the drawn card only after a draw-one draw, the
    reshuffle as a source of draws, announced plays, the catch."""
    return house_actions_for(
        st._t, st._hands[st.turn], st._top, st._suit, st.pending_draw, st._pending_rank,
        st.can_draw, st._drawn % V if st._drawn >= 0 else -1, 0 <= st._exposed != st.turn,
    )  # fmt: skip


def house_actions_for(
    t: Tables,
    hand: int,
    top: int,
    suit: int,
    pending: int,
    pending_rank: int,
    can_draw: bool,
    drawn: int,
    can_catch: bool,
) -> list[int]:
    """`house_actions` from the parts of a position (``drawn``: a value or -1)."""
    if drawn >= 0:
        actions = actions_for(t, hand, top, suit, 0, -1, False)
        actions = [a for a in actions if a < DRAW and a % V == drawn]
        actions.append(PASS)
    else:
        actions = actions_for(t, hand, top, suit, pending, pending_rank, can_draw)
    if t.rules.announces:
        if hand.bit_count() == 2:
            plays = [a for a in actions if a < DRAW]
            actions = plays + [a + ANNOUNCED for a in plays] + actions[len(plays) :]
        if can_catch:
            actions.append(CATCH)
    return actions


def legal_moves(state: Round) -> list[Move]:
    """`legal_actions` as `Move` values."""
    moves = state._t.moves
    return [moves[a] for a in legal_actions(state)]


# --- Applying moves -------------------------------------------------------------------


def apply_action(state: Round, action: int) -> Round:
    """The round after ``action``, which must come from ``legal_actions(state)``
    (not checked: this is the fast path; `apply_move` checks)."""
    new = state._copy()
    _step(new, action)
    return new


def apply_move(state: Round, move: Move | str) -> Round:
    """The round after ``move`` (a `Move` or its notation); raises `IllegalMove`."""
    if isinstance(move, str):
        move = parse_move(move)
    action = action_of(move)
    if action not in legal_actions(state):
        raise IllegalMove(_reason(state, move))
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


def random_playout(state: Round, rng: random.Random) -> Round:
    """The finished round reached by uniformly random legal moves from ``state``."""
    st = state._copy()
    rand = rng.random
    if not st._t.plain:
        while not st.finished:
            actions = house_actions(st)
            _step(st, actions[int(rand() * len(actions))])
    elif not st.finished:
        _plain_playout(st, rand)
    return st


def _plain_playout(st: Round, rand: Callable[[], float]) -> None:
    """`random_playout` of an unfinished round under the product's policies, in place.

    The hot path of robots' rollouts and of the benchmark: `actions_for` and `_step` fused
    into one loop over local variables. It counts the legal actions instead of listing them
    and picks the one `actions_for` would list at ``int(rand() * count)`` (same order, one
    ``rand()`` per move, so exactly the rounds the two functions give). The move that ends
    the round (a last card, the idle turn that blocks the table) goes through `_step`.
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
                    history = ((DRAW_EVENT, p, 1), history)
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
        # _step's play, then _after_play
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
        e = effect[value]
        if e:
            if e == COPY:  # repeats the covered card's effect (a copy of a copy: nothing)
                value = covered
                e = effect[value]
                if e == COPY:
                    e = NO_EFFECT
            if e == PENALTY:
                pending += t.amount[value]
                if t.stackable[value]:
                    pending_rank = N_RANKS if value == JOKER else value % N_RANKS
                else:
                    pending_rank = -1
            elif e == SKIP:
                p = (p + d) % players  # the skipped player has no turn: not an idle turn
                history = ((SKIP_EVENT, p, 0), history)
            elif e == REVERSE and players > 2:  # with two players nothing
                d = -d
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
    _step(st, action)


def _step(st: Round, action: int) -> None:
    """Apply a legal action to ``st`` in place (only ever to a fresh private copy)."""
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
    effect = t.effect[value]
    d = st.direction
    if effect != NO_EFFECT:
        if effect == COPY:  # repeats the covered card's effect (a copy of a copy: nothing)
            value = covered
            effect = t.effect[value] if t.effect[value] != COPY else NO_EFFECT
        if effect == PENALTY:
            st.pending_draw += t.amount[value]
            st._pending_rank = _rank(value) if t.stackable[value] else -1
        elif effect == SKIP:
            p = (p + d) % st.players  # the skipped player has no turn: not an idle turn
            st._history = ((SKIP_EVENT, p, 0), st._history)
        elif effect != NO_EFFECT and st.players > 2:  # REVERSE; with two players nothing
            st.direction = d = -d
    st.turn = (p + d) % st.players


def _rank(value: int) -> int:
    return N_RANKS if value == JOKER else value % N_RANKS


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


# --- Why a move is not legal ----------------------------------------------------------


def why_not_playable(state: Round, card: Card | str) -> str | None:
    """Why the player to move cannot play ``card`` now, or None if they can."""
    return card_reason(
        state._t,
        state._hands[state.turn],
        state._top,
        state._suit,
        state.pending_draw,
        state._pending_rank,
        state.finished,
        Card.parse(card),
        -1 if state._t.plain else state._drawn,
    )


def card_reason(
    t: Tables,
    hand: int,
    top: int,
    suit: int,
    pending: int,
    pending_rank: int,
    finished: bool,
    card: Card,
    drawn: int = -1,
) -> str | None:
    if finished:
        return "La ronda terminó"
    if not t.values(hand) >> card.value & 1:
        return "Esa carta no está en tu mano"
    if drawn >= 0 and card.value != drawn % V:
        return "Después de robar solo puedes jugar la carta que robaste, o pasar"
    if pending:
        if pending_rank == card.value % N_RANKS:
            return None
        return _penalty_reason(pending, pending_rank)
    if t.wild >> card.value & 1 or t.follow[top * N_SUITS + suit] >> card.value & 1:
        return None
    wilds = " o ".join(rank_with_article(r) for r in RANKS if t.wild >> RANKS.index(r) & 1)
    symbol = SUIT_SYMBOLS[SUITS[suit]]
    if t.wild >> top & 1 or top == JOKER:
        return f"Tienes que jugar {symbol} o {wilds}"
    return f"Tienes que jugar {symbol}, {rank_with_article(ALL_VALUES[top].rank)} o {wilds}"


def _penalty_reason(pending: int, pending_rank: int) -> str:
    if pending_rank < 0:
        return f"Tienes que robar {pending}"
    rank = rank_with_article(rank_text(pending_rank))
    return f"Tienes que responder con {rank} o robar {pending}"


def _reason(state: Round, move: Move) -> str:
    """The message for an illegal ``move`` (legality itself is `legal_actions`)."""
    if state.finished:
        return "La ronda terminó"
    if isinstance(move, Catch):
        return "No hay nadie a quien pillar sin anunciar su última carta"
    if isinstance(move, Play):
        reason = why_not_playable(state, move.card)
        if reason:
            return reason
        if move.announce and not state.rules.announces:
            return "En estas reglas no se anuncia la última carta"
        if move.announce and len(state.hands[state.turn]) != 2:
            return "¡Última carta! se anuncia al jugar la penúltima"
        if not state._t.wild >> move.card.value & 1:
            return f"Con {rank_with_article(move.card.rank)} no se elige palo"
        if move.suit is None:
            return f"Tienes que elegir un palo para el {move.card.rank}"
        return "Con tu última carta no eliges palo: la ronda termina"
    if isinstance(move, Draw):
        if state.drawn is not None:
            return "Ya robaste: juega la carta robada o pasa"
        return "El mazo se acabó: no puedes robar"
    if state.pending_draw:
        return _penalty_reason(state.pending_draw, state._pending_rank)
    if state.stock_size:
        return "No puedes pasar: todavía puedes robar"
    return "No puedes pasar: tienes una carta que sirve"
