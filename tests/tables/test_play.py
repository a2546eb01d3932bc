"""A match through the table's forms: moves, drawing, passing, rounds, rematch, leaving.

Positions are scripted (`deal`, `position`), so every card is known. Ana opens (seat 0, the
dealer of round 1), Beto sits in seat 1 and plays first.
"""

from __future__ import annotations

import pytest

import ocholoco
from tables.models import Table, TableEvent

from .helpers import (
    ANA_HAND,
    BETO_HAND,
    Person,
    board,
    cards_shown,
    deal,
    fingerprint,
    lobby,
    match_of,
    notice,
    page,
    panel,
    position,
    robot_play,
    round_of,
    set_round,
    started,
    version_shown,
)

pytestmark = pytest.mark.django_db

ANA, BETO = ANA_HAND, BETO_HAND


def events(table: Table) -> list[tuple[str, int | None, dict]]:
    return list(TableEvent.objects.filter(table=table).values_list("kind", "seat", "data"))


def test_each_player_sees_their_own_hand_and_the_board_and_only_the_one_to_move_gets_moves(game):
    table, ana, beto = game
    ana_page, beto_page = page(ana, table), page(beto, table)

    assert cards_shown(panel(ana_page)) == set(ANA)
    assert cards_shown(panel(beto_page)) == set(BETO)
    assert cards_shown(board(ana_page)) == {"9H"} and "Turno de <strong>Beto</strong>" in ana_page
    assert "Tu turno" in beto_page and "Tu turno" not in ana_page
    assert 'value="5H"' in beto_page and 'value="draw"' in beto_page
    assert 'name="move"' not in panel(ana_page)


def test_a_legal_card_posted_with_the_version_seen_is_played(game):
    table, ana, beto = game
    version = table.version

    response = beto.move(table, "5H", version)

    assert response.status_code == 200
    html = response.content.decode()
    assert version_shown(html) == version + 1
    assert cards_shown(panel(html)) == set(BETO) - {"5H"}
    assert cards_shown(board(html)) == {"5H"}
    state = round_of(table)
    assert (str(state.top), state.turn, table.version) == ("5H", 0, version + 1)
    # The move is logged with the public events it caused (what "Mientras no estabas" tells).
    assert events(table)[-1] == ("move", 1, {"move": "5H", "events": [["play", 1, "5H", None, 0]]})
    assert table.last_move_at is not None
    assert "Tu turno" in page(ana, table)


def test_an_eight_names_the_suit_that_must_follow(game):
    table, _, beto = game
    deal(table, [ANA, ["8C", *BETO[1:]]], top="9H", stock=("4D",))

    beto.move(table, "8C:D")

    state = round_of(table)
    assert (str(state.top), state.active_suit, state.turn) == ("8C", "D", 0)


def test_drawing_takes_the_top_of_the_stock_and_the_turn_goes_on(game):
    table, ana, beto = game

    html = beto.move(table, "draw").content.decode()

    assert cards_shown(panel(html)) == {*BETO, "4D"}
    state = round_of(table)
    assert state.turn == 1 and str(state.stock[0]) == "KC"
    drew = [["draw", 1, None, None, 1]]
    assert events(table)[-1] == ("move", 1, {"move": "draw", "events": drew})
    beto.move(table, "draw")
    assert "KC" in cards_shown(panel(page(beto, table)))
    assert not {"4D", "KC"} & cards_shown(page(ana, table))


def test_with_an_empty_stock_and_nothing_to_play_the_player_passes(game):
    table, ana, beto = game
    set_round(table, position("clasico", [["KS", "QS"], ["2C", "3C"]], "5H", turn=1))

    html = beto.move(table, "pass").content.decode()

    assert 'value="pass"' not in html
    assert round_of(table).turn == 0
    passed = [["pass", 1, None, None, 0]]
    assert events(table)[-1] == ("move", 1, {"move": "pass", "events": passed})
    assert "PASAR" in page(ana, table)


