"""The provably fair deal, the replay of a finished round and the table's history.

Rounds here are dealt by the real service (a committed random deal) and played with random
legal moves by HTTP, as people do; every message sent over the channel layer and every page
a viewer loads is scanned for the deal's secret while the round is in play.
"""

from __future__ import annotations

import hashlib
import random
import re
from html import unescape
from typing import Any

import pytest
from channels.layers import get_channel_layer

import ocholoco
from tables.audiences import round_history
from tables.models import Table, TableRound

from .helpers import Person, board, match_of, panel, round_of, started

pytestmark = pytest.mark.django_db

COMMITMENT = re.compile(r'data-deal-commitment="([0-9a-f]*)"')
REVEAL = re.compile(r'data-deal-reveal="([^"]*)"')


class Pushes:
    """Stands in for the channel layer's `group_send`: keeps every html sent, sends nothing."""

    def __init__(self) -> None:
        self.html: list[str] = []

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        self.html.append(message.get("html", ""))


@pytest.fixture
def pushes(monkeypatch: pytest.MonkeyPatch) -> Pushes:
    record = Pushes()
    monkeypatch.setattr(get_channel_layer(), "group_send", record.group_send)
    return record


def secrets_of(record: TableRound) -> list[str]:
    """What must never reach a viewer while the round is played: the salt, the reveal, and
    the deck's order (any five cards in a row of it, however they are written)."""
    deal = ocholoco.Deal.parse(record.reveal)
    codes = [str(card) for card in deal.deck]
    runs = [codes[i : i + 5] for i in range(len(codes) - 4)]
    return [deal.salt, record.reveal, *(sep.join(run) for run in runs for sep in (",", " "))]


def assert_secret_kept(html: str, record: TableRound, where: str) -> None:
    for secret in secrets_of(record):
        assert secret not in html, f"{where} shows the deal's secret {secret[:40]!r}"
    assert "data-deal-reveal" not in html, where


def play_to_the_end(table: Table, people: list[Person], rng: random.Random, capture, look=None):
    """Random legal moves by the player to move (a card whenever one can be played, so that
    rounds are short), until the round is over."""
    by_seat = {number: person for number, person in enumerate(people)}
    while True:
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            return
        state = ocholoco.from_json(table.round_state)
        person = by_seat[table.match_seats[state.turn]]
        moves = ocholoco.legal_moves(state)
        plays = [m for m in moves if isinstance(m, ocholoco.Play)]
        move = ocholoco.move_to_str(rng.choice(plays or moves))
        with capture(execute=True):
            response = person.move(table, move)
        assert response.status_code == 200, response.content.decode()[:300]
        if look is not None:
            look(response.content.decode())


def test_the_deal_is_committed_before_any_card_is_shown_and_never_leaks_while_it_is_played(
    pushes, django_capture_on_commit_callbacks
):
    rng = random.Random(3)
    host, guest, spectator = Person("Ana"), Person("Beto"), Person()
    table = host.open_table("especiales")
    guest.join(table)
    with django_capture_on_commit_callbacks(execute=True):
        host.act(table, "empezar")
    record = TableRound.objects.get(table=table)
    first_board = next(html for html in pushes.html if 'id="board"' in html)
    # The board that first shows the dealt table already carries the commitment.
    assert COMMITMENT.search(first_board)[1] == record.commitment
    assert hashlib.sha256(record.reveal.encode()).hexdigest() == record.commitment
    assert record.commitment[:8] in first_board

    pages = []

    def look(answer: str) -> None:
        pages.append(answer)
        table.refresh_from_db()
        if table.status == Table.Status.PLAYING and len(pages) % 10 == 0:
            for viewer in (host, guest, spectator):
                pages.append(viewer.get(f"/mesa/{table.code}/").content.decode())
                pages.append(viewer.get(f"/mesa/{table.code}/registro/").content.decode())
                pages.append(viewer.get(f"/mesa/{table.code}/historial/").content.decode())
                response = viewer.get(f"/mesa/{table.code}/ronda/{record.pk}/")
                assert response.status_code == 404
                assert "todavía se está jugando" in response.content.decode()
                assert viewer.get(f"/mesa/{table.code}/ronda/{record.pk}/justo/").status_code == 404

    before_end = len(pushes.html)
    play_to_the_end(table, [host, guest], rng, django_capture_on_commit_callbacks, look)
    table.refresh_from_db()
    final = table.round_state

    # Every push and page up to the last move's (which ends the round) kept the secret.
    in_play = pushes.html[:before_end] + pages[:-1]
    assert len(in_play) > 20
    for n, html in enumerate(in_play):
        assert_secret_kept(html, record, f"output {n}")
    assert ocholoco.from_json(final).finished


