"""Finished rounds: the deal's proof, the replay, the fairness check, the table's history.

A round's reveal and its moves with every hand face up are shown only once it is over: the
functions here read `TableRound.reveal` only for a finished round, and nothing else does (a
match's file, `match_record`, asks `round_reveal` and `round_replayed`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import ocholoco
from tables.audiences import wording
from tables.audiences.cards import card_info, cards_info, suit_info
from tables.models import Table, TableRound


def round_proof(table: Table) -> dict[str, Any] | None:
    """The last round's reveal (for the summary and the log), once that round is over."""
    record = table.rounds.order_by("-id").first()
    if record is None or not record.finished:
        return None
    return {
        "id": record.pk, "reveal": record.reveal, "commitment": record.commitment,
        "match": record.match_number,
    }


def finished_round(table: Table, round_id: int) -> TableRound | None:
    """A round of `table` that is over, or None (unknown, or still being played)."""
    return table.rounds.filter(pk=round_id, finished=True).first()


def round_reveal(record: TableRound) -> str | None:
    """The round's reveal text once it is over; None while it is played."""
    return record.reveal if record.finished else None


def round_replayed(record: TableRound, moves: Iterable[str]) -> list[ocholoco.Round]:
    """A finished round again from its reveal and `moves` (its moves in the table's log, in
    order): as dealt, then after each move. A round in play is never replayed (ValueError)."""
    reveal = round_reveal(record)
    if reveal is None:
        raise ValueError("a round in play is not replayed")
    deal = ocholoco.Deal.parse(reveal)
    return ocholoco.replay(record.table.rules, len(record.seats), record.dealer, deal, moves)


def _replayed(record: TableRound) -> list[ocholoco.Round]:
    """The finished round again: as dealt, then after each of its moves in the table's log."""
    table = record.table
    events = table.events.filter(kind="move", version__gt=record.start_version)
    later = table.rounds.filter(pk__gt=record.pk).order_by("pk").first()
    if later is not None:
        events = events.filter(version__lte=later.start_version)
    moves = (event.data["move"] for event in events.order_by("id").iterator())
    return round_replayed(record, moves)


def _player_names(record: TableRound) -> list[str]:
    """The players' names, in the round's player order."""
    names = dict(record.table.seats.values_list("number", "name"))
    return [names.get(number, "?") for number in record.seats]


def round_replay(record: TableRound, step: int) -> dict[str, Any]:
    """One position of a finished round (`step` moves after the deal; past the end: the
    end), with every hand face up and what the last move did."""
    states = _replayed(record)
    last = len(states) - 1
    step = min(step, last)
    state = states[step]
    names = _player_names(record)
    seen = len(states[step - 1].history) if step else 0
    happened = [
        wording.event_sentence(event, names.__getitem__) for event in state.history[seen:]
    ]
    players = [
        {
            "name": names[p],
            "hand": cards_info(hand),
            "count": len(hand),
            "is_turn": not state.finished and state.turn == p,
            "dealer": p == record.dealer,
            "winner": p in state.winners,
            "gained": state.round_points[p],
        }
        for p, hand in enumerate(state.hands)
    ]
    return {
        "record": record,
        "table": record.table,
        "step": step,
        "last": last,
        "previous": max(step - 1, 0),
        "following": min(step + 1, last),
        "players": players,
        "happened": happened,
        "top": card_info(state.top),
        "active_suit": suit_info(state.active_suit),
        "suit_changed": state.active_suit != state.top.suit,
        "stock": state.stock_size,
        "direction": state.direction,
        "pending_draw": state.pending_draw,
        "finished": state.finished,
        "winners": [names[p] for p in state.winners],
        "blocked": state.blocked,
    }


def round_fairness(record: TableRound) -> dict[str, Any]:
    """What anyone needs to check a finished round's deal: the commitment, the reveal, the
    hands it dealt and, with the house rules that reshuffle, each reshuffle's pile and the
    order the salt gave it."""
    table = record.table
    deal = ocholoco.Deal.parse(record.reveal)
    states = _replayed(record)
    names = _player_names(record)
    reshuffles = []
    for before, after in zip(states, states[1:], strict=False):
        done = sum(event.kind == "reshuffle" for event in before.history)
        if any(event.kind == "reshuffle" for event in after.history[len(before.history) :]):
            pile = sorted(before.discard[:-1])  # all but its top card
            order = ocholoco.reshuffle_order(deal.salt, done + 1, pile)
            reshuffles.append({
                "number": done + 1,
                "pile": [str(card) for card in pile],
                "order": [str(card) for card in order],
            })
    hands = [[str(card) for card in hand] for hand in states[0].hands]
    hand_size = table.rules.hand_size(len(record.seats))
    return {
        "record": record,
        "table": table,
        # What the browser's check compares with what it computes from the reveal.
        "check": {
            "commitment": record.commitment, "players": len(record.seats),
            "dealer": record.dealer, "hand_size": hand_size, "hands": hands,
            "reshuffles": reshuffles,
        },
        "commitment": record.commitment,
        "reveal": record.reveal,
        "salt": deal.salt,
        "players": len(record.seats),
        "dealer": record.dealer,
        "dealer_name": names[record.dealer],
        "hand_size": hand_size,
        "hands": [
            {"name": names[p], "cards": cards_info(hand)} for p, hand in enumerate(states[0].hands)
        ],
        "reshuffles": reshuffles,
        "rules_reshuffle": table.rules.reshuffles,
    }


def table_history(table: Table) -> list[dict[str, Any]]:
    """Every match played at the table (the newest first), each with its rounds in order:
    the winners, everybody's points and, once a round is over, its replay."""
    names = dict(table.seats.values_list("number", "name"))
    penalty = table.rules.scoring == "penalty"
    matches: dict[int, dict[str, Any]] = {}
    for record in table.rounds.defer("reveal").order_by("id"):
        match = matches.setdefault(
            record.match_number,
            {"number": record.match_number, "rounds": [], "totals": dict.fromkeys(record.seats, 0)},
        )
        points = [(names.get(n, "?"), record.points.get(str(n), 0)) for n in record.seats]
        for number in record.seats:
            match["totals"][number] = (
                match["totals"].get(number, 0) + record.points.get(str(number), 0)
            )
        match["rounds"].append({
            "id": record.pk,
            "number": record.number,
            "finished": record.finished,
            "blocked": record.blocked,
            "winners": [names.get(n, "?") for n in record.winners],
            "points": points,
        })
    current = max(matches, default=0)
    over = table.status == Table.Status.MATCH_OVER
    for number, match in matches.items():
        totals = match["totals"]
        match["totals"] = [(names.get(n, "?"), total) for n, total in totals.items()]
        match["over"] = number != current or over
        if match["over"] and totals:
            best = (min if penalty else max)(totals.values())
            match["winners"] = [names.get(n, "?") for n, t in totals.items() if t == best]
    return sorted(matches.values(), key=lambda m: m["number"], reverse=True)
