"""Before the match: ABRIR MESA, joining by the link, robots, and EMPEZAR LA PARTIDA."""

from __future__ import annotations

import pytest

from tables.models import Seat, Table, TableEvent

from .helpers import Person, fingerprint, lobby, notice, round_of

pytestmark = pytest.mark.django_db


def test_abrir_mesa_seats_the_host_in_seat_0_and_sends_the_browser_to_the_table():
    ana = Person("Ana")
    response = ana.post("/abrir/", {"name": "  Ana  ", "rules": "especiales"}, htmx=False)

    table = Table.objects.get()
    assert response.status_code == 302 and response.url == f"/mesa/{table.player_code}/"
    assert (table.rules_key, table.status, table.host_seat) == ("especiales", "lobby", 0)
    seat = table.seats.get()
    assert (seat.number, seat.name, seat.kind) == (0, "Ana", Seat.Kind.HUMAN)
    assert seat.secret_matches(ana.secret(table)) and seat.secret_hash != ana.secret(table)
    page = ana.get(response.url).content.decode()
    for words in ("AGREGAR ROBOT", "EMPEZAR LA PARTIDA", "COPIAR", f"/mesa/{table.code}/"):
        assert words in page


@pytest.mark.parametrize(
    ("name", "rules", "message"),
    [
        ("", "clasico", "Escribe tu nombre."),
        ("   ", "clasico", "Escribe tu nombre."),
        ("A" * 25, "clasico", "El nombre puede tener hasta 24 caracteres."),
        ("Ana", "truco", "Esas reglas no existen."),
    ],
)
def test_abrir_mesa_refuses_a_missing_or_long_name_or_unknown_rules_and_opens_nothing(
    name, rules, message
):
    response = Person().post("/abrir/", {"name": name, "rules": rules}, htmx=False)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Table.objects.exists()


def test_a_visitor_with_the_link_sits_in_the_first_free_seat_and_gets_a_secret_of_their_own():
    table, (ana,) = lobby("Ana")
    beto = Person("Beto")
    assert beto.get(f"/mesa/{table.code}/", follow=True).content.decode().count("SENTARME") == 1

    response = beto.join(table)

    assert response.status_code == 200
    assert response.headers["HX-Redirect"] == f"/mesa/{table.player_code}/"
    seat = table.seats.get(number=1)
    assert seat.name == "Beto" and seat.secret_matches(beto.secret(table))
    assert not seat.secret_matches(ana.secret(table))
    assert TableEvent.objects.filter(table=table, kind="seated", seat=1).count() == 1
    page = beto.get(f"/mesa/{table.code}/", follow=True).content.decode()
    assert "SENTARME" not in page and "Esperando a que quien abrió la mesa empiece" in page
    assert "EMPEZAR LA PARTIDA" not in page


def test_a_name_of_exactly_24_characters_is_accepted():
    table, _ = lobby("Ana")
    Person("N" * 24).join(table)
    assert table.seats.filter(name="N" * 24).exists()


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "Escribe tu nombre."),
        ("B" * 25, "El nombre puede tener hasta 24 caracteres."),
        ("ana", "Ya hay alguien con ese nombre en la mesa."),
        (" ANA ", "Ya hay alguien con ese nombre en la mesa."),
    ],
)
def test_joining_with_an_empty_long_or_taken_name_is_refused_in_spanish(name, message):
    table, _ = lobby("Ana")
    before = fingerprint(table)
    visitor = Person(name)

    assert message in notice(visitor.join(table))
    assert fingerprint(table) == before and visitor.secret(table) is None


def test_a_full_table_refuses_a_fifth_person_and_offers_to_watch():
    table, _ = lobby("Ana", "Beto", "Caro", "Dani")
    before = fingerprint(table)
    late = Person("Eva")
    assert "podrás mirar la partida" in late.get(f"/mesa/{table.code}/").content.decode()

    assert "La mesa está completa." in notice(late.join(table))
    assert fingerprint(table) == before


def test_a_seated_browser_cannot_take_a_second_seat():
    table, (_, beto) = lobby("Ana", "Beto")
    before = fingerprint(table)
    beto.name = "Otro Beto"
    assert "Ya tienes un lugar en esta mesa." in notice(beto.join(table))
    assert fingerprint(table) == before


def test_nobody_can_sit_down_once_the_match_has_started():
    table, (ana, _) = lobby("Ana", "Beto")
    ana.act(table, "empezar")
    before = fingerprint(table)
    assert "La partida ya empezó: puedes mirarla." in notice(Person("Caro").join(table))
    assert fingerprint(table) == before


def test_the_host_adds_robots_in_free_seats_and_removes_them():
    table, (ana,) = lobby("Ana")

    assert ana.act(table, "robot", level="dificil").status_code == 200
    assert ana.act(table, "robot", level="facil", number=3).status_code == 200

    robots = {s.number: s for s in table.seats.filter(kind=Seat.Kind.ROBOT)}
    assert sorted(robots) == [1, 3]
    assert (robots[1].robot_level, robots[3].robot_level) == ("dificil", "facil")
    assert robots[1].name != robots[3].name and not robots[1].secret_hash
    page = ana.get(f"/mesa/{table.code}/", follow=True).content.decode()
    assert page.count("Quitar") == 2 and robots[3].name in page

    assert ana.act(table, "robot/quitar", number=1).status_code == 200
    assert sorted(table.seats.values_list("number", flat=True)) == [0, 3]
    assert TableEvent.objects.filter(table=table, kind="robot_removed", seat=1).count() == 1


