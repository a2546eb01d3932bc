"""`/healthz` and `/readyz` (config.health): answered in front of Django, ok or not ok."""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest

from config.health import Health, channel_layer_reachable, database_reachable, ready
from tables.live import drain
from tests.config.test_stack import _asgi_get
from tests.live import live_servers, run_async


async def passes() -> None:
    return None


async def fails() -> None:
    raise ConnectionError("a database or a layer that is not there (a test double)")


async def never_answers() -> None:
    import asyncio

    await asyncio.sleep(3600)


async def django(scope, receive, send) -> None:
    """The site behind the health layer (a double): it says it was reached."""
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"the site"})


@pytest.fixture
def not_draining():
    drain.drain_end()
    yield
    drain.drain_end()


def test_healthz_answers_ok_whatever_the_checks_say(not_draining):
    assert _asgi_get(Health(django, checks=(fails,)), "/healthz") == (200, b"ok")


def test_readyz_is_ok_when_every_check_passes_and_not_ready_when_one_fails(not_draining):
    assert _asgi_get(Health(django, checks=(passes, passes)), "/readyz") == (200, b"ok")
    assert _asgi_get(Health(django, checks=(passes, fails)), "/readyz") == (503, b"not ready")


def test_a_check_that_hangs_counts_as_failed(not_draining, monkeypatch):
    monkeypatch.setattr("config.health.CHECK_TIMEOUT", 0.1)  # our own constant
    assert _asgi_get(Health(django, checks=(never_answers,)), "/readyz") == (503, b"not ready")


def test_readyz_is_not_ready_while_draining_and_new_requests_are_refused(not_draining):
    app = Health(django, checks=(passes,))
    assert _asgi_get(app, "/mesa/x/") == (200, b"the site")
    run_async(drain.drain_begin())
    assert _asgi_get(app, "/readyz") == (503, b"not ready")
    assert _asgi_get(app, "/healthz") == (200, b"ok")
    status, body = _asgi_get(app, "/mesa/x/")
    assert status == 503 and "reiniciando" in body.decode()


@pytest.mark.django_db(transaction=True)
def test_the_real_checks_pass_on_this_database_and_channel_layer(not_draining):
    async def both() -> bool:
        await database_reachable()
        await channel_layer_reachable()
        return await ready()

    assert run_async(both()) is True


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_a_real_server_is_ready_and_its_probes_skip_the_site():
    """Through the real stack: no cookie, no redirect, ok."""
    with live_servers(TASK_WORKERS="0") as servers:
        with urllib.request.urlopen(servers[0] + "/readyz", timeout=30) as answer:
            assert (answer.status, answer.read()) == (200, b"ok")
            assert answer.headers.get("Set-Cookie") is None
        assert _get(servers[0] + "/healthz") == (200, b"ok")


@pytest.mark.parametrize("broken", ["database", "channel layer"])
def test_a_real_server_that_cannot_reach_its_database_or_layer_is_not_ready(broken, tmp_path):
    """Set up to reach a service on a port where nothing listens (a setting, no patch)."""
    from tests.live import free_port, server_processes

    if broken == "database":
        env = {"DATABASE_URL": f"postgres://postgres@127.0.0.1:{free_port()}/nohay",
               "DB_POOL_TIMEOUT": "1", "TASK_WORKERS": "0"}
    else:
        env = {"REDIS_URL": f"redis://127.0.0.1:{free_port()}/0", "TASK_WORKERS": "0",
               "SQLITE_PATH": str(tmp_path / "unused.sqlite3")}
    with server_processes(env) as servers:
        assert _get(servers[0] + "/healthz") == (200, b"ok")
        assert _get(servers[0] + "/readyz") == (503, b"not ready")


def _get_with_cookie(app, path: str, cookie: str) -> tuple[int, bytes]:
    return _asgi_get(app, path, headers=[(b"cookie", cookie.encode())])


def test_a_page_reloading_into_a_later_release_is_left_to_it(settings, not_draining):
    """static/js/socket.js's cookie names the release a reloading page wants: a process of
    an earlier one refuses that page load (the proxy passes it on), and only that."""
    settings.RELEASE = "20261205T110000Z-aaaaaaa"
    app = Health(django, checks=(passes,))
    later = "ocholoco_release=20261205T120000Z-bbbbbbb; sessionid=x"
    status, body = _get_with_cookie(app, "/mesa/x/", later)
    assert status == 503 and "reiniciando" in body.decode()
    assert _get_with_cookie(app, "/mesa/x/", "ocholoco_release=20261205T110000Z-aaaaaaa") == (
        200, b"the site")  # its own release
    assert _get_with_cookie(app, "/mesa/x/", "ocholoco_release=2025") == (200, b"the site")
    assert _get_with_cookie(app, "/mesa/x/", "sessionid=x") == (200, b"the site")
    settings.RELEASE = ""  # no release named (the embedded default): nothing refused
    assert _get_with_cookie(app, "/mesa/x/", later) == (200, b"the site")
