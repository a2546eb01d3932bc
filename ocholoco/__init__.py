"""Ocho Loco's rules engine: pure Python, no Django.

The other apps use the names below (its modules, one job each, are listed in
docs/architecture.md). The robots' fast path works on ints: `legal_actions`, `apply_action`,
`step`, `actions_for`, `round_from_guess` and `Round`'s ``hand_masks`` / ``stock_ids`` /
``suit_index``; its constants and tables are the public modules `encoding` and `cards`.
"""

from .cards import JOKER, RANKS, SUITS, Card, copy_labels
from .describe import points_fact, rules_facts
from .encoding import action_of
from .facts import Fact
from .fairness import Deal, commitment_of, reshuffle_order, shuffled_deal
from .history import Event, turn_began_at
from .legal import IllegalMove, actions_for, legal_actions, legal_moves, why_not_playable
from .match import Match, new_match
from .moves import Catch, Draw, Move, Pass, Play, move_to_str, parse_move
from .options import rules_from_json, rules_to_json, ruleset_from_options
from .playout import random_playout
from .record import RECORD_FORMAT, RECORD_VERSION, RecordCheck, RecordError, record_check
from .replay import replay
from .round import apply_action, apply_move, events_between, new_round, stacked_deck, step
from .rules import PRESETS, Effect, InvalidRules, RuleSet, card_points, deck_cards
from .serialize import event_from_json, event_to_json, from_json, to_json
from .state import Round
from .view import (
    RoundView,
    legal_moves_for_view,
    revealed_hands,
    round_from_guess,
    view_for,
    why_not_playable_for_view,
)

__all__ = [
    "JOKER", "PRESETS", "RANKS", "RECORD_FORMAT",
    "RECORD_VERSION", "SUITS",
    "Card", "Catch", "Deal", "Draw", "Effect", "Event", "Fact", "IllegalMove", "InvalidRules",
    "Match", "Move", "Pass", "Play", "RecordCheck", "RecordError",
    "Round", "RoundView", "RuleSet", "action_of", "actions_for", "apply_action", "apply_move",
    "card_points", "commitment_of", "copy_labels", "deck_cards",
    "event_from_json", "event_to_json",
    "events_between", "move_to_str", "rules_from_json", "rules_to_json",
    "ruleset_from_options",
    "from_json", "legal_actions", "legal_moves", "legal_moves_for_view", "new_match",
    "new_round", "parse_move", "points_fact", "random_playout", "record_check", "replay",
    "reshuffle_order",
    "revealed_hands", "round_from_guess", "rules_facts", "shuffled_deal", "stacked_deck", "step",
    "to_json",
    "turn_began_at", "view_for", "why_not_playable", "why_not_playable_for_view",
]  # fmt: skip
