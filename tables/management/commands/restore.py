"""`manage.py restore FILE`: a backup in place of the database, on a stopped site
(docs/operating.md, "Backups"). Bad input is refused with the reason and changes nothing."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from tables.backups.folder import BackupError
from tables.backups.services import backup_check, backup_restore, site_running_check
from tables.state.turn_clock import turn_clocks_shift


class Command(BaseCommand):
    help = (
        "Restaura una copia hecha por `manage.py backup` (el sitio detenido): guarda antes la "
        "base de datos que reemplaza, migra hacia adelante y devuelve a cada turno su tiempo."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="la copia (.sqlite3 o .pgdump) o su manifiesto (.json)")
        parser.add_argument(
            "--noinput", "--no-input", action="store_false", dest="interactive",
            help="no preguntar antes de reemplazar la base de datos",
        )

    def handle(self, *args: object, file: str, interactive: bool, **options: object) -> None:
        try:
            restorable = backup_check(file=file)
            site_running_check()
        except BackupError as error:
            raise CommandError(f"No se restauró nada: {error}") from error
        manifest = restorable.manifest
        counts = manifest["counts"]
        self.stdout.write(
            f"Copia del {manifest['taken_at']} (versión {manifest['release'] or 'sin nombre'}): "
            f"{_count(counts['tables'], 'mesa')}, {_count(counts['rounds'], 'ronda')}, "
            f"{_count(counts['events'], 'evento')}."
        )
        if interactive:
            answer = input(
                "Esto reemplaza la base de datos actual (antes se guarda una copia). "
                "Escribe «si» para seguir: "
            )
            if answer.strip().lower() not in {"si", "sí"}:
                raise CommandError("No se restauró nada.")
        try:
            restored = backup_restore(restorable=restorable, turn_clocks_shift=turn_clocks_shift)
        except BackupError as error:
            raise CommandError(f"No se restauró: {error}") from error
        if restored.replaced is None:
            self.stdout.write("No había base de datos que guardar antes.")
        else:
            self.stdout.write(
                f"La base de datos reemplazada quedó en {restored.replaced.data_path}"
            )
        self.stdout.write(
            f"Restaurada. Turnos con reloj: {restored.clocks}, con "
            f"{int(restored.shifted_by.total_seconds())} s más (el tiempo desde la copia). "
            f"Los secretos de esa copia: {restorable.secrets_path}"
        )


def _count(number: int, noun: str) -> str:
    """A count and its noun: 1 ronda, 2 rondas (each noun counted here takes an "s")."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"
