"""Normal: a good player's move, at once, as beginners are advised to play
(docs/rules.md, "The robots"; its rules of thumb are `normal_action`'s).

`normal_action` works on the engine's ints so that it also serves as the rollout policy of
the Difícil search; `normal_choose` reads a `RoundView` and the legal actions.
"""

from __future__ import annotations

from bots.inference import ATTACK_SIZE, SUIT_MASKS, PublicInfo, public_info, suits_lacked
from ocholoco import RoundView
from ocholoco.cards import SUIT_INDEX
from ocholoco.encoding import (
    ANNOUNCED,
    CATCH,
    DRAW,
    JOKER,
    N_RANKS,
    N_SUITS,
    PENALTY,
    REVERSE,
    SKIP,
    Tables,
    V,
    ids_of,
    rank_index,
)

# Weights of the move score (in "cards kept in the active suit" units).
_SUIT_KEPT = 2.0  # per card left in the hand of the suit the play makes active
_RANK_KEPT = 1.0  # per card left of the same rank (a way to change suit later)
_POINTS = 0.3  # per point shed
_SKIP_TWO_PLAYERS = 6.0  # with two players a skip means playing again
_SKIP = 2.0
_PENALTY = 3.0
_ATTACK = 8.0  # a skip / penalty / reverse aimed at a player about to go out
_SUIT_THEY_LACK = 6.0  # leave active a suit the player about to go out lacks
_JOKER_KEPT = 5.0  # a joker fits anywhere: worth keeping for when nothing else does


def normal_action(
    t: Tables,
    actions: list[int],
    hand: int,
    pending: bool,
    players: int,
    next_size: int,
    prev_size: int,
    attack_suits: int,
    suit: int = -1,
) -> int:
    """Normal's action among ``actions``, by these rules of thumb:

    - Go out whenever the last card fits.
    - Keep the wild cards (the 8s) for when nothing else fits.
    - Among the cards that fit, prefer the one that leaves the active suit on a suit we hold many
      of, or on a rank we hold again ("change suit by rank instead of spending an 8"), and shed
      high cards early.
    - A wild card names the suit we hold most (ties: the one with more points to shed).
    - Special cards are read from the rule set: a skip is a free move with two players; a penalty
      card is answered with another one whenever possible, and both are saved up for a player
      close to going out.
    - Attack the player about to go out (two cards or fewer): move the active suit to one they
      probably lack (what they drew or passed on, suits with no hidden card left).
    - A joker fits anywhere and leaves the active suit as it is: it is kept like a wild card
      unless its effect (read from the rule set) or an attack makes it the best play.
    - Draw only when nothing can be played; pass only when nothing else is legal (with
      ``draw_one``: play the card drawn if it fits, else pass).
    - With the announcement: always catch a player who forgot "¡Última carta!" (free cards for
      them), and always announce when playing the second-to-last card."""
    if len(actions) == 1:
        return actions[0]
    if t.rules.announces:
        if actions[-1] == CATCH:
            return CATCH  # free cards for the player who forgot "¡Última carta!"
        if hand.bit_count() == 2:
            action = _normal(
                t, [a for a in actions if a < ANNOUNCED], hand, pending, players, next_size,
                prev_size, attack_suits, suit,
            )  # fmt: skip
            return action + ANNOUNCED if action < DRAW else action
    return _normal(t, actions, hand, pending, players, next_size, prev_size, attack_suits, suit)


def _normal(
    t: Tables,
    actions: list[int],
    hand: int,
    pending: bool,
    players: int,
    next_size: int,
    prev_size: int,
    attack_suits: int,
    suit: int,
) -> int:
    if pending:  # pass the penalty on with a card of its rank whenever possible
        return actions[0]
    values = hand if t.decks == 1 else t.values(hand)
    plain = values & ~t.wild
    attacking = next_size <= ATTACK_SIZE
    best = wild = -1
    best_score = -1e9
    for a in actions:
        if a >= DRAW:
            break
        if a >= V:
            if wild < 0:
                wild = a
            continue
        if not hand & (hand - 1):
            return a  # the last card: going out
        rest = plain & ~(1 << a)
        if a == JOKER:  # it leaves the active suit as it is, and it fits anywhere: keep it
            after = suit
            score = (
                _SUIT_KEPT * (rest & SUIT_MASKS[suit]).bit_count() if suit >= 0 else 0.0
            ) - _JOKER_KEPT
        else:
            after = a // N_RANKS
            score = _SUIT_KEPT * (rest & SUIT_MASKS[after]).bit_count()
        score += _RANK_KEPT * (rest & t.rank_mask[rank_index(a)]).bit_count()
        score += _POINTS * t.points[a]
        effect = t.effect[a]
        if effect == SKIP:
            score += _SKIP_TWO_PLAYERS if players == 2 else _SKIP + _ATTACK * attacking
        elif effect == PENALTY:
            score += _PENALTY + _ATTACK * attacking
        elif effect == REVERSE and players > 2:
            size = ATTACK_SIZE
            score += _ATTACK * ((next_size <= size < prev_size) - (prev_size <= size < next_size))
        if attacking and after >= 0 and attack_suits >> after & 1:
            score += _SUIT_THEY_LACK
        if score > best_score:
            best, best_score = a, score
    if best >= 0:
        return best
    if wild >= 0:
        return wild % V + V * (1 + _suit_to_name(t, plain, attacking, attack_suits))
    for a in reversed(actions):
        if a >= DRAW:
            return a  # draw, or pass
    return actions[-1]


def _suit_to_name(t: Tables, plain: int, attacking: bool, attack_suits: int) -> int:
    best, best_score = 0, -1.0
    for s in range(N_SUITS):
        cards = plain & SUIT_MASKS[s]
        score = (
            _SUIT_KEPT * cards.bit_count()
            + 0.01 * sum(t.points[v] for v in ids_of(cards))
            + _SUIT_THEY_LACK * (attacking and attack_suits >> s & 1)
        )
        if score > best_score:
            best, best_score = s, score
    return best


def normal_choose(view: RoundView, actions: list[int], info: PublicInfo | None = None) -> int:
    """The Normal move for ``view`` among its legal ``actions`` (``info``: its `public_info`,
    if already read)."""
    if len(actions) == 1:
        return actions[0]
    info = info or public_info(view)
    t = info.tables
    after = (view.player + view.direction) % view.players
    before = (view.player - view.direction) % view.players
    sizes = view.hand_sizes
    attack = 0
    if sizes[after] <= ATTACK_SIZE:
        hidden = 0
        for i in (*info.hidden, *info.placed):
            hidden |= 1 << (i % V)
        attack = suits_lacked(info, after)
        for s in range(N_SUITS):
            if not hidden & SUIT_MASKS[s] & ~t.wild:
                attack |= 1 << s  # no card of that suit is left anywhere they could hold it
    hand = sum(1 << i for i in info.my_ids)
    return normal_action(
        t, actions, hand, view.pending_draw > 0, view.players, sizes[after], sizes[before],
        attack, SUIT_INDEX[view.active_suit],
    )  # fmt: skip
