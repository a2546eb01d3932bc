"""How the site is served: `python -m config.server [--host H] [--port N] [--server NAME]`.

One ASGI server process serves the pages, the posts and the table's websockets
(`config.asgi:application`). Which server, and with which of its public options, is said here
and nowhere else: the scripts, the tests' servers and the benchmarks all start it through
`server_argv`. The others stay for the benchmark (`--server`; docs/performance.md, "The server").
"""

from __future__ import annotations

import argparse
import os
import sys

APPLICATION = "config.asgi:application"
DEFAULT = "uvicorn"
MAX_MESSAGE = 4096  # bytes a browser may send in one websocket message (it sends none)
BACKLOG = 4096
PING_INTERVAL = 20  # seconds
PING_TIMEOUT = 30


def server_argv(*, host: str = "127.0.0.1", port: int = 8000, server: str = DEFAULT) -> list[str]:
    """The command line that serves the site on `host`:`port` with `server`."""
    python = sys.executable
    if server == "uvicorn":
        return [
            python, "-m", "uvicorn", APPLICATION, "--host", host, "--port", str(port),
            "--loop", "uvloop", "--http", "httptools", "--ws", "websockets-sansio",
            "--ws-max-size", str(MAX_MESSAGE), "--ws-per-message-deflate", "false",
            "--ws-ping-interval", str(PING_INTERVAL), "--ws-ping-timeout", str(PING_TIMEOUT),
            "--backlog", str(BACKLOG), "--lifespan", "off", "--no-access-log",
            "--log-level", "warning",
            "--timeout-graceful-shutdown", "10",
        ]
    if server == "daphne":
        return [
            python, "-m", "daphne", "-e", f"tcp:port={port}:interface={host}:backlog={BACKLOG}",
            # autobahn's limits bind both ways: a browser's frame over the limit closes the
            # socket, and a push is at most 512 KiB (the largest, a table and its chat, is
            # far less).
            "--websocket-max-frame-size", str(MAX_MESSAGE),
            "--websocket-max-message-size", str(512 * 1024),
            "--websocket_connect_timeout", "60", "--ping-interval", str(PING_INTERVAL),
            "--ping-timeout", str(PING_TIMEOUT), APPLICATION,
        ]
    if server == "granian":
        return [
            python, "-m", "granian", "--interface", "asgi", "--host", host, "--port", str(port),
            "--workers", "1", "--backlog", str(BACKLOG), "--loop", "uvloop", "--ws",
            "--no-access-log", APPLICATION,
        ]
    if server == "hypercorn":
        return [
            python, "-m", "hypercorn", "--bind", f"{host}:{port}", "--backlog", str(BACKLOG),
            "--worker-class", "uvloop", "--websocket-ping-interval", str(PING_INTERVAL),
            APPLICATION,
        ]
    raise ValueError(f"unknown server {server!r}")


SERVERS = ("uvicorn", "daphne", "granian", "hypercorn")


def server_env(env: dict[str, str]) -> dict[str, str]:
    """The process's environment: every thread allocates from one malloc arena (glibc's
    documented tunable). With a table's pages coming and going, memory freed in one thread's
    arena was not reused by the others, and the process grew 16-17 % over ten waves of tables,
    against 8-9 % with one arena; a move's CPU is the same (the threads run Python under one
    lock)."""
    return {"MALLOC_ARENA_MAX": "1", **env}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument("--server", choices=SERVERS, default=DEFAULT)
    args = parser.parse_args()
    argv = server_argv(host=args.host, port=args.port, server=args.server)
    os.execve(argv[0], argv, server_env(dict(os.environ)))


if __name__ == "__main__":
    main()
