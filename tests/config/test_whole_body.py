"""A slow sender holds nobody but itself (config.whole_body): a request reaches the request
thread only once its body is whole. Eight clients send a chat post's headers and hold the
body back while another plays; real server processes, as tests/live.py starts them."""

from __future__ import annotations

import asyncio
from urllib.parse import urlencode

import aiohttp

from tests.live import live_servers, run_async
from tests.scale.faults import Person, table_opened

WAIT = 30  # seconds at most for what must happen
HELD = 8
SETTINGS = {"RATE_CHAT": "1000/10s", "TASK_WORKERS": "0"}


async def _hold(base: str, person: Person, code: str, text: str):
    """A chat post whose headers are sent and whose body is held back: (reader, writer, body)."""
    port = int(base.rsplit(":", 1)[1])
    token = person.cookies["csrftoken"]
    body = urlencode({"text": text, "csrfmiddlewaretoken": token}).encode()
    cookie = "; ".join(f"{k}={v}" for k, v in person.cookies.items())
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"POST /mesa/{code}/chat/ HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: {base}\r\n"
        f"Cookie: {cookie}\r\nX-CSRFToken: {token}\r\nHX-Request: true\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\n"
        f"Content-Length: {len(body)}\r\n\r\n".encode()
    )
    await writer.drain()
    return reader, writer, body


async def _status(reader: asyncio.StreamReader) -> int:
    async with asyncio.timeout(WAIT):
        line = await reader.readline()
    return int(line.split(b" ", 2)[1])


async def _held_beside_a_table(http: aiohttp.ClientSession, base: str):
    """A table, eight of its host's chat posts held, and another person's page answered
    meanwhile: (code, host, held)."""
    code, host = await table_opened(http, base)
    held = [await _hold(base, host, code, f"lento{n}") for n in range(HELD)]
    status, _, _ = await Person(http, base).request("GET", "/reglas/")
    assert status == 200
    return code, host, held


def test_eight_held_bodies_stop_nobody_and_are_answered_once_when_they_arrive():
    with live_servers(1, REQUEST_BODY_TIMEOUT=str(WAIT * 4), **SETTINGS) as servers:
        base = servers[0]

        async def scenario() -> None:
            async with aiohttp.ClientSession() as http:
                code, host, held = await _held_beside_a_table(http, base)
                # Meanwhile the others are answered: a chat line, the table page.
                status, body, _ = await host.request("POST", f"/mesa/{code}/chat/",
                                                     {"text": "rapido"})
                assert status == 200, body[:300]
                status, page, _ = await host.request("GET", f"/mesa/{code}/")
                assert status == 200 and "rapido" in page
                # Nothing of the held ones was applied yet.
                assert not any(f"lento{n}" in page for n in range(HELD))

                # Their bodies arrive: each is answered and applied once.
                for _, writer, body in held:
                    writer.write(body)
                    await writer.drain()
                statuses = [await _status(reader) for reader, _, _ in held]
                for _, writer, _ in held:
                    writer.close()
                assert statuses == [200] * HELD
                _, page, _ = await host.request("GET", f"/mesa/{code}/")
                assert [page.count(f"lento{n}<") for n in range(HELD)] == [1] * HELD, page

        run_async(scenario())


def test_a_body_that_never_arrives_is_refused_with_408_and_changes_nothing():
    with live_servers(1, REQUEST_BODY_TIMEOUT="2", **SETTINGS) as servers:
        base = servers[0]

        async def scenario() -> None:
            async with aiohttp.ClientSession() as http:
                code, host, held = await _held_beside_a_table(http, base)
                for reader, writer, _ in held:
                    assert await _status(reader) == 408
                    rest = await reader.read()
                    assert "tardó demasiado" in rest.decode()
                    writer.close()
                _, page, _ = await host.request("GET", f"/mesa/{code}/")
                assert not any(f"lento{n}" in page for n in range(HELD))

        run_async(scenario())
