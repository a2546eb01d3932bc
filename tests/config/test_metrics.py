"""The metrics (tables.metrics, docs/operating.md "Metrics"): a move counts and is timed, a
refusal counts under its reason, the scrape-time gauges count what the database holds, and a
real process with METRICS_PORT serves them there, in Prometheus' text format, and nowhere on
the public site. Read through prometheus_client's public `get_sample_value`."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from datetime import timedelta

import pytest
from prometheus_client import REGISTRY, CollectorRegistry

from bots.tasks import robot_turn
from tables.live.frames import frames_newer
from tables.metrics import ScrapeTimeGauges
from tables.state import clock
from tests.live import ROOT, free_port, fresh_database, live_servers, server_env
from tests.tables.helpers import (
    ANA_HAND,
    BETO_HAND,
    Person,
    deal,
    robot_play,
    started,
)

WAIT = 30  # seconds at most for a process to answer


def sample(name: str, labels: dict[str, str] | None = None) -> float:
    return REGISTRY.get_sample_value(name, labels or {}) or 0.0


@pytest.fixture
def game():
    table, (ana, beto) = started("Ana", "Beto")
    deal(table, [ANA_HAND, BETO_HAND], top="9H", stock=("4D", "KC"))
    return table, ana, beto


@pytest.mark.django_db(transaction=True)  # committed for real: the publication runs on commit
def test_a_persons_move_counts_once_and_is_timed_from_its_post_to_its_push(game):
    table, _, beto = game
    moves, timed = sample("ocholoco_moves_applied_total", {"by": "person"}), sample(
        "ocholoco_move_post_to_push_seconds_count"
    )
    total = sample("ocholoco_move_post_to_push_seconds_sum")

    assert beto.move(table, "5H").status_code == 200

    table.refresh_from_db()
    assert frames_newer(table.pk, table.version - 1, "es").version == table.version  # pushed
    assert sample("ocholoco_moves_applied_total", {"by": "person"}) == moves + 1
    assert sample("ocholoco_move_post_to_push_seconds_count") == timed + 1
    assert 0 < sample("ocholoco_move_post_to_push_seconds_sum") - total < 30


@pytest.mark.django_db
def test_a_robots_move_counts_as_a_robots_and_its_lag_is_observed():
    table, _ = started("Ana", robots=1)  # the robot, in seat 1, plays first
    robots, lags = sample("ocholoco_moves_applied_total", {"by": "robot"}), sample(
        "ocholoco_robot_lag_seconds_count"
    )
    people = sample("ocholoco_moves_applied_total", {"by": "person"})

    assert robot_play(table_id=table.pk, version=table.version)

    assert sample("ocholoco_moves_applied_total", {"by": "robot"}) == robots + 1
    assert sample("ocholoco_robot_lag_seconds_count") == lags + 1
    assert sample("ocholoco_moves_applied_total", {"by": "person"}) == people


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("who", "move", "stale", "reason"),
    [
        ("ana", "5S", True, "stale_version"),
        ("ana", "5S", False, "not_your_turn"),
        ("beto", "7S", False, "illegal"),
        ("beto", "nada", False, "illegal"),
    ],
)
def test_a_refused_move_counts_under_its_reason_and_is_neither_applied_nor_timed(
    game, who, move, stale, reason
):
    table, ana, beto = game
    version = table.version
    if stale:
        assert beto.move(table, "draw").status_code == 200
    refused = sample("ocholoco_posts_refused_total", {"reason": reason})
    others = sum(
        sample("ocholoco_posts_refused_total", {"reason": r})
        for r in ("stale_version", "not_your_turn", "illegal", "rate_limited", "other")
    )
    moves = sample("ocholoco_moves_applied_total", {"by": "person"})
    timed = sample("ocholoco_move_post_to_push_seconds_count")

    answer = {"ana": ana, "beto": beto}[who].move(table, move, version)

    assert answer.status_code == 409
    assert sample("ocholoco_posts_refused_total", {"reason": reason}) == refused + 1
    assert sum(
        sample("ocholoco_posts_refused_total", {"reason": r})
        for r in ("stale_version", "not_your_turn", "illegal", "rate_limited", "other")
    ) == others + 1
    assert sample("ocholoco_moves_applied_total", {"by": "person"}) == moves
    assert sample("ocholoco_move_post_to_push_seconds_count") == timed


@pytest.mark.django_db
def test_a_post_over_a_rate_limit_counts_as_rate_limited(settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "table_open": "1/h"}
    person = Person("Ana")
    limited = sample("ocholoco_posts_refused_total", {"reason": "rate_limited"})
    person.open_table()
    assert person.post("/abrir/", {"name": "Ana", "rules": "clasico"}).status_code == 429
    assert sample("ocholoco_posts_refused_total", {"reason": "rate_limited"}) == limited + 1


def scraped(collector: ScrapeTimeGauges) -> dict[str, float]:
    """The collector's gauges as a scrape reads them: in a thread of its own, with a
    connection of its own (as the metrics server's thread does)."""
    registry = CollectorRegistry()
    registry.register(collector)
    values: dict[str, float] = {}

    def scrape() -> None:
        for name in ("ocholoco_tables_in_play", "ocholoco_tasks_waiting"):
            values[name] = registry.get_sample_value(name)

    thread = threading.Thread(target=scrape)
    thread.start()
    thread.join()
    return values


@pytest.mark.django_db(transaction=True)
def test_the_scrape_time_gauges_count_tables_in_play_and_tasks_due():
    collector = ScrapeTimeGauges()
    before = scraped(collector)

    started("Ana", "Beto")  # in play
    started("Carla", "Dani")  # in play
    Person("Eva").open_table()  # in the lobby: not in play
    after_tables = scraped(collector)
    assert after_tables["ocholoco_tables_in_play"] == before["ocholoco_tables_in_play"] + 2

    now = clock.now()
    for run_after in (now - timedelta(seconds=5), now, now + timedelta(hours=1)):
        robot_turn.using(run_after=run_after).enqueue(table_id=0, version=0, due=now.isoformat())
    after_tasks = scraped(collector)
    # Two are due; the third is not yet.
    assert after_tasks["ocholoco_tasks_waiting"] == after_tables["ocholoco_tasks_waiting"] + 2


def _get(url: str) -> tuple[int, str, str]:
    try:
        with urllib.request.urlopen(url, timeout=WAIT) as answer:
            return answer.status, answer.headers.get("Content-Type", ""), answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), error.read().decode()


