"""`Inbox`: what asyncio.Queue did for a connection's and a channel's one reader, lighter."""

from __future__ import annotations

import asyncio
import sys

import pytest

from config.inbox import Inbox
from tests.live import run_async


def test_messages_come_out_in_the_order_they_went_in_and_a_reader_waits_for_one():
    async def scenario():
        inbox = Inbox()
        inbox.put_nowait("first")
        reading = asyncio.ensure_future(inbox.get())
        got = [await reading]
        reading = asyncio.ensure_future(inbox.get())
        await asyncio.sleep(0)
        assert not reading.done()  # nothing there: it waits
        inbox.put_nowait("second")
        inbox.put_nowait("third")
        got += [await reading, await inbox.get()]
        return got, inbox.empty()

    assert run_async(scenario()) == (["first", "second", "third"], True)


def test_a_full_inbox_refuses_and_keeps_what_it_had():
    inbox = Inbox(capacity=1)
    inbox.put_nowait("kept")
    with pytest.raises(asyncio.QueueFull):
        inbox.put_nowait("refused")
    assert inbox.get_nowait() == "kept"
    with pytest.raises(asyncio.QueueEmpty):
        inbox.get_nowait()


def test_a_reader_cancelled_after_it_was_woken_passes_the_message_to_the_next():
    async def scenario():
        inbox = Inbox()
        first = asyncio.ensure_future(inbox.get())
        second = asyncio.ensure_future(inbox.get())
        await asyncio.sleep(0)
        inbox.put_nowait("message")  # wakes the first reader...
        first.cancel()  # ...which is cancelled before it runs
        return await asyncio.wait_for(second, 1), first.cancelled()

    assert run_async(scenario()) == ("message", True)


def test_a_cancelled_reader_leaves_nothing_waiting_behind():
    async def scenario():
        inbox = Inbox()
        reading = asyncio.ensure_future(inbox.get())
        await asyncio.sleep(0)
        reading.cancel()
        await asyncio.sleep(0)
        return inbox.waiters

    assert run_async(scenario()) == []


def test_an_inbox_is_true_as_daphne_tests_its_queue_and_a_tenth_of_a_queue():
    async def sizes():
        queue, inbox = asyncio.Queue(), Inbox()
        return _deep_size(queue), _deep_size(inbox)

    assert Inbox()  # daphne: `if self.application_queue:`
    queue, inbox = run_async(sizes())
    assert inbox * 10 <= queue


def _deep_size(thing) -> int:
    """Bytes of `thing` and of the containers it holds (its attributes, one level down)."""
    size = sys.getsizeof(thing)
    parts = (
        vars(thing).values()
        if hasattr(thing, "__dict__")
        else (getattr(thing, name) for name in type(thing).__slots__)
    )
    for part in parts:
        size += sys.getsizeof(part)
        if hasattr(part, "__dict__"):
            size += sum(sys.getsizeof(v) for v in vars(part).values())
    return size
