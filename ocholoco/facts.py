"""What the engine says, as data: a code and its arguments, never words.

Why a move is illegal or a card cannot be played (`REASONS`), why a rule set cannot be played
(`INVALID_RULES`), what a rule set says (`RULES_FACTS`) and why a match file does not check
out (`RECORD_ERRORS`) are `Fact` values; the events of a
round are `history.Event` values. The arguments are cards, ranks (``"Q"``), suits (``"S"``)
and numbers. `tables.audiences.wording` words every code in the viewer's language.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

_NONE: MappingProxyType[str, Any] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Fact:
    """One thing the engine says: ``code`` (one of the sets below) and its named ``args``."""

    code: str
    args: MappingProxyType[str, Any] = field(default_factory=lambda: _NONE)

    @staticmethod
    def of(code: str, **args: Any) -> Fact:
        return Fact(code, MappingProxyType(args) if args else _NONE)

    def __hash__(self) -> int:
        return hash((self.code, frozenset(self.args.items())))

    def __str__(self) -> str:
        return f"{self.code} {dict(self.args)}" if self.args else self.code


# Why the player to move may not make a move, or play a card.
REASONS = frozenset({
    "round_over",  # the round is over
    "not_your_turn",  # (a viewer's card) it is another player's turn
    "not_in_hand",  # the card is not in the player's hand
    "only_drawn_card",  # after a draw-one draw: only the drawn card, or pass
    "must_draw",  # count: a penalty nobody may answer
    "must_answer_or_draw",  # rank, count: answer the penalty with a card of rank, or draw
    "must_follow",  # suit, rank, wilds: the active suit, the top card's rank or a wild rank
    "must_follow_suit",  # suit, wilds: the top card is wild (or a joker): its suit or a wild
    "nobody_to_catch",  # a catch with nobody who forgot to announce
    "no_announcing",  # these rules have no announcement
    "announce_second_last",  # the announcement goes with the second-to-last card
    "no_suit_to_name",  # rank: the card names no suit
    "must_name_suit",  # rank: a wild card names a suit
    "last_card_names_no_suit",  # the last card ends the round: it names no suit
    "already_drew",  # after a draw-one draw: play the drawn card or pass
    "stock_empty",  # nothing to draw
    "pass_can_draw",  # no pass while there is a card to draw
    "pass_can_play",  # no pass while a card can be played
})  # fmt: skip

# Why a rule set cannot be played (`rules.InvalidRules`).
INVALID_RULES = frozenset({
    "players_range",  # from 2 to 8 players
    "decks_range",  # one or two decks
    "hand_size_missing",  # players: no hand size for that many players
    "hand_size_low",  # each player gets at least one card
    "not_enough_cards",  # cards, players: the deck cannot deal that many
    "decks_by_players_range",  # one or two decks, for a number of players
    "jokers_range",  # from 0 to 4 jokers
    "wild_needs_suit",  # only a suited card may be wild
    "effect_not_in_deck",  # an effect for a card the deck lacks
    "points_missing",  # a card without points
    "wild_with_effect",  # a wild card with an effect
    "wild_all",  # some rank must not be wild
    "draw_amount_range",  # a card makes one draw 1 to 10
    "copy_two_players",  # the copying card is only for two players
    "joker_copies",  # the joker does not copy
    "draw_policy_unknown",
    "empty_stock_unknown",
    "scoring_unknown",
    "target_invalid",
    "reshuffles_range",  # from 1 to 20 reshuffles
    "fine_range",  # a fine of 0 to 10 cards
    "options_not_a_dict",
    "options_unknown",  # names: the unknown options, sorted
    "base_unknown",  # name (repr): no preset by that name
    "options_invalid",  # error: what Python said
    "not_a_number",  # name: the option that is not a number
    "effect_unknown",  # kind (repr)
    "draw_amount_missing",  # a drawing card without its amount
    "rules_unknown",  # name (repr): no preset by that stored name
})  # fmt: skip

# What a rule set says, in the order `describe.rules_facts` lists it.
RULES_FACTS = frozenset({
    "players",  # min, max
    "deck_one", "deck_two",  # jokers: one deck, or two for every player count
    "deck_two_from",  # jokers, players: two decks from that many players on
    "deal_same",  # cards: every player count gets as many
    "deal_by_players",  # groups: (first players, last players, cards), ...
    "follow",  # play the active suit or the top card's rank
    "wilds",  # ranks: the wild ranks, which name the suit
    "joker",  # the joker goes on anything and keeps the suit
    "effect",  # rank, effect (`rules.Effect`)
    "draw",  # policy: the draw policy (`rules.DrawPolicy`)
    "reshuffle",  # times: the discard is reshuffled at most this many times a round
    "no_reshuffle",
    "announce",  # fine
    "round_won",  # who runs out wins; a special last card has no effect
    "scoring_penalty", "scoring_winner_takes",
    "points",  # groups: ((ranks, points), ...) highest first; runs: ((first, last), ...) of
    #            the numbered cards worth their number (a run of one or two: (n, n) each)
    "target_penalty", "target_winner_takes",  # points, per_player (bool)
})  # fmt: skip

# Why a match file does not check out (`record.RecordError`); `round`: the round's number.
RECORD_ERRORS = frozenset({
    "record_not_ours",  # not a match file of Ocho Loco
    "record_version_unknown",  # version: a version of the format this engine does not know
    "record_malformed",  # something missing or wrong in it (its rules, players or rounds)
    "record_round_after_unfinished",  # a round after one still in play
    "record_totals_wrong",  # totals: the totals are not the sum of the rounds
    "record_match_end_wrong",  # the match's end is not the one the points give
    "record_round_out_of_turn",  # round: not the next round, or not its dealer
    "record_reveal_mismatch",  # round: the reveal does not hash to the commitment
    "record_reveal_unreadable",  # round: the reveal cannot be read
    "record_move_illegal",  # round: a move cannot be made (reason: why, if the rules say)
    "record_moves_after_end",  # round: moves after the round's end
    "record_move_wrong_player",  # round, move: a move by someone whose turn it is not
    "record_moves_unfinished",  # round: the moves do not end the round
    "record_points_wrong",  # round: the points or winners are not the game's
    "record_in_play_revealed",  # round: a round in play is revealed
})  # fmt: skip
