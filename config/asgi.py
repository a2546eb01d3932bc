"""ASGI entry point: HTTP through Django, websockets through Channels (daphne serves both).

The embedded default also runs the background work here: `TASK_WORKERS` task-worker threads
(robots, turn deadlines, alerts, archiving; `tables.workers`).
"""

import asyncio
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from channels.sessions import SessionMiddlewareStack  # noqa: E402
from django.conf import settings  # noqa: E402

from tables.publish import server_loop_bind  # noqa: E402
from tables.routing import websocket_urlpatterns  # noqa: E402
from tables.workers import workers_start_in_process  # noqa: E402

router = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            SessionMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)


async def application(scope, receive, send):
    # Pushes made by request threads are handed to this loop (tables.publish).
    server_loop_bind(asyncio.get_running_loop())
    return await router(scope, receive, send)


workers_start_in_process(settings.TASK_WORKERS)
