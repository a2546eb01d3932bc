"""Who has a table open moves to the tables app (`tables.Presence`): the open sockets' rows
are copied there, then the chat's own model and table are dropped (backwards: the rows move
back)."""

from django.db import migrations


def copy_to_tables(apps, schema_editor):
    old, new = apps.get_model("chat", "Presence"), apps.get_model("tables", "Presence")
    new.objects.bulk_create(
        new(channel_name=p.channel_name, seat_number=p.seat_number, table_id=p.table_id,
            connected_at=p.connected_at)
        for p in old.objects.all()
    )


def copy_back(apps, schema_editor):
    old, new = apps.get_model("chat", "Presence"), apps.get_model("tables", "Presence")
    old.objects.bulk_create(
        old(channel_name=p.channel_name, seat_number=p.seat_number, table_id=p.table_id,
            connected_at=p.connected_at)
        for p in new.objects.all()
    )
    new.objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("chat", "0002_mutes_bind_the_address"),
        ("tables", "0009_presence"),
    ]

    operations = [
        migrations.RunPython(copy_to_tables, copy_back),
        migrations.DeleteModel(name="Presence"),
    ]
