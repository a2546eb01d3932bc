"""The embedded default's channel layer: Channels' in-memory layer, its expiry scan throttled."""

from __future__ import annotations

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
        layers.ChannelsInMemoryChannelLayer, "_clean_expired", lambda self: scans.append(now[0])
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
    now = [1000.0]  # Channels' own clock for expiry, moved by the test
    monkeypatch.setattr("channels.layers.time", SimpleNamespace(time=lambda: now[0]))

    async def scenario():
        layer = layers.InMemoryChannelLayer(expiry=60)
        channel = await layer.new_channel()
        await layer.send(channel, {"type": "old"})
        now[0] += 61  # the message's minute has passed
        layer._next_clean = 0.0  # the second has passed
        layer._clean_expired()
        return channel in layer.channels

    assert run(scenario()) is False
