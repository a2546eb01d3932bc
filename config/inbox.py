"""`Inbox`: the messages waiting for one reader, as an `asyncio.Queue` keeps them, in a tenth
of its memory.

Every open page had two queues: the one daphne feeds its socket's events into, and its
channel's in the channel layer. An `asyncio.Queue` is 3.4 KB (three deques and an Event, each
deque a block of 64 slots), most of an idle page's memory that was not the connection itself;
an inbox is a list and, while someone waits, a future: about 300 bytes.

It keeps the queue's behaviour that its users rely on: first in, first out; `get` waits for a
message; a reader cancelled after it was woken passes the wake-up on; a full inbox refuses
(`asyncio.QueueFull`). It has no length on purpose: daphne tests its queue for truth.
"""

from __future__ import annotations

import asyncio
from typing import Any


class Inbox:
    __slots__ = ("capacity", "items", "waiters")

    def __init__(self, capacity: int = 0) -> None:
        self.capacity = capacity  # 0: no bound
        self.items: list[Any] = []  # usually empty, or one message
        self.waiters: list[asyncio.Future] = []

    def empty(self) -> bool:
        return not self.items

    def put_nowait(self, item: Any) -> None:
        if self.capacity and len(self.items) >= self.capacity:
            raise asyncio.QueueFull
        self.items.append(item)
        self._wake_next()

    def get_nowait(self) -> Any:
        if not self.items:
            raise asyncio.QueueEmpty
        return self.items.pop(0)

    async def get(self) -> Any:
        while not self.items:
            waiter = asyncio.get_running_loop().create_future()
            self.waiters.append(waiter)
            try:
                await waiter
            except BaseException:
                waiter.cancel()
                if waiter in self.waiters:
                    self.waiters.remove(waiter)
                if self.items and not waiter.cancelled():
                    self._wake_next()  # it was woken, then cancelled: the next one reads
                raise
        return self.items.pop(0)

    def _wake_next(self) -> None:
        while self.waiters:
            waiter = self.waiters.pop(0)
            if not waiter.done():
                waiter.set_result(None)
                return
