"""A player's own record: the match as a JSON file the engine checks and as a transcript, from
the table's history, its summary and "Mis mesas"; never a card that was hidden when downloaded.
"""

from __future__ import annotations

import hashlib
import io
import json
import random
import re

import pytest
from django.core.management import CommandError, call_command

import ocholoco
from tables.audiences import wording
from tables.audiences.narration import table_log_lines
from tables.models import Table, TableRound

from .helpers import Person, match_of, robot_play, round_of, started

pytestmark = pytest.mark.django_db

# House rules with a low target (unless told another), so that a match ends in a round or two.
QUICK = {"rules": "casa", "name": "Ana", "hand_size": "5", "hand_size_two": "5"}
CARD = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9AJQK])[SHDC](?![0-9A-Za-z])")


def quick_table(*guests: str, robots: int = 0, target: int = 20) -> tuple[Table, list[Person]]:
    """A table of QUICK house rules (to `target` points), opened by Ana, with `guests` and
    `robots`, started."""
    host = Person("Ana")
    response = host.post("/abrir/", {**QUICK, "target": str(target)}, htmx=False)
    assert response.status_code == 302, response.content.decode()
    table = Table.objects.get(player_code=response.url.strip("/").split("/")[-1])
    people = [host]
    for name in guests:
        people.append(Person(name))
        assert people[-1].join(table).status_code == 200
    for _ in range(robots):
        assert host.act(table, "robot").status_code == 200
    assert host.act(table, "empezar").status_code == 200
    return table, people


def play(table: Table, people: list[Person], rng: random.Random, capture, moves: int = 10**6):
    """Random legal moves (a card whenever one can be played) by whoever is to move, robots by
    their task, until the round is over or `moves` were made; a move that would end the round
    is not made while `moves` is counted down (the round stays in play)."""
    for _ in range(moves):
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            return
        state = ocholoco.from_json(table.round_state)
        number = table.match_seats[state.turn]
        if number >= len(people):  # a robot's seat
            with capture(execute=True):
                assert robot_play(table_id=table.pk, version=table.version)
            continue
        options = ocholoco.legal_moves(state)
        if moves < 10**6:
            options = [m for m in options if not ocholoco.apply_move(state, m).finished] or options
        plays = [m for m in options if isinstance(m, ocholoco.Play)]
        with capture(execute=True):
            move = ocholoco.move_to_str(rng.choice(plays or options))
            response = people[number].move(table, move)
        assert response.status_code == 200, response.content.decode()[:300]


def play_match(table: Table, people: list[Person], rng: random.Random, capture) -> None:
    while True:
        play(table, people, rng, capture)
        table.refresh_from_db()
        if table.status == Table.Status.MATCH_OVER:
            return
        with capture(execute=True):
            assert people[0].act(table, "siguiente").status_code == 200


def downloaded(person: Person, table: Table, number: int) -> tuple[dict, str]:
    record = person.get(f"/mesa/{table.code}/partida/{number}.json")
    transcript = person.get(f"/mesa/{table.code}/partida/{number}.txt")
    assert record.status_code == transcript.status_code == 200
    return json.loads(record.content), transcript.content.decode()


