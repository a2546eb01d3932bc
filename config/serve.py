"""daphne, with its periodic walk over every open socket spread out (`python -m config.serve`,
the same arguments as `daphne`).

daphne checks every connection's timeouts and keepalive ping in one pass every 2 s. With
thousands of pages open, that pass held the event loop for up to 200 ms, and a move arriving
then waited for it: at 6,000 open pages it set a move's p99 (300-400 ms, against 10 ms at
p50). And the pages that connected together (after a restart, all of them) were pinged
together every `--ping-interval`, thousands of frames in one pass.

Here the same checks run on a tenth of the connections every 0.2 s, so each connection is still
checked every 2 s; and a socket's first ping comes at a random point of its first interval, so
that pings are spread evenly over time whenever their pages connected.

The garbage collector is paced by the sockets too. Its full passes walk every live object,
about 150 per open page: at 6,000 pages a pass stopped the process for 300-450 ms, and with
Python's default thresholds one came every 15 s or so while moves were played, each promoted
by short-lived objects that happened to be alive at a young collection. Young objects are
collected less often here (20,000 allocations), so few are promoted and full passes come when
there is garbage to find: what closed pages leave behind (cycles of a consumer and its
connection), once the pages closed since the last pass are half as many as those open. The
pass comes after daphne has let those connections go (its `application_checker`, once a
second): a pass as the last one closed found them all still held, so each closed page stayed
in memory until the next pass (1,000 pages reconnecting at once took 15 MB more than when
they first opened; now 4 MB).

What a connection receives (its socket's events, a request's body) waits in an `Inbox`
(`config.inbox`) instead of an `asyncio.Queue`, a tenth of its memory: a page's queue was 3.4 KB.

Its threads share one malloc arena (`_one_malloc_arena`). glibc gives each thread that
allocates while another does an arena of its own, and memory freed in one is not reused by
the others: with tables coming and going (`bench/load.py --churn 10 --tables 60
--spectators 8`) the process grew 16-17 % over ten waves, and 1.8-3.4 MB more for every
hundred tables once it was warm; with one arena, 8-9 %, and 0-3 MB. The threads run Python
under one lock, so they seldom allocate at the same moment, and a move's CPU is the same.

A connection with nothing waiting to go out sends what it writes at once (`_write_now`), as
asyncio's transports do; Twisted only buffered it and asked the event loop to say when the
socket could take it: for every frame pushed to a page, a writer registered, a pass of the loop
and the writer unregistered, where one `send` does. What the socket does not take waits in
Twisted's buffer as before. Server CPU per move, 20 tables of 6 pages: 9.9 / 9.7 / 9.5 ms
before, 9.2 / 9.4 / 8.9 after (`bench/load.py --code`, alternating).

A frame pushed to a page is written as it is (`_send_frame`): a header of two to ten bytes and
the text, where autobahn checked its arguments, counted its traffic, framed it by a general
path and formatted a debug line for every frame (its arguments are built even when nothing is
logged). Anything but a whole, uncompressed frame on an open socket goes autobahn's way.

And a post's Content-Type is read by splitting it, not by Twisted's email parser (`_media_type`),
and Twisted writes no log line of its own for each request (`_no_twisted_log_line`).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import random
import sys
import weakref
from functools import partial

import daphne.http_protocol
import daphne.ws_protocol
from autobahn.websocket.protocol import WebSocketProtocol
from daphne.cli import CommandLineInterface
from daphne.server import Server
from twisted.internet import reactor, tcp
from twisted.web import http

from config.inbox import Inbox


class SpreadServer(Server):
    SLICES = 10  # a pass over every connection takes SLICES ticks
    TICK = 2 / SLICES  # seconds: daphne's own pass comes every 2 s
    COLLECT_AFTER = 500  # sockets closed, at the least, before a full collection

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.cursor = 0  # where the next tick's slice of connections starts
        self.spread = weakref.WeakSet()  # sockets whose first ping was moved
        self.sockets_closed = 0  # since the last full collection
        self.collect_due = False  # a full collection, once daphne has let them go

    def create_application(self, protocol, scope):
        """daphne's (4.2), with an `Inbox` for what the connection receives."""
        assert "application_instance" not in self.connections[protocol]
        inbox = Inbox()
        scope.setdefault("asgi", {"version": "3.0"})
        application_instance = self.application(
            scope=scope, receive=inbox.get, send=partial(self.handle_reply, protocol)
        )
        if protocol not in self.connections:
            return None
        self.connections[protocol]["application_instance"] = asyncio.ensure_future(
            application_instance, loop=asyncio.get_event_loop()
        )
        return inbox

    def protocol_disconnected(self, protocol) -> None:
        super().protocol_disconnected(protocol)
        if not _is_socket(protocol):
            return  # an HTTP request: its garbage dies young
        self.sockets_closed += 1
        if self.sockets_closed >= max(self.COLLECT_AFTER, len(self.connections) // 2):
            self.sockets_closed = 0
            self.collect_due = True

    def application_checker(self) -> None:
        super().application_checker()  # forgets the connections closed and done with
        if self.collect_due:
            self.collect_due = False
            gc.collect()

    def timeout_checker(self) -> None:
        protocols = list(self.connections)
        cursor = self.cursor % max(len(protocols), 1)
        size = -(-len(protocols) // self.SLICES)  # rounded up: nobody waits longer than 2 s
        for protocol in protocols[cursor:cursor + size]:
            if _is_socket(protocol) and protocol not in self.spread:
                self.spread.add(protocol)  # a socket met for the first time (its last
                # ping was set as it opened)
                protocol.last_ping -= random.uniform(0, self.ping_interval)
            protocol.check_timeouts()
        self.cursor = cursor + size if cursor + size < len(protocols) else 0  # a new pass
        reactor.callLater(self.TICK, self.timeout_checker)


M_ARENA_MAX = -8  # glibc's mallopt() parameter (malloc.h)


def _one_malloc_arena() -> None:
    """Every thread allocates from the main arena (see the module's docstring); set before
    the server starts its threads. Elsewhere than glibc it does nothing."""
    with contextlib.suppress(AttributeError, OSError):
        ctypes.CDLL(None).mallopt(M_ARENA_MAX, 1)


def _is_socket(protocol) -> bool:
    """A websocket's protocol (it keeps a ping), not an HTTP request's."""
    return hasattr(protocol, "last_ping")


def _media_type(content_type: bytes) -> bytes:
    """A request's media type ("application/x-www-form-urlencoded"), for Twisted's parse of
    the form into `request.args` (which daphne never reads: the body goes to Django whole).
    Twisted builds an email message to find it, a tenth of a millisecond of every post."""
    return content_type.split(b";", 1)[0].strip().lower()


http._parseContentType = _media_type


def _no_twisted_log_line(factory, request) -> None:
    """Twisted's HTTP factory formats a log line for every request and writes it to Twisted's
    log, which daphne sends nowhere (its access log is its own, `--access-log`)."""


daphne.http_protocol.HTTPFactory.log = _no_twisted_log_line


_buffered_write = tcp.Server.write


def _write_now(connection, data: bytes) -> None:
    """Send at once what a connection with nothing waiting to go out writes, as asyncio's
    transports do; what the socket does not take waits in Twisted's buffer as before.

    Twisted only buffers a write and asks the event loop to say when the socket can take it:
    for each frame pushed to a page, a registration, a pass of the loop and an unregistration,
    where one `send` does."""
    if (
        connection.TLS
        or not connection.connected
        or connection.disconnecting
        or connection._writeDisconnected
        or connection.dataBuffer
        or connection._tempDataBuffer
        or (connection.producer is not None and not connection.streamingProducer)
        or not data
    ):
        return _buffered_write(connection, data)
    sent = connection.writeSomeData(data)
    if isinstance(sent, int) and sent == len(data):
        return None
    # Part of it, none (the socket is full) or an error: the rest goes the usual way (an
    # error comes back on the next send, and the connection is lost as Twisted loses it).
    return _buffered_write(connection, data[sent:] if isinstance(sent, int) and sent > 0 else data)


def _write_sequence_now(connection, iovec) -> None:
    _write_now(connection, b"".join(iovec))


tcp.Server.write = _write_now
tcp.Server.writeSequence = _write_sequence_now


_autobahn_send = daphne.ws_protocol.WebSocketProtocol.serverSend


def _send_frame(protocol, content, binary: bool = False) -> None:
    """Send one message as one frame, unmasked, as a server sends it (RFC 6455, 5.2)."""
    if (
        protocol.state != WebSocketProtocol.STATE_OPEN
        or protocol.send_state != WebSocketProtocol.SEND_STATE_GROUND
        or protocol._perMessageCompress is not None
        or protocol.send_queue
        or protocol.maskServerFrames
        or protocol.trackedTimings
    ):
        return _autobahn_send(protocol, content, binary)
    payload = content if binary else content.encode()
    length = len(payload)
    if 0 < protocol.maxMessagePayloadSize < length or 0 < protocol.autoFragmentSize < length:
        return _autobahn_send(protocol, content, binary)
    first = 0x82 if binary else 0x81  # FIN, and a binary or a text frame
    if length <= 125:
        header = bytes((first, length))
    elif length <= 0xFFFF:
        header = bytes((first, 126)) + length.to_bytes(2, "big")
    else:
        header = bytes((first, 127)) + length.to_bytes(8, "big")
    protocol.transport.writeSequence((header, payload))


daphne.ws_protocol.WebSocketProtocol.serverSend = _send_frame


class SpreadCommandLineInterface(CommandLineInterface):
    server_class = SpreadServer


if __name__ == "__main__":
    _one_malloc_arena()
    gc.set_threshold(20_000, 20, 10)  # see the module's docstring
    SpreadCommandLineInterface.entrypoint()
    sys.exit(0)
