"""People with their own browsers, tables in the lobby or in play, and exact positions."""

from __future__ import annotations

import itertools
import re
from typing import Any

from django.conf import settings
from django.test import Client

import ocholoco
from tables.models import Table, TableEvent
from tables.state import clock
from tables.state.seat_secrets import remember_seat, seat_secret

# A scripted two-player deal (clásico): Ana opens the table (seat 0, the dealer of round 1)
# and Beto, in seat 1, plays first, on a 9♥ with 4♦ then K♣ on top of the stock.
ANA_HAND = ["3H", "4H", "5S", "9C", "KD", "JS", "2C"]
BETO_HAND = ["5H", "6H", "7S", "10C", "QD", "AS", "3C"]


_addresses = itertools.count(1)


def new_address() -> str:
    """An address of a person's own (on the loopback range: nothing is ever sent to it)."""
    n = next(_addresses)
    return f"127.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}"


class Person:
    """Someone with their own browser (a Django test client and its signed-cookie session),
    connecting from an address of their own unless told one (`address`)."""

    def __init__(self, name: str = "", *, address: str | None = None) -> None:
        self.name = name
        self.address = address or new_address()
        self.client = Client(REMOTE_ADDR=self.address)

    def get(self, path: str, **extra: Any):
        return self.client.get(path, **extra)

    def post(self, path: str, data: dict[str, Any] | None = None, *, htmx: bool = True):
        """A form post; with htmx (the default) a refusal answers 409 with its message."""
        headers = {"HX-Request": "true"} if htmx else {}
        return self.client.post(path, data or {}, headers=headers)

    def secret(self, table: Table) -> str | None:
        return seat_secret(self.client.session, table)

    def claim(self, table: Table, secret: str) -> None:
        """Put `secret` in this browser's session as its seat at `table` (a forged claim)."""
        session = self.client.session
        remember_seat(session, table, secret)
        session.save()
        self.client.cookies[settings.SESSION_COOKIE_NAME] = session.session_key

    def open_table(self, rules: str = "clasico") -> Table:
        response = self.post("/abrir/", {"name": self.name, "rules": rules}, htmx=False)
        assert response.status_code == 302, response.content.decode()
        return Table.objects.get(player_code=response.url.strip("/").split("/")[-1])

    def join(self, table: Table):
        return self.post(f"/mesa/{table.code}/sentarse/", {"name": self.name})

    def act(self, table: Table, action: str, **data: Any):
        """POST /mesa/<code>/<action>/ (jugar, empezar, siguiente, robot...) for this person,
        at the table's version now (as the page would send it) unless one is given."""
        table.refresh_from_db()
        data.setdefault("version", table.version)
        return self.post(f"/mesa/{table.code}/{action}/", data)

    def move(self, table: Table, move: str, version: int | None = None):
        """POST /mesa/<code>/jugar/ with the version on the table now, unless one is given."""
        table.refresh_from_db()
        version = table.version if version is None else version
        return self.post(f"/mesa/{table.code}/jugar/", {"move": move, "version": version})


def lobby(*names: str, robots: int = 0, rules: str = "clasico") -> tuple[Table, list[Person]]:
    """A table opened by the first person, the others seated in order, robots after them."""
    host, *guests = [Person(name) for name in names]
    table = host.open_table(rules)
    for guest in guests:
        assert guest.join(table).status_code == 200
    for _ in range(robots):
        assert host.act(table, "robot").status_code == 200
    table.refresh_from_db()
    return table, [host, *guests]


def started(*names: str, robots: int = 0, rules: str = "clasico") -> tuple[Table, list[Person]]:
    table, people = lobby(*names, robots=robots, rules=rules)
    assert people[0].act(table, "empezar").status_code == 200
    table.refresh_from_db()
    return table, people


def round_of(table: Table) -> ocholoco.Round:
    table.refresh_from_db()
    return ocholoco.from_json(table.round_state)


def match_of(table: Table) -> ocholoco.Match:
    table.refresh_from_db()
    return ocholoco.from_json(table.match_state)


def set_round(table: Table, state: ocholoco.Round, match: ocholoco.Match | None = None) -> None:
    """Put a table in play in an exact position (a test fixture, not a move: no event). Like
    every change, it bumps the version: what was rendered before is out of date."""
    table.refresh_from_db()
    table.round_state = ocholoco.to_json(state)
    if match is not None:
        table.match_state = ocholoco.to_json(match)
    table.status = Table.Status.PLAYING
    table.version += 1
    table.save()


