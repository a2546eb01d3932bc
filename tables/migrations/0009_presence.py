"""Who has a table open (`Presence`) is the table's: it moves here from the chat, which keeps
no copy (`chat.0003_presence_moves_to_tables` copies the rows over and drops its own)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0008_player_address"),
    ]

    operations = [
        migrations.CreateModel(
            name="Presence",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("channel_name", models.CharField(max_length=200, unique=True)),
                ("seat_number", models.PositiveSmallIntegerField(blank=True, null=True)),
                ("connected_at", models.DateTimeField(auto_now_add=True)),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="presences",
                        to="tables.table",
                    ),
                ),
            ],
        ),
    ]
