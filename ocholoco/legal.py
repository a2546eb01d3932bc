"""Which moves are legal in a round, and why a move is not (a message a player can read).

`actions_for` is the one definition of which cards may be played; `legal_actions` lists a
round's actions in their fixed order, `legal_moves` the same as `Move` values. The views ask the
same functions from what a player may know (`view`).
"""

from __future__ import annotations

from .cards import ALL_VALUES, RANKS, SUITS, Card
from .encoding import ANNOUNCED, CATCH, DRAW, JOKER, N_RANKS, N_SUITS, PASS, Tables, V, rank_text
from .moves import Catch, Draw, Move, Play
from .notation import SUIT_NAMES, SUIT_SYMBOLS, rank_with_article
from .state import Round


class IllegalMove(ValueError):
    """A move the rules do not allow now; the message is for the player, in Spanish."""


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


def why_not_playable(state: Round, card: Card | str, words: bool = False) -> str | None:
    """Why the player to move cannot play ``card`` now, or None if they can. ``words``: the
    suit by its name, not its symbol (for a screen reader)."""
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
        words,
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
    words: bool = False,
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
    symbol = (SUIT_NAMES if words else SUIT_SYMBOLS)[SUITS[suit]]
    if t.wild >> top & 1 or top == JOKER:
        return f"Tienes que jugar {symbol} o {wilds}"
    return f"Tienes que jugar {symbol}, {rank_with_article(ALL_VALUES[top].rank)} o {wilds}"


def _penalty_reason(pending: int, pending_rank: int) -> str:
    if pending_rank < 0:
        return f"Tienes que robar {pending}"
    rank = rank_with_article(rank_text(pending_rank))
    return f"Tienes que responder con {rank} o robar {pending}"


def why_illegal(state: Round, move: Move) -> str:
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
