"""The same pages byte for byte: one scripted round, every byte each person gets, compared
between commits (#51's refactor, #52's i18n: "the same pages before and after").

    .venv/bin/python bench/same_pages.py                        # one run: its captures only
    .venv/bin/python bench/same_pages.py --code e7642aa --code .  # before #51 against now
    .venv/bin/python bench/same_pages.py --code . --code .      # the harness against itself
    .venv/bin/python bench/same_pages.py --code HEAD~3 --code . --out /tmp/pages --context 6
    .venv/bin/python bench/same_pages.py --code 72be0cd --code . --words  # the words alone

`--code REV` (repeatable) serves a commit (from a temporary `git worktree`, run with this
checkout's .venv, removed afterwards) or a checkout's folder (`.`: this one, uncommitted
changes and all). Each runs on a fresh SQLite database and a server of its own, as in
production (DEBUG off, collected static files, the in-memory channel layer, one task worker).
About a minute a revision; one server and three browsers, light enough for a shared machine.

The script, the same for every revision: the host (a desktop browser) opens a Clásico table
from the home page and adds a Fácil robot; a guest comes by the invitation link and sits
down (SENTARME, then the players' link the answer sends her to); a spectator comes by the same
link. Each writes one chat line. The host starts the match; the people play a fixed policy
(the first playable card of the hand, an 8 naming its first suit, "¡Última carta!" ticked when
offered; else ROBAR, else PASAR) until the round ends; on the way, a move out of turn and one
on a stale table version (the Spanish refusals), "Todas las jugadas", the log a page catches
up with (/lineas/) and "Mientras no estabas". Then the summary: the host presses SIGUIENTE
RONDA (or REVANCHA) once, and the guest the same a moment late (refused: stale). Then the
other pages, each in a tab of its own: home, /reglas/, Mis mesas, the table's history, each
finished round's replay and fairness page, the match's .txt and .json, a table that does not
exist and a page that does not exist (the 404s).

What is recorded, per person and in order, one file each (`--out`, kept): every HTTP answer
(its status, the headers a page acts on: Content-Type, Content-Disposition, Location, HX-*;
and its body, whole pages and htmx fragments alike, asked with the headers a browser and htmx
send: HX-Request, HX-Current-URL, HX-Target, HX-Trigger, X-CSRFToken, Referer, Origin) and
every frame of the table's socket, which each table page opens where its `ws-connect` says
(a page left closes its socket, as a browser does). Files are named
`<person>/<seq>-s<step>-<http|ws>-<what>.txt`; within a step a person's answers come first,
then their socket's frames in the order they came (an answer and the push of the same change
race: the order between them is the network's, not the site's). The static files the pages
name are not fetched: their content hashes are compared apart (printed, not counted).

Determinism, without a change to the product: the server starts through a bootstrap of this
file (`--serve-seeded`) that sets Django up, then swaps the `random` module of OUR modules that
shuffle the deal or make a robot's rng (found per revision, whatever the layout: every module
of tables/, bots/, chat/ and config/ whose source calls `random.SystemRandom()` or a bare
`random.Random()`; today tables.changes.services and bots.tasks) for a stand-in whose
`SystemRandom()` is a `random.Random` seeded by --seed, the module and the deal's number, and
whose bare `Random()` is seeded by --seed and the module alone (a robot's choice then depends
only on what it sees; a duplicate task cannot shift it); then it runs the checkout's own server
in that process (`unittest.mock.patch.object`; no library is patched). Robots move ROBOT_DELAY
(1 s, the site's default) after the change they answer. Every step waits until each open page
shows the newest version, then, while the board says it is the robot's turn, for its move on
every page, then for a quiet spell (--quiet) with no frame anywhere: nobody acts before their
page shows the robot's move, so its timing changes no byte. A turn limit is off.

Normalized before comparing, on both sides (`RULES`; each rule's count per revision is printed,
so that a rule hiding a real difference shows): the table's two codes and the seat secrets
(literally, by what the run learned), CSRF tokens, CSP nonces, static files' content hashes,
the server's port, timestamps, today's date and time. Everything else must be equal byte for
byte: each revision's captures are compared with the first's, and the run prints how many
captures and bytes, how many are identical, and for each difference a unified diff excerpt
(a tag a line); it exits 1 on any difference. All traffic goes to 127.0.0.1; every wait is
bounded (30 s).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import difflib
import html
import os
import random
import re
import runpy
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlencode, urljoin

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.live import (  # noqa: E402
    free_port,
    fresh_database,
    serve_command,
    server_env,
    wait_for_port,
)

WAIT = 30.0  # seconds: the most any wait for something that must come lasts
PEOPLE = {"anfitriona": "Ana", "invitado": "Beto"}  # the seated people and their names
SPECTATOR = "mirona"
SPECTATOR_NAME = "Caro"
MISSING_CODE = "NoExisteEsta"  # a table code nobody has (12 characters, as the site's)
USER_AGENT = ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
              "Chrome/156.0.0.0 Safari/537.36")
PAGE_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
KEPT_HEADERS = ("content-type", "content-disposition", "location")  # and every hx-*
MOVES_AT_MOST = 400  # a round that goes on longer than this is a broken script

# Where a revision's randomness may live: these packages' modules that call one of these.
SEEDED_PACKAGES = ("tables", "bots", "chat", "config")
SEEDED_CALLS = ("random.SystemRandom()", "random.Random()")

VERSION_RE = re.compile(r'data-version="(\d+)"')
WS_RE = re.compile(r'ws-connect="([^"]+)"')
STATIC_RE = re.compile(r"/static/([\w./-]+?)\.([0-9a-f]{12})(\.\w+)")
TAG_RE = re.compile(r"<(form|input|button)\b([^>]*)>", re.S)
ATTR_RE = re.compile(r'([\w:-]+)(?:="([^"]*)")?')


# --- What is normalized ----------------------------------------------------------------------

# (name, pattern, replacement, why): applied in this order, after the run's own literals
# (its table codes and seat secrets: `Capture.literals`). Nothing else is touched.
RULES: list[tuple[str, re.Pattern[str], str, str]] = [
    ("seat-secret", re.compile(r"/volver/[A-Za-z0-9_-]{20,}/"), "/volver/{SECRET}/",
     "a seat's private link (random)"),
    ("csrf-field", re.compile(r'(name="csrfmiddlewaretoken" value=")[A-Za-z0-9]{32,64}"'),
     r'\1{CSRF}"', "the form's CSRF token (random, masked anew each answer)"),
    ("csrf-header", re.compile(r'("X-CSRFToken": ")[A-Za-z0-9]{32,64}"'), r'\1{CSRF}"',
     "the page's CSRF token for htmx (random)"),
    ("csp-nonce", re.compile(r'nonce="[A-Za-z0-9+/=_-]+"'), 'nonce="{NONCE}"',
     "a CSP nonce (random)"),
    ("static-hash", re.compile(r"(/static/[\w./-]+?)\.[0-9a-f]{12}(\.\w+)"), r"\1.{HASH}\2",
     "a static file's content hash (its bytes are not the page's)"),
    ("port", re.compile(r"127\.0\.0\.1:\d{2,5}"), "127.0.0.1:{PORT}", "the server's port"),
    ("datetime", re.compile(
        r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?"),
     "{DATETIME}", "a timestamp (a chat line's, a download's)"),
    ("file-stamp", re.compile(r"\b20\d{6}-\d{4}\b"), "{STAMP}",
     "the minute in a download's file name"),
    ("date", re.compile(r"\b\d\d/\d\d/\d{4}\b"), "{DATE}", "today's date, numeric"),
    ("date-words", re.compile(
        r"\b\d{1,2}(?: de)? (?:ene|feb|mar|abr|may|jun|jul|ago|sep|sept|oct|nov|dic"
        r"|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre"
        r"|diciembre)\.?(?: de \d{4})?\b", re.IGNORECASE), "{DATE}",
     "today's date in words (Mis mesas: '7 Dic')"),
    ("clock", re.compile(r"(?<=a las )\d\d:\d\d\b"), "{TIME}",
     "the time of day a download says ('a las 04:09')"),
]


def normalize(data: bytes, literals: dict[str, str], counts: Counter) -> str:
    """`data` with the run's literals and `RULES` replaced; each rule's count added up."""
    text = data.decode("utf-8", errors="replace")
    for literal, placeholder in sorted(literals.items(), key=lambda kv: -len(kv[0])):
        found = text.count(literal)
        if found:
            counts[f"literal {placeholder}"] += found
            text = text.replace(literal, placeholder)
    for name, pattern, replacement, _ in RULES:
        text, found = pattern.subn(replacement, text)
        counts[name] += found
    return text


# --- The server's bootstrap: the run's randomness seeded --------------------------------------


class SeededRandom:
    """Stands in for the `random` module in one of the site's modules: `SystemRandom()` is a
    `random.Random` seeded by the run's seed, the module's name and the call's number (the
    deals, one after another); a bare `Random()` is seeded by the seed and the module's name
    alone. Everything else is the real module's."""

    def __init__(self, seed: str, where: str) -> None:
        self.seed, self.where = seed, where
        self.calls = 0
        self.lock = threading.Lock()

    def SystemRandom(self) -> random.Random:  # noqa: N802 (the random module's name)
        with self.lock:
            number, self.calls = self.calls, self.calls + 1
        return random.Random(f"{self.seed}:{self.where}:{number}")

    def Random(self, *args: object) -> random.Random:  # noqa: N802 (the random module's name)
        return random.Random(*args) if args else random.Random(f"{self.seed}:{self.where}")

    def __getattr__(self, name: str) -> object:
        return getattr(random, name)


