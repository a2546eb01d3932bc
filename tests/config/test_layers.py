"""The embedded default's channel layer: Channels' layer specification, in this process's
memory, with what expired looked for at most once a second."""

from __future__ import annotations

import asyncio
import inspect

import pytest
from channels.exceptions import ChannelFull
from channels.layers import BaseChannelLayer

from config import layers
from tests.live import run_async

run = run_async


def test_a_group_send_reaches_each_member_once_and_no_one_else():
    async def scenario():
        layer = layers.InMemoryChannelLayer()
        ana, beto, other = [await layer.new_channel() for _ in range(3)]
        await layer.group_add("table-1-watchers", ana)
        await layer.group_add("table-1-watchers", beto)
        await layer.group_add("table-2-watchers", other)
        await layer.group_send("table-1-watchers", {"type": "table.fragment", "html": "<b>"})
        got = [await layer.receive(ana), await layer.receive(beto)]
        return got, layer.channels[other].qsize() if other in layer.channels else 0

    got, others = run(scenario())
    assert got == [{"type": "table.fragment", "html": "<b>"}] * 2
    assert others == 0


def test_each_member_gets_a_copy_of_its_own():
    async def scenario():
        layer = layers.InMemoryChannelLayer()
        ana, beto = await layer.new_channel(), await layer.new_channel()
        for channel in (ana, beto):
            await layer.group_add("g", channel)
        await layer.group_send("g", {"type": "x"})
        first = await layer.receive(ana)
        first["type"] = "changed by its reader"
        return await layer.receive(beto)

    assert run(scenario()) == {"type": "x"}


def test_messages_come_in_the_order_they_were_sent():
    async def scenario():
        layer = layers.InMemoryChannelLayer()
        channel = await layer.new_channel()
        for n in range(5):
            await layer.send(channel, {"type": "x", "n": n})
        return [(await layer.receive(channel))["n"] for _ in range(5)]

    assert run(scenario()) == [0, 1, 2, 3, 4]


def test_a_full_channel_refuses_a_send_and_a_full_group_member_misses_the_message():
    async def scenario():
        layer = layers.InMemoryChannelLayer(capacity=2)
        full, reading = await layer.new_channel(), await layer.new_channel()
        for channel in (full, reading):
            await layer.group_add("g", channel)
        await layer.send(full, {"type": "a"})
        await layer.send(full, {"type": "b"})
        with pytest.raises(ChannelFull):
            await layer.send(full, {"type": "c"})
        await layer.group_send("g", {"type": "d"})  # no error: the full member misses it
        return (
            [(await layer.receive(full))["type"] for _ in range(2)],
            (await layer.receive(reading))["type"],
        )

    assert run(scenario()) == (["a", "b"], "d")


def test_a_message_nobody_read_in_time_is_dropped_and_its_channel_leaves_its_groups(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(layers.time, "time", lambda: now[0])

    async def scenario():
        layer = layers.InMemoryChannelLayer(expiry=60)
        gone, alive = await layer.new_channel(), await layer.new_channel()
        for channel in (gone, alive):
            await layer.group_add("g", channel)
        await layer.group_send("g", {"type": "old"})
        await layer.receive(alive)  # one page reads, the other never will
        now[0] += 61
        await layer.group_send("g", {"type": "new"})  # the look for what expired comes first
        return set(layer.groups["g"]), gone in layer.channels, await layer.receive(alive)

    members, kept, message = run(scenario())
    assert members == {next(iter(members))} and not kept and message == {"type": "new"}


def test_what_expired_is_looked_for_at_most_once_a_second(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(layers.time, "time", lambda: now[0])
    looks = []
    monkeypatch.setattr(layers.InMemoryChannelLayer, "expire", lambda self, at: looks.append(at))

    async def scenario():
        layer = layers.InMemoryChannelLayer()
        channel = await layer.new_channel()
        await layer.group_add("g", channel)
        for _ in range(50):  # a busy second: many sends, one look
            await layer.group_send("g", {"type": "x"})
            await layer.receive(channel)
        now[0] += layers.CLEAN_EVERY
        await layer.group_send("g", {"type": "x"})  # a second later: looked at again

    run(scenario())
    assert looks == [1000.0, 1000.0 + layers.CLEAN_EVERY]


def test_a_membership_older_than_group_expiry_ends(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(layers.time, "time", lambda: now[0])

    async def scenario():
        layer = layers.InMemoryChannelLayer(group_expiry=100)
        channel = await layer.new_channel()
        await layer.group_add("g", channel)
        now[0] += 101
        await layer.group_send("g", {"type": "x"})
        return layer.groups

    assert run(scenario()) == {}


def test_a_page_that_closes_leaves_no_channel_behind():
    async def scenario():
        layer = layers.InMemoryChannelLayer()
        channel = await layer.new_channel()
        reading = asyncio.ensure_future(layer.receive(channel))
        await asyncio.sleep(0)
        assert channel in layer.channels
        reading.cancel()
        with pytest.raises(asyncio.CancelledError):
            await reading
        return channel in layer.channels

    assert run(scenario()) is False


def test_the_layer_overrides_only_the_methods_channels_documents_for_a_layer():
    """Where we extend Channels (docs/architecture.md): the channel layer specification's
    methods, with Channels' own signatures. If Channels renames or reshapes one, this fails."""
    documented = {
        "send", "receive", "new_channel", "flush", "group_add", "group_discard", "group_send",
    }
    own = {
        name for name, value in vars(layers.InMemoryChannelLayer).items()
        if callable(value) and hasattr(BaseChannelLayer, name)
    }
    assert own - {"__init__"} <= documented | {"close"}
    for name in documented:
        ours = inspect.signature(getattr(layers.InMemoryChannelLayer, name))
        theirs = inspect.signature(getattr(BaseChannelLayer, name))
        assert list(ours.parameters)[: len(theirs.parameters)] == list(theirs.parameters), name
    assert set(layers.InMemoryChannelLayer.extensions) == {"groups", "flush"}
