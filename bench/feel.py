"""How a move feels on a slow network: tap → card moving, tap → settled, refusals' rollback.

    .venv/bin/python bench/feel.py [--rtt 0 150 300] [--plays 30] [--draws 10] [--refusals 10]
        [--phases] [--code DIR ...] [--rounds N]

Starts the server on a fresh database (robots 0.2 s apart) and, for each round trip, a TCP proxy
of its own that delays every byte by half the round trip each way (HTTP and the table's
socket alike). Real Chromium opens a table through the proxy against a Fácil robot and plays
it, and prints per case the p50 / p99 (ms) of:

- **play**: the second tap on a lit card (or the tap on the suit, for an 8) → the first frame
  where that card is drawn somewhere else than where it was tapped (its box moved: the card
  has left the hand), and → settled (the server's new board and panel are on the page and no
  guess is left on it);
- **draw**: the tap on ROBAR → the first frame where a card moves from the stock (a face-down
  card on its way, or a new card in the hand), and → settled (the drawn card in the hand);
- **refusal**: the same second tap with a stale table version (the server refuses it, 409)
  → the card moving (if the page moves it at once), and → rolled back (the card drawn where it
  was, the reason in the notice area, no guess left).

`--phases` breaks each tap down: when the page sent the move, when the server got it and
answered (the POST's resource timing), what the server says it took (its `Server-Timing`),
when the push came and when the new panel was swapped in, and prints the slowest taps.
`--code DIR ...` serves each checkout in turn (before/after: `--code ../before .`), each
on a server and a database of its own, `--rounds` times, alternating.

The timings come from an observer this script adds to the page (nothing of the site's
own code): it takes the tap's time from the click event itself and looks at the page on every
animation frame (`requestAnimationFrame`), so "moving" is the frame in which a box really
changed. A page's guesses are the elements marked `data-guess`; the settled states are
read from the page's version markers.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Error as PlaywrightError  # noqa: E402
from playwright.sync_api import Page, sync_playwright  # noqa: E402

from tests.browser.chromium import CHROMIUM_ARGS  # noqa: E402
from tests.browser.helpers import open_table  # noqa: E402
from tests.live import (  # noqa: E402
    GENEROUS_LIMITS,
    free_port,
    serve_command,
    wait_for_port,
)

# The observer, added to every page before its own scripts.
OBSERVER = r"""
(() => {
  const feel = window.__feel = { sample: null };
  const center = r => [r.left + r.width / 2, r.top + r.height / 2];
  const far = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1]) >= 2;
  const shown = el => el.isConnected && getComputedStyle(el).visibility !== 'hidden'
    && el.getClientRects().length > 0;
  const version = id => {
    const el = document.getElementById(id);
    return el ? parseInt(el.dataset.version, 10) : 0;
  };
  const noGuess = () => !document.querySelector('[data-guess]');
  const handCount = () => document.querySelectorAll('#panel .hand .card[data-card]').length;

  // What the bench asks to time: kind 'play' | 'refusal' (card code), or 'draw'.
  feel.arm = (kind, code) => { feel.sample = { kind, code, armed: true }; };
  // What goes back to the bench (the sets and rectangles stay here).
  feel.result = () => {
    const s = feel.sample;
    const post = performance.getEntriesByType('resource').filter(e =>
      e.initiatorType === 'xmlhttprequest' && e.startTime >= s.t0 - 1).pop();
    const at = t => (t ? t - s.t0 : undefined);
    return { kind: s.kind, moving: s.moving, settled: s.settled, error: s.error,
      phases: { sent: s.sent, request: post && at(post.requestStart),
        response: post && at(post.responseStart), answered: s.answered,
        swapped: s.swapped, push: s.push, by: s.by, gap: s.gap,
        bytes: post && [post.encodedBodySize, post.decodedBodySize],
        ...Object.fromEntries((post ? post.serverTiming : []).map(t => [t.name, t.duration])) } };
  };
  // The phases of a tap, for the breakdown: when the page sent the move, when its answer
  // was read (the resource timing of the POST: requestStart, responseStart), when the push
  // came in, and when the new panel was swapped (by the answer or the push).
  const since = () => performance.now() - feel.sample.t0;
  const timing = () => feel.sample && feel.sample.t0 !== undefined
    && feel.sample.settled === undefined;
  document.addEventListener('htmx:beforeRequest', e => {
    const s = feel.sample;
    if (!timing() || s.sent !== undefined) return;
    s.sent = since();
    const xhr = e.detail.xhr;  // readystatechange (4) comes before htmx's load handler
    xhr.addEventListener('readystatechange', () => {
      if (xhr.readyState === 4 && s.answered === undefined) s.answered = since();
    });
  });
  document.addEventListener('htmx:wsBeforeMessage', e => {
    feel.lastPush = performance.now();
    const s = feel.sample;
    if (!timing() || s.push !== undefined) return;
    const m = /id="panel"[^>]*data-version="(\d+)"/.exec(e.detail.message || '');
    if (m && +m[1] > s.version) s.push = since();
  });
  document.addEventListener('htmx:oobAfterSwap', e => {
    const s = feel.sample;
    const id = e.detail.target && e.detail.target.id;
    if (!timing() || s.swapped !== undefined || id !== 'panel') return;
    if (version('panel') > s.version) {
      s.swapped = since();
      s.by = s.answered !== undefined ? 'answer' : 'push';
    }
  });

  function check(s, now) {
    s.frames = (s.frames || 0) + 1;
    try { step(s, now); } catch (e) { s.error = String(e); }
    if (!s.done) requestAnimationFrame(t => check(s, t));
  }

  // Done when settled and moving (or, if the card never moved, half a second after settled).
  function step(s, now) {
    const copies = s.code
      ? Array.from(document.querySelectorAll('[data-card="' + s.code + '"]')) : [];
    if (s.moving === undefined) {
      let moved;
      if (s.kind === 'draw') {
        const stock = document.querySelector('#board .stock .card');
        const flying = Array.from(document.querySelectorAll('.card.back'))
          .filter(el => !el.closest('#board') && !s.before.has(el) && shown(el));
        moved = handCount() !== s.count || flying.some(el => !stock ||
          far(center(el.getBoundingClientRect()), s.stock));
      } else {
        moved = copies.some(el => shown(el) && far(center(el.getBoundingClientRect()), s.from));
      }
      if (moved) s.moving = now - s.t0;
    }
    if (s.settled !== undefined) {
      if (s.moving !== undefined || now - s.t0 > s.settled + 500) s.done = true;
      return;
    }
    const advanced = version('board') > s.version && version('panel') > s.version;
    if (s.kind === 'play') {
      if (advanced && noGuess() && copies.length && copies.every(el => el.closest('#board .pile')))
        s.settled = now - s.t0;
    } else if (s.kind === 'draw') {
      if (advanced && noGuess() && handCount() > s.count) s.settled = now - s.t0;
    } else {
      const back = copies.filter(shown);
      const home = back.length === 1 && back[0].closest('#panel .hand')
        && !far(center(back[0].getBoundingClientRect()), s.from);
      if (document.querySelector('#notice .notice.error') && noGuess() && home)
        s.settled = now - s.t0;
    }
  }

  document.addEventListener('click', event => {
    const s = feel.sample;
    if (!s || !s.armed) return;
    s.armed = false;
    s.t0 = event.timeStamp;
    s.gap = feel.lastPush === undefined ? undefined : s.t0 - feel.lastPush;
    s.version = version('board');
    s.count = handCount();
    if (s.code) {
      const card = document.querySelector('#panel .hand .card[data-card="' + s.code + '"]');
      s.from = center(card.getBoundingClientRect());
    } else {
      const stock = document.querySelector('#board .stock .card');
      s.stock = stock ? center(stock.getBoundingClientRect()) : null;
      // Backs already flying (to a robot's seat) are not this draw's.
      s.before = new Set(document.querySelectorAll('.card.back'));
    }
    requestAnimationFrame(t => check(s, t));
  }, true);
})();
"""


class DelayProxy:
    """A TCP proxy that delays every byte by `rtt / 2` each way, in order (a slow network's
    latency, not its bandwidth)."""

    def __init__(self, upstream_port: int) -> None:
        self.upstream_port = upstream_port
        self.delay = 0.0
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()
        threading.Thread(target=self._run, args=(ready,), daemon=True).start()
        ready.wait()

    def _run(self, ready: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        server = self.loop.run_until_complete(
            asyncio.start_server(self._client, "127.0.0.1", 0)
        )
        self.port = server.sockets[0].getsockname()[1]
        ready.set()
        self.loop.run_forever()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        except OSError:
            writer.close()
            return
        await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer))

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        queue: asyncio.Queue = asyncio.Queue()

        async def deliver() -> None:
            while True:
                due, data = await queue.get()
                wait = due - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                if data is None:
                    break
                writer.write(data)
                await writer.drain()
            writer.close()

        delivering = asyncio.ensure_future(deliver())
        try:
            while data := await reader.read(65536):
                queue.put_nowait((time.monotonic() + self.delay, data))
        except OSError:
            pass
        queue.put_nowait((time.monotonic() + self.delay, None))
        with contextlib.suppress(OSError):
            await delivering


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def my_turn(page: Page) -> bool:
    return page.locator("#panel .your-turn").count() > 0


def timed_tap(page: Page, kind: str, code: str | None, selector: str) -> dict:
    page.evaluate("([kind, code]) => window.__feel.arm(kind, code)", [kind, code])
    page.click(selector)
    try:
        page.wait_for_function("() => window.__feel.sample.done", timeout=15_000)
    except PlaywrightError:
        print("stuck:", page.evaluate("() => window.__feel.result()"), file=sys.stderr)
        return {"kind": kind, "stuck": True}
    return page.evaluate("() => window.__feel.result()")


def play_once(page: Page, refuse: bool) -> dict:
    """Tap the first lit card twice (an 8 names the first suit); `refuse`: with a stale
    version, which the server refuses."""
    # A suit left open (the page kept it after a refused 8) is closed first.
    page.evaluate("document.querySelectorAll('dialog[open]').forEach(d => d.close())")
    card = page.locator("#panel .hand .card[data-playable]").first
    code = card.get_attribute("data-card")
    selector = f"#panel .hand .card[data-card='{code}']"
    if "selected" not in (card.get_attribute("class") or "").split():
        page.click(selector)
        page.wait_for_selector(selector + ".selected")
    if refuse:
        page.evaluate("document.querySelector('#panel .hand [name=version]').value = "
                      "String(parseInt(document.getElementById('board').dataset.version) - 1)")
    kind = "refusal" if refuse else "play"
    if card.get_attribute("data-needs-suit"):
        page.click(selector)
        return timed_tap(page, kind, code, "dialog.suit-dialog[open] .btn.suit >> nth=0")
    return timed_tap(page, kind, code, selector)


def measure(page: Page, plays: int, draws: int, refusals: int) -> dict[str, list[dict]]:
    samples: dict[str, list[dict]] = {"play": [], "draw": [], "refusal": []}
    deadline = time.monotonic() + 600
    while (len(samples["play"]) < plays or len(samples["draw"]) < draws
           or len(samples["refusal"]) < refusals):
        if time.monotonic() > deadline:
            raise RuntimeError("the table took too long")
        summary = page.locator("#panel .summary .btn.primary")
        if summary.count():
            summary.click()
            page.wait_for_selector("#panel .summary", state="detached")
            continue
        if not my_turn(page):
            page.wait_for_timeout(20)
            continue
        playable = page.locator("#panel .hand .card[data-playable]").count()
        if playable and len(samples["refusal"]) < refusals:
            samples["refusal"].append(play_once(page, refuse=True))
            page.wait_for_selector("#notice .notice.error")
            page.evaluate("document.getElementById('notice').replaceChildren();"
                          "document.querySelector('#panel .hand [name=version]').value = "
                          "document.getElementById('panel').dataset.version")
        elif playable and len(samples["play"]) < plays:
            samples["play"].append(play_once(page, refuse=False))
        elif page.locator("#panel [data-draw]").count():
            version = page.locator("#board").get_attribute("data-version")
            sample = timed_tap(page, "draw", None, "#panel [data-draw]")
            if len(samples["draw"]) < draws:
                samples["draw"].append(sample)
            page.wait_for_function(
                f"() => +document.getElementById('panel').dataset.version > {version}")
        elif playable:  # enough refusals and plays: play on (not timed) until draws come
            play_once(page, refuse=False)
        else:
            version = page.locator("#board").get_attribute("data-version")
            page.click("#panel >> text=PASAR")
            page.wait_for_function(
                f"() => +document.getElementById('panel').dataset.version > {version}")
    return samples


def table_page(browser, url: str) -> Page:
    context = browser.new_context(viewport={"width": 1440, "height": 900}, locale="es-ES")
    context.add_init_script(OBSERVER)
    page = context.new_page()
    page.set_default_timeout(30_000)
    open_table(page, url, "Ana")
    page.select_option("#panel .robot-form select", "facil")
    page.click("text=AGREGAR ROBOT")
    page.wait_for_selector("#board .badge")
    page.click("text=EMPEZAR LA PARTIDA")
    page.wait_for_selector("#panel .hand .card")
    return page


def line(name: str, values: list[float]) -> str:
    if not values:
        return f"{name:<22s} {'—':>8s}"
    return (f"{name:<22s} p50 {statistics.median(values):7.0f}  "
            f"p99 {percentile(values, 0.99):7.0f}  (n={len(values)})")


PHASES = ("sent", "request", "response", "answered", "push", "swapped", "settled")
# What the server's answer says it took (Server-Timing, ms): the move applied and published,
# and the whole view.
SERVER = ("move", "view")


def print_phases(samples: list[dict]) -> None:
    """Each phase's p50 / p99 (ms from the tap), then the three slowest taps phase by phase:
    where the time to settled goes."""
    for name in PHASES:
        values = [s["phases"].get(name) if name != "settled" else s["settled"] for s in samples]
        print("    " + line(name, [v for v in values if v is not None]))
    for name in SERVER:
        values = [s["phases"][name] for s in samples if s["phases"].get(name) is not None]
        print("    " + line(f"server: {name}", values))
    by = [s["phases"].get("by") for s in samples]
    print(f"    swapped by the answer {by.count('answer')}, by the push {by.count('push')}")
    sizes = [s["phases"]["bytes"] for s in samples if s["phases"].get("bytes")]
    if sizes:
        print(f"    answer: {statistics.median(a for a, _ in sizes):.0f} bytes sent, "
              f"{statistics.median(b for _, b in sizes):.0f} bytes of HTML (p50)")
    # The server's time outside the view (at 0 ms round trip: queueing, the other threads),
    # by how long before the tap the page got its last push (the robot's move, say).
    needed = ("gap", "request", "response", "view")
    outside = [(ph["gap"], ph["response"] - ph["request"] - ph["view"])
               for ph in (s["phases"] for s in samples)
               if all(ph.get(k) is not None for k in needed)]
    for low, high in ((0, 100), (100, 250), (250, 10**9)):
        got = [o for g, o in outside if low <= g < high]
        if got:
            print("    " + line(f"last push {low}-{high if high < 10**9 else ''} ms before the tap:"
                             " request → answer, outside the view", got))
    for s in sorted(samples, key=lambda s: -s["settled"])[:3]:
        ph = s["phases"]
        print("    slow: " + "  ".join(
            f"{name} {ph[name]:.0f}" for name in ("gap",) + PHASES[:-1] + SERVER
            if ph.get(name) is not None)
            + f"  settled {s['settled']:.0f}  ({ph.get('by')})")


@contextlib.contextmanager
def server(code: Path) -> Iterator[int]:
    """The server serving checkout `code` on a fresh SQLite database of its own, as in production
    (DEBUG off, its static files collected; robots 0.2 s apart); yields its port."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, **GENEROUS_LIMITS, "DEBUG": "0", "ROBOT_DELAY": "0.2",
               "SECRET_KEY": "feel-benchmark-not-secret", "ALLOWED_HOSTS": "127.0.0.1",
               "SECURE_COOKIES": "0",
               "SQLITE_PATH": str(Path(tmp) / "feel.sqlite3"), "PYTHONUNBUFFERED": "1",
               "CHANNEL_PREFIX": f"feel{uuid.uuid4().hex[:8]}",
               "DJANGO_SETTINGS_MODULE": "config.settings"}
        env.pop("DATABASE_URL", None)
        env.pop("REDIS_URL", None)
        for command in (["migrate", "--noinput"], ["collectstatic", "--noinput", "-v0"]):
            subprocess.run([sys.executable, "manage.py", *command], cwd=code, env=env,
                           check=True, capture_output=True)
        port = free_port()
        with tempfile.TemporaryFile() as log:
            process = subprocess.Popen(
                serve_command(port, code),
                cwd=code, env=env, stdout=log, stderr=subprocess.STDOUT,
            )
            try:
                wait_for_port(port, process)
                yield port
            finally:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rtt", type=int, nargs="+", default=[0, 150, 300],
                        help="round trips to measure, in ms")
    parser.add_argument("--plays", type=int, default=30)
    parser.add_argument("--draws", type=int, default=10)
    parser.add_argument("--refusals", type=int, default=10)
    parser.add_argument("--phases", action="store_true",
                        help="also the phases of each tap (p50/p99) and the slowest taps")
    parser.add_argument("--code", type=Path, nargs="+", default=[ROOT],
                        help="checkouts to serve in turn (default: this one)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="how many times each checkout is measured, alternating")
    args = parser.parse_args()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        proxy = DelayProxy(0)
        for turn in range(args.rounds):
            for code in args.code:
                with server(code.resolve()) as port:
                    print(f"\n### code: {code.resolve()} (round {turn + 1})", flush=True)
                    proxy.upstream_port = port
                    measure_code(browser, proxy, args)
        browser.close()


def measure_code(browser, proxy: DelayProxy, args: argparse.Namespace) -> None:
    """Every round trip against the server behind `proxy`: the figures."""
    for rtt in args.rtt:
        proxy.delay = rtt / 2000
        page = table_page(browser, f"http://127.0.0.1:{proxy.port}")
        samples = measure(page, args.plays, args.draws, args.refusals)
        page.context.close()
        print(f"\nround trip {rtt} ms (times in ms from the tap)")
        for kind, done in (("play", "settled"), ("draw", "settled"),
                           ("refusal", "rolled back")):
            stuck = [s for s in samples[kind] if s.get("stuck")]
            if stuck:
                print(f"{kind}: {len(stuck)} never settled within 15 s")
            got = [s for s in samples[kind] if not s.get("stuck")]
            moved = [s["moving"] for s in got if s.get("moving") is not None]
            never = len(got) - len(moved)
            print(line(f"{kind}: card moving", moved)
                  + (f"  ({never} never moved)" if never else ""))
            print(line(f"{kind}: {done}", [s["settled"] for s in got]))
            if args.phases:
                print_phases(got)


if __name__ == "__main__":
    main()
