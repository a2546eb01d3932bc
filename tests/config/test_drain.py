"""The drain (docs/operating.md, "Deploying at any hour"): on SIGTERM a web process stops
being ready, refuses new pages and sockets, closes its table pages with 1012, lets the
requests in flight finish and exits within its bound; a task worker finishes the task it
holds and leaves the others to the next worker. Real processes, as tests/live.py starts them."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

import aiohttp
import pytest

from tests.live import ROOT, fresh_database, live_servers, run_async, server_env
from tests.scale.faults import Person, table_opened

WAIT = 30  # seconds at most for what must happen
NOTICE = 3  # DRAIN_NOTICE of the server under test (seconds)
GRACEFUL = 10  # config.server's GRACEFUL_SHUTDOWN


async def _refused(port: int) -> bool:
    """Whether a new connection to the port is refused (the server stopped listening)."""
    try:
        _, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        return True
    writer.close()
    return False


def test_sigterm_drains_a_web_process_then_it_exits():
    with live_servers(1, DRAIN_NOTICE=str(NOTICE), TASK_WORKERS="0") as servers:
        base, process = servers[0], servers.processes[0]
        port = int(base.rsplit(":", 1)[1])

        async def scenario() -> int:
            async with aiohttp.ClientSession() as http:
                code, host = await table_opened(http, base)
                socket = await http.ws_connect(
                    base.replace("http", "ws") + f"/ws/mesa/{code}/", headers=host.headers()
                )
                greeting = await socket.receive(timeout=WAIT)
                assert greeting.type == aiohttp.WSMsgType.TEXT

                # A request in flight: a guest's SENTARME, its body half sent.
                guest = Person(http, base)
                await guest.request("GET", f"/mesa/{code}/")
                token = guest.cookies["csrftoken"]
                body = urlencode({"name": "Beto", "csrfmiddlewaretoken": token}).encode()
                cookie = "; ".join(f"{k}={v}" for k, v in guest.cookies.items())
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.write(
                    f"POST /mesa/{code}/sentarse/ HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                    f"Origin: {base}\r\nCookie: {cookie}\r\nX-CSRFToken: {token}\r\n"
                    "HX-Request: true\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                    f"Content-Length: {len(body)}\r\n\r\n".encode() + body[:5]
                )
                await writer.drain()
                await asyncio.sleep(0.5)  # the server has the request's head

                process.send_signal(signal.SIGTERM)

                # The open page is closed with 1012, "service restart".
                async with asyncio.timeout(WAIT):
                    while (await socket.receive()).type not in (
                        aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED,
                        aiohttp.WSMsgType.CLOSING,
                    ):
                        pass
                assert socket.close_code == 1012

                # Not ready at once; new pages and sockets are refused while it drains.
                async with http.get(base + "/readyz") as answer:
                    assert (answer.status, await answer.text()) == (503, "not ready")
                async with http.get(base + "/healthz") as answer:
                    assert answer.status == 200
                async with http.get(base + f"/mesa/{code}/") as answer:
                    assert answer.status == 503
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await http.ws_connect(
                        base.replace("http", "ws") + f"/ws/mesa/{code}/", headers=host.headers()
                    )
                assert refused.value.status == 503

                # Then it stops listening; the request in flight still finishes.
                async with asyncio.timeout(WAIT):
                    while not await _refused(port):
                        await asyncio.sleep(0.1)
                writer.write(body[5:])
                await writer.drain()
                async with asyncio.timeout(WAIT):
                    answer = await reader.read()
                writer.close()
                return int(answer.split(b" ", 2)[1])

        assert run_async(scenario()) == 200
        # The process exits within its bound: the notice, then uvicorn's graceful shutdown.
        process.wait(timeout=NOTICE + GRACEFUL + 5)
        assert process.returncode in (0, -signal.SIGTERM)


def _manage(env: dict[str, str], script: str) -> str:
    return subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", script],
        cwd=ROOT, env=server_env(env), check=True, capture_output=True, text=True,
    ).stdout


def _worker(env: dict[str, str], log: Path) -> subprocess.Popen:
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "manage.py", "tasks_worker"], cwd=ROOT,
            env=server_env({**env, "TASK_POLL_INTERVAL": "0.05"}),
            stdout=subprocess.DEVNULL, stderr=out,
        )


def _wait_for(path: Path, text: str) -> None:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if path.exists() and text in path.read_text():
            return
        time.sleep(0.05)
    raise AssertionError(f"{text!r} never appeared in {path}")


def test_sigterm_lets_a_task_worker_finish_its_task_and_leaves_the_next_to_another():
    """A robot's turn is such a task: never lost (the next worker runs what was queued),
    never run twice (the task in hand is run once, to its end)."""
    with fresh_database() as database, tempfile.TemporaryDirectory() as folder:
        here = Path(folder)
        enqueue = (
            "from tests.config.slow_tasks import noted; import json; "
            f"print(json.dumps([str(noted.enqueue(folder={folder!r}, name=n).id) "
            "for n in ('first', 'second')]))"
        )
        ids = json.loads(_manage(database, enqueue).strip().splitlines()[-1])
        worker = _worker(database, here / "worker.log")
        try:
            _wait_for(here / "runs", "start first")
            worker.send_signal(signal.SIGTERM)
            _wait_for(here / "worker.log", "Stopping after the task in hand.")
            (here / "go-first").touch()
            (here / "go-second").touch()
            assert worker.wait(timeout=WAIT) == 0
        finally:
            if worker.poll() is None:
                worker.kill()
        assert (here / "runs").read_text() == "start first\nend first\n"

        worker = _worker(database, here / "worker-2.log")
        try:
            _wait_for(here / "runs", "end second")
        finally:
            worker.send_signal(signal.SIGTERM)
            worker.wait(timeout=WAIT)
        assert (here / "runs").read_text().splitlines() == [
            "start first", "end first", "start second", "end second",
        ]
        statuses = _manage(database, (
            "from django_tasks_db.models import DBTaskResult; "
            f"print(sorted(DBTaskResult.objects.filter(id__in={ids!r})"
            ".values_list('status', flat=True)))"
        ))
        assert statuses.strip().splitlines()[-1] == "['SUCCESSFUL', 'SUCCESSFUL']"
