"""ASGI entry point: HTTP through Django, websockets through Channels (daphne serves both).

The embedded default also runs the background work here: `TASK_WORKERS` task-worker threads
(robots, turn deadlines, alerts, archiving; `tables.workers`).
"""

import asyncio
import gc
import os
from importlib import import_module

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)

from config.handler import OneCrossingASGIHandler  # noqa: E402

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
