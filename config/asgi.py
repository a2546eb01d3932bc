"""ASGI entry point: pages and posts through Django, the table's websocket through Channels.

`config.server` says which server runs it. Pages and posts go to Django's WSGI handler, run in
a pool of `REQUEST_THREADS` threads kept for the process's life (`config.wsgi_threads`), so a
request runs start to end in one thread with its database connection, and the thread never
waits for the event loop (why: docs/architecture.md). The
embedded default also runs its `TASK_WORKERS` task-worker threads here (`tables.changes.workers`),
and with METRICS_PORT set the process serves its metrics on that port (`tables.metrics`).
"""

import asyncio
import gc
import os
from importlib import import_module

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_wsgi = get_wsgi_application()

from django.conf import settings  # noqa: E402

from config.request_thread import loop_lateness_watch, timed  # noqa: E402
from config.whole_body import WholeBody  # noqa: E402
from config.wsgi_threads import WSGIThreads  # noqa: E402

# Django in REQUEST_THREADS threads that never wait for the event loop (config.wsgi_threads),
# each request's wait for a thread and the threads' busy time measured (config.request_thread).
django_app = WSGIThreads(timed(django_wsgi), workers=settings.REQUEST_THREADS)

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from channels.sessions import CookieMiddleware  # noqa: E402

from config.health import Health  # noqa: E402
from tables.backups.copies import running_lock_hold  # noqa: E402
from tables.changes.workers import workers_start_in_process, workers_stop  # noqa: E402
from tables.live.broadcast import server_loop_bind  # noqa: E402
from tables.live.drain import drain_hook_register  # noqa: E402
from tables.metrics import metrics_serve  # noqa: E402
from tables.routing import websocket_urlpatterns  # noqa: E402


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


# `/healthz` and `/readyz` are answered in front of everything (config.health), and a draining
# process refuses new pages and sockets there.
router = Health(ProtocolTypeRouter(
    {
        # A request reaches a request thread only once its body is whole (config.whole_body).
        "http": WholeBody(django_app),
        "websocket": AllowedHostsOriginValidator(
            CookieMiddleware(SocketSession(URLRouter(websocket_urlpatterns)))
        ),
    }
))


async def application(scope, receive, send):
    # Pushes made by request threads are handed to this loop (tables.live.broadcast).
    loop = asyncio.get_running_loop()
    server_loop_bind(loop)
    loop_lateness_watch(loop)  # the event loop's lateness, in the metrics
    return await router(scope, receive, send)


# While this process lives, a restore refuses to replace its database (tables.backups).
running_lock_hold()

# A draining process stops its task workers after the task in hand (tables.live.drain).
_workers = workers_start_in_process(settings.TASK_WORKERS)
drain_hook_register(lambda: workers_stop(_workers))

# This process's metrics on its own internal port, when METRICS_PORT is set (tables.metrics).
metrics_serve()


def _collector_settle() -> None:
    """Keep the garbage collector's pauses short (`gc`'s own settings, whatever the server):
    what start-up created (Django, the URLs, the compiled templates) lives as long as the
    process, and frozen, the collector never walks it again; young objects are collected
    every 20,000 allocations instead of 700, so few short-lived ones are promoted and the
    full passes (which walk every open page's objects) come seldom."""
    from django.template.loader import get_template
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - load the URL configuration now
    get_template("tables/table.html")
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 10)


_collector_settle()
