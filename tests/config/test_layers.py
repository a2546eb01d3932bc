"""The embedded default's channel layer: Channels' in-memory layer, its expiry scan throttled."""

from __future__ import annotations

import time
from types import SimpleNamespace

from config import layers
from tests.live import run_async

run = run_async


def test_messages_and_groups_work_as_in_channels(monkeypatch):
    async def scenario():
        layer = layers.InMemoryChannelLayer()
        channel = await layer.new_channel()
        await layer.group_add("table-1-watchers", channel)
        await layer.group_send("table-1-watchers", {"type": "table.fragment", "html": "<b>"})
        return await layer.receive(channel)

    assert run(scenario()) == {"type": "table.fragment", "html": "<b>"}


def test_the_expiry_scan_runs_at_most_once_a_second_and_still_expires(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(layers.time, "monotonic", lambda: now[0])
    scans = []
    monkeypatch.setattr(
        layers.InMemoryChannelLayer, "_scan_expired", lambda self: scans.append(now[0])
    )

    async def scenario():
        layer = layers.InMemoryChannelLayer()
        channel = await layer.new_channel()
        await layer.group_add("g", channel)
        for _ in range(50):  # a busy second: many sends, one scan
            await layer.group_send("g", {"type": "x"})
            await layer.receive(channel)
        now[0] += layers.CLEAN_EVERY
        await layer.group_send("g", {"type": "x"})  # a second later: scanned again

    run(scenario())
    assert scans == [1000.0, 1000.0 + layers.CLEAN_EVERY]


def test_an_expired_message_is_dropped_by_the_next_scan(monkeypatch):
    now = [1000.0]  # the clock messages expire by (Channels' and ours), moved by the test
    clock = SimpleNamespace(time=lambda: now[0], monotonic=time.monotonic)
    monkeypatch.setattr("channels.layers.time", clock)
    monkeypatch.setattr(layers, "time", clock)

    async def scenario():
        layer = layers.InMemoryChannelLayer(expiry=60)
        channel = await layer.new_channel()
        await layer.send(channel, {"type": "old"})
        now[0] += 61  # the message's minute has passed
        layer._next_clean = 0.0  # the second has passed
        layer._clean_expired()
        return channel in layer.channels

    assert run(scenario()) is False


def test_a_group_send_reaches_every_member_with_room_and_skips_a_full_one(monkeypatch):
    async def scenario():
        layer = layers.InMemoryChannelLayer(capacity=1)
        full, reading = await layer.new_channel(), await layer.new_channel()
        for channel in (full, reading):
            await layer.group_add("g", channel)
        await layer.send(full, {"type": "waiting"})  # its one place is taken
        await layer.group_send("g", {"type": "table.fragment", "html": "<b>"})
        got = await layer.receive(reading)
        return got, await layer.receive(full), layer.channels

    got, first, left = run(scenario())
    assert got == {"type": "table.fragment", "html": "<b>"}
    assert first == {"type": "waiting"}  # the full member missed the message, nothing else did
    assert left == {}
