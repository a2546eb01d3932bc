"""Bad input to POST /mesa/<code>/jugar/: a clear Spanish message, and nothing changes.

"Nothing changes" is checked on everything a move could touch: the table's version, status
and snapshots (round and match), its seats and the number of events in its log.
"""

from __future__ import annotations

import pytest
from django.conf import settings

import ocholoco
from tables.audiences import wording
from tables.models import Table, TableEvent

from .helpers import (
    Person,
    fingerprint,
    lobby,
    notice,
    position,
    round_of,
    set_round,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def unchanged(game):
    """After the test, the table is exactly as the test found it (checked at teardown)."""
    table = game[0]
    before = fingerprint(table)
    yield
    assert fingerprint(table) == before


def test_a_move_out_of_turn_is_refused(game, unchanged):
    table, ana, _ = game
    assert "No es tu turno." in notice(ana.move(table, "5S"))


def test_a_card_that_is_not_in_your_hand_is_refused(game, unchanged):
    table, _, beto = game
    assert "Esa carta no está en tu mano" in notice(beto.move(table, "3H"))


@pytest.mark.parametrize("move", ["7S", "pass", "5H:S"])
def test_a_move_the_rules_do_not_allow_is_refused_with_the_engines_reason(game, unchanged, move):
    table, _, beto = game
    with pytest.raises(ocholoco.IllegalMove) as illegal:
        ocholoco.apply_move(round_of(table), move)
    assert wording.reason_sentence(illegal.value.reason) in notice(beto.move(table, move))


def test_a_move_against_a_version_someone_else_already_moved_from_is_refused(game):
    table, ana, beto = game
    seen = table.version
    beto.move(table, "5H", seen)
    before = fingerprint(table)

    assert "La mesa cambió mientras elegías" in notice(ana.move(table, "5S", seen))
    assert fingerprint(table) == before


def test_the_same_post_twice_a_double_click_is_applied_exactly_once(game):
    table, _, beto = game
    version = table.version
    moves = TableEvent.objects.filter(table=table, kind="move")

    first = beto.move(table, "draw", version)
    second = beto.move(table, "draw", version)

    assert first.status_code == 200 and "La mesa cambió" in notice(second)
    assert moves.count() == 1
    table.refresh_from_db()
    assert table.version == version + 1


@pytest.mark.parametrize(
    "forged",
    ["", "adivinado", "a" * 32],
    ids=["empty secret", "made-up secret", "long made-up secret"],
)
def test_a_browser_claiming_a_seat_with_a_wrong_secret_cannot_move(game, unchanged, forged):
    table, _, _ = game
    forger = Person()
    forger.claim(table, forged)
    assert "No tienes un lugar en esta mesa." in notice(forger.move(table, "5H"))


def test_the_secret_of_a_seat_at_another_table_proves_nothing_here(game, unchanged):
    table, _, _ = game
    other, (carla, _) = lobby("Carla", "Dani")
    forger = Person()
    forger.claim(table, carla.secret(other))
    assert "No tienes un lugar en esta mesa." in notice(forger.move(table, "5H"))


def test_a_tampered_session_cookie_proves_no_seat(game, unchanged):
    table, _, beto = game
    forger = Person()
    cookie = beto.client.cookies[settings.SESSION_COOKIE_NAME].value
    forger.client.cookies[settings.SESSION_COOKIE_NAME] = cookie[:-3] + "xyz"
    assert "No tienes un lugar en esta mesa." in notice(forger.move(table, "5H"))


def test_a_spectator_posting_a_move_is_refused(game, unchanged):
    table, _, _ = game
    spectator = Person()
    assert "Estás mirando la partida." in spectator.get(f"/mesa/{table.code}/").content.decode()
    assert "No tienes un lugar en esta mesa." in notice(spectator.move(table, "5H"))


def test_an_unknown_table_is_not_found():
    visitor = Person()
    page = visitor.get("/mesa/no-existe/")
    assert page.status_code == 404 and "Esta mesa no existe" in page.content.decode()
    for action in ("jugar", "sentarse", "empezar", "robot", "siguiente", "abandonar", "enlace"):
        assert visitor.post(f"/mesa/no-existe/{action}/", {"move": "5H"}).status_code == 404


@pytest.mark.parametrize(
    "move",
    ["", " ", "ZZ", "11H", "8H:X", "8H:S:S", "draw:S", "<script>", "1OH", "５H", "x" * 5000],
)
def test_a_garbage_move_is_refused_as_a_move_that_does_not_exist(game, unchanged, move):
    table, _, beto = game
    answer = notice(beto.move(table, move))
    assert "Esa jugada no existe." in answer and "<script>" not in answer


def test_a_post_without_a_move_is_refused(game, unchanged):
    table, _, beto = game
    response = beto.post(f"/mesa/{table.code}/jugar/", {"version": table.version})
    assert "Esa jugada no existe." in notice(response)


MISSING = "Falta la versión de la mesa que viste."
MALFORMED = "La versión de la mesa enviada no es válida."
UNKNOWN = "Esa versión de la mesa no existe."


@pytest.mark.parametrize(
    ("version", "reason"),
    [
        (None, MISSING), ("", MISSING), ("  ", MISSING), ("tres", MALFORMED), ("abc", MALFORMED),
        ("1.5", MALFORMED), ("-1", MALFORMED), ("10**30", MALFORMED), ("1e3", MALFORMED),
        ("99999999999999999999", MALFORMED), ("١٢", MALFORMED), ("100000", UNKNOWN),
    ],
)  # fmt: skip
def test_a_missing_malformed_or_unknown_version_is_refused_with_its_true_reason(
    game, unchanged, version, reason
):
    table, _, beto = game
    data = {"move": "5H"} if version is None else {"move": "5H", "version": version}
    response = beto.post(f"/mesa/{table.code}/jugar/", data)
    answer = notice(response)
    assert reason in answer and "La mesa cambió mientras elegías" not in answer


def test_only_a_real_older_version_is_told_that_the_table_changed(game, unchanged):
    table, _, beto = game
    answer = notice(beto.move(table, "5H", version=table.version - 1))
    assert "La mesa cambió mientras elegías" in answer


def test_without_htmx_a_refusal_redirects_to_the_table_and_shows_the_message(game, unchanged):
    table, ana, _ = game
    response = ana.post(f"/mesa/{table.code}/jugar/", {"move": "5S", "version": 1}, htmx=False)
    assert response.status_code == 302 and response.url == f"/mesa/{table.player_code}/"
    assert "La mesa cambió mientras elegías" in ana.get(response.url).content.decode()


def test_moves_are_only_taken_by_post(game, unchanged):
    table, _, beto = game
    assert beto.get(f"/mesa/{table.code}/jugar/?move=5H&version={table.version}").status_code == 405


def test_a_move_in_the_lobby_or_after_the_round_is_refused():
    table, (ana, beto) = lobby("Ana", "Beto")
    before = fingerprint(table)
    assert "No hay una ronda en juego." in notice(beto.move(table, "5H"))
    assert fingerprint(table) == before

    ana.act(table, "empezar")
    set_round(table, position("clasico", [["KS"], ["5H"]], "9H", turn=1))
    beto.move(table, "5H")
    before = fingerprint(table)
    assert "No hay una ronda en juego." in notice(ana.move(table, "KS"))
    assert fingerprint(table) == before


def test_a_closed_table_refuses_every_change(game):
    table, ana, beto = game
    Table.objects.filter(pk=table.pk).update(status=Table.Status.CLOSED)
    before = fingerprint(table)
    assert "Esta mesa está cerrada." in notice(beto.move(table, "5H"))
    assert "Esta mesa está cerrada." in notice(ana.act(table, "enlace"))
    assert fingerprint(table) == before
