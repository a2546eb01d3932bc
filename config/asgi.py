"""ASGI entry point: HTTP through Django, websockets through Channels (daphne serves both).

The embedded default also runs the background work here: `TASK_WORKERS` task-worker threads
(robots, turn deadlines, alerts, archiving; `tables.workers`).
"""

import asyncio
import gc
import os
from concurrent.futures import ThreadPoolExecutor
from importlib import import_module

import django
from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import HttpResponseBase
from django.urls import set_script_prefix

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)


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
    """

    KEEP = 16

    def __init__(self) -> None:
        super().__init__()
        self._idle: list[ThreadPoolExecutor] = []
        self._respond_async = sync_to_async(self._respond, thread_sensitive=True)

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)  # the chain as under WSGI: all synchronous

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await super().__call__(scope, receive, send)
        executor = self._idle.pop() if self._idle else ThreadPoolExecutor(max_workers=1)
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            if len(self._idle) < self.KEEP:
                self._idle.append(executor)
            else:
                executor.shutdown(wait=False)

    async def handle(self, scope, receive, send):
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        try:
            response = await self._respond_async(scope, body_file)
            try:
                await self.send_response(response, send)
            except asyncio.CancelledError:
                pass  # the client left while the answer was written
            finally:
                if response.streaming:  # a file: closed once it has been read out
                    await sync_to_async(response.close)()
        finally:
            body_file.close()

    def _respond(self, scope, body_file) -> HttpResponseBase:
        """The request, start to end, in its thread (what Django's WSGI handler does)."""
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = self.get_response(request)
            response._handler_class = self.__class__
        if not response.streaming:
            response.close()  # its resources and `request_finished`, as Django does after sending
        return response


django_asgi_app = OneCrossingASGIHandler()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from channels.sessions import CookieMiddleware  # noqa: E402
from django.conf import settings  # noqa: E402

from tables.publish import server_loop_bind  # noqa: E402
from tables.routing import websocket_urlpatterns  # noqa: E402
from tables.workers import workers_start_in_process  # noqa: E402


class SocketSession:
    """The socket's `scope["session"]`: the browser's session, read when first used (by the
    consumer, in its database thread). The socket never writes it.

    Channels' SessionMiddleware made the session object in the database thread, one hop per
    socket before the consumer could accept it: when every page reconnected at once (a
    restart), thousands of handshakes queued there behind the consumers' reads and timed out.
    Making it touches no database whatever the engine (Django's sessions load lazily).
    """

    def __init__(self, inner) -> None:
        self.inner = inner
        self.store = import_module(settings.SESSION_ENGINE).SessionStore

    async def __call__(self, scope, receive, send):
        key = scope["cookies"].get(settings.SESSION_COOKIE_NAME)
        return await self.inner({**scope, "session": self.store(key)}, receive, send)


router = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            CookieMiddleware(SocketSession(URLRouter(websocket_urlpatterns)))
        ),
    }
)


async def application(scope, receive, send):
    # Pushes made by request threads are handed to this loop (tables.publish).
    server_loop_bind(asyncio.get_running_loop())
    return await router(scope, receive, send)


workers_start_in_process(settings.TASK_WORKERS)


def _collector_settle() -> None:
    """Keep the garbage collector's pauses short: what start-up created (Django, the URLs,
    the compiled templates) lives as long as the process; frozen, the collector never walks
    it again. When it collects is the server's to say (`config.serve`: by the sockets that
    come and go).
    """
    from django.template.loader import get_template
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - load the URL configuration now
    get_template("tables/table.html")
    gc.collect()
    gc.freeze()


_collector_settle()