def _text_format(body: str) -> None:
    for metric in (
        "# TYPE ocholoco_moves_applied_total counter",
        "# TYPE ocholoco_move_post_to_push_seconds histogram",
        "# TYPE ocholoco_robot_lag_seconds histogram",
        "# TYPE ocholoco_sockets_open gauge",
        "# TYPE ocholoco_posts_refused_total counter",
        "# TYPE ocholoco_tables_in_play gauge",
        "# TYPE ocholoco_tasks_waiting gauge",
        'ocholoco_posts_refused_total{reason="stale_version"} 0.0',
        "ocholoco_tables_in_play 0.0",
        "ocholoco_sockets_open 0.0",
    ):
        assert metric in body, metric


def test_a_web_process_serves_its_metrics_on_its_own_port_and_not_on_the_public_one():
    port = free_port()
    with live_servers(TASK_WORKERS="0", METRICS_PORT=str(port)) as servers:
        status, kind, body = _get(f"http://127.0.0.1:{port}/metrics")
        assert status == 200 and kind.startswith("text/plain; version=0.0.4")
        _text_format(body)
        assert _get(servers[0] + "/metrics")[0] == 404


def _wait_answer(url: str, process: subprocess.Popen) -> tuple[int, str, str]:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        assert process.poll() is None, "the process exited"
        try:
            return _get(url)
        except urllib.error.URLError:
            time.sleep(0.1)
    raise AssertionError(f"nothing answered at {url}")


def test_a_task_worker_serves_its_metrics_on_its_own_port():
    port = free_port()
    with fresh_database() as env:
        worker = subprocess.Popen(
            [sys.executable, "manage.py", "tasks_worker"], cwd=ROOT,
            env=server_env({**env, "METRICS_PORT": str(port)}),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        try:
            status, kind, body = _wait_answer(f"http://127.0.0.1:{port}/metrics", worker)
            assert status == 200 and kind.startswith("text/plain; version=0.0.4")
            _text_format(body)
        finally:
            worker.terminate()
            worker.wait(timeout=WAIT)


def test_without_metrics_port_nothing_is_served(settings):
    from tables.metrics import metrics_serve

    settings.METRICS_PORT = None
    assert metrics_serve() is False
