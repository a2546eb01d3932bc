"""A match: rounds played to a target, with running totals and a rotating dealer.

The target is ``target_per_player`` × players (100 with two, 150 with three, 200 with four),
or the rule set's fixed ``target_points``. After a round, if some total has reached it the
match is over and the highest total wins (a tie at the top shares the win); with penalty
scoring the lowest total wins (a tie shares it). The first round is dealt by player 0 (the
host's seat); the deal passes to the next player each round. A rematch starts again at 0
with the same players.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card
from .round import new_round
from .rules import PRESETS, RuleSet
from .state import Round


@dataclass(frozen=True)
class Match:
    rules: RuleSet
    players: int
    totals: tuple[int, ...]
    round_number: int = 1  # the round being played (or about to be dealt)
    dealer: int = 0  # the dealer of that round

    @property
    def target(self) -> int:
        return self.rules.target(self.players)

    @property
    def finished(self) -> bool:
        return max(self.totals) >= self.target

    @property
    def winners(self) -> tuple[int, ...]:
        """The players with the best total once the match is over, else (): the highest,
        or with penalty scoring the lowest."""
        if not self.finished:
            return ()
        best = min(self.totals) if self.rules.scoring == "penalty" else max(self.totals)
        return tuple(i for i, total in enumerate(self.totals) if total == best)

    @property
    def next_dealer(self) -> int:
        return (self.dealer + 1) % self.players

    def deal(
        self,
        *,
        seed: int | None = None,
        deck: Sequence[Card | str] | None = None,
        rng: random.Random | None = None,
        salt: str | None = None,
    ) -> Round:
        """The current round, dealt by ``dealer`` (the arguments are `new_round`'s)."""
        if self.finished:
            raise ValueError("the match is over")
        return new_round(
            self.rules, self.players, self.dealer, seed=seed, deck=deck, rng=rng, salt=salt
        )

    def apply_round(self, finished_round: Round) -> Match:
        """The match after ``finished_round`` (the current round, played to its end)."""
        if self.finished:
            raise ValueError("the match is over")
        if not finished_round.finished:
            raise ValueError("the round is not over")
        if (finished_round.rules, finished_round.players, finished_round.dealer) != (
            self.rules,
            self.players,
            self.dealer,
        ):
            raise ValueError("that round is not this match's current round")
        totals = tuple(a + b for a, b in zip(self.totals, finished_round.round_points, strict=True))
        return Match(self.rules, self.players, totals, self.round_number + 1, self.next_dealer)

    def rematch(self) -> Match:
        """REVANCHA: the same rules and players, totals back at 0."""
        return new_match(self.rules, self.players)


def new_match(rules: RuleSet | str, players: int) -> Match:
    if isinstance(rules, str):
        rules = PRESETS[rules]
    rules.hand_size(players)  # validates the player count
    return Match(rules, players, (0,) * players)
