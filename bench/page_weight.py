"""The table page's weight and its time to a playable table, in Chromium on this machine.

    .venv/bin/python bench/page_weight.py [--runs 5]

Collects the static files and starts the server as in production (DEBUG off, static files
compressed by WhiteNoise), on a fresh database, opens a table with a robot, and for a
first visit (empty cache) prints every resource the table page transfers (HTML, CSS, JS,
the scripts' catalog, the figures of the court cards on screen, in the viewer's deck) with
its compressed size, the total against the 150 KB budget, and the time from navigation until
the hand is on screen and the table's socket is open (median of --runs).
tests/browser/test_page_weight.py holds the budget on a hand heavy with figures.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.browser.chromium import CHROMIUM_ARGS  # noqa: E402
from tests.browser.helpers import open_table  # noqa: E402
from tests.live import live_servers  # noqa: E402

BUDGET = 150 * 1024


PRODUCTION = {
    "DEBUG": "0", "SECRET_KEY": "page-weight-benchmark", "ALLOWED_HOSTS": "127.0.0.1",
    "SECURE_COOKIES": "0",
}


@contextmanager
def static_files() -> Iterator[dict[str, str]]:
    """PRODUCTION's settings with a STATIC_ROOT of their own, collected (`collectstatic`), for
    as long as the block runs: the checkout's `staticfiles/` is never written, so another
    process serving or collecting it at the same time (a test beside this one) is left alone."""
    with tempfile.TemporaryDirectory(prefix="ocholoco-static-") as root:
        settings = {**PRODUCTION, "STATIC_ROOT": root}
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
            cwd=ROOT, env={**os.environ, **settings}, check=True,
        )
        yield settings


def first_visit(browser, url: str, table_url: str, cookies: list) -> tuple[dict[str, int], float]:
    """One first visit (empty cache) to `table_url` with `cookies`: the compressed bytes of
    each of the site's resources it transferred, and the seconds until the table is playable
    (the hand shown, the socket open)."""
    context = browser.new_context(locale="es-ES")
    context.add_cookies(cookies)
    page = context.new_page()
    client = context.new_cdp_session(page)
    client.send("Network.enable")
    requests: dict[str, str] = {}
    encoded: dict[str, int] = {}
    client.on("Network.requestWillBeSent",
              lambda e: requests.__setitem__(e["requestId"], e["request"]["url"]))
    client.on("Network.loadingFinished",
              lambda e: encoded.__setitem__(e["requestId"], e["encodedDataLength"]))
    start = time.perf_counter()
    page.goto(table_url, wait_until="commit")
    page.wait_for_selector("#panel .hand .card[data-card]")
    page.wait_for_selector("#table-page[data-ws=open]")
    elapsed = time.perf_counter() - start
    page.wait_for_load_state("networkidle")
    sizes = {}
    for request_id, length in encoded.items():
        name = requests.get(request_id, "?").replace(url, "")
        if name.startswith(("/static/", "/mesa/", "/jsi18n/")):  # the scripts' words too
            sizes[name] = length
    context.close()
    return sizes, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with static_files() as settings, live_servers(1, **settings) as (url,), sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        host_context = browser.new_context(locale="es-ES")
        host = host_context.new_page()
        table_url = open_table(host, url, "Ana")
        host.click("text=AGREGAR ROBOT")
        host.click("text=EMPEZAR LA PARTIDA")
        host.wait_for_selector("#panel .hand .card")
        cookies = host_context.cookies()
        visits = [first_visit(browser, url, table_url, cookies) for _ in range(args.runs)]
        browser.close()

    sizes = visits[0][0]
    timings = [elapsed for _, elapsed in visits]
    total = sum(sizes.values())
    print("First visit to a table page (compressed bytes on the wire, headers included):")
    for name, size in sorted(sizes.items(), key=lambda item: -item[1]):
        print(f"  {size / 1024:7.1f} KB  {name}")
    verdict = "within" if total <= BUDGET else "OVER"
    print(f"  {total / 1024:7.1f} KB  total ({verdict} the 150 KB budget)")
    print(
        f"Navigation to a playable table (hand shown, socket open): median "
        f"{statistics.median(timings) * 1000:.0f} ms, best {min(timings) * 1000:.0f} ms, "
        f"worst {max(timings) * 1000:.0f} ms over {len(timings)} runs"
    )


if __name__ == "__main__":
    main()
