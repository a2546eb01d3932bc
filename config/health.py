"""`/healthz` (the process answers) and `/readyz` (it reaches its database and channel layer
and is not draining), answered by `Health`, an ASGI layer in front of Django: no middleware,
no request thread. A draining process also refuses new requests and sockets here (503: the
proxy passes them on), and so does a process of an earlier release a reloading page does not
want (its cookie names a later one). docs/operating.md, "Deploying at any hour"."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from http.cookies import CookieError, SimpleCookie

from channels.layers import get_channel_layer
from django.conf import settings
from django.db import close_old_connections, connection

from tables.live.pages import draining

logger = logging.getLogger(__name__)

HEALTHZ = "/healthz"
READYZ = "/readyz"
CHECK_TIMEOUT = 2.0  # seconds a readiness check may take before it counts as failed
OK = b"ok"
NOT_READY = b"not ready"
# What a person whose request reaches a draining process reads (the proxy normally passes the
# request to another process first; with one process, it is what a page load shows).
RESTARTING = "El servidor se está reiniciando: vuelve a intentarlo en unos segundos.".encode()

Check = Callable[[], Awaitable[None]]  # raises (or times out) when what it checks is not there

# The database check runs in a thread of its own (one, so at most one connection is held for
# it, and returned at once): it never waits behind the request threads.
_checker = ThreadPoolExecutor(1, thread_name_prefix="readiness")


def _database_query() -> None:
    close_old_connections()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    finally:
        connection.close()  # back to the pool (PostgreSQL), or closed (SQLite)


async def database_reachable() -> None:
    await asyncio.get_running_loop().run_in_executor(_checker, _database_query)


async def channel_layer_reachable() -> None:
    """A message to a group nobody is in: one publish on Redis, nothing in memory."""
    await get_channel_layer().group_send("readiness", {"type": "readiness.check"})


CHECKS: tuple[Check, ...] = (database_reachable, channel_layer_reachable)


async def ready(checks: Iterable[Check] = CHECKS) -> bool:
    """Whether the process is ready: not draining, and every check passed in time."""
    if draining():
        return False
    for check in checks:
        try:
            async with asyncio.timeout(CHECK_TIMEOUT):
                await check()
        except Exception as error:  # noqa: BLE001 - any failure means "not ready"
            logger.warning("Not ready: %s failed: %r", check.__name__, error)
            return False
    return True


RELEASE_COOKIE = "ocholoco_release"


def wants_later_release(scope) -> bool:
    """Whether this request is a page reloading into a later release than this process's."""
    if not settings.RELEASE:
        return False  # no release named (the embedded default)
    for name, value in scope.get("headers", ()):
        if name == b"cookie":
            cookies = SimpleCookie()
            try:
                cookies.load(value.decode("latin-1"))
            except CookieError:
                return False
            wanted = cookies.get(RELEASE_COOKIE)
            return wanted is not None and wanted.value > settings.RELEASE
    return False


async def _answer(send, status: int, body: bytes) -> None:
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-store"),
    ]
    if status == 503:
        headers.append((b"retry-after", b"1"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _refuse_handshake(scope, send) -> None:
    """A websocket handshake to a draining process: 503 where the server can say it (the
    ASGI `websocket.http.response` extension), else a refused handshake (403)."""
    if "websocket.http.response" in scope.get("extensions", {}):
        await send({
            "type": "websocket.http.response.start", "status": 503,
            "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                        (b"retry-after", b"1")],
        })
        await send({"type": "websocket.http.response.body", "body": RESTARTING})
    else:
        await send({"type": "websocket.close", "code": 1012})


class Health:
    """The ASGI layer in front of the site (`config.asgi`)."""

    def __init__(self, app, checks: Iterable[Check] = CHECKS) -> None:
        self.app = app
        self.checks = tuple(checks)

    async def __call__(self, scope, receive, send) -> None:
        kind = scope["type"]
        if kind == "http":
            path = scope["path"]
            if path == HEALTHZ:
                return await _answer(send, 200, OK)
            if path == READYZ:
                if await ready(self.checks):
                    return await _answer(send, 200, OK)
                return await _answer(send, 503, NOT_READY)
            if draining():  # a new request to a process going away: the proxy tries another
                return await _answer(send, 503, RESTARTING)
            if scope["method"] == "GET" and wants_later_release(scope):
                return await _answer(send, 503, RESTARTING)  # the proxy finds the later one
        elif kind == "websocket" and draining():
            return await _refuse_handshake(scope, send)
        return await self.app(scope, receive, send)
