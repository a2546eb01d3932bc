"""What one change sends over the channel layer: once per audience, after it is committed."""

from __future__ import annotations

import pytest

from tables.audiences import render
from tables.changes import services
from tables.live import broadcast
from tables.state.refusal import TableError

from .helpers import (
    ANA_HAND,
    BETO_HAND,
    board,
    cards_shown,
    deal,
    fingerprint,
    lobby,
    panel,
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


def test_a_move_sends_one_frame_to_each_audience_after_the_commit(
    three, sent, django_capture_on_commit_callbacks
):
    table, ana, beto = three
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        services.table_play_move(
            table_id=table.pk, secret=beto.secret(table), move="draw", version=table.version
        )

    assert len(callbacks) == 1
    # The watchers and each person's seat; the robot's seat has nobody to send to.
    assert sorted(groups(sent)) == sorted([
        f"table-{table.pk}-watchers", f"table-{table.pk}-seat-0", f"table-{table.pk}-seat-1",
    ])  # fmt: skip
    table.refresh_from_db()
    assert {version_shown(html) for _, html in sent} == {table.version}
    for _, html in sent:  # one frame: the board and the audience's panel
        assert html.count('id="board"') == 1 and html.count('id="panel"') == 1


def test_the_chat_line_of_a_change_rides_in_the_same_frame(
    sent, django_capture_on_commit_callbacks
):
    table, (ana, beto) = lobby("Ana", "Beto")
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert ana.act(table, "robot").status_code == 200

    assert len(sent) == 3  # the watchers, Ana, Beto: one frame each
    for _, html in sent:
        assert 'id="board"' in html and 'id="panel"' in html
        assert "un robot." in html and 'hx-swap-oob="beforeend:#chat-log"' in html


@pytest.mark.django_db(transaction=True)
def test_each_audience_is_rendered_once_per_change_and_the_answer_reuses_it(monkeypatch):
    table, (ana, beto) = started("Ana", "Beto", robots=1)
    rendered: list[str] = []
    original = render._render

    def counted(partial, context, request):
        rendered.append(partial)
        return original(partial, context, request)

    monkeypatch.setattr(render, "_render", counted)
    monkeypatch.setattr(broadcast, "send_fragments", lambda messages, version=0: None)
    response = beto.move(table, "draw")  # the commit runs its callbacks: a real transaction

    assert response.status_code == 200
    assert sorted(rendered) == ["board", "panel", "panel", "panel"]  # watchers, Ana, Beto
    table.refresh_from_db()
    html = response.content.decode()
    assert version_shown(html) == table.version
    assert cards_shown(panel(html)) == {str(c) for c in round_of(table).hands[1]}


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
    assert cards_shown(panel(by_group[f"table-{table.pk}-seat-0"])) == hands[0]
    assert cards_shown(panel(by_group[f"table-{table.pk}-seat-1"])) == hands[1]
    assert cards_shown(panel(by_group[f"table-{table.pk}-watchers"])) == set()
    for html in by_group.values():
        assert cards_shown(board(html)) == {str(state.top)}


def test_a_refused_change_sends_nothing(three, sent, django_capture_on_commit_callbacks):
    table, ana, _ = three
    before = fingerprint(table)
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(TableError),
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
    assert cards_shown(panel(by_group[f"table-{table.pk}-seat-1"])) == set()
    assert cards_shown(panel(by_group[f"table-{table.pk}-seat-0"])) == set(ANA_HAND)