def position(
    rules: str,
    hands: list[list[str]],
    top: str,
    *,
    stock: tuple[str, ...] = (),
    turn: int = 0,
    dealer: int = 0,
) -> ocholoco.Round:
    """A round in play with exactly these cards (the rest out of play), through its JSON form.

    For positions no deal reaches in one step (a last card, an empty stock); a deal's start is
    `ocholoco.new_round(..., deck=ocholoco.stacked_deck(...))`.
    """
    return ocholoco.from_json(
        {
            "type": "round", "rules": rules, "players": len(hands), "dealer": dealer,
            "hands": hands, "stock": list(stock), "top": top,
            "active_suit": ocholoco.Card.parse(top).suit, "turn": turn, "direction": 1,
            "pending_draw": 0, "pending_rank": None, "idle_turns": 0, "finished": False,
            "blocked": False, "winners": [], "round_points": [0] * len(hands), "history": [],
        }
    )  # fmt: skip


def fingerprint(table: Table) -> tuple:
    """Everything a refused request must leave as it was."""
    table = Table.objects.get(pk=table.pk)
    seats = sorted(table.seats.values_list("number", "name", "kind", "secret_hash", "abandoned"))
    return (
        table.code, table.version, table.status, table.host_seat, table.match_seats,
        table.match_state, table.round_state, TableEvent.objects.filter(table=table).count(),
        seats,
    )  # fmt: skip


def notice(response) -> str:
    """The refusal's message as htmx shows it (409, in the notice area)."""
    assert response.status_code == 409, response.status_code
    return response.content.decode()


def deal(table: Table, hands: list[list[str]], top: str, stock: tuple[str, ...] = ()) -> None:
    """Replace the table's current round by a scripted deal of the same match and dealer."""
    match = match_of(table)
    deck = ocholoco.stacked_deck(match.rules, hands, top, stock, dealer=match.dealer)
    set_round(table, match.deal(deck=deck))


def page(person: Person, table: Table) -> str:
    """The table page as `person` sees it, by the invitation (a seated person is sent on to
    the players' address)."""
    table.refresh_from_db()
    response = person.get(f"/mesa/{table.code}/", follow=True)
    assert response.status_code == 200
    return response.content.decode()


def cards_shown(html: str) -> set[str]:
    return set(re.findall(r'data-card="([^"]+)"', html))


def panel(html: str) -> str:
    """The panel fragment of a page or a response (the hand, the buttons, the summary)."""
    start = html.index('<section id="panel"')
    return html[start : html.index("</section>", start)]


def board(html: str) -> str:
    start = html.index('<section id="board"')
    return html[start : html.index("</section>", start)]


def version_shown(html: str) -> int:
    """The table version a fragment (or the first fragment of a page) shows."""
    return int(re.search(r'id="(?:board|panel)"[^>]*data-version="(\d+)"', html).group(1))


def robot_play(*, table_id: int, version: int) -> bool:
    """What a task worker does with the robot task queued at `version`: run it, now."""
    from bots.tasks import robot_turn

    return robot_turn.call(table_id=table_id, version=version, due=clock.now().isoformat())


def queued_turns(table: Table) -> list[tuple[int, float]]:
    """(version, seconds it was queued to wait) of every robot task queued for `table`, oldest
    first (counted from when it was queued: how long a busy machine took to look does not
    count)."""
    from django_tasks_db.models import DBTaskResult

    from bots.tasks import robot_turn

    rows = DBTaskResult.objects.filter(task_path=robot_turn.module_path).order_by("enqueued_at")
    turns = []
    for row in rows:
        kwargs = row.args_kwargs["kwargs"]
        if kwargs["table_id"] == table.pk:
            turns.append((kwargs["version"], (row.run_after - row.enqueued_at).total_seconds()))
    return turns


def run_queued(task) -> int:
    """Run every queued call of `task` now, oldest first, as a worker would; returns how many."""
    from django_tasks_db.models import DBTaskResult

    rows = list(DBTaskResult.objects.filter(task_path=task.module_path).order_by("enqueued_at"))
    for row in rows:
        task.call(*row.args_kwargs["args"], **row.args_kwargs["kwargs"])
        row.delete()
    return len(rows)
