"""JSON for every engine value: rounds, matches, views and moves.

``to_json(x)`` gives a dict of plain JSON types with a ``"type"`` key, and
``from_json(to_json(x)) == x``. Cards and moves are written in their notation (``"10H"``,
``"8H:S"``), rule sets as `options.rules_to_json` writes them; a key missing from an older
snapshot reads as none, so it still loads.
"""

from __future__ import annotations

from typing import Any

from .cards import SUIT_INDEX, Card
from .encoding import N_RANKS, V, ids_for, ids_of, rank_text, tables_for
from .history import Event, chain_of, record_of
from .match import Match
from .moves import Catch, Draw, Pass, Play, parse_move
from .options import rules_from_json, rules_to_json
from .state import Round, assemble
from .view import RoundView

JsonValue = Round | Match | RoundView | Play | Draw | Pass | Catch


def to_json(obj: JsonValue) -> dict[str, Any]:
    """``obj`` as plain JSON types. A round's house-rule state is written too: ``salt`` (which
    orders the reshuffles), ``drawn`` (draw_one: the card drawn this turn; in a view, only the
    drawer's own) and ``exposed`` (who may be caught without "¡Última carta!")."""
    if isinstance(obj, Play | Draw | Pass | Catch):
        return {"type": "move", "move": str(obj)}
    if isinstance(obj, Match):
        return {
            "type": "match",
            "rules": rules_to_json(obj.rules),
            "players": obj.players,
            "totals": list(obj.totals),
            "round_number": obj.round_number,
            "dealer": obj.dealer,
        }
    table = {
        "rules": rules_to_json(obj.rules),
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
        "history": [event_to_json(e) for e in obj.history],
        "exposed": obj.exposed,
        "drawn": str(obj.drawn) if obj.drawn else None,
    }
    if isinstance(obj, RoundView):
        return {
            "type": "view",
            "player": obj.player,
            "hand": [str(c) for c in obj.hand],
            "hand_sizes": list(obj.hand_sizes),
            "stock_size": obj.stock_size,
            "discard_size": obj.discard_size,
            **table,
        }
    return {
        "type": "round",
        "hands": [[str(c) for c in hand] for hand in obj.hands],
        "stock": [str(c) for c in obj.stock],
        "salt": obj.salt,
        **table,
    }


def from_json(data: dict[str, Any]) -> JsonValue:
    kind = data["type"]
    if kind == "move":
        return parse_move(data["move"])
    rules = rules_from_json(data["rules"])
    if kind == "match":
        return Match(
            rules, data["players"], tuple(data["totals"]), data["round_number"], data["dealer"]
        )
    history = tuple(event_from_json(e) for e in data["history"])
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
        "exposed": data.get("exposed"),
        "drawn": Card.parse(data["drawn"]) if data.get("drawn") else None,
    }
    if kind == "view":
        return RoundView(
            player=data["player"],
            hand=tuple(map(Card.parse, data["hand"])),
            hand_sizes=tuple(data["hand_sizes"]),
            stock_size=data["stock_size"],
            discard_size=data.get("discard_size", 1),
            **common,
        )
    if kind != "round":
        raise ValueError(f"unknown JSON type {kind!r}")
    return _round(data, common)


def _round(data: dict[str, Any], common: dict[str, Any]) -> Round:
    rules = common["rules"]
    sizes = [len(hand) for hand in data["hands"]]
    t = tables_for(rules, common["players"])
    ids = ids_for([c for hand in data["hands"] for c in hand] + data["stock"], t.decks)
    hands, start = [], 0
    for size in sizes:
        hands.append(sum(1 << i for i in ids[start : start + size]))
        start += size
    turn = common["turn"]
    drawn = -1
    if common["drawn"] is not None:  # the last copy of that value dealt to the player to move
        drawn = max(i for i in ids_of(hands[turn]) if i % V == common["drawn"].value)
    rank = common["pending_rank"]
    return assemble(
        rules,
        common["players"],
        common["dealer"],
        t,
        hands,
        tuple(ids[start:]),
        top=common["top"].value,
        suit=SUIT_INDEX[common["active_suit"]],
        turn=turn,
        history=chain_of([record_of(e) for e in common["history"]]),
        # A snapshot from before salts kept a secret int seed instead: it orders the reshuffles.
        salt=data.get("salt", str(data.get("seed", ""))),
        direction=common["direction"],
        pending_draw=common["pending_draw"],
        pending_rank=_rank_index(rank) if rank else -1,
        idle=common["idle_turns"],
        finished=common["finished"],
        blocked=common["blocked"],
        winners=common["winners"],
        round_points=common["round_points"],
        drawn=drawn,
        exposed=-1 if common["exposed"] is None else common["exposed"],
        reshuffled=sum(e.kind == "reshuffle" for e in common["history"]),
    )


def _rank_index(rank: str) -> int:
    return next(i for i in range(N_RANKS + 1) if rank_text(i) == rank)


def event_to_json(event: Event) -> list[Any]:
    """An event as ``[kind, player, card, suit, count]``."""
    card = str(event.card) if event.card else None
    return [event.kind, event.player, card, event.suit, event.count]


def event_from_json(data: list[Any]) -> Event:
    kind, player, card, suit, count = data
    return Event(kind, player, Card.parse(card) if card else None, suit, count)
