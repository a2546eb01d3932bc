"""The embedded default's channel layer: Channels' in-memory layer, made to scale.

Channels' `InMemoryChannelLayer` scans every channel and every group membership for expired
messages on each send to a group and each receive: with a few hundred open pages that scan
ran several times per move per viewer and cost more than the move itself (measured with the
load benchmark). Here the scan runs at most once a second; nothing else changes (messages
still expire after `expiry`, memberships after `group_expiry`).

Sending to a group puts the message on each member's queue in turn: Channels' layer made a
task per member and a deep copy of the message per member, and built a queue on every send
only to drop it when the channel had one. Every member gets a copy of its own, as before (a
shallow one: the values a message carries, text and numbers, cannot change).
"""

from __future__ import annotations

import asyncio
import contextlib
import time

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer as ChannelsInMemoryChannelLayer

CLEAN_EVERY = 1.0  # seconds


class InMemoryChannelLayer(ChannelsInMemoryChannelLayer):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._next_clean = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now < self._next_clean:
            return
        self._next_clean = now + CLEAN_EVERY
        super()._clean_expired()

    async def send(self, channel: str, message: dict) -> None:
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        assert "__asgi_channel__" not in message
        self._put(channel, message)

    def _put(self, channel: str, message: dict) -> None:
        queue = self.channels.get(channel)
        if queue is None:
            queue = self.channels[channel] = asyncio.Queue(maxsize=self.get_capacity(channel))
        try:
            queue.put_nowait((time.time() + self.expiry, dict(message)))
        except asyncio.QueueFull:
            raise ChannelFull(channel) from None

    async def group_send(self, group: str, message: dict) -> None:
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, ())):
            with contextlib.suppress(ChannelFull):  # a member not reading misses it, as before
                self._put(channel, message)
