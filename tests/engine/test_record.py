"""A match's file and its check (`ocholoco.record`): a true file checks out, whatever the rule
set; any change to a move, a reveal, a point or the format does not."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from ocholoco import (
    PRESETS,
    RECORD_FORMAT,
    RECORD_VERSION,
    RecordError,
    legal_moves,
    move_to_str,
    new_match,
    record_check,
    rules_to_json,
    shuffled_deal,
)
from ocholoco import apply_move as step


def played(rules: str, players: int, seed: int, *, rounds: int = 99, moves_after: int = 0):
    """A match file as the table writes it: `rounds` rounds (or to the match's end) of random
    legal moves, then, with `moves_after`, a round in play with that many moves."""
    rng = random.Random(seed)
    match = new_match(PRESETS[rules], players)
    entries: list[dict[str, Any]] = []
    while not match.finished and len(entries) < rounds:
        deal = shuffled_deal(match.rules, players, rng)
        state = match.deal(deck=deal.deck, salt=deal.salt)
        entry = {
            "numero": match.round_number, "reparte": match.dealer, "huella": deal.commitment,
            "terminada": True, "revelado": deal.reveal, "jugadas": [],
        }
        while not state.finished:
            move = rng.choice(legal_moves(state))
            entry["jugadas"].append({"jugador": state.turn, "jugada": move_to_str(move)})
            state = step(state, move)
        entry.update(
            puntos=list(state.round_points), ganadores=list(state.winners), bloqueada=state.blocked
        )
        entries.append(entry)
        match = match.apply_round(state)
    if moves_after and not match.finished:
        deal = shuffled_deal(match.rules, players, rng)
        state = match.deal(deck=deal.deck, salt=deal.salt)
        entry = {
            "numero": match.round_number, "reparte": match.dealer, "huella": deal.commitment,
            "terminada": False, "revelado": None, "jugadas": [], "puntos": None,
            "ganadores": [],
        }
        for _ in range(moves_after):
            move = next(m for m in legal_moves(state) if not step(state, m).finished)
            entry["jugadas"].append({"jugador": state.turn, "jugada": move_to_str(move)})
            state = step(state, move)
        entries.append(entry)
    return {
        "formato": RECORD_FORMAT, "version": RECORD_VERSION, "partida": 1,
        "reglas": rules_to_json(match.rules), "reglas_nombre": match.rules.label,
        "jugadores": [{"nombre": f"P{n}", "lugar": n + 1, "robot": False} for n in range(players)],
        "rondas": entries, "totales": list(match.totals), "terminada": match.finished,
        "ganadores": list(match.winners),
    }


@pytest.mark.parametrize(
    ("rules", "players", "seed"),
    [("clasico", 2, 1), ("especiales", 3, 2), ("libro", 4, 3), ("anuncio", 5, 4),
     ("chileno", 2, 5)],
)  # fmt: skip
def test_a_true_match_file_checks_out_to_its_totals_and_winners(rules, players, seed):
    record = played(rules, players, seed)
    checked = record_check(record)
    assert checked.match.finished and not checked.in_play
    assert list(checked.match.totals) == record["totales"]
    assert len(checked.rounds) == len(record["rondas"])


def test_a_round_in_play_is_checked_as_far_as_it_went_and_must_not_be_revealed():
    record = played("especiales", 3, 7, rounds=1, moves_after=4)
    checked = record_check(record)
    assert checked.in_play and len(checked.rounds) == 1
    revealed = copy.deepcopy(record)
    revealed["rondas"][-1]["revelado"] = record["rondas"][0]["revelado"]
    with pytest.raises(RecordError, match="no se revela"):
        record_check(revealed)
    after = copy.deepcopy(record)
    after["rondas"].append(copy.deepcopy(record["rondas"][0]))
    with pytest.raises(RecordError, match="después de una que no terminó"):
        record_check(after)


def _changed(record: dict, change) -> dict:
    changed = copy.deepcopy(record)
    change(changed)
    return changed


def _swap_moves(record: dict) -> None:
    moves = record["rondas"][0]["jugadas"]
    moves[0], moves[1] = moves[1], moves[0]


def _extra_move(record: dict) -> None:
    record["rondas"][0]["jugadas"].append({"jugador": 0, "jugada": "draw"})


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda r: r.update(formato="otra-cosa"), "No es el archivo"),
        (lambda r: r.update(version=RECORD_VERSION + 1), "Versión"),
        (lambda r: r["rondas"][0].update(huella="0" * 64), "huella"),
        (lambda r: r["rondas"][0].update(puntos=[p + 1 for p in r["rondas"][0]["puntos"]]),
         "puntos"),
        (lambda r: r["rondas"][0]["jugadas"][0].update(jugador=99), "turno"),
        (_swap_moves, "jugada"),
        (_extra_move, "después del final"),
        (lambda r: r["rondas"][0]["jugadas"].pop(), "no terminan"),
        (lambda r: r.update(totales=[t + 1 for t in r["totales"]]), "totales"),
        (lambda r: r.update(terminada=not r["terminada"]), "final de la partida"),
        (lambda r: r["rondas"][0].update(reparte=1), "reparte"),
        (lambda r: r.pop("reglas"), "falta"),
    ],
)  # fmt: skip
def test_a_changed_match_file_is_refused_with_the_reason_in_spanish(change, says):
    record = played("clasico", 2, 11)
    record_check(record)
    with pytest.raises(RecordError, match=says):
        record_check(_changed(record, change))
