"""The game log's lines (issue 41): what the board of each version carries, and what a page
that missed some versions reads from `mesa/<code>/lineas/`."""

from __future__ import annotations

import re

import pytest

from tables.live.frames import frames_newer

from .helpers import ANA_HAND, BETO_HAND, deal, started

pytestmark = pytest.mark.django_db

LINE = re.compile(
    r'<li data-line="(\d+)\.(\d+)" data-seat="(\d*)"(?: data-you="([^"]*)")?>([^<]*)</li>'
)


def _lines(html: str) -> list[tuple[int, int, str, str, str]]:
    return [(int(a), int(b), seat, you, text) for a, b, seat, you, text in LINE.findall(html)]


def test_a_moves_board_carries_its_lines_said_to_the_mover_and_to_the_others(
    django_capture_on_commit_callbacks,
):
    table, (ana, beto) = started("Ana", "Beto")
    deal(table, [ANA_HAND, BETO_HAND], "9H")
    table.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):  # the frames, rendered at the commit
        beto.move(table, "5H", table.version)
    pushed = frames_newer(table.pk, table.version, "es").board  # what the pushes carry
    ((_, _, seat, you, text),) = _lines(pushed)
    assert (seat, you, text) == ("1", "Jugaste el 5 de corazones.", "Beto jugó el 5 de corazones.")


def test_a_page_behind_reads_every_line_since_its_version_in_order():
    table, (ana, beto) = started("Ana", "Beto")
    deal(table, [ANA_HAND, BETO_HAND], "9H")
    table.refresh_from_db()
    since = table.version
    beto.move(table, "5H", since)
    ana.move(table, "3H", since + 1)
    html = ana.get(f"/mesa/{table.code}/lineas/?desde={since}").content.decode()
    lines = _lines(html)
    assert [text for *_, text in lines] == [
        "Beto jugó el 5 de corazones.", "Ana jugó el 3 de corazones.",
    ]
    assert [(a, b) for a, b, *_ in lines] == sorted((a, b) for a, b, *_ in lines)
    assert f'data-version="{since + 2}"' in html
    # Nothing newer than the table: an empty list, not an error.
    html = ana.get(f"/mesa/{table.code}/lineas/?desde=99999999999999999999").content.decode()
    assert _lines(html) == []


@pytest.mark.parametrize("since", ["", "abc", "-3"])
def test_a_bad_version_is_refused_in_spanish(since):
    table, (ana, _) = started("Ana", "Beto")
    response = ana.get(f"/mesa/{table.code}/lineas/?desde={since}")
    assert response.status_code == 400
    assert "versión" in response.content.decode()


def test_the_winner_of_a_round_is_told_it_in_the_second_person():
    table, (ana, beto) = started("Ana", "Beto")
    deal(table, [ANA_HAND, BETO_HAND], "9H")
    table.refresh_from_db()
    since = table.version
    table.events.create(
        version=since + 1, kind="round_over", seat=None,
        data={"points": {"1": 12, "0": 0}, "scoring": "points"},
    )
    lines = _lines(ana.get(f"/mesa/{table.code}/lineas/?desde={since}").content.decode())
    assert [(seat, you, text) for *_, seat, you, text in lines] == [
        ("1", "Ganaste la ronda con 12 puntos.", "Beto ganó la ronda con 12 puntos."),
    ]


def test_each_events_lines_are_numbered_from_zero_as_the_pushes_number_them():
    table, (ana, _) = started("Ana", "Beto")
    lines = _lines(ana.get(f"/mesa/{table.code}/lineas/?desde=0").content.decode())
    by_event: dict[int, list[int]] = {}
    for event, n, *_ in lines:
        by_event.setdefault(event, []).append(n)
    assert all(numbers == list(range(len(numbers))) for numbers in by_event.values())
    assert any(len(numbers) > 1 for numbers in by_event.values())  # a round's start, its card
