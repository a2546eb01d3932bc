"""`manage.py backup`: a consistent copy of the database while the site plays (docs/operating.md,
"Backups"). Prints the file it wrote; exits non-zero, leaving the last good backup, if it fails."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from tables.backups.folder import BackupError
from tables.backups.services import backup_take


class Command(BaseCommand):
    help = (
        "Copia la base de datos (con su manifiesto y, aparte, los secretos) en BACKUP_DIR, "
        "la comprueba y aplica la regla de conservación. Escribe el nombre de la copia."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--label", default="", choices=["", "deploy"],
            help="deploy: la copia de antes de un despliegue (se guardan las últimas aparte).",
        )

    def handle(self, *args: object, label: str, **options: object) -> None:
        try:
            kept = backup_take(label=label)
        except BackupError as error:
            raise CommandError(f"No se hizo la copia: {error}") from error
        except OSError as error:
            raise CommandError(
                f"No se hizo la copia: no se pudo escribir en la carpeta de copias ({error})."
            ) from error
        self.stdout.write(str(kept.data_path))
