"""Django's WSGI handler served from a pool of request threads that never wait for the event
loop.

a2wsgi's threads ask the event loop for a request's body and hand it every part of the answer
(its start, each piece of its body, its end), each time waiting until the loop has taken it
(`run_coroutine_threadsafe(...).result()`). At 100 moves a second on the embedded default
(one request thread) the thread was busy 79-92 % of the time and on the CPU 54-55 %: the rest
it waited for a loop busy with every page's socket, and once it was busy all the time, the
requests queued for seconds (docs/performance.md, "The request thread waiting for the loop").

Here the body is read on the loop before the request goes to a thread (`config.whole_body`
has it whole by then, within its time limit); the thread
builds the environ with a2wsgi's public `build_environ`, runs Django, and drops each part of the
answer in a queue the loop drains (`call_soon_threadsafe`, which does not wait): a thread goes
on to the next request as soon as Django is done with this one. The price: an answer's pieces
wait in memory for the client instead of holding a thread (our answers are pages, fragments and
static files; Django's own limits bound what a request brings).
"""

from __future__ import annotations

import asyncio
import contextvars
import io
import logging
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from a2wsgi.wsgi import build_environ

logger = logging.getLogger(__name__)

ERROR = b"Algo fall\xc3\xb3 en el servidor: vuelve a intentarlo en un momento."


class WSGIThreads:
    """ASGI application: the WSGI application `app` on `workers` threads kept for the process's
    life (each with its database connection), a request start to end in one of them."""

    def __init__(self, app: Callable, workers: int) -> None:
        self.app = app
        self.executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="request")

    async def __call__(self, scope, receive, send) -> None:
        # Read on the loop (config.whole_body has it whole already: no wait here either).
        parts = []
        while True:
            message = await receive()
            parts.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = b"".join(parts)
        loop = asyncio.get_running_loop()
        answer = _Answer(loop)
        environ = build_environ(scope, io.BytesIO(body))
        context = contextvars.copy_context()
        done = loop.run_in_executor(self.executor, context.run, self._run, environ, answer)
        try:
            await answer.send_all(send)
        finally:
            await done

    def _run(self, environ: dict, answer: _Answer) -> None:
        """In a request thread: Django's answer, each part queued for the loop."""
        try:
            iterable = self.app(environ, answer.start_response)
            try:
                for chunk in iterable:
                    if chunk:
                        answer.put({"type": "http.response.body", "body": chunk,
                                    "more_body": True})
            finally:
                close = getattr(iterable, "close", None)
                if close is not None:
                    close()
        except Exception:  # noqa: BLE001 - Django answers its own errors; this is the rest
            logger.exception("The application raised outside Django's own error handling")
            answer.failed()
        answer.put({"type": "http.response.body", "body": b"", "more_body": False})
        answer.put(None)


class _Answer:
    """The parts of one answer, queued by its request thread and sent by the loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.parts: deque = deque()
        self.ready = asyncio.Event()
        self.started = False

    def put(self, message: dict | None) -> None:
        self.parts.append(message)
        self.loop.call_soon_threadsafe(self.ready.set)

    def start_response(self, status: str, headers: list, exc_info=None):
        if exc_info is not None and self.started:
            raise exc_info[1].with_traceback(exc_info[2])
        self.started = True
        self.put({
            "type": "http.response.start",
            "status": int(status.split(" ", 1)[0]),
            "headers": [(name.strip().lower().encode("latin1"), value.strip().encode("latin1"))
                        for name, value in headers],
        })
        return lambda chunk: self.put(
            {"type": "http.response.body", "body": chunk, "more_body": True}
        )

    def failed(self) -> None:
        """The application raised: a 500 if nothing was started, else the answer is cut."""
        if not self.started:
            self.started = True
            self.put({"type": "http.response.start", "status": 500,
                      "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                  (b"content-length", str(len(ERROR)).encode())]})
            self.put({"type": "http.response.body", "body": ERROR, "more_body": True})

    async def send_all(self, send) -> None:
        while True:
            while self.parts:
                message = self.parts.popleft()
                if message is None:
                    return
                await send(message)
            self.ready.clear()
            if not self.parts:
                await self.ready.wait()