def seeded_modules(code: Path) -> list[str]:
    """The modules of checkout `code` that make a random generator of their own."""
    names = []
    for package in SEEDED_PACKAGES:
        for path in sorted((code / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            source = path.read_text()
            if any(call in source for call in SEEDED_CALLS):
                parts = path.relative_to(code).with_suffix("").parts
                names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def serve_seeded() -> None:
    """`--serve-seeded SEED -m MODULE ARGS...`: this checkout's server (the current directory),
    its modules' generators seeded first. Run in the checkout served, as `python -m` would."""
    import importlib
    from unittest import mock

    seed = sys.argv[2]
    module, *arguments = sys.argv[4:]
    code = Path.cwd()
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT]
    sys.path.insert(0, str(code))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    patched = []
    for name in seeded_modules(code):
        target = importlib.import_module(name)
        if getattr(target, "random", None) is random:
            mock.patch.object(target, "random", SeededRandom(seed, name)).start()
            patched.append(name)
    if not patched:
        sys.exit(f"same_pages: no module of {code} makes its own random generator")
    print(f"same_pages: seeded {', '.join(patched)}", flush=True)
    if module == "config.server":  # it would replace this process: ask it for its command
        from config.server import server_argv

        port = int(arguments[arguments.index("--port") + 1])
        _, _, module, *arguments = server_argv(port=port)
        del sys.modules["config.server"]  # run afresh as __main__, as `python -m` does
    sys.argv = [module, *arguments]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


# --- Pages: what is read from them ------------------------------------------------------------


def attributes(text: str) -> dict[str, str]:
    return {k: html.unescape(v or "") for k, v in ATTR_RE.findall(text)}


@dataclass
class Form:
    attrs: dict[str, str]
    body: str

    @property
    def posts_to(self) -> str:
        return self.attrs.get("hx-post") or self.attrs.get("action", "")

    def fields(self) -> dict[str, str]:
        """What the form sends as it stands: its hidden fields."""
        found = {}
        for tag, inner in TAG_RE.findall(self.body):
            attrs = attributes(inner)
            if tag == "input" and attrs.get("type") == "hidden" and "name" in attrs:
                found[attrs["name"]] = attrs.get("value", "")
        return found


def forms(text: str) -> list[Form]:
    found = []
    for match in re.finditer(r"<form\b([^>]*)>(.*?)</form>", text, re.S):
        found.append(Form(attributes(match.group(1)), match.group(2)))
    return found


def form_to(text: str, suffix: str) -> Form:
    for form in forms(text):
        if ("/" + form.posts_to).endswith(suffix):
            return form
    raise RuntimeError(f"no form posting to …{suffix} on the page")


def section(text: str, element_id: str) -> str:
    start = text.find(f'id="{element_id}"')
    if start < 0:
        return ""
    end = text.find("</section>", start)
    return text[text.rfind("<", 0, start):end if end > 0 else len(text)]


def max_version(text: str) -> int:
    return max((int(v) for v in VERSION_RE.findall(text)), default=-1)


def board_state(board: str) -> tuple[str, str]:
    """The board's status (playing, round_over...) and whose turn it says it is."""
    status = re.search(r'class="board status-(\w+)', board)
    turn = re.search(r'data-turn-name="([^"]*)"', board)
    return (status.group(1) if status else "", html.unescape(turn.group(1)) if turn else "")


def policy(panel: str) -> tuple[Form, dict[str, str]] | None:
    """The fixed policy's move from a panel: the first playable card (an 8: its first suit;
    "¡Última carta!" ticked when offered), else ROBAR, else PASAR; None if no move is offered."""
    hand = next((f for f in forms(panel) if f.attrs.get("class", "").startswith("hand")), None)
    if hand is not None:
        for tag, inner in TAG_RE.findall(hand.body):
            attrs = attributes(inner)
            if tag != "button" or "data-playable" not in attrs:
                continue
            move = attrs.get("value", "")
            if "data-needs-suit" in attrs:
                dialog = hand.body[hand.body.find(f'id="{attrs["data-needs-suit"]}"'):]
                move = html.unescape(re.search(r'name="move" value="([^"]+)"', dialog).group(1))
            data = {**hand.fields(), "move": move}
            if 'name="announce"' in hand.body:
                data["announce"] = "1"
            return hand, data
    actions = next((f for f in forms(panel) if "action-form" in f.attrs.get("class", "")), None)
    if actions is None:
        return None
    for tag, inner in TAG_RE.findall(actions.body):
        attrs = attributes(inner)
        if tag == "button" and attrs.get("name") == "move" and "data-draw" in attrs:
            return actions, {**actions.fields(), "move": attrs["value"]}
    for match in re.finditer(r"<button\b([^>]*)>PASAR</button>", actions.body):
        return actions, {**actions.fields(), "move": attributes(match.group(1))["value"]}
    return None


def first_card(panel: str) -> str:
    """The first card of the hand, playable or not (for a move made out of turn)."""
    return re.search(r'class="card [^"]*" data-card="([^"]+)"', section(panel, "panel")).group(1)


# --- A person ---------------------------------------------------------------------------------


class Person:
    """One browser: its cookie jar, the page it has open and that page's socket, and what it
    got in the current step (answers, frames), written out at the step's end."""

    def __init__(self, run: Run, name: str) -> None:
        self.run, self.name = run, name
        self.cookies: dict[str, str] = {}
        self.page = ""  # the address of the page open (Referer, HX-Current-URL)
        self.csrf = ""  # the page's token (its body's hx-headers)
        self.page_html = ""  # the page open, as it came
        self.socket = None
        self.reader: asyncio.Task | None = None
        self.version = -1  # the newest version its socket showed
        self.board = self.panel = ""  # the newest board and panel its socket showed
        self.answers: list[tuple[str, bytes]] = []  # this step's
        self.frames: list[bytes] = []  # this step's
        self.sequence = 0

    @property
    def base(self) -> str:
        return self.run.base

    def headers(self, htmx: bool, target: str = "", trigger: str = "") -> dict[str, str]:
        headers = {"User-Agent": USER_AGENT, "Accept-Language": "es-419,es;q=0.9,en;q=0.8",
                   "Accept-Encoding": "gzip, deflate"}
        if htmx:
            headers.update({"Accept": "*/*", "HX-Request": "true",
                            "HX-Current-URL": self.base + self.page})
            if target:
                headers["HX-Target"] = target
            if trigger:
                headers["HX-Trigger"] = trigger
        else:
            headers["Accept"] = PAGE_ACCEPT
        if self.page:
            headers["Referer"] = self.base + self.page
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        return headers

    async def request(
        self, method: str, path: str, what: str, data: dict[str, str] | None = None,
        htmx: bool = False, target: str = "table-page", trigger: str = "",
    ) -> tuple[int, str, dict[str, str]]:
        """One request; its answer is recorded. Returns the status, body and headers."""
        headers = self.headers(htmx, target if htmx else "", trigger)
        body = None
        if method == "POST":
            headers["Origin"] = self.base
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            if htmx:
                headers["X-CSRFToken"] = self.csrf
            body = urlencode(data or {})
        async with self.run.http.request(
            method, self.base + path, data=body, headers=headers, allow_redirects=False
        ) as response:
            content = await response.read()
            kept = {k.lower(): v for k, v in response.headers.items()
                    if k.lower() in KEPT_HEADERS or k.lower().startswith("hx-")}
            for name, morsel in response.cookies.items():
                if morsel.value and morsel["max-age"] != "0":
                    self.cookies[name] = morsel.value
                else:
                    self.cookies.pop(name, None)
            status = response.status
        head = f"{method} {path}\nHTTP {status}\n" + "".join(
            f"{k}: {v}\n" for k, v in sorted(kept.items())
        )
        self.answers.append((what, head.encode() + b"\n" + content))
        return status, content.decode("utf-8", errors="replace"), kept

    async def submit(
        self, form: Form, data: dict[str, str], what: str, trigger: str = ""
    ) -> tuple[int, str, dict[str, str]]:
        """Submit `form` (of the page open) with `data`, as htmx does."""
        path = urljoin(self.page, form.posts_to)
        return await self.request("POST", path, what, data, htmx=True, trigger=trigger)

    async def navigate(self, path: str, what: str) -> str:
        """Open `path` in this tab, following redirects, as a browser does; a table page opens
        its socket (the page before closes its own). Returns the page."""
        for hop in range(5):
            status, body, headers = await self.request("GET", path, what if not hop else
                                                       f"{what}-after-redirect")
            if status in (301, 302) and headers.get("location"):
                path = headers["location"]
                continue
            break
        self.page, self.page_html = path, body
        token = re.search(r'"X-CSRFToken": "([^"]+)"', body)
        self.csrf = token.group(1) if token else self.csrf
        await self.close_socket()
        socket = WS_RE.search(body)
        if socket:
            await self.open_socket(html.unescape(socket.group(1)))
        return body

    async def visit(self, path: str, what: str) -> tuple[int, str]:
        """Open `path` in a tab of its own (the table's tab stays as it is)."""
        status, body, _ = await self.request("GET", path, what)
        return status, body

    async def open_socket(self, path: str) -> None:
        headers = {"Origin": self.base, "User-Agent": USER_AGENT,
                   "Accept-Language": "es-419,es;q=0.9,en;q=0.8",
                   "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        self.version, self.board, self.panel = -1, "", ""
        self.socket = await self.run.sockets.ws_connect(
            self.base.replace("http", "ws", 1) + path, headers=headers, max_msg_size=0
        )
        greeted = asyncio.Event()
        self.reader = asyncio.create_task(self.read(self.socket, greeted))
        await asyncio.wait_for(greeted.wait(), WAIT)

    async def read(self, socket, greeted: asyncio.Event) -> None:
        import aiohttp

        async for message in socket:
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            text = message.data
            self.frames.append(text.encode())
            self.version = max(self.version, max_version(text))
            board, panel = section(text, "board"), section(text, "panel")
            if board:
                self.board = board
            if panel:
                self.panel = panel
            self.run.frame_arrived()
            greeted.set()

    async def close_socket(self) -> None:
        if self.socket is not None:
            await self.socket.close()
            if self.reader is not None:
                await self.reader
            self.socket = self.reader = None

    def flush(self, step: int, folder: Path) -> list[str]:
        """Write this step's answers, then its frames; returns the files' names."""
        names = []
        for kind, what, data in [
            *(("http", what, data) for what, data in self.answers),
            *(("ws", "frame", data) for data in self.frames),
        ]:
            self.sequence += 1
            slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", what).strip("-")
            name = f"{self.name}/{self.sequence:04d}-s{step:03d}-{kind}-{slug}.txt"
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(data)
            names.append(name)
        self.answers, self.frames = [], []
        return names


# --- A run: the script against one server -----------------------------------------------------


@dataclass
class Capture:
    """What one revision's run recorded."""

    label: str
    folder: Path
    names: list[str] = field(default_factory=list)
    literals: dict[str, str] = field(default_factory=dict)  # the run's codes and secrets
    moves: int = 0

    def read(self, name: str) -> bytes:
        return (self.folder / name).read_bytes()


class Run:
    def __init__(self, base: str, folder: Path, quiet: float) -> None:
        self.base, self.folder, self.quiet_for = base, folder, quiet
        self.capture = Capture(folder.name, folder)
        self.people: list[Person] = []
        self.step = 0
        self.frames_seen = 0
        self.changed = asyncio.Event()

    def person(self, name: str) -> Person:
        person = Person(self, name)
        self.people.append(person)
        return person

    def frame_arrived(self) -> None:
        self.frames_seen += 1
        self.changed.set()

    def open_pages(self) -> list[Person]:
        return [p for p in self.people if p.socket is not None]

    async def until(self, what: str, predicate: Callable[[], bool]) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT
        while not predicate():
            self.changed.clear()
            left = deadline - loop.time()
            if left <= 0:
                raise RuntimeError(f"step {self.step}: waited {WAIT:.0f} s for {what}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)

    async def settle(self, version: int = -1, text: str = "") -> None:
        """Wait until every open page shows `version` (and a frame with `text`), then while the
        board says it is a robot's turn, for its move on every page; then for --quiet seconds
        with no frame anywhere (else again)."""
        while True:
            wanted = version
            await self.until(
                f"every page at version {wanted}",
                lambda: all(p.version >= wanted for p in self.open_pages()),  # noqa: B023
            )
            if text:
                await self.until(
                    f"every page showing {text!r}",
                    lambda: all(any(text.encode() in f for f in p.frames)
                                for p in self.open_pages()),
                )
            pages = self.open_pages()
            newest = max(pages, key=lambda p: p.version) if pages else None
            if newest is not None:
                status, turn = board_state(newest.board)
                if status == "playing" and turn not in PEOPLE.values():
                    version = newest.version + 1  # the robot's move comes next
                    continue
            seen = self.frames_seen
            await asyncio.sleep(self.quiet_for)
            if self.frames_seen == seen:
                return

    async def end_step(self, version: int = -1, text: str = "") -> None:
        await self.settle(version, text)
        self.step += 1
        for person in self.people:
            self.capture.names += person.flush(self.step, self.folder)

    def newest(self) -> Person:
        return max(self.open_pages(), key=lambda p: p.version)

    async def script(self) -> None:
        import aiohttp

        jar = aiohttp.DummyCookieJar()
        timeout = aiohttp.ClientTimeout(total=WAIT)
        async with (
            aiohttp.ClientSession(cookie_jar=jar, timeout=timeout) as self.http,
            aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as self.sockets,
        ):
            try:
                await self.play()
            finally:
                for person in self.people:
                    await person.close_socket()

    async def play(self) -> None:  # noqa: C901, PLR0912, PLR0915 (one story, told in order)
        host = self.person("anfitriona")
        guest = self.person("invitado")
        spectator = self.person(SPECTATOR)
        names = PEOPLE

        # The host opens a table from the home page.
        home = await host.navigate("/", "home")
        await self.end_step()
        opening = form_to(home, "/abrir/")
        data = {**opening.fields(), "rules": "clasico", "deck": "clasica", "turn_limit": "0",
                "name": names[host.name]}
        status, _, headers = await host.request("POST", "/abrir/", "abrir", data)
        if status != 302:
            raise RuntimeError(f"ABRIR MESA answered {status}")
        page = await host.navigate(headers["location"], "table")
        player_code = headers["location"].strip("/").split("/")[-1]
        invitation = html.unescape(re.search(r'data-invite="([^"]+)"', page).group(1))
        invite_code = invitation.strip("/").split("/")[-1]
        self.capture.literals[player_code] = "{PLAYER_CODE}"
        self.capture.literals[invite_code] = "{INVITE_CODE}"
        table = f"/mesa/{player_code}/"
        await self.end_step(max_version(page))

        # A robot (Fácil: its choices come from its rng).
        robot = form_to(host.panel, "/robot/")
        status, body, _ = await host.submit(robot, {**robot.fields(), "level": "facil"}, "robot")
        await self.end_step(max_version(body))

        # The guest and the spectator come by the invitation; the guest sits down.
        await guest.navigate(invitation, "invitation")
        await self.end_step()
        await spectator.navigate(invitation, "invitation")
        await self.end_step()
        join = form_to(guest.panel, "/sentarse/")
        before = self.newest().version
        status, body, headers = await guest.submit(
            join, {**join.fields(), "name": names[guest.name]}, "sentarse"
        )
        # htmx goes where HX-Redirect says (or reloads the page: HX-Refresh, older commits).
        goes_to = headers.get("hx-redirect") or (
            guest.page if headers.get("hx-refresh") == "true" else ""
        )
        if not goes_to:
            raise RuntimeError(f"SENTARME answered {status}, no HX-Redirect: {body[:200]}")
        await self.settle(before + 1)  # the page she leaves gets the push before it closes
        page = await guest.navigate(goes_to, "table")
        await self.end_step(max_version(page))
        for match in re.finditer(r"/volver/([A-Za-z0-9_-]{20,})/", page + host.page_html):
            self.capture.literals[match.group(1)] = "{SECRET}"

        # One chat line each.
        lines = {host: "Hola, bienvenidos a mi mesa.", guest: "¡Hola! ¿Quién reparte?",
                 spectator: "Solo miro, suerte a todos."}
        for person, line in lines.items():
            chat = form_to(person.page_html, "/chat/")
            data = {**chat.fields(), "text": line}
            if person is spectator:
                data["name"] = SPECTATOR_NAME
            status, body, _ = await person.submit(chat, data, "chat", trigger="chat-form")
            await self.end_step(text=html.escape(line) if status == 200 else "")

        # The host starts the match.
        start = form_to(host.panel, "/empezar/")
        status, body, _ = await host.submit(start, start.fields(), "empezar")
        if status != 200:
            raise RuntimeError(f"EMPEZAR answered {status}: {body[:300]}")
        await self.end_step(max_version(body))

        # The round, by the fixed policy; on the way, the refusals and the table's logs.
        seated = {names[p.name]: p for p in (host, guest)}
        refused = extras = False
        while True:
            status_now, turn = board_state(self.newest().board)
            if status_now != "playing":
                break
            if self.capture.moves >= MOVES_AT_MOST:
                raise RuntimeError(f"no end of the round after {MOVES_AT_MOST} moves")
            mover = seated[turn]
            other = guest if mover is host else host
            if not refused:  # a move out of turn, then one made on a stale version
                refused = True
                hand = form_to(other.panel, "/jugar/")
                data = {**hand.fields(), "move": first_card(other.panel)}
                await other.submit(hand, data, "out-of-turn")
                await self.end_step()
                chosen = policy(mover.panel)
                if chosen is not None:
                    form, data = chosen
                    data = {**data, "version": str(int(data["version"]) - 1)}
                    await mover.submit(form, data, "stale")
                    await self.end_step()
            chosen = policy(mover.panel)
            if chosen is None:
                raise RuntimeError(f"step {self.step}: {turn}'s turn and no move offered")
            form, data = chosen
            status, body, _ = await mover.submit(form, data, f"move-{data['move']}")
            if status != 200:
                raise RuntimeError(f"the move {data['move']} answered {status}: {body[:300]}")
            self.capture.moves += 1
            await self.end_step(max_version(body))
            if self.capture.moves == 2 and not extras:
                extras = True
                version = self.newest().version
                await spectator.request(
                    "GET", f"/mesa/{invite_code}/registro/", "todas-las-jugadas", htmx=True,
                    target="log-dialog", trigger="all-moves",
                )
                await self.end_step()
                await guest.request("GET", f"{table}lineas/?desde={max(0, version - 3)}",
                                    "lineas")
                await self.end_step()
                await guest.request("GET", f"{table}resumen/?desde={max(0, version - 3)}",
                                    "mientras-no-estabas", htmx=True, target="away",
                                    trigger="away")
                await self.end_step()

        # The summary: the host deals again (or asks for the rematch), the guest a moment late.
        offered = ["/" + f.posts_to for f in forms(host.panel)]
        which = "/siguiente/" if any(p.endswith("/siguiente/") for p in offered) else "/revancha/"
        again = form_to(host.panel, which)
        late = form_to(guest.panel, which)
        status, body, _ = await host.submit(again, again.fields(), which.strip("/"))
        await self.end_step(max_version(body))
        await guest.submit(late, late.fields(), f"{which.strip('/')}-late")
        await self.end_step()

        # The other pages, each in a tab of its own.
        await host.visit("/", "home")
        await host.visit("/reglas/", "reglas")
        await host.visit("/mis-mesas/", "mis-mesas")
        await guest.visit("/mis-mesas/", "mis-mesas")
        await spectator.visit("/mis-mesas/", "mis-mesas")
        _, history = await host.visit(f"{table}historial/", "historial")
        await spectator.visit(f"/mesa/{invite_code}/historial/", "historial")
        for round_id in dict.fromkeys(re.findall(rf"{table}ronda/(\d+)/", history)):
            await host.visit(f"{table}ronda/{round_id}/", f"ronda-{round_id}")
            await host.visit(f"{table}ronda/{round_id}/justo/", f"justo-{round_id}")
        await host.visit(f"{table}partida/1.txt", "partida-1-txt")
        await host.visit(f"{table}partida/1.json", "partida-1-json")
        await spectator.visit(f"/mesa/{MISSING_CODE}/", "mesa-que-no-existe")
        await spectator.visit("/esta-pagina-no-existe/", "pagina-que-no-existe")
        await self.end_step()


def run_script(code: Path, folder: Path, args: argparse.Namespace) -> Capture:
    """Serve checkout `code` on a fresh database and play the script against it."""
    env = {
        "DEBUG": "0", "SECRET_KEY": "same-pages-not-secret", "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_COOKIES": "0", "LOG_LEVEL": "WARNING", "ROBOT_DELAY": str(args.robot_delay),
        "TASK_WORKERS": "1", "RELEASE": "", "DRAIN_NOTICE": "0",
        "VAPID_PUBLIC_KEY": "", "VAPID_PRIVATE_KEY": "",
        "VAPID_FILE": str(folder / "no-vapid-keys.json"),
        "CHANNEL_PREFIX": f"pages{uuid.uuid4().hex[:8]}",
    }
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=code, env=server_env(env), check=True,
    )
    folder.mkdir(parents=True)
    with fresh_database(code) as db_env:
        port = free_port()
        log = folder / "server.log"
        argv = [sys.executable, str(Path(__file__).resolve()), "--serve-seeded", str(args.seed),
                *serve_command(port, code)[1:]]
        with log.open("wb") as handle:
            process = subprocess.Popen(
                argv, cwd=code, env=server_env({**env, **db_env}), stdout=handle,
                stderr=subprocess.STDOUT,
            )
        try:
            wait_for_port(port, process)
            run = Run(f"http://127.0.0.1:{port}", folder, args.quiet)
            started = time.monotonic()
            try:
                asyncio.run(run.script())
            finally:
                print(f"  {len(run.capture.names)} captures in {time.monotonic() - started:.0f} s"
                      f", {run.capture.moves} moves by the people, {run.step} steps")
        finally:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        seeded = re.findall(r"same_pages: seeded (.*)", log.read_text(errors="replace"))
        print(f"  seeded: {seeded[0] if seeded else '(nothing said)'}")
    return run.capture


# --- Revisions --------------------------------------------------------------------------------


@contextlib.contextmanager
def checkout(rev: str, scratch: Path) -> Iterator[tuple[Path, str]]:
    """The folder to serve `rev` from, and its label: a folder as it is (`.`: this checkout),
    else a commit in a temporary worktree, removed afterwards."""
    folder = Path(rev)
    if folder.is_dir():
        folder = folder.resolve()
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=folder,
                              capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=folder, capture_output=True, text=True).stdout.strip()
        yield folder, f"{rev} ({head}{' + changes' if dirty else ''})"
        return
    sha = subprocess.run(["git", "rev-parse", "--verify", f"{rev}^{{commit}}"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout.strip()
    path = scratch / f"worktree-{sha[:10]}-{uuid.uuid4().hex[:6]}"
    subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(path), sha], cwd=ROOT,
                   check=True)
    try:
        yield path, f"{rev} ({sha[:7]})"
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(path)], cwd=ROOT, check=False)
        shutil.rmtree(path, ignore_errors=True)
        subprocess.run(["git", "worktree", "prune"], cwd=ROOT, check=False)


