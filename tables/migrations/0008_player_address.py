"""The players' own address for a table (`Table.player_code`), and the cache table the rate
limits count in when there is no Redis (`settings.CACHES`)."""

from django.core.management import call_command
from django.db import migrations, models

import tables.models


def give_each_table_its_address(apps, schema_editor):
    Table = apps.get_model("tables", "Table")
    for table in Table.objects.filter(player_code__isnull=True).only("pk"):
        table.player_code = tables.models.new_table_code()
        table.save(update_fields=["player_code"])


def create_cache_table(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("tables", "0007_deal_commitments")]

    operations = [
        migrations.AddField(
            model_name="table",
            name="player_code",
            field=models.CharField(max_length=24, null=True, verbose_name="dirección de los jugadores"),
        ),
        migrations.RunPython(give_each_table_its_address, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="table",
            name="player_code",
            field=models.CharField(
                default=tables.models.new_table_code, max_length=24, unique=True,
                verbose_name="dirección de los jugadores",
            ),
        ),
        migrations.RunPython(create_cache_table, migrations.RunPython.noop),
    ]