def test_the_reveal_hashes_to_the_commitment_and_deals_the_hands_that_were_played(
    django_capture_on_commit_callbacks,
):
    table, (ana, beto) = started("Ana", "Beto", robots=1, rules="especiales")
    dealt = round_of(table)
    record = TableRound.objects.get(table=table)
    deal = ocholoco.Deal.parse(record.reveal)

    assert table.deal_commitment == record.commitment == ocholoco.commitment_of(record.reveal)
    assert len(deal.salt) == 32
    assert sorted(deal.deck) == sorted(ocholoco.deck_cards(table.rules, 3))
    again = ocholoco.new_round(table.rules, 3, record.dealer, deck=deal.deck)
    assert again.hands == dealt.hands and again.stock == dealt.stock and again.top == dealt.top
    assert record.seats == table.match_seats and (record.match_number, record.number) == (1, 1)


def test_the_summary_carries_the_exact_reveal_once_the_round_is_over(
    pushes, django_capture_on_commit_callbacks
):
    table, people = started("Ana", "Beto")
    record = TableRound.objects.get(table=table)
    play_to_the_end(table, people, random.Random(5), django_capture_on_commit_callbacks)
    record.refresh_from_db()

    last_panels = [html for html in pushes.html[-3:] if 'id="panel"' in html]
    assert last_panels
    for html in last_panels:
        assert unescape(REVEAL.search(panel(html))[1]) == record.reveal
        assert f'href="ronda/{record.pk}/"' in html  # "Ver la ronda", at the page's address
        assert "¿Fue justo el reparto?" in html
    page = people[0].get(f"/mesa/{table.code}/", follow=True).content.decode()
    assert unescape(REVEAL.search(panel(page))[1]) == record.reveal
    assert COMMITMENT.search(board(page))[1] == record.commitment
    log = people[1].get(f"/mesa/{table.code}/registro/").content.decode()
    assert f'href="ronda/{record.pk}/"' in log and record.reveal in unescape(log)
    assert record.finished and record.winners and record.points


def test_a_replay_ends_where_the_round_ended_and_shows_every_hand(
    django_capture_on_commit_callbacks,
):
    table, people = started("Ana", "Beto", "Caro", rules="especiales")
    play_to_the_end(table, people, random.Random(7), django_capture_on_commit_callbacks)
    record = TableRound.objects.get(table=table)
    end = round_of(table)

    states = round_history._replayed(record)
    assert states[-1] == end
    moves = table.events.filter(kind="move").count()
    assert len(states) == moves + 1

    spectator = Person()
    last = spectator.get(f"/mesa/{table.code}/ronda/{record.pk}/?jugada={moves}").content.decode()
    assert f"Jugada {moves} de {moves}" in last
    for hand in end.hands:  # the hands left at the end, face up
        for card in hand:
            assert f'data-card="{card}"' in last
    start = spectator.get(f"/mesa/{table.code}/ronda/{record.pk}/").content.decode()
    for hand in states[0].hands:
        assert all(f'data-card="{card}"' in start for card in hand)
    assert (
        "Reparto" in start and 'data-replay="next"' in start and 'data-replay="prev"' not in start
    )


def test_replay_steps_come_as_a_fragment_to_htmx_and_bad_steps_are_refused_in_spanish(
    django_capture_on_commit_callbacks,
):
    table, people = started("Ana", "Beto")
    play_to_the_end(table, people, random.Random(2), django_capture_on_commit_callbacks)
    record = TableRound.objects.get(table=table)
    url = f"/mesa/{table.code}/ronda/{record.pk}/"
    viewer = Person()

    fragment = viewer.get(url + "?jugada=1", headers={"HX-Request": "true"}).content.decode()
    assert fragment.lstrip().startswith('<section id="replay"') and "Jugada 1 de" in fragment
    beyond = viewer.get(url + "?jugada=100000").content.decode()
    assert 'data-replay="next"' not in beyond  # past the end: the end
    for bad in ("-1", "uno"):
        response = viewer.get(url + f"?jugada={bad}")
        assert response.status_code == 400 and "Esa jugada no existe" in response.content.decode()
    assert viewer.get(f"/mesa/{table.code}/ronda/{record.pk + 999}/").status_code == 404
    assert viewer.get(f"/mesa/otra/ronda/{record.pk}/").status_code == 404


def test_no_replay_of_a_round_in_play_is_served_to_anyone():
    table, (ana, beto) = started("Ana", "Beto")
    record = TableRound.objects.get(table=table)
    for viewer in (ana, beto, Person()):
        for path in (
            f"ronda/{record.pk}/",
            f"ronda/{record.pk}/justo/",
            f"ronda/{record.pk}/?jugada=1",
        ):
            response = viewer.get(f"/mesa/{table.code}/{path}")
            assert response.status_code == 404
            assert record.reveal not in response.content.decode()
    assert round_history.finished_round(table, record.pk) is None
    assert round_history.round_proof(table) is None


