"""`config.handler`: a request crosses from the event loop into its thread once, and runs
there start to end as under WSGI (its signals, the middleware, the view, its close)."""

from __future__ import annotations

import asyncio
import gc
import threading
import weakref
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.core import signals

from config.handler import OneCrossingASGIHandler
from tests.live import ROOT, run_async


async def get(handler: OneCrossingASGIHandler, path: str) -> tuple[int, bytes]:
    """What a server does with one GET: the scope, the (empty) body, the answer's messages."""
    sent: list[dict] = []
    incoming = [{"type": "http.request", "body": b""}]

    async def receive() -> dict:
        if incoming:
            return incoming.pop(0)
        await asyncio.Event().wait()  # as a server: nothing more until the client leaves

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
        "root_path": "", "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 50000), "server": ("testserver", 80),
    }
    await handler(scope, receive, send)
    start, *bodies = sent
    return start["status"], b"".join(m.get("body", b"") for m in bodies)


def test_a_request_runs_in_one_crossing_into_its_thread(monkeypatch: pytest.MonkeyPatch):
    crossings, threads = [], {}
    submit = ThreadPoolExecutor.submit
    monkeypatch.setattr(
        ThreadPoolExecutor, "submit",
        lambda self, fn, /, *a, **k: crossings.append(fn) or submit(self, fn, *a, **k),
    )

    def started(**_):
        threads["started"] = threading.get_ident()

    def finished(**_):
        threads["finished"] = threading.get_ident()

    signals.request_started.connect(started)
    signals.request_finished.connect(finished)
    try:
        status, body = run_async(get(OneCrossingASGIHandler(), "/sw.js"))
    finally:
        signals.request_started.disconnect(started)
        signals.request_finished.disconnect(finished)

    assert status == 200 and b"self.addEventListener" in body
    into_request_threads = [fn for fn in crossings if fn is not asyncio.run]  # run_async's own
    assert len(into_request_threads) == 1  # Django's handler: three, and more for middleware
    assert threads["started"] == threads["finished"] != threading.get_ident()


def test_requests_take_turns_in_a_few_threads_and_all_are_answered(settings):
    """Ten requests at once with two turns: never more than two in their threads, the same
    two threads serve them all (none begun for one request), every one answered whole (a
    file's answer, read out in its turn, too)."""
    settings.REQUEST_THREADS = 2
    busy, most, threads = [0], [0], set()
    lock = threading.Lock()

    class Slow(OneCrossingASGIHandler):
        def _respond(self, scope, body_file):
            with lock:
                busy[0] += 1
                most[0] = max(most[0], busy[0])
                threads.add(threading.get_ident())
            try:
                threading.Event().wait(0.02)  # a view at work
                return super()._respond(scope, body_file)
            finally:
                with lock:
                    busy[0] -= 1

    async def all_at_once():
        handler = Slow()
        paths = ["/sw.js", "/static/css/ocholoco.css"] * 5
        return await asyncio.gather(*(get(handler, path) for path in paths))

    answers = run_async(all_at_once())
    assert [status for status, _ in answers] == [200] * 10
    css = (ROOT / "static" / "css" / "ocholoco.css").read_bytes()
    assert [body for _, body in answers[1::2]] == [css] * 5
    assert most[0] == 2
    assert len(threads) == 2


def test_a_setting_of_no_turns_still_serves_one_request_at_a_time(settings):
    settings.REQUEST_THREADS = 0
    assert run_async(get(OneCrossingASGIHandler(), "/sw.js"))[0] == 200


def test_a_request_is_freed_as_its_answer_is_sent_without_the_garbage_collector():
    """A request's objects refer back to it (`request.user`'s lazy loader, the messages'
    storage): unless the handler lets it go, it lives until the collector finds the cycle.
    A file's request (its answer read out after the view) is let go once it is sent."""
    requests = []

    class Watched(OneCrossingASGIHandler):
        def create_request(self, scope, body_file):
            request, response = super().create_request(scope, body_file)
            requests.append(request)
            return request, response

    gc.disable()
    try:
        assert run_async(get(Watched(), "/csrf/"))[0] == 200
        freed = weakref.ref(requests.pop())
        assert freed() is None
        status, body = run_async(get(Watched(), "/static/css/ocholoco.css"))
        assert status == 200 and body == (ROOT / "static" / "css" / "ocholoco.css").read_bytes()
        assert vars(requests.pop()) == {}  # held here only: what it held is gone
    finally:
        gc.enable()