def test_playing_the_last_card_ends_the_round_and_scores_the_other_hand(game):
    table, ana, beto = game
    set_round(table, position("clasico", [["KS", "3C"], ["5H"]], "9H", stock=("2D",), turn=1))

    html = beto.move(table, "5H").content.decode()

    table.refresh_from_db()
    assert table.status == Table.Status.ROUND_OVER
    assert match_of(table).totals == (0, 13)
    went_out = [["play", 1, "5H", None, 0], ["out", 1, None, None, 0]]
    assert events(table)[-2:] == [
        ("move", 1, {"move": "5H", "events": went_out}),
        ("round_over", None, {
            "points": {"0": 0, "1": 13}, "blocked": False, "winners": [1],
            "scoring": "winner_takes",
        }),
    ]
    assert "Beto se quedó sin cartas y gana +13" in html and "SIGUIENTE RONDA" in html
    # The hands left are public now: both players and a spectator see Ana's.
    for viewer in (ana, beto, Person()):
        assert {"KS", "3C"} <= cards_shown(panel(page(viewer, table)))


def test_siguiente_ronda_deals_the_next_round_with_the_next_dealer_and_keeps_the_scores(game):
    table, ana, beto = game
    set_round(table, position("clasico", [["KS", "3C"], ["5H"]], "9H", stock=("2D",), turn=1))
    beto.move(table, "5H")
    before = fingerprint(table)
    assert "No tienes un lugar" in notice(Person().act(table, "siguiente"))
    assert fingerprint(table) == before

    assert ana.act(table, "siguiente", version=table.version).status_code == 200

    table.refresh_from_db()
    match, state = match_of(table), round_of(table)
    assert table.status == Table.Status.PLAYING
    assert (match.round_number, match.dealer, match.totals) == (2, 1, (0, 13))
    assert state.dealer == 1 and state.turn == 0 and [len(h) for h in state.hands] == [7, 7]
    assert events(table)[-1] == ("round_started", None, {"round": 2, "dealer": 1})
    before = fingerprint(table)
    assert "La ronda todavía no terminó." in notice(beto.act(table, "siguiente"))
    assert fingerprint(table) == before


def test_the_match_ends_at_the_target_and_revancha_starts_again_at_zero_with_the_same_seats():
    table, (ana, beto, caro) = started("Ana", "Beto", "Caro")
    hands = [["KS", "3C"], ["5H"], ["JD"]]
    set_round(
        table,
        position("clasico", hands, "9H", stock=("2D",), turn=1),
        ocholoco.Match(ocholoco.PRESETS["clasico"], 3, (0, 130, 0)),
    )

    html = beto.move(table, "5H").content.decode()

    table.refresh_from_db()
    assert table.status == Table.Status.MATCH_OVER and match_of(table).totals == (0, 153, 0)
    assert events(table)[-1] == ("match_over", None, {"winners": [1]})
    assert "¡Partida terminada!" in html and "REVANCHA" in html and "Gana Beto" in html
    before = fingerprint(table)
    assert "La ronda todavía no terminó." in notice(ana.act(table, "siguiente"))
    assert "No tienes un lugar" in notice(Person().act(table, "revancha"))
    assert fingerprint(table) == before

    assert caro.act(table, "revancha", version=table.version).status_code == 200

    table.refresh_from_db()
    match = match_of(table)
    assert table.status == Table.Status.PLAYING and table.match_seats == [0, 1, 2]
    assert (match.totals, match.round_number, match.dealer) == ((0, 0, 0), 1, 0)
    assert [len(hand) for hand in round_of(table).hands] == [5, 5, 5]
    assert [kind for kind, *_ in events(table)[-2:]] == ["rematch", "round_started"]


def test_revancha_before_the_match_is_over_is_refused(game):
    table, ana, _ = game
    before = fingerprint(table)
    assert "La partida todavía no terminó." in notice(ana.act(table, "revancha"))
    assert fingerprint(table) == before


