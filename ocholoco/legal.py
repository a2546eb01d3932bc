"""Which moves are legal in a round, and why a move is not (a `Fact`: a reason code and its
arguments, in `facts.REASONS`).

`actions_for` is the one definition of which cards may be played; `legal_actions` lists a
round's actions in their fixed order, `legal_moves` the same as `Move` values. The views ask the
same functions from what a player may know (`view`).
"""

from __future__ import annotations

from .cards import ALL_VALUES, RANKS, SUITS, Card
from .encoding import ANNOUNCED, CATCH, DRAW, JOKER, N_RANKS, N_SUITS, PASS, Tables, V, rank_text
from .facts import Fact
from .moves import Catch, Draw, Move, Play
from .state import Round


class IllegalMove(ValueError):
    """A move the rules do not allow now; ``reason`` says why (a code and its arguments)."""

    def __init__(self, reason: Fact) -> None:
        super().__init__(str(reason))
        self.reason = reason


def legal_actions(state: Round) -> list[int]:
    """The actions of the player to move (see `encoding`); empty once the round is over.

    An 8 is listed once per suit it can name, except as a player's last card: then once, naming no
    suit. With the announcement, a play that leaves one card is listed twice: plain, then
    announcing; ``CATCH`` comes last."""
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


# --- Why a move is not legal ----------------------------------------------------------


def why_not_playable(state: Round, card: Card | str) -> Fact | None:
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
) -> Fact | None:
    if finished:
        return _ROUND_OVER
    if not t.values(hand) >> card.value & 1:
        return _NOT_IN_HAND
    if drawn >= 0 and card.value != drawn % V:
        return _ONLY_DRAWN
    if pending:
        if pending_rank == card.value % N_RANKS:
            return None
        return _penalty_reason(pending, pending_rank)
    if t.wild >> card.value & 1 or t.follow[top * N_SUITS + suit] >> card.value & 1:
        return None
    wilds = tuple(r for r in RANKS if t.wild >> RANKS.index(r) & 1)
    if t.wild >> top & 1 or top == JOKER:
        return Fact.of("must_follow_suit", suit=SUITS[suit], wilds=wilds)
    return Fact.of("must_follow", suit=SUITS[suit], rank=ALL_VALUES[top].rank, wilds=wilds)


_ROUND_OVER = Fact("round_over")
_NOT_IN_HAND = Fact("not_in_hand")
_ONLY_DRAWN = Fact("only_drawn_card")


def _penalty_reason(pending: int, pending_rank: int) -> Fact:
    if pending_rank < 0:
        return Fact.of("must_draw", count=pending)
    return Fact.of("must_answer_or_draw", rank=rank_text(pending_rank), count=pending)


def why_illegal(state: Round, move: Move) -> Fact:
    """Why ``move`` is illegal (legality itself is `legal_actions`)."""
    if state.finished:
        return _ROUND_OVER
    if isinstance(move, Catch):
        return Fact("nobody_to_catch")
    if isinstance(move, Play):
        reason = why_not_playable(state, move.card)
        if reason:
            return reason
        if move.announce and not state.rules.announces:
            return Fact("no_announcing")
        if move.announce and len(state.hands[state.turn]) != 2:
            return Fact("announce_second_last")
        if not state._t.wild >> move.card.value & 1:
            return Fact.of("no_suit_to_name", rank=move.card.rank)
        if move.suit is None:
            return Fact.of("must_name_suit", rank=move.card.rank)
        return Fact("last_card_names_no_suit")
    if isinstance(move, Draw):
        if state.drawn is not None:
            return Fact("already_drew")
        return Fact("stock_empty")
    if state.pending_draw:
        return _penalty_reason(state.pending_draw, state._pending_rank)
    if state.stock_size:
        return Fact("pass_can_draw")
    return Fact("pass_can_play")
