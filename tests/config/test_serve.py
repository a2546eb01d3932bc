"""`config.serve`: daphne's walk over the open sockets spread over ticks, their first pings
spread over an interval, and full garbage collections paced by the sockets that close."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from config.serve import SpreadServer

ROOT = Path(__file__).resolve().parent.parent.parent


class Socket:
    """What the walk sees of a daphne websocket: its last ping, its timeout check."""

    def __init__(self, last_ping: float) -> None:
        self.last_ping = last_ping
        self.checks = 0

    def check_timeouts(self) -> None:
        self.checks += 1


class Request:
    """An HTTP request's protocol: checked too, but it has no ping."""

    def __init__(self) -> None:
        self.checks = 0

    def check_timeouts(self) -> None:
        self.checks += 1


@pytest.fixture
def ticks(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The delays the walk asks the reactor for (nothing runs them: a test calls the walk)."""
    delays: list[float] = []
    monkeypatch.setattr(
        "config.serve.reactor", SimpleNamespace(callLater=lambda delay, _: delays.append(delay))
    )
    return delays


def server_with(protocols: list) -> SpreadServer:
    server = SpreadServer(application=None, endpoints=["tcp:port=0"], ping_interval=20)
    server.connections = {protocol: {"connected": 0.0} for protocol in protocols}  # (as `run`)
    return server


def test_each_socket_is_checked_once_in_a_pass_of_ten_ticks_of_a_fifth_of_a_second(ticks):
    sockets = [Socket(1000.0) for _ in range(95)]
    requests = [Request() for _ in range(7)]
    server = server_with(sockets + requests)

    for _ in range(SpreadServer.SLICES):
        server.timeout_checker()

    assert [p.checks for p in sockets + requests] == [1] * 102
    assert ticks == [pytest.approx(0.2)] * 10
    for _ in range(SpreadServer.SLICES):
        server.timeout_checker()
    assert [p.checks for p in sockets + requests] == [2] * 102


def test_a_sockets_first_ping_moves_to_a_random_point_of_its_first_interval_once(ticks):
    sockets = [Socket(1000.0) for _ in range(50)]
    server = server_with(sockets)

    for _ in range(SpreadServer.SLICES):
        server.timeout_checker()
    moved = [s.last_ping for s in sockets]
    assert all(980.0 <= ping <= 1000.0 for ping in moved)
    assert len(set(moved)) > 40  # spread, not moved together

    for _ in range(SpreadServer.SLICES):
        server.timeout_checker()
    assert [s.last_ping for s in sockets] == moved  # only the first interval is moved


def test_a_full_collection_comes_once_the_closed_sockets_are_half_the_open_ones(monkeypatch):
    collections: list[int] = []
    monkeypatch.setattr("config.serve.gc.collect", lambda: collections.append(1))
    monkeypatch.setattr("daphne.server.reactor", SimpleNamespace(callLater=lambda *_: None))
    sockets = [Socket(0.0) for _ in range(2000)]
    requests = [Request() for _ in range(1500)]
    server = server_with(sockets + requests)

    for request in requests:  # requests come and go all the time: they do not count
        server.protocol_disconnected(request)
    for socket in sockets[:1749]:
        server.protocol_disconnected(socket)
    server.application_checker()
    assert collections == []
    server.protocol_disconnected(sockets[1749])  # (3,500 connections: 1,750 is half)
    assert collections == []  # daphne still holds them: a pass now would free none of them
    server.application_checker()  # daphne lets the closed ones go...
    assert collections == [1]  # ...and the pass comes after
    assert len(server.connections) == 250
    for socket in sockets[1750:]:
        server.protocol_disconnected(socket)
    server.application_checker()
    assert collections == [1]


def test_a_posts_media_type_is_read_without_the_email_parser_and_as_twisted_read_it():
    from email.message import EmailMessage

    from twisted.web import http

    from config.serve import _media_type

    assert http._parseContentType is _media_type
    for header in (
        b"application/x-www-form-urlencoded",
        b"Application/X-WWW-Form-Urlencoded; charset=UTF-8",
        b"multipart/form-data; boundary=----x",
    ):
        message = EmailMessage()
        message["content-type"] = header.decode("charmap")
        assert _media_type(header) == message.get_content_type().encode("charmap")


ARENAS = """
import ctypes, sys, threading
if sys.argv[1] == "one":
    from config.serve import _one_malloc_arena
    _one_malloc_arena()
def work():
    kept = [bytearray(50_000) for _ in range(20)]  # (from malloc: larger than Python's pools
    # take, smaller than what malloc maps on its own)
threads = [threading.Thread(target=work) for _ in range(4)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
ctypes.CDLL(None).malloc_stats()  # one "Arena N:" paragraph per arena, on standard error
"""


def test_the_servers_threads_share_one_malloc_arena():
    def arenas(setting: str) -> int:
        run = subprocess.run(
            [sys.executable, "-c", ARENAS, setting], cwd=ROOT, capture_output=True, text=True,
            check=True,
        )
        return run.stderr.count("Arena ")

    assert arenas("one") == 1 < arenas("default")  # (glibc: a thread gets an arena of its own)


WRITES = """
import socket, struct, sys
import config.serve  # noqa: F401 - its patches (and daphne's asyncio reactor)
from twisted.internet import protocol, reactor

BIG = bytes(range(256)) * 40_000  # 10 MB: more than a socket takes at once
seen = {}

class Writer(protocol.Protocol):
    def connectionMade(self):
        t = self.transport
        t.write(b"hello ")
        seen["small went out at once"] = not t.dataBuffer and not t._tempDataBuffer
        seen["no writer asked for"] = t not in reactor.getWriters()
        t.writeSequence([b"big ", BIG])
        seen["the rest waits"] = bool(t.dataBuffer or t._tempDataBuffer)
        t.write(b" tail")  # behind what waits, in order
        t.loseConnection()  # once everything is out

factory = protocol.Factory.forProtocol(Writer)
port = reactor.listenTCP(0, factory, interface="127.0.0.1")

def read():
    client = socket.create_connection(("127.0.0.1", port.getHost().port))
    client.setblocking(False)
    received = bytearray()
    def pull():
        try:
            chunk = client.recv(1 << 20)
        except BlockingIOError:
            return reactor.callLater(0.001, pull)
        if not chunk:
            seen["arrived whole and in order"] = bytes(received) == b"hello big " + BIG + b" tail"
            return reactor.stop()
        received.extend(chunk)
        reactor.callLater(0, pull)
    reactor.callLater(0.01, pull)

class LateWriter(protocol.Protocol):
    # Writes to a peer that has reset the connection: no error, the connection is lost.
    def connectionMade(self):
        reactor.callLater(0.2, self.late)
    def late(self):
        self.transport.write(b"anyone there?")
        self.transport.write(b"still?")
    def connectionLost(self, reason):
        seen["a write to a peer that left loses the connection"] = True

late_port = reactor.listenTCP(0, protocol.Factory.forProtocol(LateWriter), interface="127.0.0.1")

def leave():
    client = socket.create_connection(("127.0.0.1", late_port.getHost().port))
    client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    reactor.callLater(0.05, client.close)  # a reset, not a goodbye

reactor.callWhenRunning(read)
reactor.callWhenRunning(leave)
reactor.callLater(30, reactor.stop)
reactor.run()
print(sorted(seen.items()))
"""


def test_a_connection_with_nothing_waiting_sends_at_once_and_the_rest_waits_in_order():
    run = subprocess.run(
        [sys.executable, "-c", WRITES], cwd=ROOT, capture_output=True, text=True, check=True,
        timeout=60,
    )
    assert run.stdout.strip() == str(sorted({
        "small went out at once": True,
        "no writer asked for": True,
        "the rest waits": True,
        "arrived whole and in order": True,
        "a write to a peer that left loses the connection": True,
    }.items())), run.stderr


class Transport:
    def __init__(self) -> None:
        self.sent = bytearray()

    def write(self, data: bytes) -> None:
        self.sent += data

    def writeSequence(self, parts) -> None:  # noqa: N802 - Twisted's name
        for part in parts:
            self.sent += part


def open_socket(**options):
    """A daphne websocket, open, as its factory configures it (options: autobahn's)."""
    import txaio
    from autobahn.websocket.protocol import TrafficStats, WebSocketProtocol
    from daphne.ws_protocol import WebSocketProtocol as DaphneSocket

    txaio.use_twisted()
    socket = DaphneSocket.__new__(DaphneSocket)
    settings = {
        "state": WebSocketProtocol.STATE_OPEN, "send_state": WebSocketProtocol.SEND_STATE_GROUND,
        "_perMessageCompress": None, "send_queue": [], "maskServerFrames": False,
        "trackedTimings": None, "maxMessagePayloadSize": 0, "autoFragmentSize": 0,
        "applyMask": True, "logFrames": False, "logOctets": False, "peer": "tcp:127.0.0.1:1",
        "factory": SimpleNamespace(isServer=True), "log": txaio.make_logger(),
        "trafficStats": TrafficStats(), "transport": Transport(), **options,
    }
    for name, value in settings.items():
        setattr(socket, name, value)
    return socket


@pytest.mark.parametrize("size", [0, 5, 125, 126, 200, 65_535, 65_536, 70_001])
@pytest.mark.parametrize("binary", [False, True])
def test_a_frame_pushed_to_a_page_is_the_frame_autobahn_writes(size, binary):
    from autobahn.websocket.protocol import WebSocketProtocol

    content = bytes(range(256)) * (size // 256) + bytes(size % 256) if binary else (
        "é" * (size // 2) + "a" * (size % 2)  # two bytes a letter, as Spanish has them
    )
    ours, autobahns = open_socket(), open_socket()
    ours.serverSend(content, binary)
    WebSocketProtocol.sendMessage(autobahns, content if binary else content.encode(), binary)
    assert bytes(ours.transport.sent) == bytes(autobahns.transport.sent)
    assert len(ours.transport.sent) > size


def test_a_frame_that_is_not_plain_goes_autobahns_way(monkeypatch):
    """Compressed, fragmented, queued behind others, or on a socket not open: autobahn's."""
    import config.serve

    calls = []
    monkeypatch.setattr(config.serve, "_autobahn_send", lambda *args: calls.append(args))
    for options in (
        {"_perMessageCompress": object()}, {"autoFragmentSize": 100},
        {"send_queue": [(b"x", False)]}, {"state": 2},  # closing
    ):
        socket = open_socket(**options)
        socket.serverSend("x" * 200)
        assert not socket.transport.sent
    assert len(calls) == 4
