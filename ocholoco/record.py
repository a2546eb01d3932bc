"""A match as a file a player takes home, and its check: every finished round replayed from its
revealed deal, the reveal hashed against its commitment, the points and the winners compared.

The file is JSON (``tables`` writes it; the keys are English, as a format's are whatever the
reader's language, the moves in `moves` notation)::

    {"format": "ocholoco-partida", "version": 1,
     "match": 1, "downloaded": "2026-12-07T01:30:00+00:00",
     "rules": "clasico" | {every field of a house rule set: `rules_to_json`},
     "rules_name": "Clásico",
     "players": [{"name": "Ana", "seat": 1, "robot": false}, ...],  # the players, in order
     "rounds": [
       {"number": 1, "dealer": 0, "commitment": "<sha256 hex>",
        "finished": true, "reveal": "ocholoco-reparto-1 sal=... mazo=...",
        "moves": [{"player": 1, "move": "8H:S"}, {"player": 0, "move": "draw"}, ...],
        "points": [12, 0], "winners": [0], "blocked": false},
       {"number": 2, "dealer": 1, "commitment": "...", "finished": false, "reveal": null,
        "moves": [...], "points": null, "winners": []}],
     "totals": [12, 0], "finished": false, "winners": []}

Players are numbered by their place in ``jugadores`` (the engine's player order). A round still
in play has its commitment and the moves made so far (what anyone watching saw), never its
reveal: the check replays only finished rounds, which come before it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .facts import Fact
from .fairness import Deal, commitment_of
from .legal import IllegalMove
from .match import Match, new_match
from .moves import parse_move
from .options import rules_from_json
from .replay import replay
from .rules import InvalidRules
from .state import Round

RECORD_FORMAT = "ocholoco-partida"
RECORD_VERSION = 1


class RecordError(ValueError):
    """A match file that does not check out; ``reason`` says where and why (a code of
    `facts.RECORD_ERRORS` and its arguments)."""

    def __init__(self, code: str, **args: Any) -> None:
        self.reason = Fact.of(code, **args)
        super().__init__(str(self.reason))


@dataclass(frozen=True)
class RecordCheck:
    """A match file that checked out: the match after its finished rounds, each finished
    round's last state, and whether a round was still in play when it was written."""

    match: Match
    rounds: tuple[Round, ...]
    in_play: bool


def record_check(record: Mapping[str, Any]) -> RecordCheck:
    """Check a match file (above): its format and version, then each finished round replayed
    from its reveal (which must hash to its commitment) to the points and winners it states,
    each move by the player it names; then the totals and the match's winners. Raises
    `RecordError` at the first thing that does not agree."""
    if not isinstance(record, Mapping) or record.get("format") != RECORD_FORMAT:
        raise RecordError("record_not_ours")
    version = record.get("version")
    if not isinstance(version, int) or version > RECORD_VERSION or version < 1:
        raise RecordError("record_version_unknown", version=repr(version))
    try:
        rules = rules_from_json(record["rules"])
        players = len(record["players"])
        match = new_match(rules, players)
        rounds = list(record["rounds"])
    except (KeyError, TypeError, ValueError, InvalidRules) as error:
        raise RecordError("record_malformed") from error
    finished: list[Round] = []
    in_play = False
    for entry in rounds:
        if in_play:
            raise RecordError("record_round_after_unfinished")
        if entry.get("finished"):
            state = _round_checked(entry, match)
            match = match.apply_round(state)
            finished.append(state)
        else:
            _in_play_checked(entry, match)
            in_play = True
    if list(record.get("totals", ())) != list(match.totals):
        raise RecordError("record_totals_wrong", totals=tuple(match.totals))
    over = bool(record.get("finished"))
    if over != match.finished or list(record.get("winners", ())) != list(match.winners):
        raise RecordError("record_match_end_wrong")
    return RecordCheck(match, tuple(finished), in_play)


def _round_checked(entry: Mapping[str, Any], match: Match) -> Round:
    """A finished round's last state, replayed from its reveal; RecordError if anything it
    states does not agree."""
    number = entry.get("number")
    if number != match.round_number or entry.get("dealer") != match.dealer:
        raise RecordError("record_round_out_of_turn", round=number)
    reveal, commitment = entry.get("reveal") or "", entry.get("commitment") or ""
    if commitment_of(reveal) != commitment:
        raise RecordError("record_reveal_mismatch", round=number)
    try:
        deal = Deal.parse(reveal)
    except ValueError:
        raise RecordError("record_reveal_unreadable", round=number) from None
    moves = list(entry.get("moves", ()))
    try:
        states = replay(
            match.rules, match.players, match.dealer, deal,
            (parse_move(move["move"]) for move in moves),
        )
    except IllegalMove as illegal:
        raise RecordError("record_move_illegal", round=number, reason=illegal.reason) from None
    except (ValueError, KeyError, TypeError):
        raise RecordError("record_move_illegal", round=number, reason=None) from None
    if len(states) != len(moves) + 1:
        raise RecordError("record_moves_after_end", round=number)
    for n, (state, move) in enumerate(zip(states, moves, strict=False), 1):
        if move.get("player") != state.turn:
            raise RecordError("record_move_wrong_player", round=number, move=n)
    last = states[-1]
    if not last.finished:
        raise RecordError("record_moves_unfinished", round=number)
    stated = (
        list(entry.get("points") or ()), list(entry.get("winners", ())),
        bool(entry.get("blocked")),
    )
    if stated != (list(last.round_points), list(last.winners), last.blocked):
        raise RecordError("record_points_wrong", round=number)
    return last


def _in_play_checked(entry: Mapping[str, Any], match: Match) -> None:
    """A round still in play is the match's next one, and shows nothing of its deal."""
    if entry.get("number") != match.round_number or entry.get("reveal"):
        raise RecordError("record_in_play_revealed", round=entry.get("number"))
