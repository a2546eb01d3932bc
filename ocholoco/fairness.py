"""A deal anyone can check: the committed deck and salt, and the reshuffles they fix.

A round is dealt from a `Deal` (a random salt and the whole deck). The table shows the SHA-256
of its one-line reveal text when it deals and the text once the round is over, so anyone can
check with ``printf '%s' '<text>' | sha256sum`` that the deck played is the deck committed to.
The salt also orders every reshuffle (`reshuffle_key`): unpredictable without it, checkable with it.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card, copy_labels
from .rules import RuleSet, deck_cards

REVEAL_PREFIX = "ocholoco-reparto-1"
SALT_BYTES = 16
_REVEAL = re.compile(rf"^{REVEAL_PREFIX} sal=([0-9a-f]{{{2 * SALT_BYTES}}}) mazo=([0-9A-Z,]+)$")


@dataclass(frozen=True)
class Deal:
    """The salt and the deck (top first) a round is dealt from."""

    salt: str
    deck: tuple[Card, ...]

    @property
    def reveal(self) -> str:
        """The text the commitment is the hash of (secret until the round is over): one line
        of ASCII, ``ocholoco-reparto-1 sal=<32 hex digits> mazo=10H,8S,AS,...,JK``, the cards
        as `Card` writes them, top first (two copies of a card, or two jokers, written twice)."""
        return f"{REVEAL_PREFIX} sal={self.salt} mazo={','.join(map(str, self.deck))}"

    @property
    def commitment(self) -> str:
        return commitment_of(self.reveal)

    @staticmethod
    def parse(text: str) -> Deal:
        """The deal a reveal text stands for; ValueError if it is not one."""
        match = _REVEAL.match(text)
        if match is None:
            raise ValueError("not a deal's reveal text")
        return Deal(match[1], tuple(Card.parse(code) for code in match[2].split(",")))


def commitment_of(text: str) -> str:
    """The hex SHA-256 of a reveal text (UTF-8; the text is ASCII)."""
    return hashlib.sha256(text.encode()).hexdigest()


def shuffled_deal(rules: RuleSet, players: int, rng: random.Random) -> Deal:
    """A new deal for ``players`` under ``rules``: the rule set's cards shuffled by ``rng``
    (the table uses `random.SystemRandom`) and a salt of `SALT_BYTES` random bytes."""
    deck = list(deck_cards(rules, players))
    rng.shuffle(deck)
    return Deal(f"{rng.getrandbits(8 * SALT_BYTES):0{2 * SALT_BYTES}x}", tuple(deck))


def reshuffle_key(salt: str, number: int, label: str) -> bytes:
    """What orders a card (``label``: its code, ``#2`` for a second copy) in the
    ``number``-th reshuffle of a round (n = 1, 2...): lowest first, the top of the new stock. The
    copies are the same card, so the order of codes does not depend on which copy is which."""
    return hashlib.sha256(f"{salt}:{number}:{label}".encode()).digest()


def reshuffle_permutation(salt: str, number: int, cards: Sequence[Card]) -> list[int]:
    """The indexes of ``cards`` (the discard pile but its top) in the order of the new stock,
    top first."""
    labels = copy_labels(list(cards))
    return sorted(range(len(labels)), key=lambda i: reshuffle_key(salt, number, labels[i]))


def reshuffle_order(salt: str, number: int, cards: Sequence[Card]) -> list[Card]:
    """The new stock (top first) that the ``number``-th reshuffle makes of ``cards``."""
    return [cards[i] for i in reshuffle_permutation(salt, number, cards)]
