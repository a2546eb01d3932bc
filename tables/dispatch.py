"""What a table change causes, in one place: read `table_changed` top to bottom.

Every service (`tables.services`, `tables.moderation`) changes a table through
`tables.changing.changing`, which calls `table_changed` once per change, inside the change's
transaction and still holding the table's lock, with the table as the change left it (seats
and game state already decoded: nothing is read again). Two kinds of listeners plug in,
registered by the apps that own them at start-up (their `AppConfig.ready`), so that `tables`
never imports them:

- **Recorders** run inside the transaction: work that must commit or roll back with the
  change, and nothing slow. The robots enqueue their next turn (`bots`), the chat records
  moderation and renames (`chat`). Before them, `tables.push` (called by name: it is
  `tables`' own) enqueues a "te toca" alert.
- **Frame parts** run after the commit, while the frames are rendered: HTML that rides in
  every viewer's frame for this version (the chat's lines about the events).

After the commit, `tables.publish` renders each audience's frame once (the public board, each
seat's panel, the watchers' panel, plus the frame parts) and sends one frame per viewer.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction

from tables import publish, push
from tables.snapshot import AppliedChange

Recorder = Callable[[AppliedChange], None]
FramePart = Callable[[AppliedChange], str]

_recorders: list[Recorder] = []
_frame_parts: list[FramePart] = []


def recorder_register(recorder: Recorder) -> Recorder:
    """Run `recorder` inside every table change's transaction (durable follow-up work)."""
    if recorder not in _recorders:
        _recorders.append(recorder)
    return recorder


def frame_part_register(part: FramePart) -> FramePart:
    """Add `part`'s HTML to every viewer's frame of every change (rendered after commit)."""
    if part not in _frame_parts:
        _frame_parts.append(part)
    return part


def table_changed(change: AppliedChange) -> None:
    """Everything a table change causes. Called by `tables.changing` inside the transaction."""
    # 1. Inside the transaction: durable follow-ups (tasks, records), committed with the change.
    push.turn_alert_schedule(change)
    for record in _recorders:
        record(change)
    # 2. After the commit: one frame per audience, rendered once, sent to every viewer. A
    # failure there (a bug, Redis down) is logged, never undoes nor fails the committed change:
    # the pages catch up by themselves (`tables.resync`).
    transaction.on_commit(lambda: _publish(change), robust=True)


def _publish(change: AppliedChange) -> None:
    extra = "".join(part(change) for part in _frame_parts)
    publish.table_publish(change.snapshot, extra_html=extra)