def test_abandonar_leaves_the_seat_to_a_robot_that_keeps_the_name_and_score(game):
    table, ana, beto = game
    set_round(table, round_of(table), ocholoco.Match(ocholoco.PRESETS["clasico"], 2, (0, 40)))

    response = beto.post(f"/mesa/{table.player_code}/abandonar/")  # from his page

    # His page reloads where it was: he watches by the players' address.
    assert response.status_code == 200
    assert response.headers["HX-Redirect"] == f"/mesa/{table.player_code}/"
    seat = table.seats.get(number=1)
    assert seat.abandoned and seat.plays_as_robot and not seat.secret_hash
    assert seat.name == "Beto" and match_of(table).totals == (0, 40)
    assert events(table)[-1] == ("abandoned", 1, {"name": "Beto"})
    beto_page = page(beto, table)
    assert "Estás mirando la partida." in beto_page and cards_shown(beto_page) == {"9H"}
    assert "Robot" in board(beto_page)
    before = fingerprint(table)
    assert "No tienes un lugar" in notice(beto.move(table, "5H"))
    assert fingerprint(table) == before
    # It was Beto's turn: the robot takes it.
    assert robot_play(table_id=table.pk, version=table.version)
    kind, seat_number, data = events(table)[-1]
    assert (kind, seat_number, data["robot"]) == ("move", 1, True)


def test_when_the_host_leaves_the_next_person_in_seat_order_becomes_host():
    table, (ana, beto, caro) = started("Ana", "Beto", "Caro")
    beto.act(table, "abandonar")
    ana.act(table, "abandonar")

    table.refresh_from_db()
    assert table.host_seat == 2
    assert events(table)[-1] == ("host_changed", 2, {})
    assert "Abrió la mesa" in board(page(caro, table)).split('data-seat="2"')[1]


def test_leaving_the_lobby_frees_the_seat_and_passes_the_host_role():
    table, (ana, beto) = lobby("Ana", "Beto")
    ana.act(table, "abandonar")

    table.refresh_from_db()
    assert list(table.seats.values_list("number", flat=True)) == [1]
    assert table.host_seat == 1
    assert "EMPEZAR LA PARTIDA" in page(beto, table)
    assert "SENTARME" in page(ana, table)


def test_volver_a_mi_lugar_gives_the_seat_to_another_browser(game):
    table, _, beto = game
    secret = beto.secret(table)
    assert f"/volver/{secret}/" in page(beto, table)
    phone = Person()

    response = phone.get(f"/volver/{secret}/")

    assert response.status_code == 302 and response.url == f"/mesa/{table.player_code}/"
    assert cards_shown(panel(page(phone, table))) == set(BETO)
    assert phone.move(table, "6H").status_code == 200
    assert str(round_of(table).top) == "6H"


def test_a_volver_link_that_belongs_to_no_seat_is_not_found(game):
    table, ana, beto = game
    phone = Person()
    response = phone.get("/volver/no-es-un-secreto/")
    assert response.status_code == 404
    assert "Ese enlace no corresponde a ningún lugar." in response.content.decode()
    secret = beto.secret(table)
    beto.act(table, "abandonar")
    assert phone.get(f"/volver/{secret}/").status_code == 404


def test_a_new_invitation_link_retires_the_old_one_and_the_seated_keep_their_seats(game):
    table, ana, beto = game
    old, players = table.code, table.player_code
    assert "Nuevo enlace de invitación" in page(ana, table)
    assert "Nuevo enlace de invitación" not in page(beto, table)

    response = ana.post(f"/mesa/{players}/enlace/")

    table.refresh_from_db()
    assert table.code != old and table.player_code == players
    # Ana's page stays: the answer is her fragments, with the new invitation and a notice.
    assert response.status_code == 200 and "HX-Redirect" not in response.headers
    html = response.content.decode()
    assert f'data-invitation="/mesa/{table.code}/"' in html and "el anterior ya no sirve" in html
    assert Person().get(f"/mesa/{old}/").status_code == 404
    assert Person().get(f"/mesa/{table.code}/").status_code == 200
    assert Person().post(f"/mesa/{old}/jugar/", {"move": "5H", "version": 1}).status_code == 404
    assert cards_shown(panel(page(beto, table))) == set(BETO)
    played = beto.post(f"/mesa/{players}/jugar/", {"move": "5H", "version": table.version})
    assert played.status_code == 200
    assert events(table)[-2][0] == "link_renewed"


def test_only_the_host_renews_the_invitation_link(game):
    table, _, beto = game
    before = fingerprint(table)
    assert "Solo quien abrió la mesa" in notice(beto.act(table, "enlace"))
    assert fingerprint(table) == before