def test_a_robot_never_takes_a_name_already_at_the_table():
    table, (ana, _) = lobby("Ana", "Robotina")
    ana.act(table, "robot")
    assert table.seats.get(number=2).name not in {"Ana", "Robotina"}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"number": 1}, "Ese lugar ya está ocupado."),
        ({"number": 4}, "Ese lugar no existe."),
        ({"number": "x"}, "Ese lugar no existe."),
        ({"level": "imposible"}, "Ese nivel de robot no existe."),
    ],
)
def test_adding_a_robot_to_a_taken_or_missing_seat_or_at_an_unknown_level_is_refused(
    data, message
):
    table, (ana, _) = lobby("Ana", "Beto")
    before = fingerprint(table)
    assert message in notice(ana.act(table, "robot", **data))
    assert fingerprint(table) == before


def test_a_full_table_has_no_seat_for_a_robot():
    table, (ana, *_) = lobby("Ana", "Beto", robots=2)
    before = fingerprint(table)
    assert "La mesa está completa." in notice(ana.act(table, "robot"))
    assert fingerprint(table) == before


def test_only_the_host_adds_or_removes_robots():
    table, (ana, beto) = lobby("Ana", "Beto", robots=1)
    before = fingerprint(table)

    assert "Solo quien abrió la mesa" in notice(beto.act(table, "robot"))
    assert "Solo quien abrió la mesa" in notice(beto.act(table, "robot/quitar", number=2))
    assert "No tienes un lugar" in notice(Person().act(table, "robot"))
    assert "AGREGAR ROBOT" not in beto.get(f"/mesa/{table.code}/", follow=True).content.decode()
    assert fingerprint(table) == before


def test_removing_a_person_or_an_empty_seat_as_a_robot_is_refused():
    table, (ana, _) = lobby("Ana", "Beto")
    before = fingerprint(table)
    for number in (1, 3, ""):
        refused = ana.act(table, "robot/quitar", number=number)
        assert "En ese lugar no hay un robot." in notice(refused)
    assert fingerprint(table) == before


@pytest.mark.parametrize(
    ("people", "robots", "cards"), [(2, 0, 7), (1, 1, 7), (3, 0, 5), (2, 2, 5), (4, 0, 5)]
)
def test_empezar_la_partida_deals_7_cards_each_to_two_and_5_to_three_or_four(people, robots, cards):
    table, (ana, *_) = lobby(*["Ana", "Beto", "Caro", "Dani"][:people], robots=robots)

    assert ana.act(table, "empezar", version=table.version).status_code == 200

    state = round_of(table)
    players = people + robots
    assert table.status == "playing" and table.match_seats == list(range(players))
    assert [len(hand) for hand in state.hands] == [cards] * players
    assert len(state.stock) == 52 - cards * players - 1
    assert state.dealer == 0
    kinds = list(TableEvent.objects.filter(table=table).values_list("kind", flat=True))
    assert kinds[-2:] == ["match_started", "round_started"]


def test_empty_seats_are_left_out_of_the_match_that_starts():
    table, (ana, beto, caro) = lobby("Ana", "Beto", "Caro")
    beto.act(table, "abandonar")  # before the start, leaving frees the seat
    ana.act(table, "robot", number=3)

    ana.act(table, "empezar")

    table.refresh_from_db()
    assert table.match_seats == [0, 2, 3]
    assert [len(hand) for hand in round_of(table).hands] == [5, 5, 5]
    board = caro.get(f"/mesa/{table.code}/", follow=True).content.decode()
    assert 'data-seat="1"' not in board and 'data-seat="3"' in board


def test_the_host_alone_cannot_start():
    table, (ana,) = lobby("Ana")
    before = fingerprint(table)
    assert "Hacen falta al menos dos jugadores" in notice(ana.act(table, "empezar"))
    assert fingerprint(table) == before


def test_only_the_host_starts_the_match():
    table, (_, beto) = lobby("Ana", "Beto")
    before = fingerprint(table)
    assert "Solo quien abrió la mesa" in notice(beto.act(table, "empezar"))
    assert "No tienes un lugar" in notice(Person().act(table, "empezar"))
    assert fingerprint(table) == before


def test_starting_against_a_lobby_that_changed_meanwhile_is_refused():
    table, (ana, _) = lobby("Ana", "Beto")
    seen = table.version
    Person("Caro").join(table)
    before = fingerprint(table)

    assert "La mesa cambió" in notice(ana.act(table, "empezar", version=seen))
    assert fingerprint(table) == before


def test_a_match_cannot_be_started_twice():
    table, (ana, _) = lobby("Ana", "Beto")
    ana.act(table, "empezar")
    before = fingerprint(table)
    assert "La partida ya empezó." in notice(ana.act(table, "empezar"))
    assert fingerprint(table) == before
