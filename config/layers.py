"""The embedded default's channel layer: the channel layer specification, in this process's
memory, at a cost per message that does not grow with the number of open pages.

It looks for what expired at most once a second, where Channels' own `InMemoryChannelLayer`
scans every channel and group membership on each group send and each receive.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import string
import time

from channels.exceptions import ChannelFull
from channels.layers import BaseChannelLayer

CLEAN_EVERY = 1.0  # seconds between looks for what expired


class InMemoryChannelLayer(BaseChannelLayer):
    """`BaseChannelLayer`'s documented methods (`send`, `receive`, `new_channel`, `group_add`,
    `group_discard`, `group_send`, `flush`, `close`), behaving as Channels' layer does: a message
    nobody read within `expiry` seconds goes, and its channel leaves every group (it is not being
    read); a membership older than `group_expiry` ends; a full channel refuses a send
    (`ChannelFull`), and a group's member that is full misses the message. Every member gets a
    copy of its own (a shallow one: a message's values are text and numbers)."""
    extensions = ["groups", "flush"]

    def __init__(
        self, expiry: int = 60, group_expiry: int = 86400, capacity: int = 100,
        channel_capacity: dict | None = None,
    ) -> None:
        super().__init__(expiry=expiry, capacity=capacity)
        self.channel_capacity = self.compile_capacities(channel_capacity or {})
        self.group_expiry = group_expiry
        self.channels: dict[str, asyncio.Queue] = {}
        self.groups: dict[str, dict[str, float]] = {}  # group -> {channel: when it joined}
        self.next_clean = 0.0

    async def send(self, channel: str, message: dict) -> None:
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        assert "__asgi_channel__" not in message
        self.put(channel, message)

    async def receive(self, channel: str) -> dict:
        self.require_valid_channel_name(channel)
        self.clean_expired()
        queue = self.queue(channel)
        try:
            while True:
                expires, message = await queue.get()
                if expires >= time.time():
                    return message
        except asyncio.CancelledError:
            # Its reader is gone (a page closed): the channel goes unless a message waits.
            if queue.empty() and self.channels.get(channel) is queue:
                del self.channels[channel]
            raise

    async def new_channel(self, prefix: str = "specific.") -> str:
        return f"{prefix}inmemory!{''.join(random.choices(string.ascii_letters, k=12))}"

    async def flush(self) -> None:
        self.channels = {}
        self.groups = {}

    async def close(self) -> None:
        pass  # nothing is held outside this process's memory

    async def group_add(self, group: str, channel: str) -> None:
        self.require_valid_group_name(group)
        self.require_valid_channel_name(channel)
        self.groups.setdefault(group, {})[channel] = time.time()

    async def group_discard(self, group: str, channel: str) -> None:
        self.require_valid_channel_name(channel)
        self.require_valid_group_name(group)
        members = self.groups.get(group)
        if members is not None:
            members.pop(channel, None)
            if not members:
                del self.groups[group]

    async def group_send(self, group: str, message: dict) -> None:
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_group_name(group)
        self.clean_expired()
        for channel in list(self.groups.get(group, ())):
            with contextlib.suppress(ChannelFull):
                self.put(channel, message)

    # --- This layer's own ------------------------------------------------------------------

    def queue(self, channel: str) -> asyncio.Queue:
        queue = self.channels.get(channel)
        if queue is None:
            queue = self.channels[channel] = asyncio.Queue(self.get_capacity(channel))
        return queue

    def put(self, channel: str, message: dict) -> None:
        try:
            self.queue(channel).put_nowait((time.time() + self.expiry, dict(message)))
        except asyncio.QueueFull:
            raise ChannelFull(channel) from None

    def clean_expired(self) -> None:
        """`expire` what expired, at most once every CLEAN_EVERY seconds."""
        now = time.time()
        if now >= self.next_clean:
            self.next_clean = now + CLEAN_EVERY
            self.expire(now)

    def expire(self, now: float) -> None:
        """The channels holding a message older than `expiry` lose it and leave their groups;
        memberships older than `group_expiry` end. Only channels with messages waiting are
        looked at (a page reads its own at once)."""
        for channel, queue in list(self.channels.items()):
            if queue.empty():
                continue
            waiting = [queue.get_nowait() for _ in range(queue.qsize())]
            kept = [item for item in waiting if item[0] >= now]
            for item in kept:
                queue.put_nowait(item)
            if len(kept) < len(waiting):
                for members in self.groups.values():
                    members.pop(channel, None)
                if not kept:
                    del self.channels[channel]
        joined_before = now - self.group_expiry
        for group, members in list(self.groups.items()):
            for channel, joined in list(members.items()):
                if joined < joined_before:
                    del members[channel]
            if not members:
                del self.groups[group]