def test_a_downloaded_match_replays_to_the_same_scores_and_its_reveals_match_their_commitments(
    django_capture_on_commit_callbacks,
):
    table, people = quick_table("Beto", robots=1)
    play_match(table, people, random.Random(11), django_capture_on_commit_callbacks)
    match = match_of(table)

    spectator = Person()
    response = spectator.get(f"/mesa/{table.code}/partida/1.json")
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"].startswith("attachment; filename=")
    assert response["Content-Disposition"].endswith('-partida-1.json"')
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]
    record, transcript = downloaded(spectator, table, 1)

    assert (record["format"], record["version"]) == ("ocholoco-partida", 1)
    checked = ocholoco.record_check(record)
    assert checked.match.totals == match.totals and checked.match.winners == match.winners
    assert checked.match.finished and record["finished"] and not checked.in_play
    seats = {seat.number: seat for seat in table.seats.all()}
    assert record["players"] == [
        {"name": seats[n].name, "seat": n + 1, "robot": seats[n].is_robot}
        for n in table.match_seats
    ]
    rounds = list(TableRound.objects.filter(table=table).order_by("id"))
    assert len(record["rounds"]) == len(rounds) == len(checked.rounds)
    for entry, kept in zip(record["rounds"], rounds, strict=True):
        assert hashlib.sha256(entry["reveal"].encode()).hexdigest() == entry["commitment"]
        assert (entry["commitment"], entry["reveal"]) == (kept.commitment, kept.reveal)
    assert checked.rounds[-1] == round_of(table)  # the last round ends where the table's did
    moves = table.events.filter(kind="move").count()
    assert sum(len(entry["moves"]) for entry in record["rounds"]) == moves
    text = json.dumps(record)
    for secret in ("secret", "session", "127.0.", table.code, table.player_code):
        assert secret not in text

    # The transcript: the game log's own sentences, every deal's commitment and reveal.
    assert transcript.startswith("Ocho Loco · Partida 1\n")
    rules = table.rules  # the house rules, told as the rules card tells them
    assert f"Reglas: {wording.rules_name(rules)}\n" in transcript
    assert all(f"  {sentence}\n" in transcript for sentence in wording.rules_sentences(rules))
    for entry in record["rounds"]:
        assert entry["commitment"] in transcript and entry["reveal"] in transcript
    match_log = table_log_lines(table, rounds[0].start_version, limit=10**6)
    said = [line["text"] for line in match_log]
    assert len(said) > moves
    lines = transcript.splitlines()
    for line in said:
        assert line in lines
    assert lines[-1] == "Total: " + " · ".join(
        f"{p['name']} {total}" for p, total in zip(record["players"], match.totals, strict=True)
    ) + "."


def test_a_tampered_download_does_not_check_out(django_capture_on_commit_callbacks):
    table, people = quick_table("Beto")
    play(table, people, random.Random(3), django_capture_on_commit_callbacks)
    record, _ = downloaded(people[0], table, 1)
    ocholoco.record_check(record)

    forged = json.loads(json.dumps(record))
    forged["rounds"][0]["points"][0] += 1
    with pytest.raises(ocholoco.RecordError) as refused:
        ocholoco.record_check(forged)
    assert wording.record_error_sentence(refused.value.reason) == (
        "Ronda 1: los puntos o los ganadores no son los que da el juego."
    )
    forged = json.loads(json.dumps(record))
    reveal = forged["rounds"][0]["reveal"]
    forged["rounds"][0]["reveal"] = reveal.replace("mazo=", "mazo=2S,", 1)
    with pytest.raises(ocholoco.RecordError) as refused:
        ocholoco.record_check(forged)
    assert wording.record_error_sentence(refused.value.reason) == (
        "Ronda 1: el reparto revelado no da la huella anunciada."
    )


def test_a_match_downloaded_mid_round_shows_no_card_that_was_hidden(
    django_capture_on_commit_callbacks,
):
    table, people = quick_table("Beto", target=1000)  # no round ends the match
    rng = random.Random(5)
    capture = django_capture_on_commit_callbacks
    play(table, people, rng, capture)  # round 1, to its end
    with capture(execute=True):
        assert people[1].act(table, "siguiente").status_code == 200
    play(table, people, rng, capture, moves=8)  # round 2, in play
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    state = round_of(table)
    in_play = TableRound.objects.get(table=table, finished=False)
    public = {str(e.card) for e in state.history if e.card is not None}
    hidden = {str(c) for hand in state.hands for c in hand} | {str(c) for c in state.stock}
    hidden -= public
    assert hidden

    for viewer in (people[0], Person()):  # a player and a spectator get the same
        record, transcript = downloaded(viewer, table, 1)
        for text in (json.dumps(record), transcript):
            assert in_play.reveal not in text
            assert ocholoco.Deal.parse(in_play.reveal).salt not in text
        first, second = record["rounds"]
        assert first["finished"] and first["reveal"] and first["points"]
        assert (second["finished"], second["reveal"], second["points"]) == (False, None, None)
        assert second["commitment"] == in_play.commitment
        # The round in play: only the cards everybody saw played (and the one that opened it).
        assert set(CARD.findall(json.dumps(second))) <= public
        told = transcript[transcript.index("\nRonda 2 ·") :]
        assert "sigue en juego" in told and "Manos repartidas" not in told
        for card in hidden:
            assert wording.card_name(card) not in told, card
        checked = ocholoco.record_check(record)
        assert checked.in_play and len(checked.rounds) == 1 and not record["finished"]


