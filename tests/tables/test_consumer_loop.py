"""The table consumer's loop (`_dispatch_each`): what Channels' `await_many_dispatch` does,
with one reader per source for as long as the page is open."""

from __future__ import annotations

import asyncio

import pytest
from channels.exceptions import StopConsumer

from config.inbox import Inbox
from tables.consumers import _dispatch_each
from tests.live import run_async


def test_every_message_of_each_source_is_dispatched_in_order_one_at_a_time():
    async def scenario():
        socket, channel = Inbox(), Inbox()
        dispatched, running = [], []

        async def dispatch(message):
            running.append(message)
            assert len(running) == 1, f"{running} dispatched at once"
            await asyncio.sleep(0.001)  # a handler that waits (the greeting reads the database)
            dispatched.append(message)
            running.remove(message)
            if message == "closed":
                raise StopConsumer

        for n in range(5):
            channel.put_nowait(f"frame {n}")
        socket.put_nowait("connect")
        loop = asyncio.ensure_future(_dispatch_each([socket.get, channel.get], dispatch))
        await asyncio.sleep(0.05)
        channel.put_nowait("frame 5")
        await asyncio.sleep(0.01)
        socket.put_nowait("closed")
        with pytest.raises(StopConsumer):
            await asyncio.wait_for(loop, 5)
        return dispatched

    dispatched = run_async(scenario())
    assert [m for m in dispatched if m.startswith("frame")] == [f"frame {n}" for n in range(6)]
    assert dispatched.index("connect") < dispatched.index("closed") == len(dispatched) - 1


def test_a_failing_dispatch_ends_the_loop_with_its_error_and_no_reader_is_left_behind():
    async def scenario():
        socket, channel = Inbox(), Inbox()

        async def dispatch(message):
            raise ValueError(message)

        before = asyncio.all_tasks()
        loop = asyncio.ensure_future(_dispatch_each([socket.get, channel.get], dispatch))
        await asyncio.sleep(0)
        channel.put_nowait("no handler for this")
        with pytest.raises(ValueError, match="no handler for this"):
            await asyncio.wait_for(loop, 5)
        return asyncio.all_tasks() - before - {asyncio.current_task()}, socket.waiters

    left, waiting = run_async(scenario())
    assert left == set() and waiting == []


def test_a_consumer_cancelled_from_outside_cancels_its_readers():
    async def scenario():
        socket, channel = Inbox(), Inbox()

        async def dispatch(message):
            pass

        loop = asyncio.ensure_future(_dispatch_each([socket.get, channel.get], dispatch))
        await asyncio.sleep(0)
        loop.cancel()  # daphne kills an application that outlives its connection
        with pytest.raises(asyncio.CancelledError):
            await loop
        return socket.waiters, channel.waiters

    assert run_async(scenario()) == ([], [])
