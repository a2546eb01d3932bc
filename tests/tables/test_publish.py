"""What one change sends over the channel layer: once per audience, after it is committed."""

from __future__ import annotations

import pytest

from tables import services

from .helpers import (
    ANA_HAND,
    BETO_HAND,
    cards_shown,
    deal,
    fingerprint,
    round_of,
    started,
    version_shown,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def three(sent):
    """Ana and Beto (people) and a robot in seat 2, in play; nothing sent yet."""
    table, (ana, beto) = started("Ana", "Beto", robots=1)
    table.refresh_from_db()
    sent.clear()
    return table, ana, beto


def groups(sent: list[tuple[str, str]]) -> list[str]:
    return [group for group, _ in sent]


def test_a_move_is_rendered_once_per_audience_and_sent_to_each_group_once(
    three, sent, django_capture_on_commit_callbacks
):
    table, ana, beto = three
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        services.table_play_move(
            table_id=table.pk, secret=beto.secret(table), move="draw", version=table.version
        )

    assert len(callbacks) == 1
    assert groups(sent) == [
        f"table-{table.pk}", f"table-{table.pk}-watchers",
        f"table-{table.pk}-seat-0", f"table-{table.pk}-seat-1",
    ]  # fmt: skip
    table.refresh_from_db()
    assert {version_shown(html) for _, html in sent} == {table.version}


def test_each_seat_is_sent_its_own_hand_and_the_watchers_none(
    three, sent, django_capture_on_commit_callbacks
):
    table, ana, beto = three
    with django_capture_on_commit_callbacks(execute=True):
        services.table_play_move(
            table_id=table.pk, secret=beto.secret(table), move="draw", version=table.version
        )
    state = round_of(table)
    hands = [{str(c) for c in hand} for hand in state.hands]
    by_group = dict(sent)
    assert cards_shown(by_group[f"table-{table.pk}-seat-0"]) == hands[0]
    assert cards_shown(by_group[f"table-{table.pk}-seat-1"]) == hands[1]
    assert cards_shown(by_group[f"table-{table.pk}-watchers"]) == set()
    assert cards_shown(by_group[f"table-{table.pk}"]) == {str(state.top)}


def test_a_refused_change_sends_nothing(three, sent, django_capture_on_commit_callbacks):
    table, ana, _ = three
    before = fingerprint(table)
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(services.TableError),
    ):
        services.table_play_move(
            table_id=table.pk, secret=ana.secret(table), move="draw", version=table.version
        )
    assert callbacks == [] and sent == [] and fingerprint(table) == before


def test_the_seat_of_a_person_who_left_is_sent_the_watchers_panel(
    sent, django_capture_on_commit_callbacks
):
    table, (ana, beto) = started("Ana", "Beto")
    deal(table, [ANA_HAND, BETO_HAND], top="9H")
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.seat_abandon(table_id=table.pk, secret=beto.secret(table))

    by_group = dict(sent)
    assert by_group[f"table-{table.pk}-seat-1"] == by_group[f"table-{table.pk}-watchers"]
    assert cards_shown(by_group[f"table-{table.pk}-seat-1"]) == set()
    assert cards_shown(by_group[f"table-{table.pk}-seat-0"]) == set(ANA_HAND)
