"""Django's ASGI handler for our synchronous views, made cheaper (`OneCrossingASGIHandler`)."""

from __future__ import annotations

import asyncio
import contextlib
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.conf import settings
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import HttpRequest, HttpResponseBase
from django.urls import set_script_prefix


class OneCrossingASGIHandler(ASGIHandler):
    """Django's ASGI handler, made cheaper for our synchronous views (measured on a move).

    - A request crosses from the event loop to its thread once: the `request_started` signal,
      the request, the middleware and the view, and (for a response held in memory) its close
      and `request_finished` all run there, as under WSGI; the loop only reads the body and
      writes the answer. (Django's ASGI path crosses three times, for the two signals and the
      response, and its middleware chain crossed back and forth for every `MiddlewareMixin`
      hook: a dozen crossings per request, a fifth of a move's CPU. A crossing wakes a thread
      and the loop again: on a trivial page, the crossings cost more than Django's work.)
    - A request's thread, and so its database connection, is kept for a later request
      instead of made anew for each one (Django gives each request a thread of its own,
      asgiref's `ThreadSensitiveContext`; a new connection per request cost a tenth of a
      move on SQLite). Threads serve one request at a time; at most `KEEP` idle ones stay.
    - A client that leaves while its request is served is not listened for: a synchronous
      view cannot be cancelled halfway, so the answer is written and dropped by the server.
    - At most `settings.REQUEST_THREADS` requests are served in their threads at once; the
      others wait their turn on the event loop, first come first served, their bodies read and
      their answers written there (a file's answer is read out in its turn, in its thread).
      Python runs one thread at a time, so more threads do not serve more requests: with a
      hundred at once they took turns all the same, and each one past `KEEP` began a thread
      (and a database connection) of its own and ended it, more work for a process that had
      too much already.
    - A request is let go as soon as its answer is sent (`_let_go`). Its objects refer back to
      it (`request.user`'s lazy loader, the messages' storage, htmx's details), so it lived on
      until the garbage collector found the cycle: some 75 objects a request, and at 145 busy
      tables each young collection stopped the process for 20-50 ms to free them, and moves
      queued behind every stop.
    """

    KEEP = 16

    def __init__(self) -> None:
        super().__init__()
        self._idle: list[ThreadPoolExecutor] = []
        self._respond_async = sync_to_async(self._respond, thread_sensitive=True)
        self._turns: asyncio.Semaphore | None = None  # made in the server's event loop

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)  # the chain as under WSGI: all synchronous

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await super().__call__(scope, receive, send)
        await self.handle(scope, receive, send)

    async def handle(self, scope, receive, send):
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        request = None
        try:
            async with self._turn():
                request, response = await self._respond_async(scope, body_file)
                if response.streaming:  # a file: read out and closed in its thread, as before
                    return await self._send(response, send)
            await self._send(response, send)  # held in memory: the turn is free already
        finally:
            _let_go(request)  # a file's (one held in memory was let go in its thread)
            body_file.close()

    async def _send(self, response: HttpResponseBase, send) -> None:
        try:
            await self.send_response(response, send)
        except asyncio.CancelledError:
            pass  # the client left while the answer was written
        finally:
            if response.streaming:
                await sync_to_async(response.close)()

    @contextlib.asynccontextmanager
    async def _turn(self):
        """One of the turns, and a thread of its own for the request while it lasts."""
        if self._turns is None:
            # At least one turn (0 would never serve anything), at most the threads kept.
            self._turns = asyncio.Semaphore(max(1, min(settings.REQUEST_THREADS, self.KEEP)))
        async with self._turns:
            executor = self._idle.pop() if self._idle else ThreadPoolExecutor(max_workers=1)
            try:
                async with ThreadSensitiveContext(executor=executor):
                    yield
            finally:
                if len(self._idle) < self.KEEP:
                    self._idle.append(executor)
                else:
                    executor.shutdown(wait=False)

    def _respond(self, scope, body_file) -> tuple[HttpRequest | None, HttpResponseBase]:
        """The request, start to end, in its thread (what Django's WSGI handler does)."""
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = self.get_response(request)
            response._handler_class = self.__class__
        if not response.streaming:
            response.close()  # its resources and `request_finished`, as Django does after sending
            _let_go(request)
        return request, response


def _let_go(request: HttpRequest | None) -> None:
    """Drop what the request holds, once its answer no longer needs it: the cycles through it
    are broken, and it and its objects are freed at once instead of by the garbage collector."""
    if request is not None:
        request.__dict__.clear()
