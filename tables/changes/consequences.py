"""What a table change causes, in one place: read `table_changed` top to bottom.

Every service (`tables.changes.services`, `tables.changes.moderation`) changes a table through
`tables.changes.unit_of_work.changing`, which calls `table_changed` once per change, inside the
change's transaction and still holding the table's lock, with the table as the change left it (seats
and game state already decoded: nothing is read again). Two kinds of listeners plug in, registered
by the apps that own them at start-up (their `AppConfig.ready`), so that `tables` never imports
them:

- **Recorders** run inside the transaction: work that must commit or roll back with the
  change, and nothing slow. The robots enqueue their next turn (`bots`), the chat records
  moderation and renames (`chat`). Before them, `tables.live.turn_alerts` (called by name: it is
  `tables`' own) enqueues a "te toca" alert.
- **Frame parts** run after the commit, while the frames are rendered: HTML that rides in
  every viewer's frame for this version (the chat's lines about the events).

After the commit, `tables.live.broadcast` renders each audience's frame once (the public board, each
seat's panel, the watchers' panel, plus the frame parts) and sends one frame per viewer.
"""

from __future__ import annotations

from django.db import transaction

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
    extra = plug.frame_parts_html(change)
    broadcast.table_publish(change.snapshot, extra_html=extra)
