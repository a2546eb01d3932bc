"""Archive the tables with no move for 30 days (read-only, still viewable). Run it daily."""

from django.core.management.base import BaseCommand

from tables.changes.services import tables_archive_stale


class Command(BaseCommand):
    help = "Archiva las mesas sin movimiento desde hace 30 días."

    def handle(self, *args: object, **options: object) -> None:
        self.stdout.write(f"Mesas archivadas: {tables_archive_stale()}")
