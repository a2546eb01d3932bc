"""Check a downloaded match file: `manage.py match_check partida.json` (`ocholoco.record_check`:
every finished round replayed from its reveal, each reveal against its commitment)."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

import ocholoco
from tables.audiences import wording


class Command(BaseCommand):
    help = (
        "Comprueba el archivo JSON de una partida: cada reparto revelado da su huella y las "
        "jugadas, repetidas, dan los puntos y los ganadores."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="el archivo .json descargado de la mesa")

    def handle(self, *args: object, **options: object) -> None:
        try:
            record = json.loads(Path(str(options["file"])).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise CommandError(f"No se pudo leer el archivo: {error}") from None
        try:
            checked = ocholoco.record_check(record)
        except ocholoco.RecordError as refused:
            why = wording.record_error_sentence(refused.reason)
            raise CommandError(f"La partida no se comprueba: {why}") from None
        names = [player.get("name", "?") for player in record["players"]]
        totals = " · ".join(f"{n} {t}" for n, t in zip(names, checked.match.totals, strict=True))
        count = len(checked.rounds)
        rounds = "1 ronda terminada" if count == 1 else f"{count} rondas terminadas"
        self.stdout.write(
            f"Partida comprobada: {rounds}, cada reparto "
            f"da su huella y las jugadas dan los puntos. Total: {totals}."
        )
        if checked.in_play:
            self.stdout.write("La última ronda seguía en juego: su reparto no se reveló.")
