"""Tasks queued before `tables/` was laid out in sub-packages run after it (migration 0010)."""

from __future__ import annotations

from importlib import import_module

import pytest
from django.apps import apps
from django_tasks_db.models import DBTaskResult

from tables.changes.workers import tables_housekeeping

pytestmark = pytest.mark.django_db

moved = import_module("tables.migrations.0010_moved_task_paths")


def test_a_task_queued_under_its_old_path_is_found_under_its_new_one_and_back():
    queued = tables_housekeeping.enqueue()
    DBTaskResult.objects.filter(pk=queued.id).update(task_path="tables.workers.tables_housekeeping")
    with pytest.raises(ImportError):
        DBTaskResult.objects.get(pk=queued.id).task  # noqa: B018 (the old module is gone)

    moved.forwards(apps, None)
    assert DBTaskResult.objects.get(pk=queued.id).task == tables_housekeeping

    moved.backwards(apps, None)
    row = DBTaskResult.objects.get(pk=queued.id)
    assert row.task_path == "tables.workers.tables_housekeeping"


def test_every_moved_path_names_a_task_that_exists():
    from django.utils.module_loading import import_string

    for new in moved.MOVED.values():
        assert import_string(new).module_path == new
