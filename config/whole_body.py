"""A request reaches a request thread only once its body is whole.

Before, a2wsgi handed a request to a request thread as soon as its headers were in, and that
thread then waited on the loop for each piece of the body. On the embedded default there is one
request thread: a client that sends a POST's headers and holds its body back (a phone on a
bad network, or anyone on purpose) stopped every other page and move until it sent it.

Here the body is read on the event loop first, where waiting costs nothing, within
`REQUEST_BODY_TIMEOUT` seconds (then 408) and up to `REQUEST_BODY_LIMIT` bytes (then 413);
only a whole request goes on to Django. Nothing of a refused request reaches a view, so
nothing is applied. Behind nginx (which buffers bodies itself) this changes nothing.
"""

from __future__ import annotations

import asyncio
import os
import time
from contextvars import ContextVar

BODY_TIMEOUT = float(os.environ.get("REQUEST_BODY_TIMEOUT", "10"))  # seconds
# Django refuses a form over DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB) itself; this only bounds
# what a process holds for one request before Django sees it.
BODY_LIMIT = int(os.environ.get("REQUEST_BODY_LIMIT", str(4 * 1024 * 1024)))  # bytes

# When the request's body was whole: set in the event loop's task, read in the request thread
# (config.request_thread: the thread runs in a copy of that task's context).
whole_at: ContextVar[float | None] = ContextVar("whole_at", default=None)

TOO_SLOW = "La petición tardó demasiado en llegar. Vuelve a intentarlo.".encode()
TOO_LARGE = "La petición es demasiado grande.".encode()


class _TooLarge(Exception):
    pass


class _Gone(Exception):
    pass


async def _read_body(receive, limit: int) -> bytes:
    parts: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise _Gone
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise _TooLarge
        parts.append(chunk)
        if not message.get("more_body", False):
            return b"".join(parts)


def _declared_length(scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def _refuse(send, status: int, body: bytes) -> None:
    await send({
        "type": "http.response.start", "status": status,
        "headers": [
            (b"content-type", b"text/plain; charset=utf-8"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ],
    })
    await send({"type": "http.response.body", "body": body})


class WholeBody:
    """ASGI middleware: `inner` gets an HTTP request only with its whole body read."""

    def __init__(self, inner, *, timeout: float = BODY_TIMEOUT, limit: int = BODY_LIMIT) -> None:
        self.inner = inner
        self.timeout = timeout
        self.limit = limit

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return await self.inner(scope, receive, send)
        declared = _declared_length(scope)
        if declared is not None and declared > self.limit:
            return await _refuse(send, 413, TOO_LARGE)
        try:
            body = await asyncio.wait_for(_read_body(receive, self.limit), self.timeout)
        except TimeoutError:
            return await _refuse(send, 408, TOO_SLOW)
        except _TooLarge:
            return await _refuse(send, 413, TOO_LARGE)
        except _Gone:
            return None  # the client left before its request was whole: nobody to answer

        whole_at.set(time.monotonic())  # a request thread's wait starts now
        given = False

        async def received() -> dict:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # after the body: the client's disconnect

        return await self.inner(scope, received, send)