def diff_lines(text: str) -> list[str]:
    """The text with each tag on a line of its own (a fragment is often one long line)."""
    return re.sub(r">\s*<", ">\n<", text).splitlines()


# The attributes whose values a person reads or hears (a screen reader says aria-label and
# title; a button's value, a field's placeholder, a dialog's confirmation, a meta's content).
READ_ATTRIBUTES = {"aria-label", "title", "placeholder", "alt", "hx-confirm", "content", "value"}
TOKEN = re.compile(r"[\w\-#/.:{}=?&%+]*")  # an attribute value that is a code, not words


class _Words(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.hidden = 0  # inside a script or a style

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.hidden += tag in ("script", "style")
        self.lines.extend(
            f"@{name}: {value}" for name, value in attrs
            if name in READ_ATTRIBUTES and value and not TOKEN.fullmatch(value)
        )

    def handle_endtag(self, tag: str) -> None:
        self.hidden -= tag in ("script", "style")

    def handle_data(self, data: str) -> None:
        said = " ".join(data.split())
        if said and not self.hidden:
            self.lines.append(said)


def words(text: str) -> str:
    """What a person reads or hears in a capture, a line each (text, then the read attributes
    in place): the markup around the words does not count (`--words`)."""
    parser = _Words()
    parser.feed(text)
    return "\n".join(parser.lines)


def static_hashes(capture: Capture) -> dict[str, str]:
    """The static files the captures name, with their content hashes."""
    found = {}
    for name in capture.names:
        text = capture.read(name).decode("utf-8", errors="replace")
        for path, digest, extension in STATIC_RE.findall(text):
            found[path + extension] = digest
    return found


def compare(captures: list[Capture], context: int, excerpt: int, said: bool = False) -> int:
    """Each capture of each revision against the first's; prints the figures and the diffs,
    returns how many captures differ. `said`: only the words a person reads or hears."""
    first = captures[0]
    counts = [Counter() for _ in captures]
    normal = [
        {name: normalize(c.read(name), c.literals, counts[i]) for name in c.names}
        for i, c in enumerate(captures)
    ]
    if said:
        normal = [{name: words(text) for name, text in n.items()} for n in normal]
    print("\nNormalized (replacements per revision; the same rule should apply as often in each):")
    rules = sorted({k for c in counts for k in c}, key=lambda k: (not k.startswith("literal"), k))
    width = max(len(r) for r in rules) if rules else 10
    for rule in rules:
        why = next((w for n, _, _, w in RULES if n == rule), "the run's own code or secret")
        row = "  ".join(f"{c[rule]:>6}" for c in counts)
        print(f"  {rule:<{width}}  {row}   {why}")
    hashes = [static_hashes(c) for c in captures]
    for index, other in enumerate(captures[1:], start=1):
        changed = sorted(n for n in hashes[0].keys() | hashes[index].keys()
                         if hashes[0].get(n) != hashes[index].get(n))
        print(f"\nStatic files the pages name, their content changed ({other.label} against "
              f"{first.label}; not compared here): {', '.join(changed) or 'none'}")
    differing = 0
    for index, other in enumerate(captures[1:], start=1):
        names = list(dict.fromkeys([*first.names, *other.names]))
        total = sum(len(other.read(n)) for n in other.names)
        first_total = sum(len(first.read(n)) for n in first.names)
        same = sum(1 for n in names if normal[0].get(n) is not None
                   and normal[0].get(n) == normal[index].get(n))
        raw_same = sum(1 for n in names if n in first.names and n in other.names
                       and first.read(n) == other.read(n))
        print(f"\n{other.label} against {first.label}: {len(other.names)} captures "
              f"({len(first.names)} in the first), {total:,} bytes ({first_total:,}), "
              f"{same} identical after normalizing ({raw_same} before), "
              f"{len(names) - same} different")
        for name in names:
            a, b = normal[0].get(name), normal[index].get(name)
            if a == b:
                continue
            differing += 1
            if a is None or b is None:
                print(f"\n--- {name}: only in {first.label if b is None else other.label}")
                continue
            lines = list(difflib.unified_diff(
                a.splitlines() if said else diff_lines(a),
                b.splitlines() if said else diff_lines(b),
                f"{first.label}/{name}", f"{other.label}/{name}",
                n=context, lineterm="",
            ))
            if not lines:  # they differ between tags only (whitespace): show where
                at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
                          min(len(a), len(b)))
                lines = [f"--- {first.label}/{name}", f"+++ {other.label}/{name}",
                         f"@@ at character {at} (whitespace between tags)",
                         f"-{a[max(0, at - 80):at + 80]!r}", f"+{b[max(0, at - 80):at + 80]!r}"]
            print()
            for line in lines[:excerpt]:
                print(line[:400])
            if len(lines) > excerpt:
                print(f"... ({len(lines) - excerpt} more lines of diff)")
    return differing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", action="append", default=[],
                        help="a commit (served from a temporary worktree) or a folder (`.`: "
                        "this checkout); repeat: each is compared with the first")
    parser.add_argument("--out", default="", help="where the captures go (kept; default: a "
                        "new temporary folder)")
    parser.add_argument("--seed", default="8", help="the deals' and the robot's seed")
    parser.add_argument("--robot-delay", type=float, default=1.0,
                        help="ROBOT_DELAY, s (the site's default): well above an answer's time, "
                        "so the robot never moves before the answer of the move it follows")
    parser.add_argument("--quiet", type=float, default=0.3,
                        help="seconds without a frame anywhere that end a step")
    parser.add_argument("--context", type=int, default=3, help="lines of context in a diff")
    parser.add_argument("--excerpt", type=int, default=40, help="diff lines shown per capture")
    parser.add_argument("--words", action="store_true", help="compare only the words each "
                        "person reads or hears (text, aria-label, title...), not the markup")
    args = parser.parse_args()
    for name in ("DATABASE_URL", "REDIS_URL"):  # SQLite and the in-memory channel layer
        os.environ.pop(name, None)
    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="same-pages-"))
    out.mkdir(parents=True, exist_ok=True)
    captures = []
    with tempfile.TemporaryDirectory(prefix="same-pages-code-") as scratch:
        for index, rev in enumerate(args.code or ["."]):
            with checkout(rev, Path(scratch)) as (code, label):
                slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", rev.strip("./") or "here")
                print(f"{index}: {label}, served from {code}")
                capture = run_script(code, out / f"{index}-{slug}", args)
                capture.label = f"[{index}] {rev}"
                captures.append(capture)
    print(f"\ncaptures in {out}")
    if len(captures) < 2:
        return
    differing = compare(captures, args.context, args.excerpt, said=args.words)
    print(f"\n{differing} capture(s) differ" if differing else "\nno difference")
    sys.exit(1 if differing else 0)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve-seeded"]:
        serve_seeded()
    else:
        main()
