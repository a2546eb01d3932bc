"""Rule sets: every way of playing is a named, frozen `RuleSet`, and `PRESETS` holds them.

Everything the engine varies on is data here, so a house-rule preset is a new entry, not new
branches. A rule set that cannot be played is refused at construction with `InvalidRules`, a
`ValueError` carrying why (a `Fact` of `facts.INVALID_RULES`). Presets, in the lobby's order
(each known by its key; the pages name them): "clasico", "especiales" (the product),
"libro", "anuncio", "chileno" (docs/rules.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .cards import ALL_VALUES, CARDS, JOKER_RANK, JOKER_VALUE, N_VALUES, RANKS, Card
from .facts import Fact

EffectKind = Literal["skip", "reverse", "draw", "copy"]
EmptyStock = Literal["pass_and_block", "reshuffle"]
DrawPolicy = Literal["until_playable", "draw_one", "draw_ends_turn"]
Scoring = Literal["winner_takes", "penalty"]


class InvalidRules(ValueError):
    """A rule set that cannot be played; ``reason`` says why (a code and its arguments)."""

    def __init__(self, reason: Fact) -> None:
        super().__init__(str(reason))
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Effect:
    """What playing a card of a special rank does to the next player.

    ``skip``: the next player loses the turn (with two players, the same player plays again).
    ``reverse``: the direction of play flips (with two players, nothing happens).
    ``draw``: the next player draws ``amount`` and loses the turn unless, when ``stackable``,
    they answer with a card of the same rank: then the penalty grows and passes on.
    ``copy`` (only for two players): the card may be played on any card and repeats the
    effect of the card it covers (none if that card has none).
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
    """One complete way to play. ``key`` is stable: tables store it and find it in PRESETS
    (a custom rule set is stored whole, see `options.rules_to_json`). ``label``: the name its
    players gave a custom rule set ("" for none, and for the presets)."""

    key: str
    label: str = ""
    min_players: int = 2
    max_players: int = 4
    # (players, cards dealt to each); every count from min to max players must appear.
    hand_sizes: tuple[tuple[int, int], ...] = ((2, 7), (3, 5), (4, 5))
    decks: int = 1
    # (players, decks) where it differs from ``decks``: e.g. two decks above four players.
    decks_by_players: tuple[tuple[int, int], ...] = ()
    jokers: int = 0  # jokers in the whole deck (all decks together)
    wild_ranks: frozenset[str] = frozenset({"8"})
    # (rank, effect); the rank "JK" gives the jokers their effect.
    effects: tuple[tuple[str, Effect], ...] = ()
    # "pass_and_block": the stock is never rebuilt: who cannot play passes and a full lap of
    # idle turns blocks the table. "reshuffle": the discard pile but its top card is shuffled
    # into a new stock when a card must be drawn from an empty stock.
    empty_stock: EmptyStock = "pass_and_block"
    # With "reshuffle": how many times a round may rebuild the stock; after that the stock
    # is not rebuilt (as "pass_and_block"), which is what guarantees that every round ends.
    max_reshuffles: int = 3
    # "until_playable": draw whenever there is a card to draw; drawing never ends the turn.
    # "draw_one": draw one card, then play that card if it fits, or pass.
    # "draw_ends_turn": draw one card and the turn passes.
    draw_policy: DrawPolicy = "until_playable"
    # "winner_takes": the round's winner scores the points of the other hands (blocked: the
    # difference), the highest total wins. "penalty": each player adds the points left in
    # their own hand, the lowest total wins.
    scoring: Scoring = "winner_takes"
    target_per_player: int = 50
    target_points: int = 0  # a fixed match target; 0: ``target_per_player`` × players
    # Cards a player draws for not announcing "¡Última carta!"; 0: no announcement.
    announce_fine: int = 0
    points: tuple[tuple[str, int], ...] = STANDARD_POINTS

    def __post_init__(self) -> None:
        check = _check
        check(2 <= self.min_players <= self.max_players <= 8, "players_range")
        counts = dict(self.hand_sizes)
        check(1 <= self.decks <= 2, "decks_range")
        for players in range(self.min_players, self.max_players + 1):
            check(players in counts, "hand_size_missing", players=players)
            check(counts[players] >= 1, "hand_size_low")
            cards = N_VALUES * self.decks_for(players) + self.jokers
            check(
                counts[players] * players + 1 <= cards,
                "not_enough_cards",
                cards=counts[players],
                players=players,
            )
        check(all(d in (1, 2) for _, d in self.decks_by_players), "decks_by_players_range")
        check(0 <= self.jokers <= 4, "jokers_range")
        ranks = set(RANKS) | ({JOKER_RANK} if self.jokers else set())
        special = {rank for rank, _ in self.effects}
        check(self.wild_ranks <= set(RANKS), "wild_needs_suit")
        check(special <= ranks, "effect_not_in_deck")
        check(set(dict(self.points)) == ranks, "points_missing")
        check(not special & self.wild_ranks, "wild_with_effect")
        check(len(self.wild_ranks) < len(RANKS), "wild_all")
        for rank, effect in self.effects:
            if effect.kind == "draw":
                check(1 <= effect.amount <= 10, "draw_amount_range")
            if effect.kind == "copy":
                check(self.max_players == 2, "copy_two_players")
                check(rank != JOKER_RANK, "joker_copies")
        policies = ("until_playable", "draw_one", "draw_ends_turn")
        check(self.draw_policy in policies, "draw_policy_unknown")
        check(self.empty_stock in ("pass_and_block", "reshuffle"), "empty_stock_unknown")
        check(self.scoring in ("winner_takes", "penalty"), "scoring_unknown")
        check(self.target_points >= 0 and self.target_per_player >= 1, "target_invalid")
        check(1 <= self.max_reshuffles <= 20, "reshuffles_range")
        check(0 <= self.announce_fine <= 10, "fine_range")

    def hand_size(self, players: int) -> int:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.key}: from {self.min_players} to {self.max_players} players")
        return dict(self.hand_sizes)[players]

    def decks_for(self, players: int) -> int:
        """How many French decks are shuffled together for ``players``."""
        return dict(self.decks_by_players).get(players, self.decks)

    def effect(self, rank: str) -> Effect | None:
        return dict(self.effects).get(rank)

    def reverses(self, rank: str, players: int) -> bool:
        """Whether a card of ``rank`` turns the direction of play (never with two players)."""
        effect = self.effect(rank)
        return players > 2 and effect is not None and effect.kind == "reverse"

    def card_points(self, rank: str) -> int:
        return dict(self.points)[rank]

    def target(self, players: int) -> int:
        return self.target_points or self.target_per_player * players

    @property
    def reshuffles(self) -> bool:
        return self.empty_stock == "reshuffle"

    @property
    def announces(self) -> bool:
        return self.announce_fine > 0


