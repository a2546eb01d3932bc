"""Tasks still queued under the module paths they had before `tables/` was laid out in
sub-packages are queued under their new paths (a queued task is found by its path)."""

from django.db import migrations

MOVED = {
    "tables.push.turn_alert": "tables.live.turn_alerts.turn_alert",
    "tables.workers.tables_housekeeping": "tables.changes.workers.tables_housekeeping",
}


def _repath(apps, moves):
    task_result = apps.get_model("django_tasks_database", "DBTaskResult")
    for old, new in moves.items():
        task_result.objects.filter(task_path=old).update(task_path=new)


def forwards(apps, schema_editor):
    _repath(apps, MOVED)


def backwards(apps, schema_editor):
    _repath(apps, {new: old for old, new in MOVED.items()})


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0009_presence"),
        ("django_tasks_database", "0021_conditional_partial_index_ordering"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
