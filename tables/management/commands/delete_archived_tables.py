"""Delete the tables archived for longer than ARCHIVED_TABLES_KEEP_DAYS, with their rounds, log
and chat (the hourly housekeeping does it too). Never a table that is not archived."""

from django.conf import settings
from django.core.management.base import BaseCommand

from tables.changes.services import tables_delete_archived


class Command(BaseCommand):
    help = (
        "Borra las mesas archivadas hace más de ARCHIVED_TABLES_KEEP_DAYS días, con sus rondas, "
        "su registro y su chat (0: se guardan para siempre)."
    )

    def handle(self, *args: object, **options: object) -> None:
        days = settings.ARCHIVED_TABLES_KEEP_DAYS
        if days <= 0:
            self.stdout.write("Las mesas archivadas se guardan para siempre "
                              "(ARCHIVED_TABLES_KEEP_DAYS=0): no se borró ninguna.")
            return
        self.stdout.write(
            f"Mesas archivadas hace más de {days} días, borradas: {tables_delete_archived()}"
        )
