"""JSON for every engine value: rounds, matches, views and moves.

``to_json(x)`` gives a dict of plain JSON types (it survives ``json.dumps``/``loads``) with a
``"type"`` key; ``from_json(to_json(x)) == x``. Cards are written in their notation
(``"10H"``), moves in theirs (``"8H:S"``), rule sets by their key in `PRESETS`.
"""

from __future__ import annotations

from typing import Any

from .cards import RANK_INDEX, SUIT_INDEX, Card
from .encoding import tables_for
from .history import Event, chain_of, record_of
from .match import Match
from .moves import Draw, Pass, Play, parse_move
from .round import Round, ids_for
from .rules import PRESETS
from .view import RoundView

JsonValue = Round | Match | RoundView | Play | Draw | Pass


def to_json(obj: JsonValue) -> dict[str, Any]:
    if isinstance(obj, Play | Draw | Pass):
        return {"type": "move", "move": str(obj)}
    if isinstance(obj, Match):
        return {
            "type": "match",
            "rules": obj.rules.key,
            "players": obj.players,
            "totals": list(obj.totals),
            "round_number": obj.round_number,
            "dealer": obj.dealer,
        }
    table = {
        "rules": obj.rules.key,
        "players": obj.players,
        "dealer": obj.dealer,
        "top": str(obj.top),
        "active_suit": obj.active_suit,
        "turn": obj.turn,
        "direction": obj.direction,
        "pending_draw": obj.pending_draw,
        "pending_rank": obj.pending_rank,
        "idle_turns": obj.idle_turns,
        "finished": obj.finished,
        "blocked": obj.blocked,
        "winners": list(obj.winners),
        "round_points": list(obj.round_points),
        "history": [_event_json(e) for e in obj.history],
    }
    if isinstance(obj, RoundView):
        return {
            "type": "view",
            "player": obj.player,
            "hand": [str(c) for c in obj.hand],
            "hand_sizes": list(obj.hand_sizes),
            "stock_size": obj.stock_size,
            **table,
        }
    return {
        "type": "round",
        "hands": [[str(c) for c in hand] for hand in obj.hands],
        "stock": [str(c) for c in obj.stock],
        **table,
    }


def from_json(data: dict[str, Any]) -> JsonValue:
    kind = data["type"]
    if kind == "move":
        return parse_move(data["move"])
    rules = PRESETS[data["rules"]]
    if kind == "match":
        return Match(
            rules, data["players"], tuple(data["totals"]), data["round_number"], data["dealer"]
        )
    history = tuple(_event(e) for e in data["history"])
    common = {
        "rules": rules,
        "players": data["players"],
        "dealer": data["dealer"],
        "top": Card.parse(data["top"]),
        "active_suit": data["active_suit"],
        "turn": data["turn"],
        "direction": data["direction"],
        "pending_draw": data["pending_draw"],
        "pending_rank": data["pending_rank"],
        "idle_turns": data["idle_turns"],
        "finished": data["finished"],
        "blocked": data["blocked"],
        "winners": tuple(data["winners"]),
        "round_points": tuple(data["round_points"]),
        "history": history,
    }
    if kind == "view":
        return RoundView(
            player=data["player"],
            hand=tuple(map(Card.parse, data["hand"])),
            hand_sizes=tuple(data["hand_sizes"]),
            stock_size=data["stock_size"],
            **common,
        )
    if kind != "round":
        raise ValueError(f"unknown JSON type {kind!r}")
    return _round(data, common)


def _round(data: dict[str, Any], common: dict[str, Any]) -> Round:
    rules = common["rules"]
    sizes = [len(hand) for hand in data["hands"]]
    ids = ids_for([c for hand in data["hands"] for c in hand] + data["stock"], rules.decks)
    hands, start = [], 0
    for size in sizes:
        hands.append(sum(1 << i for i in ids[start : start + size]))
        start += size
    st = object.__new__(Round)
    st.rules = rules
    st.players = common["players"]
    st.dealer = common["dealer"]
    st._t = tables_for(rules)
    st._hands = hands
    st._stock = tuple(ids[start:])
    st._pos = 0
    st._top = common["top"].value
    st._suit = SUIT_INDEX[common["active_suit"]]
    st.turn = common["turn"]
    st.direction = common["direction"]
    st.pending_draw = common["pending_draw"]
    rank = common["pending_rank"]
    st._pending_rank = RANK_INDEX[rank] if rank else -1
    st._idle = common["idle_turns"]
    st.finished = common["finished"]
    st.blocked = common["blocked"]
    st.winners = common["winners"]
    st.round_points = common["round_points"]
    st._history = chain_of([record_of(e) for e in common["history"]])
    return st


def _event_json(event: Event) -> list[Any]:
    card = str(event.card) if event.card else None
    return [event.kind, event.player, card, event.suit, event.count]


def _event(data: list[Any]) -> Event:
    kind, player, card, suit, count = data
    return Event(kind, player, Card.parse(card) if card else None, suit, count)
