"""Rule sets: every way of playing is a named, frozen `RuleSet`, and `PRESETS` holds them.

Everything the engine varies on is data here (players, hand sizes, decks, wild ranks, what
each special rank does, points, target), so a house-rule preset is a new entry, not new
branches. Policy fields are typed with the values the engine implements today; the presets
of RULES.md's last section (reshuffling the discard, draw-one, penalty scoring, the last-card
announcement, jokers) add a value there together with the code path that plays it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .cards import N_VALUES, RANKS, Card

EffectKind = Literal["skip", "reverse", "draw"]


@dataclass(frozen=True, slots=True)
class Effect:
    """What playing a card of a special rank does to the next player.

    ``skip``: the next player loses the turn (with two players, the same player plays again).
    ``reverse``: the direction of play flips (with two players, nothing happens).
    ``draw``: the next player draws ``amount`` and loses the turn unless, when ``stackable``,
    they answer with a card of the same rank: then the penalty grows and passes on.
    """

    kind: EffectKind
    amount: int = 0
    stackable: bool = True


STANDARD_POINTS: tuple[tuple[str, int], ...] = (
    ("A", 1), ("2", 2), ("3", 3), ("4", 4), ("5", 5), ("6", 6), ("7", 7),
    ("8", 50), ("9", 9), ("10", 10), ("J", 10), ("Q", 10), ("K", 10),
)  # fmt: skip


@dataclass(frozen=True)
class RuleSet:
    """One complete way to play. ``key`` is stable: tables store it and find it in PRESETS."""

    key: str
    label: str
    min_players: int = 2
    max_players: int = 4
    # (players, cards dealt to each); every count from min to max players must appear.
    hand_sizes: tuple[tuple[int, int], ...] = ((2, 7), (3, 5), (4, 5))
    decks: int = 1
    wild_ranks: frozenset[str] = frozenset({"8"})
    effects: tuple[tuple[str, Effect], ...] = ()
    # The stock is never rebuilt: who cannot play passes; a full lap of idle turns blocks.
    empty_stock: Literal["pass_and_block"] = "pass_and_block"
    # Draw whenever the stock is not empty; drawing never ends the turn.
    draw_policy: Literal["until_playable"] = "until_playable"
    # The round's winner collects the points of the other hands (or, blocked, the difference).
    scoring: Literal["winner_takes"] = "winner_takes"
    target_per_player: int = 50
    points: tuple[tuple[str, int], ...] = STANDARD_POINTS

    def __post_init__(self) -> None:
        counts = dict(self.hand_sizes)
        if not 2 <= self.min_players <= self.max_players:
            raise ValueError("players: need 2 <= min_players <= max_players")
        for players in range(self.min_players, self.max_players + 1):
            if players not in counts:
                raise ValueError(f"no hand size for {players} players")
            if counts[players] * players + 1 > N_VALUES * self.decks:
                raise ValueError(f"not enough cards to deal to {players} players")
        special = {rank for rank, _ in self.effects}
        if not special | self.wild_ranks <= set(RANKS) or set(dict(self.points)) != set(RANKS):
            raise ValueError("unknown rank in wild_ranks, effects or points")
        if special & self.wild_ranks:
            raise ValueError("a wild rank cannot also have an effect")
        if len(self.wild_ranks) == len(RANKS):
            raise ValueError("some rank must not be wild (the opening card)")

    def hand_size(self, players: int) -> int:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.label}: se juega de {self.min_players} a {self.max_players}")
        return dict(self.hand_sizes)[players]

    def effect(self, rank: str) -> Effect | None:
        return dict(self.effects).get(rank)

    def card_points(self, rank: str) -> int:
        return dict(self.points)[rank]

    def target(self, players: int) -> int:
        return self.target_per_player * players


def card_points(rules: RuleSet, card: Card) -> int:
    """What ``card`` counts in a hand at the end of a round under ``rules``."""
    return rules.card_points(card.rank)


CLASICO = RuleSet(key="clasico", label="Clásico")
ESPECIALES = RuleSet(
    key="especiales",
    label="Con especiales",
    effects=(("2", Effect("draw", 2)), ("Q", Effect("skip")), ("A", Effect("reverse"))),
)

PRESETS: dict[str, RuleSet] = {rules.key: rules for rules in (CLASICO, ESPECIALES)}
