"""What a table change causes, in one place: read `table_changed` top to bottom.

`changing` calls it once per change, inside the change's transaction and under the table's lock,
with the table as the change left it. Inside the transaction: the "te toca" alert, then the
recorders (`tables.plug`); after the commit: each audience's frame rendered once in each language
the table's pages read, with the frame parts, and one frame sent to every viewer.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import translation

from tables import plug
from tables.live import broadcast, turn_alerts
from tables.state.snapshot import AppliedChange


def table_changed(change: AppliedChange) -> None:
    """Everything a table change causes. Called by `tables.changes.unit_of_work` inside the
    transaction."""
    # 1. Inside the transaction: durable follow-ups (tasks, records), committed with the change.
    turn_alerts.turn_alert_schedule(change)
    plug.recorders_run(change)
    # 2. After the commit: one frame per audience, rendered once, sent to every viewer. A
    # failure there (a bug, Redis down) is logged, never undoes nor fails the committed change:
    # the pages catch up by themselves (`tables.live.catch_up`).
    transaction.on_commit(lambda: _publish(change), robust=True)


def _publish(change: AppliedChange) -> None:
    for language in change.table.languages_read():  # each language its pages read
        with translation.override(language):
            extra = plug.frame_parts_html(change)
        broadcast.table_publish(change.snapshot, language, extra_html=extra)
