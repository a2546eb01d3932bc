"""A match's file and its check (`ocholoco.record`): a true file checks out, whatever the rule
set; any change to a move, a reveal, a point or the format does not."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from ocholoco import (
    PRESETS,
    RECORD_FORMAT,
    RECORD_VERSION,
    RecordError,
    legal_moves,
    move_to_str,
    new_match,
    record_check,
    rules_to_json,
    shuffled_deal,
)
from ocholoco import apply_move as step


def played(rules: str, players: int, seed: int, *, rounds: int = 99, moves_after: int = 0):
    """A match file as the table writes it: `rounds` rounds (or to the match's end) of random
    legal moves, then, with `moves_after`, a round in play with that many moves."""
    rng = random.Random(seed)
    match = new_match(PRESETS[rules], players)
    entries: list[dict[str, Any]] = []
    while not match.finished and len(entries) < rounds:
        deal = shuffled_deal(match.rules, players, rng)
        state = match.deal(deck=deal.deck, salt=deal.salt)
        entry = {
            "number": match.round_number, "dealer": match.dealer, "commitment": deal.commitment,
            "finished": True, "reveal": deal.reveal, "moves": [],
        }
        while not state.finished:
            move = rng.choice(legal_moves(state))
            entry["moves"].append({"player": state.turn, "move": move_to_str(move)})
            state = step(state, move)
        entry.update(
            points=list(state.round_points), winners=list(state.winners), blocked=state.blocked
        )
        entries.append(entry)
        match = match.apply_round(state)
    if moves_after and not match.finished:
        deal = shuffled_deal(match.rules, players, rng)
        state = match.deal(deck=deal.deck, salt=deal.salt)
        entry = {
            "number": match.round_number, "dealer": match.dealer, "commitment": deal.commitment,
            "finished": False, "reveal": None, "moves": [], "points": None,
            "winners": [],
        }
        for _ in range(moves_after):
            move = next(m for m in legal_moves(state) if not step(state, m).finished)
            entry["moves"].append({"player": state.turn, "move": move_to_str(move)})
            state = step(state, move)
        entries.append(entry)
    return {
        "format": RECORD_FORMAT, "version": RECORD_VERSION, "match": 1,
        "rules": rules_to_json(match.rules), "rules_name": match.rules.label,
        "players": [{"name": f"P{n}", "seat": n + 1, "robot": False} for n in range(players)],
        "rounds": entries, "totals": list(match.totals), "finished": match.finished,
        "winners": list(match.winners),
    }


@pytest.mark.parametrize(
    ("rules", "players", "seed"),
    [("clasico", 2, 1), ("especiales", 3, 2), ("libro", 4, 3), ("anuncio", 5, 4),
     ("chileno", 2, 5)],
)  # fmt: skip
def test_a_true_match_file_checks_out_to_its_totals_and_winners(rules, players, seed):
    record = played(rules, players, seed)
    checked = record_check(record)
    assert checked.match.finished and not checked.in_play
    assert list(checked.match.totals) == record["totals"]
    assert len(checked.rounds) == len(record["rounds"])


def test_a_round_in_play_is_checked_as_far_as_it_went_and_must_not_be_revealed():
    record = played("especiales", 3, 7, rounds=1, moves_after=4)
    checked = record_check(record)
    assert checked.in_play and len(checked.rounds) == 1
    revealed = copy.deepcopy(record)
    revealed["rounds"][-1]["reveal"] = record["rounds"][0]["reveal"]
    with pytest.raises(RecordError) as refused:
        record_check(revealed)
    assert refused.value.reason.code == "record_in_play_revealed"
    after = copy.deepcopy(record)
    after["rounds"].append(copy.deepcopy(record["rounds"][0]))
    with pytest.raises(RecordError) as refused:
        record_check(after)
    assert refused.value.reason.code == "record_round_after_unfinished"


def _changed(record: dict, change) -> dict:
    changed = copy.deepcopy(record)
    change(changed)
    return changed


def _swap_moves(record: dict) -> None:
    moves = record["rounds"][0]["moves"]
    moves[0], moves[1] = moves[1], moves[0]


def _extra_move(record: dict) -> None:
    record["rounds"][0]["moves"].append({"player": 0, "move": "draw"})


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (lambda r: r.update(format="otra-cosa"), "record_not_ours"),
        (lambda r: r.update(version=RECORD_VERSION + 1), "record_version_unknown"),
        (lambda r: r["rounds"][0].update(commitment="0" * 64), "record_reveal_mismatch"),
        (lambda r: r["rounds"][0].update(points=[p + 1 for p in r["rounds"][0]["points"]]),
         "record_points_wrong"),
        (lambda r: r["rounds"][0]["moves"][0].update(player=99), "record_move_wrong_player"),
        (_swap_moves, "record_move_illegal"),
        (_extra_move, "record_moves_after_end"),
        (lambda r: r["rounds"][0]["moves"].pop(), "record_moves_unfinished"),
        (lambda r: r.update(totals=[t + 1 for t in r["totals"]]), "record_totals_wrong"),
        (lambda r: r.update(finished=not r["finished"]), "record_match_end_wrong"),
        (lambda r: r["rounds"][0].update(dealer=1), "record_round_out_of_turn"),
        (lambda r: r.pop("rules"), "record_malformed"),
    ],
)  # fmt: skip
def test_a_changed_match_file_is_refused_with_its_reason(change, code):
    record = played("clasico", 2, 11)
    record_check(record)
    with pytest.raises(RecordError) as refused:
        record_check(_changed(record, change))
    assert refused.value.reason.code == code
