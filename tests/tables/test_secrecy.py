"""No fragment or page sent to a viewer contains another seat's cards, over whole matches.

People (by HTTP, choosing random legal moves) and robots (their task, run by the test) play
complete matches, 2 to 4 players, both rule sets, several seeds; one person leaves halfway.
Everything that reaches a viewer is checked against the cards in the other hands at that moment:
- every message sent over the channel layer (the table's fragments, the chat's...), by the
  audience its group reaches (a seat's group: that seat; any other group: anyone);
- every answer to a person's POST, and the page each person and a spectator load.
A card may show (`data-card="..."`) if it is in the viewer's own hand, on the discard pile, or
once the round is over (the end-of-round table shows every hand left).
"""

from __future__ import annotations

import dataclasses
import random
import re
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

import ocholoco
from tables.changes import services
from tables.models import Table

from .helpers import Person, cards_shown, lobby, robot_play

pytestmark = pytest.mark.django_db

SEAT_GROUP = re.compile(r"^table-(\d+)-seat-(\d+)$")  # one seat; any other group: anyone
VERSION = re.compile(r'data-version="(\d+)"')
LOOK_EVERY = 20  # moves between two reloads of every page
# After the first round every score is set this far from the target, so that a match is a
# few rounds, not a dozen: what a viewer is shown of a round does not depend on the scores.
HEAD_START = 30