def test_unknown_tables_and_matches_answer_a_spanish_404():
    table, (ana, _) = started("Ana", "Beto")
    for path in (
        "/mesa/no-existe/partida/1.json",
        "/mesa/no-existe/partida/1.txt",
        f"/mesa/{table.code}/partida/2.json",
        f"/mesa/{table.code}/partida/0.txt",
    ):
        response = ana.get(path)
        assert response.status_code == 404, path
        assert "Esa partida no existe" in response.content.decode()
        assert "attachment" not in response.get("Content-Disposition", "")
    assert ana.post(f"/mesa/{table.code}/partida/1.json", htmx=False).status_code == 405


def test_each_match_of_a_rematch_is_downloadable_and_my_tables_offers_the_finished_ones(
    django_capture_on_commit_callbacks,
):
    table, people = quick_table("Beto")
    rng, capture = random.Random(8), django_capture_on_commit_callbacks
    play_match(table, people, rng, capture)
    summary = people[0].get(f"/mesa/{table.player_code}/").content.decode()
    assert 'href="partida/1.txt"' in summary  # the match's end offers it
    with capture(execute=True):
        assert people[1].act(table, "revancha").status_code == 200
    play(table, people, rng, capture, moves=3)

    first, _ = downloaded(people[1], table, 1)
    second, told = downloaded(people[1], table, 2)
    assert first["finished"] and ocholoco.record_check(first).match.finished
    assert second["match"] == 2 and not second["finished"]
    assert ocholoco.record_check(second).in_play and "Partida 2" in told
    history = Person().get(f"/mesa/{table.code}/historial/").content.decode()
    for number in (1, 2):
        assert f"/mesa/{table.code}/partida/{number}.json" in history
        assert f"/mesa/{table.code}/partida/{number}.txt" in history
    assert history.count("la ronda en juego va sin revelar") == 1  # match 2's

    for person in people:
        mine = person.get("/mis-mesas/").content.decode()
        assert f"/mesa/{table.player_code}/partida/1.json" in mine
        assert f"/mesa/{table.player_code}/partida/1.txt" in mine
        assert "/partida/2." not in mine  # still in play
    assert "/partida/" not in Person("Nadie").get("/mis-mesas/").content.decode()


def test_the_match_check_command_accepts_a_true_download_and_refuses_a_changed_one(
    django_capture_on_commit_callbacks, tmp_path,
):
    table, people = quick_table("Beto")
    play(table, people, random.Random(4), django_capture_on_commit_callbacks)
    record, _ = downloaded(people[0], table, 1)
    true, changed = tmp_path / "partida.json", tmp_path / "cambiada.json"
    true.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    record["rounds"][0]["moves"].pop()
    changed.write_text(json.dumps(record), encoding="utf-8")

    out = io.StringIO()
    call_command("match_check", str(true), stdout=out)
    assert "Partida comprobada: 1 ronda terminada," in out.getvalue()
    with pytest.raises(CommandError, match="no terminan"):
        call_command("match_check", str(changed))
    with pytest.raises(CommandError, match="No se pudo leer"):
        call_command("match_check", str(tmp_path / "no-hay.json"))
