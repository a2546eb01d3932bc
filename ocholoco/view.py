"""What one player may know about a round: the only way robots and templates see it.

A `RoundView` holds the viewer's own hand, everybody's card counts, the table (top card, active
suit, stock size, turn, direction, pending penalty), how the round ended and the public
history; never another player's cards or the order of the stock. `legal_moves_for_view` gives
the viewer's moves on their turn; `revealed_hands` the hands everybody sees once it is over.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import RANK_INDEX, SUIT_INDEX, Card
from .encoding import ids_for, rank_text, tables_for
from .facts import Fact
from .history import Event
from .legal import actions_for, card_reason, house_actions_for
from .moves import Move
from .rules import RuleSet
from .state import Round, assemble


@dataclass(frozen=True)
class RoundView:
    rules: RuleSet
    players: int
    player: int | None  # the viewer; None: a spectator, who holds no hand
    dealer: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]  # every player's card count, in player order
    top: Card
    active_suit: str
    stock_size: int
    turn: int
    direction: int
    pending_draw: int
    pending_rank: str | None  # the rank that may answer the pending penalty
    idle_turns: int  # consecutive turns without a play; the table blocks at `players`
    finished: bool
    blocked: bool
    winners: tuple[int, ...]
    round_points: tuple[int, ...]
    history: tuple[Event, ...]
    discard_size: int = 1  # cards in the discard pile, its top included
    exposed: int | None = None  # who may be caught without "¡Última carta!"
    drawn: Card | None = None  # draw_one: the card the viewer drew this turn (only theirs)

    @property
    def my_turn(self) -> bool:
        return self.turn == self.player and not self.finished

    def _position(self) -> tuple:
        t = tables_for(self.rules, self.players)
        hand = sum(1 << i for i in ids_for(self.hand, t.decks))
        rank = -1
        if self.pending_rank:
            rank = next(i for i in range(14) if rank_text(i) == self.pending_rank)
        return t, hand, self.top.value, SUIT_INDEX[self.active_suit], self.pending_draw, rank


def view_for(state: Round, player: int | None) -> RoundView:
    """What `player` may know of the round; `None`: what a spectator may (everybody's)."""
    if player is not None and not 0 <= player < state.players:
        raise ValueError(f"no player {player} in this round")
    return RoundView(
        rules=state.rules,
        players=state.players,
        player=player,
        dealer=state.dealer,
        hand=state.hands[player] if player is not None else (),
        hand_sizes=state.hand_sizes,
        top=state.top,
        active_suit=state.active_suit,
        stock_size=state.stock_size,
        turn=state.turn,
        direction=state.direction,
        pending_draw=state.pending_draw,
        pending_rank=state.pending_rank,
        idle_turns=state.idle_turns,
        finished=state.finished,
        blocked=state.blocked,
        winners=state.winners,
        round_points=state.round_points,
        history=state.history,
        discard_size=state.discard_size,
        exposed=state.exposed,
        drawn=state.drawn if player == state.turn else None,
    )


def legal_moves_for_view(view: RoundView) -> list[Move]:
    """The viewer's legal moves; ``[]`` when it is not their turn or the round is over."""
    if not view.my_turn:
        return []
    t, *position = view._position()
    if t.plain:
        return [t.moves[a] for a in actions_for(t, *position, view.stock_size > 0)]
    reshuffles = sum(e.kind == "reshuffle" for e in view.history)
    can_reshuffle = view.rules.reshuffles and reshuffles < view.rules.max_reshuffles
    can_draw = view.stock_size > 0 or (can_reshuffle and view.discard_size > 1)
    drawn = view.drawn.value if view.drawn else -1
    can_catch = view.exposed is not None and view.exposed != view.player
    actions = house_actions_for(t, *position, can_draw, drawn, can_catch)
    return [t.moves[a] for a in actions]


def why_not_playable_for_view(view: RoundView, card: Card | str) -> Fact | None:
    """`why_not_playable` from the viewer's side (the UI's hint on an unplayable card)."""
    if not view.my_turn and not view.finished:
        return _NOT_YOUR_TURN
    t, *position = view._position()
    drawn = view.drawn.value if view.drawn and view.my_turn else -1
    return card_reason(t, *position, view.finished, Card.parse(card), drawn)


_NOT_YOUR_TURN = Fact("not_your_turn")


def revealed_hands(state: Round) -> tuple[tuple[Card, ...], ...]:
    """Every hand, for the end-of-round table everybody sees; only for a finished round."""
    if not state.finished:
        raise ValueError("hands are revealed only when the round is over")
    return state.hands


def round_from_guess(
    view: RoundView,
    hands: list[int],
    stock: tuple[int, ...],
    *,
    salt: str,
    reshuffles: int | None = None,
) -> Round:
    """The round behind ``view`` if the hidden cards are where a guess puts them: ``hands``
    (every player's hand as a mask of card ids, `encoding`; the viewer's as the view shows
    it) and ``stock`` (card ids, top first). What the robots' search plays out.

    The table (top card, suit, turn, penalty, the house rules' state) is the view's; the
    history is left out (a playout needs only the future), and ``salt`` stands for the
    unknown order of later reshuffles. ``reshuffles``: the times the stock was already
    rebuilt (by default counted in the view's history)."""
    if reshuffles is None:
        reshuffles = sum(e.kind == "reshuffle" for e in view.history)
    return assemble(
        view.rules,
        view.players,
        view.dealer,
        tables_for(view.rules, view.players),
        hands,
        stock,
        top=view.top.value,
        suit=SUIT_INDEX[view.active_suit],
        turn=view.turn,
        history=None,  # a playout needs only the future
        salt=salt,
        direction=view.direction,
        pending_draw=view.pending_draw,
        pending_rank=RANK_INDEX[view.pending_rank] if view.pending_rank else -1,
        idle=view.idle_turns,
        finished=view.finished,
        blocked=view.blocked,
        winners=view.winners,
        round_points=view.round_points,
        drawn=view.drawn.value if view.drawn is not None else -1,  # (read modulo V)
        exposed=-1 if view.exposed is None else view.exposed,
        reshuffled=reshuffles,
    )
