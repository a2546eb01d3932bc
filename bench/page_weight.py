"""The table page's weight and its time to a playable table, in Chromium on this machine.

    .venv/bin/python bench/page_weight.py [--runs 5]

Collects the static files and starts daphne as in production (DEBUG off, static files
compressed by WhiteNoise), on a fresh database, opens a table with a robot, and for a
first visit (empty cache) prints every resource the table page transfers (HTML, CSS, JS,
fonts) with its compressed size, the total against the 150 KB budget, and the time from
navigation until the hand is on screen and the table's socket is open (median of --runs).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.browser.helpers import open_table  # noqa: E402
from tests.conftest import CHROMIUM_ARGS  # noqa: E402
from tests.live import daphne_servers  # noqa: E402

BUDGET = 150 * 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    production = {
        "DEBUG": "0", "SECRET_KEY": "page-weight-benchmark", "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_COOKIES": "0",
    }
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT, env={**os.environ, **production}, check=True,
    )
    with daphne_servers(1, **production) as (url,), sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        host_context = browser.new_context()
        host = host_context.new_page()
        table_url = open_table(host, url, "Ana")
        host.click("text=AGREGAR ROBOT")
        host.click("text=EMPEZAR LA PARTIDA")
        host.wait_for_selector("#panel .hand .card")
        cookies = host_context.cookies()

        sizes: dict[str, int] = {}
        timings = []
        for run in range(args.runs):
            context = browser.new_context()  # an empty cache: a first visit
            context.add_cookies(cookies)
            page = context.new_page()
            client = context.new_cdp_session(page)
            client.send("Network.enable")
            requests: dict[str, str] = {}
            encoded: dict[str, int] = {}
            client.on("Network.requestWillBeSent",
                      lambda e, r=requests: r.__setitem__(e["requestId"], e["request"]["url"]))
            client.on("Network.loadingFinished",
                      lambda e, s=encoded: s.__setitem__(e["requestId"], e["encodedDataLength"]))
            start = time.perf_counter()
            page.goto(table_url, wait_until="commit")
            page.wait_for_selector("#panel .hand .card[data-card]")
            page.wait_for_selector("#table-page[data-ws=open]")
            timings.append(time.perf_counter() - start)
            page.wait_for_load_state("networkidle")
            if run == 0:
                for request_id, length in encoded.items():
                    name = requests.get(request_id, "?").replace(url, "")
                    if name.startswith(("/static/", "/mesa/")):
                        sizes[name] = length
            context.close()
        browser.close()

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
