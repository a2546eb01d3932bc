"""How the site is served: `python -m config.server [--host H] [--port N] [--server NAME]`.

One ASGI server process serves the pages, the posts and the table's websockets
(`config.asgi:application`). Which server, and with which of its public options, is said here
and nowhere else: the scripts, the tests' servers and the benchmarks all start it through
`server_argv`. The others stay for the benchmark (`--server`; docs/performance.md, "The server").
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
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
        # Served by this module, in its own process (`serve_uvicorn`): uvicorn run through its
        # public `Config` and `Server`, so that SIGTERM drains the process first.
        return [python, "-m", "config.server", "--in-process", "--server", server, "--host", host,
                "--port", str(port)]
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

# Seconds between SIGTERM and the server's own shutdown: meanwhile the process is draining
# (`tables.live.drain`: /readyz 503, new pages and sockets refused with 503, open table pages
# closed with 1012) while still answering, so that probes and the proxy see it go.
DRAIN_NOTICE = float(os.environ.get("DRAIN_NOTICE", "2"))
# The open table pages' closes are spread over the first half of the notice (`tables.live.drain`).
DRAIN_SPREAD = DRAIN_NOTICE / 2
# Then uvicorn's own shutdown: it stops listening, closes the websockets left with 1012, and
# waits this long at most for the requests in flight.
GRACEFUL_SHUTDOWN = int(os.environ.get("GRACEFUL_SHUTDOWN", "10"))


def uvicorn_config(host: str, port: int):
    """uvicorn's configuration, by its public options (`uvicorn.Config`)."""
    import uvicorn

    return uvicorn.Config(
        APPLICATION, host=host, port=port, loop="uvloop", http="httptools",
        ws="websockets-sansio", ws_max_size=MAX_MESSAGE, ws_per_message_deflate=False,
        ws_ping_interval=PING_INTERVAL, ws_ping_timeout=PING_TIMEOUT, backlog=BACKLOG,
        lifespan="off", access_log=False, log_level="warning",
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN,
    )


def serve_uvicorn(host: str, port: int) -> None:
    """Serve the site with uvicorn in this process; SIGTERM drains it first (DRAIN_NOTICE)."""
    import time

    import uvicorn

    from tables.live import drain

    class DrainingServer(uvicorn.Server):
        """uvicorn's `Server` (its public methods `handle_exit`, called on a signal, and
        `on_tick`, called in its loop ten times a second): a SIGTERM only notes the time; the
        next tick begins the drain (and waits for its closes, spread over DRAIN_SPREAD: the
        loop serves on meanwhile), and DRAIN_NOTICE later hands the signal to uvicorn's own
        handling (its graceful shutdown). SIGINT (Ctrl-C) and a second SIGTERM are handled as
        uvicorn does at once."""

        drain_asked: tuple[float, int, object] | None = None
        drain_begun = False

        def handle_exit(self, sig, frame) -> None:
            if sig == signal.SIGTERM and self.drain_asked is None:
                self.drain_asked = (time.monotonic(), sig, frame)  # only a note: a signal
                return
            super().handle_exit(sig, frame)

        async def on_tick(self, counter: int) -> bool:
            if self.drain_asked is not None and not self.should_exit:
                asked, sig, frame = self.drain_asked
                if not self.drain_begun:
                    self.drain_begun = True
                    await drain.drain_begin(DRAIN_SPREAD)
                if time.monotonic() - asked >= DRAIN_NOTICE:
                    super().handle_exit(sig, frame)
            return await super().on_tick(counter)

    # The application is imported before uvicorn's loop runs, as uvicorn's command line does:
    # its start-up (the embedded task workers read the database) is synchronous Django, which
    # refuses to run inside an event loop.
    importlib.import_module(APPLICATION.partition(":")[0])
    DrainingServer(uvicorn_config(host, port)).run()


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
    parser.add_argument("--in-process", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.in_process:  # what server_argv's uvicorn command runs, with server_env's environment
        serve_uvicorn(args.host, args.port)
        return
    argv = server_argv(host=args.host, port=args.port, server=args.server)
    os.execve(argv[0], argv, server_env(dict(os.environ)))


if __name__ == "__main__":
    main()
