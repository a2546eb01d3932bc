"""A spectator's messages and mutes carry their address (hashed), no longer a browser id that
a client could drop with its cookie. Old browser ids match no address: they are cleared."""

from django.db import migrations, models


def clear_browser_ids(apps, schema_editor):
    apps.get_model("chat", "ChatMessage").objects.update(address="")
    apps.get_model("chat", "ChatMute").objects.filter(seat_number__isnull=True).delete()


class Migration(migrations.Migration):
    dependencies = [("chat", "0001_initial")]

    operations = [
        migrations.RemoveConstraint(model_name="chatmute", name="mute_names_a_seat_or_a_browser"),
        migrations.RenameField(model_name="chatmessage", old_name="browser", new_name="address"),
        migrations.RenameField(model_name="chatmute", old_name="browser", new_name="address"),
        migrations.AlterField(
            model_name="chatmessage",
            name="address",
            field=models.CharField(db_index=True, max_length=32, verbose_name="dirección (cifrada)"),
        ),
        migrations.AlterField(
            model_name="chatmute",
            name="address",
            field=models.CharField(blank=True, max_length=32, verbose_name="dirección (cifrada)"),
        ),
        migrations.RunPython(clear_browser_ids, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="chatmute",
            constraint=models.CheckConstraint(
                condition=models.Q(("seat_number__isnull", False), models.Q(("address", ""), _negated=True), _connector="OR"),
                name="mute_names_a_seat_or_an_address",
            ),
        ),
    ]
