"""A match as a file a player takes home, and its check: every finished round replayed from its
revealed deal, the reveal hashed against its commitment, the points and the winners compared.

The file is JSON (``tables`` writes it; the keys are Spanish, the moves in `moves` notation)::

    {"formato": "ocholoco-partida", "version": 1,
     "partida": 1, "descargada": "2026-12-07T01:30:00+00:00",
     "reglas": "clasico" | {every field of a house rule set: `rules_to_json`},
     "reglas_nombre": "Clásico",
     "jugadores": [{"nombre": "Ana", "lugar": 1, "robot": false}, ...],  # the players, in order
     "rondas": [
       {"numero": 1, "reparte": 0, "huella": "<sha256 hex>",
        "terminada": true, "revelado": "ocholoco-reparto-1 sal=... mazo=...",
        "jugadas": [{"jugador": 1, "jugada": "8H:S"}, {"jugador": 0, "jugada": "draw"}, ...],
        "puntos": [12, 0], "ganadores": [0], "bloqueada": false},
       {"numero": 2, "reparte": 1, "huella": "...", "terminada": false, "revelado": null,
        "jugadas": [...], "puntos": null, "ganadores": []}],
     "totales": [12, 0], "terminada": false, "ganadores": []}

Players are numbered by their place in ``jugadores`` (the engine's player order). A round still
in play has its commitment and the moves made so far (what anyone watching saw), never its
reveal: the check replays only finished rounds, which come before it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .fairness import Deal, commitment_of
from .legal import IllegalMove
from .match import Match, new_match
from .moves import parse_move
from .options import rules_from_json
from .replay import replay
from .rules import InvalidRules
from .state import Round

RECORD_FORMAT = "ocholoco-partida"
RECORD_VERSION = 1


class RecordError(ValueError):
    """A match file that does not check out; the message says where and why, in Spanish."""


@dataclass(frozen=True)
class RecordCheck:
    """A match file that checked out: the match after its finished rounds, each finished
    round's last state, and whether a round was still in play when it was written."""

    match: Match
    rounds: tuple[Round, ...]
    in_play: bool


def record_check(record: Mapping[str, Any]) -> RecordCheck:
    """Check a match file (above): its format and version, then each finished round replayed
    from its reveal (which must hash to its commitment) to the points and winners it states,
    each move by the player it names; then the totals and the match's winners. Raises
    `RecordError` at the first thing that does not agree."""
    if not isinstance(record, Mapping) or record.get("formato") != RECORD_FORMAT:
        raise RecordError("No es el archivo de una partida de Ocho Loco.")
    version = record.get("version")
    if not isinstance(version, int) or version > RECORD_VERSION or version < 1:
        raise RecordError(f"Versión de archivo desconocida: {version!r}.")
    try:
        rules = rules_from_json(record["reglas"])
        players = len(record["jugadores"])
        match = new_match(rules, players)
        rounds = list(record["rondas"])
    except (KeyError, TypeError, ValueError, InvalidRules) as error:
        raise RecordError(f"Al archivo le falta algo o tiene algo mal: {error}.") from None
    finished: list[Round] = []
    in_play = False
    for entry in rounds:
        if in_play:
            raise RecordError("Hay rondas después de una que no terminó.")
        if entry.get("terminada"):
            state = _round_checked(entry, match)
            match = match.apply_round(state)
            finished.append(state)
        else:
            _in_play_checked(entry, match)
            in_play = True
    if list(record.get("totales", ())) != list(match.totals):
        raise RecordError(f"Los totales no son la suma de las rondas: {list(match.totals)}.")
    over = bool(record.get("terminada"))
    if over != match.finished or list(record.get("ganadores", ())) != list(match.winners):
        raise RecordError("El final de la partida no es el que dan los puntos.")
    return RecordCheck(match, tuple(finished), in_play)


def _round_checked(entry: Mapping[str, Any], match: Match) -> Round:
    """A finished round's last state, replayed from its reveal; RecordError if anything it
    states does not agree."""
    number = entry.get("numero")
    where = f"Ronda {number}"
    if number != match.round_number or entry.get("reparte") != match.dealer:
        raise RecordError(f"{where}: no es la ronda que sigue, o no la reparte quien toca.")
    reveal, commitment = entry.get("revelado") or "", entry.get("huella") or ""
    if commitment_of(reveal) != commitment:
        raise RecordError(f"{where}: el reparto revelado no da la huella anunciada.")
    try:
        deal = Deal.parse(reveal)
    except ValueError:
        raise RecordError(f"{where}: el reparto revelado no se entiende.") from None
    moves = list(entry.get("jugadas", ()))
    try:
        states = replay(
            match.rules, match.players, match.dealer, deal,
            (parse_move(move["jugada"]) for move in moves),
        )
    except (IllegalMove, ValueError, KeyError, TypeError) as error:
        raise RecordError(f"{where}: una jugada no se puede hacer: {error}.") from None
    if len(states) != len(moves) + 1:
        raise RecordError(f"{where}: hay jugadas después del final de la ronda.")
    for n, (state, move) in enumerate(zip(states, moves, strict=False), 1):
        if move.get("jugador") != state.turn:
            raise RecordError(f"{where}, jugada {n}: no la hace quien tiene el turno.")
    last = states[-1]
    if not last.finished:
        raise RecordError(f"{where}: las jugadas no terminan la ronda.")
    stated = (
        list(entry.get("puntos") or ()), list(entry.get("ganadores", ())),
        bool(entry.get("bloqueada")),
    )
    if stated != (list(last.round_points), list(last.winners), last.blocked):
        raise RecordError(f"{where}: los puntos o los ganadores no son los que da el juego.")
    return last


def _in_play_checked(entry: Mapping[str, Any], match: Match) -> None:
    """A round still in play is the match's next one, and shows nothing of its deal."""
    if entry.get("numero") != match.round_number or entry.get("revelado"):
        raise RecordError(f"Ronda {entry.get('numero')}: una ronda en juego no se revela.")
