"""The state of one round (`Round`), and the one place where a round is put together.

The rules that change it are in `round` (dealing, a move and its effects), `legal` (which
moves are legal, and why not) and `playout` (random playouts).
"""

from __future__ import annotations

from .cards import ALL_VALUES, SUITS, Card
from .encoding import Tables, V, cards_of, rank_text
from .history import OPEN, PLAY, RESHUFFLE, Chain, Event, event_of, records
from .rules import RuleSet


class Round:
    """One round: hands, stock, discard, whose turn, and how it ended.

    Immutable by contract: the engine only ever changes a private copy before returning it.
    Public fields: ``rules``, ``players``, ``dealer``, ``turn``, ``direction`` (+1 / -1),
    ``pending_draw`` (0 when no penalty is pending), ``finished``, ``blocked``, ``winners``
    (tuple of players, empty until the end) and ``round_points`` (what each player gained
    when the round ended; zeros before). Cards come through the properties below; the
    house rules add ``drawn``, ``exposed``, ``salt``, ``discard_size`` and ``can_draw``.
    The robots' fast path reads the same round in the int encoding (`encoding`):
    ``hand_masks``, ``stock_ids`` and ``suit_index``.

    Every round is put together by `assemble` (a deal, a copy, JSON, a robot's guess).
    """

    __slots__ = (
        "rules", "players", "dealer", "_t", "_hands", "_stock", "_pos", "_top", "_suit",
        "turn", "direction", "pending_draw", "_pending_rank", "_idle", "finished", "blocked",
        "winners", "round_points", "_history", "_salt", "_drawn", "_exposed", "_reshuffled",
        "_events",
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
    _events: tuple[Chain, tuple[Event, ...]]  # `history` as last read, and its chain

    def _copy(self) -> Round:
        """A private copy for the engine to change (the hands' list is its own)."""
        return assemble(
            self.rules, self.players, self.dealer, self._t, self._hands.copy(), self._stock,
            self._top, self._suit, self.turn, self._history, self._salt, self._pos,
            self.direction, self.pending_draw, self._pending_rank, self._idle, self.finished,
            self.blocked, self.winners, self.round_points, self._drawn, self._exposed,
            self._reshuffled,
        )  # fmt: skip

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
    def hand_masks(self) -> list[int]:
        """Each player's hand as a mask of card ids (`encoding`). The round's own list, to
        read and never to change: `step` changes it in place, so a playout may keep it."""
        return self._hands

    @property
    def stock_ids(self) -> tuple[int, ...]:
        """The stock as card ids (`encoding`), top first."""
        return self._stock[self._pos :]

    @property
    def suit_index(self) -> int:
        """The active suit's index in `SUITS` (0..3: S H D C)."""
        return self._suit

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
        # Read once per chain: a change makes a new chain (the chains are immutable), and a
        # table's board, panels and log each read the history of the same round.
        kept = getattr(self, "_events", None)  # unset until the first read
        if kept is None or kept[0] is not self._history:
            kept = self._events = (self._history, tuple(map(event_of, records(self._history))))
        return kept[1]

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
            f"<Round {self.rules.key} top={self.top} suit={self.active_suit} "
            f"turn={self.turn} stock={self.stock_size} hands=[{hands}]>"
        )


def assemble(
    rules: RuleSet,
    players: int,
    dealer: int,
    t: Tables,
    hands: list[int],
    stock: tuple[int, ...],
    top: int,
    suit: int,
    turn: int,
    history: Chain,
    salt: str,
    pos: int = 0,
    direction: int = 1,
    pending_draw: int = 0,
    pending_rank: int = -1,
    idle: int = 0,
    finished: bool = False,
    blocked: bool = False,
    winners: tuple[int, ...] = (),
    round_points: tuple[int, ...] | None = None,
    drawn: int = -1,
    exposed: int = -1,
    reshuffled: int = 0,
) -> Round:
    """A `Round` of these fields (see `Round`'s annotations; the defaults are a fresh
    round's, ``round_points`` zeros): the one constructor, used by the deal
    (`round.new_round`), the copy before a move, JSON (`serialize`) and the robots' guesses
    (`view.round_from_guess`)."""
    st = object.__new__(Round)
    st.rules = rules
    st.players = players
    st.dealer = dealer
    st._t = t
    st._hands = hands
    st._stock = stock
    st._pos = pos
    st._top = top
    st._suit = suit
    st.turn = turn
    st.direction = direction
    st.pending_draw = pending_draw
    st._pending_rank = pending_rank
    st._idle = idle
    st.finished = finished
    st.blocked = blocked
    st.winners = winners
    st.round_points = (0,) * players if round_points is None else round_points
    st._history = history
    st._salt = salt
    st._drawn = drawn
    st._exposed = exposed
    st._reshuffled = reshuffled
    return st