class Hands:
    """What each viewer may not see at each version of the table, read once per version."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.by_version: dict[int, tuple[list[int], tuple[set[str], ...]] | None] = {}
        self.latest = table.version

    def hidden_from(self, html: str, seat: int | None) -> set[str]:
        """The cards the viewer of `seat` (None: a spectator) may not see in `html`.

        A fragment names its version; other html (the chat's) is of the latest one seen.
        """
        version = int(shown[1]) if (shown := VERSION.search(html)) else self.latest
        if version not in self.by_version:
            table = Table.objects.get(pk=self.table.pk)
            assert table.version == version  # sent as soon as it was made, never an old one
            state = ocholoco.from_json(table.round_state) if table.round_state else None
            self.by_version[version] = (
                None if state is None or state.finished
                else (table.match_seats, tuple({str(c) for c in hand} for hand in state.hands))
            )  # fmt: skip
            self.latest = max(self.latest, version)
        known = self.by_version[version]
        if known is None:
            return set()
        seats, hands = known
        others = (hand for number, hand in zip(seats, hands, strict=True) if number != seat)
        return set().union(*others)

    def assert_hidden(self, html: str, seat: int | None, where: str) -> None:
        shown = cards_shown(html)  # an answer may be empty (a redirect, a reload)
        leaked = shown and shown & self.hidden_from(html, seat)
        assert not leaked, f"{where} shows {sorted(leaked)} to seat {seat}"


class Seeded:
    """Stands in for the `random` module in the services: deals and robots follow a seed."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def SystemRandom(self) -> random.Random:  # noqa: N802 - the name it replaces
        return self.rng

    def Random(self) -> random.Random:  # noqa: N802
        return self.rng


def near_the_target(table: Table) -> None:
    table.refresh_from_db()
    match = ocholoco.from_json(table.match_state)
    totals = (match.target - HEAD_START,) * match.players
    table.match_state = ocholoco.to_json(dataclasses.replace(match, totals=totals))
    table.save()


class Game:
    """One match at one table, every output checked as it is produced."""

    def __init__(self, people: list[Person], table: Table, rng: random.Random) -> None:
        self.people, self.table, self.rng = people, table, rng
        self.spectator = Person()
        self.hands = Hands(table)
        self.seats = {id(p): number for number, p in enumerate(people)}  # seated in order
        self.left: set[int] = set()  # seats whose person left: nobody may see their hand
        self.checked = 0
        self.rounds = 1

    def seat_of(self, person: Person) -> int | None:
        return self.seats.get(id(person))

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        """Stands in for the channel layer's `group_send`: nothing is sent, all is checked."""
        await sync_to_async(self.heard)(group, message)

    def heard(self, group: str, message: dict[str, Any]) -> None:
        """A message on its way to the group's audience."""
        seat = int(match[2]) if (match := SEAT_GROUP.match(group)) else None
        if seat in self.left:
            seat = None
        self.hands.assert_hidden(message.get("html", ""), seat, f"a message to {group}")
        self.checked += 1

    def answered(self, person: Person, response: Any, what: str) -> None:
        assert response.status_code == 200, (what, response.content.decode()[:500])
        self.hands.assert_hidden(response.content.decode(), self.seat_of(person), what)
        self.checked += 1

    def look(self) -> None:
        """Everyone reloads the page: the people (seated or not) and a spectator."""
        for viewer in [*self.people, self.spectator]:
            self.answered(viewer, viewer.get(f"/mesa/{self.table.code}/", follow=True), "the page")

    def person_at(self, seat: int) -> Person | None:
        return next((p for p in self.people if self.seat_of(p) == seat), None)

    def step(self, capture) -> None:
        """The player to move moves: a person posts a random legal move, a robot is run."""
        table = self.table
        table.refresh_from_db()
        state = ocholoco.from_json(table.round_state)
        person = self.person_at(table.match_seats[state.turn])
        with capture(execute=True):
            if person is None:
                assert robot_play(table_id=table.pk, version=table.version)
            else:
                move = ocholoco.move_to_str(self.rng.choice(ocholoco.legal_moves(state)))
                self.answered(person, person.move(table, move), f"the answer to {move}")

    def play(self, capture, *, leave_after: int) -> None:
        """Play until the match is over, the person of seat 1 leaving after some moves."""
        moves = 0
        while True:
            self.table.refresh_from_db()
            status = self.table.status
            if status == Table.Status.PLAYING:
                self.step(capture)
                moves += 1
                if moves == leave_after and (leaver := self.person_at(1)):
                    with capture(execute=True):
                        response = leaver.act(self.table, "abandonar")
                    self.left.add(self.seats.pop(id(leaver)))  # a spectator from now on
                    self.answered(leaver, response, "abandonar")
                if moves % LOOK_EVERY == 0:
                    self.look()
            elif status == Table.Status.ROUND_OVER:
                self.look()
                if self.rounds == 1:
                    near_the_target(self.table)
                self.rounds += 1
                with capture(execute=True):
                    host = self.person_at(self.table.host_seat)
                    self.answered(host, host.act(self.table, "siguiente"), "siguiente ronda")
            else:
                assert status == Table.Status.MATCH_OVER
                self.look()
                with capture(execute=True):
                    host = self.person_at(self.table.host_seat)
                    self.answered(host, host.act(self.table, "revancha"), "revancha")
                self.look()
                return


@pytest.mark.parametrize(
    ("rules", "people", "robots", "seed"),
    [
        ("clasico", 2, 0, 1),
        ("clasico", 2, 1, 2),
        ("clasico", 2, 2, 3),
        ("especiales", 1, 1, 4),
        ("especiales", 3, 0, 5),
        ("especiales", 4, 0, 6),
    ],
)
def test_no_viewer_is_ever_sent_another_seats_cards_over_a_whole_match(
    rules, people, robots, seed, monkeypatch, django_capture_on_commit_callbacks
):
    rng = random.Random(seed)
    monkeypatch.setattr(services, "random", Seeded(seed))
    names = ["Ana", "Beto", "Caro", "Dani"][:people]
    table, persons = lobby(*names, robots=robots, rules=rules)
    game = Game(persons, table, rng)
    monkeypatch.setattr(get_channel_layer(), "group_send", game.group_send)

    with django_capture_on_commit_callbacks(execute=True):
        game.answered(persons[0], persons[0].act(table, "empezar"), "empezar")
    game.look()
    game.play(django_capture_on_commit_callbacks, leave_after=rng.randrange(5, 40))

    assert game.rounds >= 2 and game.checked > 100
