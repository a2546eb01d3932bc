"""config/middleware.py: a request is freed when its answer is made, not by the garbage
collector (each request left in cycles waited for the next collection, with all it reaches)."""

from __future__ import annotations

import gc
import io
from collections.abc import Iterator

import pytest
from django.core.handlers.wsgi import WSGIRequest
from django.core.wsgi import get_wsgi_application

pytestmark = pytest.mark.django_db


def _environ(method: str, path: str, **headers: str) -> dict:
    return {
        "REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": "", "SERVER_NAME": "localhost",
        "SERVER_PORT": "80", "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(b""),
        "wsgi.errors": io.StringIO(), "CONTENT_LENGTH": "0", "REMOTE_ADDR": "127.0.0.1",
        **{f"HTTP_{name.upper().replace('-', '_')}": value for name, value in headers.items()},
    }


@pytest.fixture
def garbage() -> Iterator[list]:
    """What the collector finds unreachable from here on (kept, not freed, to be looked at)."""
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        del gc.garbage[:]
        yield gc.garbage
    finally:
        gc.set_debug(0)
        del gc.garbage[:]
        gc.enable()


def _requests(garbage: list) -> list:
    # by type, not isinstance: that would set a lazy object in the garbage up
    return [thing for thing in garbage if type(thing) is WSGIRequest]


@pytest.mark.parametrize(("method", "path", "headers", "status"), [
    # answers rendered without their request, as a move's; an error answer is logged with its
    # request, and the log (here pytest's) keeps it
    ("GET", "/csrf/", {"HX-Request": "true"}, 200),
    ("GET", "/csrf/", {}, 200),
])
def test_a_request_leaves_nothing_in_cycles(garbage, method, path, headers, status):
    application = get_wsgi_application()
    started = []
    for _ in range(2):  # the first request of a process also fills caches for good
        answer = application(_environ(method, path, **headers), lambda s, h: started.append(s))
        b"".join(answer)
        answer.close()
    gc.collect()
    assert started[-1].startswith(str(status))
    assert not _requests(garbage)


def test_without_it_the_request_would_wait_for_the_collector(garbage, settings):
    """The test above can fail: the same request, the middleware left out."""
    settings.MIDDLEWARE = [m for m in settings.MIDDLEWARE if not m.startswith("config.")]
    application = get_wsgi_application()
    answer = application(_environ("GET", "/csrf/", **{"HX-Request": "true"}), lambda s, h: None)
    b"".join(answer)
    answer.close()
    gc.collect()
    assert _requests(garbage)