def test_the_fairness_page_explains_the_check_and_gives_the_command(
    django_capture_on_commit_callbacks,
):
    table, people = started("Ana", "Beto")
    play_to_the_end(table, people, random.Random(4), django_capture_on_commit_callbacks)
    record = TableRound.objects.get(table=table)
    html = unescape(Person().get(f"/mesa/{table.code}/ronda/{record.pk}/justo/").content.decode())

    assert "¿Fue justo el reparto?" in html and record.commitment in html
    assert f"printf '%s' '{record.reveal}' | sha256sum" in html
    dealt = round_history._replayed(record)[0]
    for hand in dealt.hands:
        assert all(f'data-card="{card}"' in html for card in hand)
    assert "Rebarajada" not in html  # classic rules never reshuffle


def test_a_reshuffle_is_ordered_by_the_committed_salt_and_the_fairness_page_shows_it(
    django_capture_on_commit_callbacks,
):
    table, people = started("Ana", "Beto", rules="libro")
    record = TableRound.objects.get(table=table)
    salt = ocholoco.Deal.parse(record.reveal).salt
    assert round_of(table).salt == salt
    # Draw-one: draw and pass (or play the drawn card) until the stock is rebuilt.
    rng = random.Random(1)
    while not any(e.kind == "reshuffle" for e in round_of(table).history):
        state = round_of(table)
        person = people[table.match_seats[state.turn]]
        moves = ocholoco.legal_moves(state)
        move = ocholoco.Draw() if ocholoco.Draw() in moves else rng.choice(moves)
        with django_capture_on_commit_callbacks(execute=True):
            assert person.move(table, ocholoco.move_to_str(move)).status_code == 200
    play_to_the_end(table, people, rng, django_capture_on_commit_callbacks)
    record.refresh_from_db()  # over now: only a finished round is replayed

    context = round_history.round_fairness(record)
    first = context["reshuffles"][0]
    assert first["number"] == 1
    pile = [ocholoco.Card.parse(code) for code in first["pile"]]
    assert first["order"] == [str(c) for c in ocholoco.reshuffle_order(salt, 1, pile)]
    states = round_history._replayed(record)
    after = next(s for s in states if any(e.kind == "reshuffle" for e in s.history))
    drawn = [e.count for e in after.history if e.kind in ("draw", "penalty", "caught")][-1]
    assert [str(c) for c in after.stock] == first["order"][drawn:]
    html = Person().get(f"/mesa/{table.code}/ronda/{record.pk}/justo/").content.decode()
    assert "Rebarajada 1" in html and " ".join(first["order"]) in html


def test_the_history_lists_every_round_and_the_matches_before_a_rematch(
    django_capture_on_commit_callbacks,
):
    table, people = started("Ana", "Beto")
    rng = random.Random(9)
    play_to_the_end(table, people, rng, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        people[0].act(table, "siguiente")
    # The second round ends the match: everybody near the target first.
    table.refresh_from_db()
    match = match_of(table)
    table.match_state = ocholoco.to_json(
        ocholoco.Match(match.rules, 2, (match.target - 1,) * 2, match.round_number, match.dealer)
    )
    table.save()
    play_to_the_end(table, people, rng, django_capture_on_commit_callbacks)
    table.refresh_from_db()
    assert table.status == Table.Status.MATCH_OVER
    with django_capture_on_commit_callbacks(execute=True):
        people[1].act(table, "revancha")

    rounds = list(TableRound.objects.filter(table=table).order_by("id"))
    assert [(r.match_number, r.number, r.finished) for r in rounds] == [
        (1, 1, True), (1, 2, True), (2, 1, False),
    ]  # fmt: skip
    table.refresh_from_db()
    history = round_history.table_history(table)
    assert [m["number"] for m in history] == [2, 1]
    assert history[0]["over"] is False and history[1]["over"] is True
    html = Person().get(f"/mesa/{table.code}/historial/").content.decode()
    assert "Partida 1" in html and "Partida 2" in html and "en juego" in html
    for done in rounds[:2]:
        assert f"/mesa/{table.code}/ronda/{done.pk}/" in html
        names = {"0": "Ana", "1": "Beto"}
        winner = names[str(done.winners[0])]
        assert f"gana {winner}" in html or "gana Ana y Beto" in html
    assert f"/mesa/{table.code}/ronda/{rounds[2].pk}/" not in html
    page = people[0].get(f"/mesa/{table.code}/", follow=True).content.decode()
    assert 'href="historial/"' in page
