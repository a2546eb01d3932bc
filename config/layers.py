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

A channel's messages wait in an `Inbox` (`config.inbox`), not an `asyncio.Queue`: every open
page's consumer waits on its channel, and a queue was 3.4 KB of each open page.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer as ChannelsInMemoryChannelLayer

from config.inbox import Inbox

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
        self._scan_expired()

    def _scan_expired(self) -> None:
        """Channels' scan: expired messages go, and so does their channel from every group (it
        is not being read); then group memberships older than `group_expiry`."""
        now = time.time()
        for channel, inbox in list(self.channels.items()):
            while not inbox.empty() and inbox.items[0][0] < now:
                inbox.get_nowait()
                self._remove_from_groups(channel)
                if inbox.empty():
                    self.channels.pop(channel, None)
        joined_before = int(now) - self.group_expiry
        for members in self.groups.values():
            for name, joined in list(members.items()):
                if joined and joined < joined_before:
                    members.pop(name, None)

    async def send(self, channel: str, message: dict) -> None:
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        assert "__asgi_channel__" not in message
        self._put(channel, message)

    async def receive(self, channel: str) -> dict:
        self.require_valid_channel_name(channel)
        self._clean_expired()
        inbox = self._inbox(channel)
        try:
            _, message = await inbox.get()
        finally:
            if inbox.empty():
                self.channels.pop(channel, None)
        return message

    def _inbox(self, channel: str) -> Inbox:
        inbox = self.channels.get(channel)
        if inbox is None:
            inbox = self.channels[channel] = Inbox(self.get_capacity(channel))
        return inbox

    def _put(self, channel: str, message: dict) -> None:
        try:
            self._inbox(channel).put_nowait((time.time() + self.expiry, dict(message)))
        except asyncio.QueueFull:
            raise ChannelFull(channel) from None

    async def group_send(self, group: str, message: dict) -> None:
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, ())):
            with contextlib.suppress(ChannelFull):  # a member not reading misses it, as before
                self._put(channel, message)
