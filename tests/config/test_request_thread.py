"""Where a stall shows (config.request_thread): a whole request's wait for a request thread is
observed and said in its answer's Server-Timing, the threads' busy time is counted until the
answer's last byte, and a real process serves those and the event loop's lateness in its
metrics. Read through prometheus_client's public `get_sample_value`."""

from __future__ import annotations

import re
import time
import urllib.request

from prometheus_client import REGISTRY

from config.request_thread import timed
from config.whole_body import whole_at
from tests.config.test_metrics import WAIT, _get
from tests.live import free_port, live_servers


def sample(name: str) -> float:
    return REGISTRY.get_sample_value(name) or 0.0


def _answer(app, environ: dict) -> tuple[list, list[bytes]]:
    """Run the WSGI application `app` as a request thread does: its headers and its body."""
    started: list = []
    answer = app(environ, lambda status, headers, exc_info=None: started.append(headers))
    try:
        body = list(answer)
    finally:
        answer.close()
    return started[0], body


def test_the_wait_from_a_whole_body_to_a_thread_is_observed_and_said_in_server_timing():
    def app(environ, start_response):
        start_response("200 OK", [("Server-Timing", "view;dur=1.0")])
        return [b"ok"]

    count = sample("ocholoco_request_wait_seconds_count")
    within_25ms = REGISTRY.get_sample_value(
        "ocholoco_request_wait_seconds_bucket", {"le": "0.025"}
    )
    token = whole_at.set(time.monotonic() - 0.05)  # whole 50 ms before a thread took it
    try:
        headers, body = _answer(timed(app), {})
    finally:
        whole_at.reset(token)
    assert body == [b"ok"]
    timing = dict(headers)["Server-Timing"]
    assert timing.startswith("view;dur=1.0, wait;dur="), timing  # the view's own kept first
    assert float(re.search(r"wait;dur=([0-9.]+)", timing).group(1)) >= 50
    assert sample("ocholoco_request_wait_seconds_count") == count + 1
    # Observed over 25 ms: the 0.025 bucket did not grow.
    assert REGISTRY.get_sample_value(
        "ocholoco_request_wait_seconds_bucket", {"le": "0.025"}
    ) == within_25ms


def test_a_thread_is_busy_until_its_answers_last_byte_its_cpu_apart_and_timing_is_added():
    def app(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/plain")])
        return iter([b"a", b"b"])

    names = ("ocholoco_request_threads_busy_seconds_total",
             "ocholoco_request_threads_cpu_seconds_total")
    before = [sample(name) for name in names]
    started: list = []
    answer = timed(app)({}, lambda status, headers, exc_info=None: started.append(headers))
    assert list(answer) == [b"a", b"b"]
    assert "wait;dur=" in dict(started[0])["Server-Timing"]
    # Every byte given, the answer not yet closed (handed over): not counted yet.
    assert [sample(name) for name in names] == before
    answer.close()
    busy, cpu = (sample(name) - was for name, was in zip(names, before, strict=True))
    assert busy > 0 and 0 < cpu <= busy


def _counts(url: str) -> dict[str, float]:
    """The unlabelled samples a process's metrics page holds."""
    _, _, body = _get(url)
    return {
        name: float(value)
        for name, value in re.findall(r"^(ocholoco_\w+) ([0-9.e+-]+)$", body, re.M)
    }


def test_a_process_serves_the_wait_the_busy_time_and_the_loops_lateness():
    port = free_port()
    with live_servers(TASK_WORKERS="0", METRICS_PORT=str(port)) as servers:
        for _ in range(3):
            with urllib.request.urlopen(servers[0] + "/reglas/", timeout=WAIT) as answer:
                assert answer.status == 200
                assert re.search(r"wait;dur=[0-9.]+", answer.headers["Server-Timing"])
        # Until the loop's timer has looked at least twice (bounded: a broken one fails).
        deadline = time.monotonic() + WAIT
        while True:
            counts = _counts(f"http://127.0.0.1:{port}/metrics")
            if counts.get("ocholoco_event_loop_lag_seconds_count", 0) >= 2:
                break
            assert time.monotonic() < deadline, counts
    assert counts["ocholoco_request_wait_seconds_count"] >= 3
    assert counts["ocholoco_request_threads_busy_seconds_total"] > 0
    assert counts["ocholoco_event_loop_lag_seconds_count"] >= 2
