"""Where we extend our libraries (docs/architecture.md), each through its public door: a test
per door that fails loudly if the door changes."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from config import server
from config.wsgi_threads import WSGIThreads
from tests.live import ROOT, free_port, fresh_database, run_async, server_env, wait_for_port

WAIT = 30  # seconds at most for what must happen (a busy machine never trips it)


def _scope(path: str = "/", headers: list | None = None) -> dict:
    """An HTTP GET's ASGI scope."""
    return {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
        "root_path": "", "headers": headers or [], "client": ("127.0.0.1", 1),
        "server": ("t", 80),
    }


def _asgi_get(app, path: str = "/", headers: list | None = None) -> tuple[int, bytes]:
    """One GET through the ASGI app `app` (with `headers`, as ASGI gives them): (status, body)."""
    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    run_async(app(_scope(path, headers), receive, send))
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return sent[0]["status"], body


def test_every_request_runs_in_a_request_thread_kept_for_the_next():
    """config.wsgi_threads: Django runs in the pool's threads, which live on (so do their
    database connections), the environ built by a2wsgi's public `build_environ`."""
    threads = []

    def wsgi(environ, start_response):
        threads.append(threading.get_ident())
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [environ["PATH_INFO"].encode()]

    app = WSGIThreads(wsgi, workers=1)
    answers = [_asgi_get(app, f"/{n}") for n in range(3)]
    assert answers == [(200, b"/0"), (200, b"/1"), (200, b"/2")]
    assert len(set(threads)) == 1 and threads[0] != threading.get_ident()


def test_a_request_thread_never_waits_for_the_client_to_take_its_answer():
    """config.wsgi_threads: while the first answer cannot be sent (a slow client, a busy
    loop), the one thread has already served the second request."""
    served: list[str] = []

    def wsgi(environ, start_response):
        served.append(environ["PATH_INFO"])
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"uno", b"dos"]

    app = WSGIThreads(wsgi, workers=1)

    async def scenario() -> tuple[bytes, bytes]:
        held = asyncio.Event()
        answers: dict[str, list[bytes]] = {"/lento": [], "/rapido": []}

        def sender(path: str, slow: bool):
            async def send(message: dict) -> None:
                if slow:
                    await held.wait()  # the client takes nothing until let go
                answers[path].append(message.get("body", b""))
            return send

        async def receive() -> dict:
            return {"type": "http.request", "body": b"", "more_body": False}

        slow = asyncio.create_task(app(_scope("/lento"), receive, sender("/lento", True)))
        await asyncio.wait_for(app(_scope("/rapido"), receive, sender("/rapido", False)), WAIT)
        assert served == ["/lento", "/rapido"] and not slow.done()
        held.set()
        await asyncio.wait_for(slow, WAIT)
        return b"".join(answers["/lento"]), b"".join(answers["/rapido"])

    assert run_async(scenario()) == (b"unodos", b"unodos")


def test_a_request_thread_finishes_its_answer_while_the_event_loop_is_busy():
    """config.wsgi_threads: the thread hands the answer over without waiting for the loop to
    take it (a2wsgi's threads waited for it at the start, at every piece and at the end)."""
    finished = threading.Event()

    class Answer(list):
        def close(self) -> None:
            finished.set()

    def wsgi(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/plain")])
        return Answer([b"uno", b"dos"])

    app = WSGIThreads(wsgi, workers=1)
    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    async def scenario() -> bool:
        task = asyncio.create_task(app(_scope(), receive, send))
        await asyncio.sleep(0)  # the request is handed to its thread
        await asyncio.sleep(0)
        done = finished.wait(WAIT)  # the loop blocked meanwhile: the thread is on its own
        await asyncio.wait_for(task, WAIT)
        return done

    assert run_async(scenario())
    assert b"".join(m.get("body", b"") for m in sent) == b"unodos"


def test_an_application_error_outside_django_is_a_500_in_spanish():
    def wsgi(environ, start_response):
        raise RuntimeError("roto")

    status, body = _asgi_get(WSGIThreads(wsgi, workers=1))
    assert status == 500 and "Algo falló en el servidor" in body.decode()


def test_every_server_the_launcher_knows_is_given_the_application_and_the_port():
    for name in server.SERVERS:
        argv = server.server_argv(port=8123, server=name)
        assert argv[:2] == [sys.executable, "-m"], name
        # uvicorn is run by config.server itself (its public Config and Server: the drain).
        assert (server.APPLICATION in argv) != (argv[2:4] == ["config.server", "--in-process"])
        assert any("8123" in part for part in argv), name
    with pytest.raises(ValueError):
        server.server_argv(server="nginx")


def test_the_launcher_serves_the_site_with_one_malloc_arena_and_a_small_message_limit():
    """`python -m config.server` (what scripts/run.sh runs): the default server, its
    environment, its pages, and a browser's websocket message over the limit closes it."""
    with fresh_database() as database:
        _serve_and_visit({**database, "TASK_WORKERS": "0"})


def _serve_and_visit(env: dict[str, str]) -> None:
    import aiohttp

    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "config.server", "--port", str(port)], cwd=ROOT,
        env=server_env(env), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_port(port, process)
        environ = Path(f"/proc/{process.pid}/environ").read_bytes().split(b"\0")
        assert b"MALLOC_ARENA_MAX=1" in environ
        assert server.DEFAULT.encode() in Path(f"/proc/{process.pid}/cmdline").read_bytes()

        async def visit() -> tuple[int, int | None]:
            async with aiohttp.ClientSession() as http:
                async with http.get(f"http://127.0.0.1:{port}/") as page:
                    status = page.status
                origin = {"Origin": f"http://127.0.0.1:{port}"}
                async with http.ws_connect(
                    f"ws://127.0.0.1:{port}/ws/mesa/nohay/", headers=origin
                ) as socket:
                    await socket.send_str("x" * (server.MAX_MESSAGE + 1))
                    async with asyncio.timeout(WAIT):
                        while not socket.closed:
                            await socket.receive()
                    return status, socket.close_code

        status, close_code = run_async(visit())
        assert status == 200
        assert close_code in (1009, 4404)  # too big, or the unknown table's close came first
    finally:
        process.terminate()
        process.wait(timeout=WAIT)
