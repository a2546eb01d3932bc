"""Decoded game states, kept in this process: a table's next change and each page that
(re)connects read the JSON its last change wrote, and one decoded value serves them all.

The engine's values are immutable; a kept state is used only for JSON equal to the JSON it
stands for (compared in C), so a table changed by another process, or by hand, is decoded
afresh."""

from __future__ import annotations

from typing import Any

import ocholoco

ROUND, MATCH = "round", "match"
KEPT_STATES = 4000  # a round and a match for each of 2,000 tables (a few MB)

_kept: dict[tuple[int, str], tuple[dict[str, Any], Any]] = {}


def decoded_state(table_id: int, kind: str, data: dict[str, Any] | None) -> Any:
    if not data:
        return None
    kept = _kept.get((table_id, kind))
    if kept is not None and kept[0] == data:
        return kept[1]
    value = ocholoco.from_json(data)
    decoded_keep(table_id, kind, data, value)
    return value


def decoded_keep(table_id: int, kind: str, data: dict[str, Any], value: Any) -> None:
    """`data` is `ocholoco.to_json(value)`, as a change saved it: the next read takes `value`."""
    if len(_kept) >= KEPT_STATES:
        _kept.clear()
    _kept[(table_id, kind)] = (data, value)


def decoded_release(table_id: int) -> None:
    """The table went quiet here: its states go (the next read decodes them)."""
    _kept.pop((table_id, ROUND), None)
    _kept.pop((table_id, MATCH), None)


def decoded_clear() -> None:
    """Every table's states go (a test starts afresh)."""
    _kept.clear()
