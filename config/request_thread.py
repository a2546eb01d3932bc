"""Where a stall shows: how long a whole request waited for a request thread, how busy the
request threads are, and how late the event loop is (tables.metrics; docs/operating.md,
"Metrics").

`config.whole_body` notes when a request's body is whole (`whole_at`, a context variable: the
request thread runs in a copy of the event loop task's context); `timed` wraps the WSGI
application the threads run, so the wait is measured when a thread takes the request, and it
is also said in the answer's `Server-Timing` (`wait;dur=`, ms) for a client to read beside
its own times. A thread is counted busy from taking a request until its answer's last byte is
handed to the loop (the WSGI iterable's `close()`), and its CPU time over the same span is
counted apart: the difference is what it spent waiting.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable, Iterator

from config.whole_body import whole_at
from tables.metrics import EVENT_LOOP_LAG, REQUEST_THREADS_BUSY, REQUEST_THREADS_CPU, REQUEST_WAIT

LOOP_TICK = 0.25  # seconds between two looks at the event loop's lateness


def _count(began: float, cpu: float) -> None:
    """A thread's request over: its busy time and its CPU time (read inside the busy span, so
    the CPU time is never the longer)."""
    on_cpu = time.thread_time() - cpu
    REQUEST_THREADS_BUSY.inc(time.monotonic() - began)
    REQUEST_THREADS_CPU.inc(on_cpu)


class _Timed:
    """The WSGI answer, iterated as it is; its `close()` ends the thread's busy time."""

    def __init__(self, inner: Iterable[bytes], began: float, cpu: float) -> None:
        self.inner = inner
        self.began = began
        self.cpu = cpu

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.inner)

    def close(self) -> None:
        try:
            close = getattr(self.inner, "close", None)
            if close is not None:
                close()
        finally:
            _count(self.began, self.cpu)


def timed(app: Callable) -> Callable:
    """The WSGI application `app`, with each request's wait and its thread's time measured."""

    def application(environ: dict, start_response: Callable) -> _Timed:
        began, cpu = time.monotonic(), time.thread_time()
        arrived = whole_at.get()
        wait = max(0.0, began - arrived) if arrived is not None else 0.0
        REQUEST_WAIT.observe(wait)
        timing = f"wait;dur={wait * 1000:.1f}"

        def start(status: str, headers: list[tuple[str, str]], exc_info=None):
            for index, (name, value) in enumerate(headers):
                if name.lower() == "server-timing":
                    headers[index] = (name, f"{value}, {timing}")
                    break
            else:
                headers.append(("Server-Timing", timing))
            return start_response(status, headers, exc_info)

        try:
            return _Timed(app(environ, start), began, cpu)
        except BaseException:
            _count(began, cpu)
            raise

    return application


_watched: set[int] = set()


def loop_lateness_watch(loop: asyncio.AbstractEventLoop) -> None:
    """Once per event loop: a timer every LOOP_TICK s that records how late it woke."""
    if id(loop) in _watched:
        return
    _watched.add(id(loop))

    def tick(due: float) -> None:
        now = loop.time()
        EVENT_LOOP_LAG.observe(max(0.0, now - due))
        loop.call_at(now + LOOP_TICK, tick, now + LOOP_TICK)

    start = loop.time() + LOOP_TICK
    loop.call_at(start, tick, start)
