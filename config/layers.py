"""The embedded default's channel layer: Channels' in-memory layer, made to scale.

Channels' `InMemoryChannelLayer` scans every channel and every group membership for expired
messages on each send to a group and each receive: with a few hundred open pages that scan
ran several times per move per viewer and cost more than the move itself (measured with the
load benchmark). Here the scan runs at most once a second; nothing else changes (messages
still expire after `expiry`, memberships after `group_expiry`).
"""

from __future__ import annotations

import time

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