def _check(ok: bool, code: str, **args: int) -> None:
    if not ok:
        raise InvalidRules(Fact.of(code, **args))


def card_points(rules: RuleSet, card: Card) -> int:
    """What ``card`` counts in a hand at the end of a round under ``rules``."""
    return rules.card_points(card.rank)


def deck_cards(rules: RuleSet, players: int) -> list[Card]:
    """Every card of the deck ``rules`` deal to ``players``, in card order."""
    return sorted(CARDS * rules.decks_for(players)) + [ALL_VALUES[JOKER_VALUE]] * rules.jokers


ESPECIALES_EFFECTS = (("2", Effect("draw", 2)), ("Q", Effect("skip")), ("A", Effect("reverse")))

CLASICO = RuleSet(key="clasico")
ESPECIALES = RuleSet(key="especiales", effects=ESPECIALES_EFFECTS)
LIBRO = RuleSet(
    key="libro",
    max_players=6,
    hand_sizes=((2, 7), (3, 5), (4, 5), (5, 5), (6, 5)),
    empty_stock="reshuffle",
    draw_policy="draw_one",
    scoring="penalty",
    target_points=100,
)
ANUNCIO = RuleSet(
    key="anuncio",
    max_players=8,
    hand_sizes=((2, 7), *((n, 5) for n in range(3, 9))),
    decks_by_players=tuple((n, 2) for n in range(5, 9)),
    effects=ESPECIALES_EFFECTS,
    empty_stock="reshuffle",
    draw_policy="draw_one",
    scoring="penalty",
    target_points=100,
    announce_fine=2,
)
CHILENO = RuleSet(
    key="chileno",
    max_players=6,
    hand_sizes=tuple((n, 8) for n in range(2, 7)),
    jokers=2,
    effects=(
        ("2", Effect("draw", 2)),
        ("3", Effect("draw", 3)),
        ("7", Effect("skip")),
        ("Q", Effect("reverse")),
        (JOKER_RANK, Effect("draw", 4, stackable=False)),
    ),  # fmt: skip
    empty_stock="reshuffle",
    draw_policy="draw_ends_turn",
    target_points=100,
    announce_fine=2,
    points=(*STANDARD_POINTS, (JOKER_RANK, 30)),
)

PRESETS: dict[str, RuleSet] = {
    rules.key: rules for rules in (CLASICO, ESPECIALES, LIBRO, ANUNCIO, CHILENO)
}
