"""The site's metrics for an operator, in Prometheus' text format (prometheus_client): each
process counts its own and serves them on `METRICS_HOST:METRICS_PORT` when that is set, never
through the public site. A move costs one increment and one observation; the gauges that need
the database are read at scrape time (`ScrapeTimeGauges`), the last backup's time from BACKUP_DIR
(`LastBackup`). docs/operating.md, "Metrics"."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable

from django.conf import settings
from django.db import close_old_connections, connection
from django_tasks_db.models import DBTaskResult
from prometheus_client import REGISTRY, Counter, Gauge, Histogram, start_http_server
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from tables.backups.folder import backup_newest
from tables.models import Table

logger = logging.getLogger(__name__)

# --- Counted as it happens -----------------------------------------------------------------

MOVES_APPLIED = Counter(
    "ocholoco_moves_applied",
    "Moves applied (committed): a person's, or a robot's (a robot's seat, or a person's turn "
    "played for them when their time ran out).",
    ["by"],
)
MOVES_BY_PERSON = MOVES_APPLIED.labels(by="person")
MOVES_BY_ROBOT = MOVES_APPLIED.labels(by="robot")

MOVE_POST_TO_PUSH = Histogram(
    "ocholoco_move_post_to_push_seconds",
    "A person's move, from its POST reaching the view to its frames handed to the channel "
    "layer.",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0),
)

ROBOT_LAG = Histogram(
    "ocholoco_robot_lag_seconds",
    "How late a robot's move was applied against when it was due (its ROBOT_DELAY after the "
    "change before it, or a person's turn deadline).",
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0),
)

# Where a stall shows (config/request_thread.py): a request waiting, whole, for a request
# thread; the threads' busy time; the event loop late for what it was asked to do.
REQUEST_WAIT = Histogram(
    "ocholoco_request_wait_seconds",
    "A request, its body whole, waiting for a request thread to take it.",
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
REQUEST_THREADS_BUSY = Counter(
    "ocholoco_request_threads_busy_seconds",
    "Time the request threads spent on requests (from taking one to its answer's last byte "
    "handed to the event loop), all threads added.",
)
REQUEST_THREADS_CPU = Counter(
    "ocholoco_request_threads_cpu_seconds",
    "CPU time the request threads spent on requests, all threads added: the rest of their busy "
    "time they waited (for the event loop's hand-overs, for the interpreter, for a lock).",
)
EVENT_LOOP_LAG = Histogram(
    "ocholoco_event_loop_lag_seconds",
    "How late the event loop (sockets, pushes, bodies) woke a timer: a busy or blocked loop.",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)

SOCKETS_OPEN = Gauge("ocholoco_sockets_open", "Table page sockets open in this process.")

# Why a post was refused: a small fixed set (TableError.reason, where it is raised).
STALE_VERSION = "stale_version"
NOT_YOUR_TURN = "not_your_turn"
ILLEGAL = "illegal"
RATE_LIMITED = "rate_limited"
OTHER = "other"
REFUSAL_REASONS = (STALE_VERSION, NOT_YOUR_TURN, ILLEGAL, RATE_LIMITED, OTHER)

POSTS_REFUSED = Counter(
    "ocholoco_posts_refused",
    "Posts refused (a table's, a chat's), by reason.",
    ["reason"],
)
_refused = {reason: POSTS_REFUSED.labels(reason=reason) for reason in REFUSAL_REASONS}


def post_refused(reason: str) -> None:
    """Count a refused post; a reason outside the fixed set counts as "other"."""
    _refused.get(reason, _refused[OTHER]).inc()


# --- Read when scraped ----------------------------------------------------------------------


def tables_in_play() -> int:
    """Tables with a round in progress (one COUNT over an indexed column)."""
    return Table.objects.filter(status=Table.Status.PLAYING).count()


def tasks_waiting() -> int:
    """Tasks that are due and not yet taken by a worker (django-tasks-db's own `ready()`:
    READY, and their `run_after` passed or unset): one COUNT."""
    return DBTaskResult.objects.ready().count()


class ScrapeTimeGauges(Collector):
    """The gauges read from the database when the process is scraped (prometheus_client's
    custom collector). The scrape runs in a thread of the metrics server: its connection is
    given back at once. The database out of reach leaves these out of that scrape (logged),
    and the rest is served."""

    def describe(self) -> Iterable[GaugeMetricFamily]:
        return self._families(None, None)

    def collect(self) -> Iterable[GaugeMetricFamily]:
        close_old_connections()
        try:
            in_play, waiting = tables_in_play(), tasks_waiting()
        except Exception as error:  # noqa: BLE001 - a scrape never fails for the database
            logger.warning("Metrics: the database could not be read: %r", error)
            return []
        finally:
            connection.close()  # back to the pool (PostgreSQL), or closed (SQLite)
        return self._families(in_play, waiting)

    @staticmethod
    def _families(in_play: int | None, waiting: int | None) -> list[GaugeMetricFamily]:
        return [
            GaugeMetricFamily(
                "ocholoco_tables_in_play", "Tables with a round in progress (all processes).",
                value=in_play,
            ),
            GaugeMetricFamily(
                "ocholoco_tasks_waiting",
                "Tasks due and not yet taken by a worker (all processes).", value=waiting,
            ),
        ]


class LastBackup(Collector):
    """`ocholoco_backup_last_success_timestamp_seconds`, read when scraped from the newest
    manifest in BACKUP_DIR (0: none there), so every process on the machine says the same
    whichever took the backup (a worker's task, the deploy, a person's command)."""

    NAME = "ocholoco_backup_last_success_timestamp_seconds"
    HELP = "When the last good backup in BACKUP_DIR was taken (Unix time; 0: none)."

    def describe(self) -> Iterable[GaugeMetricFamily]:
        return [GaugeMetricFamily(self.NAME, self.HELP)]

    def collect(self) -> Iterable[GaugeMetricFamily]:
        newest = backup_newest()
        value = 0.0 if newest is None else newest.taken_at.timestamp()
        return [GaugeMetricFamily(self.NAME, self.HELP, value=value)]


# --- Served ---------------------------------------------------------------------------------

_served = threading.Lock()
_server: tuple[object, threading.Thread] | None = None


def metrics_serve() -> bool:
    """Serve this process's metrics on METRICS_HOST:METRICS_PORT (prometheus_client's own
    server, in a thread of its own) if METRICS_PORT is set; once per process. Returns whether
    they are served."""
    global _server
    port = settings.METRICS_PORT
    if port is None:
        return False
    with _served:
        if _server is None:
            REGISTRY.register(ScrapeTimeGauges())
            REGISTRY.register(LastBackup())
            _server = start_http_server(port, addr=settings.METRICS_HOST)
    return True
