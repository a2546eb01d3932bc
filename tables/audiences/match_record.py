"""A match a player takes home: the versioned JSON file the engine checks (`ocholoco.record`)
and a transcript a person reads, in the game log's own sentences.

Anyone with the table's link may download any match played at it, as they may see its history.
The finished rounds come whole (the deal revealed, every move); a round still in play comes as
far as anyone watching saw it: its commitment and the moves made so far (what a move shows of a
card, everyone saw), never its reveal nor a hand.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.formats import date_format, time_format
from django.utils.translation import gettext as _

import ocholoco
from tables.audiences import wording
from tables.audiences.narration import log_lines
from tables.audiences.round_history import round_replayed, round_reveal
from tables.models import Seat, Table, TableEvent, TableRound
from tables.state.snapshot import TableSnapshot


@dataclass
class _Played:
    """One round of the match: its record, its part of the table's log and, once it is over,
    its states from the deal to the end."""

    record: TableRound
    events: list[TableEvent]
    states: list[ocholoco.Round] | None

    @property
    def moves(self) -> list[TableEvent]:
        return [event for event in self.events if event.kind == "move"]


@dataclass
class _Match:
    """A match of a table as its files tell it, read once."""

    table: Table
    number: int
    seats: dict[int, Seat]
    order: list[int]  # the players' seat numbers, in the engine's player order
    rounds: list[_Played]

    @property
    def names(self) -> list[str]:
        return [self.seats[n].name if n in self.seats else "?" for n in self.order]

    def is_robot(self, number: int) -> bool:
        """Whether the seat was a robot's from the start (not a person's a robot plays)."""
        seat = self.seats.get(number)
        return seat is not None and seat.is_robot

    @property
    def finished_rounds(self) -> list[_Played]:
        return [played for played in self.rounds if played.states is not None]

    @property
    def totals(self) -> list[int]:
        totals = [0] * len(self.order)
        for played in self.finished_rounds:
            for player, points in enumerate(played.states[-1].round_points):
                totals[player] += points
        return totals

    @property
    def outcome(self) -> ocholoco.Match:
        """The match after its finished rounds, as the engine keeps it (over or not, winners)."""
        return ocholoco.Match(self.table.rules, len(self.order), tuple(self.totals))


def _match_read(table: Table, number: int) -> _Match | None:
    """Match `number` of `table` (1, then 2 after REVANCHA...), or None if none was played."""
    records = list(table.rounds.filter(match_number=number).order_by("id"))
    if not records:
        return None
    events = table.events.filter(version__gt=records[0].start_version)
    following = (
        table.rounds.filter(pk__gt=records[-1].pk).order_by("id")
        .values_list("start_version", flat=True).first()
    )
    if following is not None:
        events = events.filter(version__lte=following)
    # A round's part of the log: after its deal's version, up to the next round's deal.
    starts = [record.start_version for record in records]
    parts: list[list[TableEvent]] = [[] for _ in records]
    for event in events.order_by("id"):
        parts[bisect_left(starts, event.version) - 1].append(event)
    rounds = []
    for record, part in zip(records, parts, strict=True):
        record.table = table
        moves = [event.data["move"] for event in part if event.kind == "move"]
        states = round_replayed(record, moves) if record.finished else None
        rounds.append(_Played(record, part, states))
    seats = {seat.number: seat for seat in table.seats.all()}
    return _Match(table, number, seats, list(records[0].seats), rounds)


def match_count(table: Table) -> int:
    """How many matches were dealt at the table (0 before the first)."""
    last = table.rounds.order_by("-id").values_list("match_number", flat=True).first()
    return last or 0


def match_record(table: Table, number: int, *, now: datetime) -> dict[str, Any] | None:
    """The match's file (`ocholoco.record`'s format), or None if no such match was played."""
    match = _match_read(table, number)
    if match is None:
        return None
    rules = table.rules
    rounds = []
    for played in match.rounds:
        record, order = played.record, match.order
        entry: dict[str, Any] = {
            "number": record.number,
            "dealer": record.dealer,
            "commitment": record.commitment,
            "finished": played.states is not None,
            "reveal": round_reveal(record),
            "moves": [
                {"player": order.index(event.seat), "move": event.data["move"]}
                for event in played.moves
            ],
            "points": None,
            "winners": [],
        }
        if played.states is not None:
            end = played.states[-1]
            entry.update(
                points=list(end.round_points), winners=list(end.winners), blocked=end.blocked
            )
        rounds.append(entry)
    outcome = match.outcome
    return {
        "format": ocholoco.RECORD_FORMAT,
        "version": ocholoco.RECORD_VERSION,
        "match": number,
        "downloaded": now.isoformat(timespec="seconds"),
        "rules": ocholoco.rules_to_json(rules),
        "rules_name": wording.rules_name(rules),
        "players": [
            {"name": name, "seat": seat + 1, "robot": match.is_robot(seat)}
            for seat, name in zip(match.order, match.names, strict=True)
        ],
        "rounds": rounds,
        "totals": list(outcome.totals),
        "finished": outcome.finished,
        "winners": list(outcome.winners),
    }


def match_transcript(table: Table, number: int, *, now: datetime) -> str | None:
    """The match told for a person to read (in the active language, the game log's
    sentences), or None if no such match was played."""
    match = _match_read(table, number)
    if match is None:
        return None
    names = match.names
    players = [
        _("%(name)s (robot)") % {"name": name} if match.is_robot(seat) else name
        for seat, name in zip(match.order, names, strict=True)
    ]
    lines = [
        _("Ocho Loco · Partida %(number)s") % {"number": number},
        _("Jugadores: %(players)s.") % {"players": wording.and_list(players)},
        _("Descargada el %(date)s a las %(time)s (UTC).") % {
            "date": date_format(now, "SHORT_DATE_FORMAT"), "time": time_format(now),
        },
        "",
        _("Reglas: %(rules)s") % {"rules": wording.rules_name(table.rules)},
        *(f"  {sentence}" for sentence in wording.rules_sentences(table.rules)),
    ]
    for played in match.rounds:
        record = played.record
        lines += ["", _("Ronda %(number)s · reparte %(dealer)s") % {
            "number": record.number, "dealer": names[record.dealer],
        }]  # fmt: skip
        lines.append(_("Huella del reparto: %(commitment)s") % {"commitment": record.commitment})
        if played.states is None:
            lines.append(_("La ronda sigue en juego: su reparto se revela cuando termine."))
            opening = TableSnapshot.load(table).round
        else:
            opening = played.states[0]
            lines.append(_("Reparto revelado: %(reveal)s") % {"reveal": round_reveal(record)})
            lines.append(_("Manos repartidas:"))
            lines += [
                f"  {names[p]}: {', '.join(map(wording.card_name, hand))}"
                for p, hand in enumerate(opening.hands)
            ]
        # The game log's own lines, with the card that opened this round's pile.
        snapshot = TableSnapshot(
            table=table, seats=match.seats, round=opening,
            match=ocholoco.new_match(table.rules, len(match.order)),
        )
        ends = {f"{event.pk}.0" for event in played.events if event.kind == "round_over"}
        for line in log_lines(played.events, snapshot):
            lines.append(line["text"])
            if line["key"] in ends:  # everybody's points, under the line of the round's end
                points = played.states[-1].round_points
                said = " · ".join(f"{names[p]} {points[p]}" for p in range(len(names)))
                lines.append(_("Puntos de la ronda: %(points)s.") % {"points": said})
    totals = " · ".join(f"{names[p]} {total}" for p, total in enumerate(match.totals))
    lines += ["", _("Total: %(totals)s.") % {"totals": totals}]
    if not match.outcome.finished:
        lines.append(_("La partida no terminó."))
    return "\n".join(lines) + "\n"
