"""The pages are valid HTML (#52): the Nu HTML Checker (vnu.jar, the npm package `vnu-jar` of
package-lock.json, run by the system's Java) finds no error on the home page, the lobby, a
table in play seen by a player and by a spectator, the round's summary, the replay and the rules
page, in each language offered. Only htmx's own attributes (hx-*, ws-*), which no HTML standard
knows, are let through."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tables.models import Table, TableRound

from .helpers import Person, lobby, position, set_round, started
from .test_fairness import play_to_the_end

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
VNU = ROOT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
LANGUAGES = {"es": "es-ES,es;q=0.9", "en": "en-US,en;q=0.9", "pt-br": "pt-BR,pt;q=0.9"}
# The attributes htmx and its socket extension read, unknown to the checker.
HTMX_ATTRIBUTE = re.compile(r"^Attribute “(hx|ws)-[a-z-]+” not allowed on element ")


def _as(language: str, name: str = "") -> Person:
    """Someone whose browser asks for `language`."""
    person = Person(name)
    person.client.defaults["HTTP_ACCEPT_LANGUAGE"] = LANGUAGES[language]
    return person


def _get(person: Person, path: str) -> str:
    response = person.get(path, follow=True)
    assert response.status_code == 200, path
    return response.content.decode()


def _pages(language: str) -> dict[str, str]:
    """Every kind of page, as someone reading `language` sees it."""
    pages = {"home": _get(_as(language), "/"), "rules": _get(_as(language), "/reglas/")}
    table, (host, guest) = lobby("Ana", "Beto", robots=1)
    for person in (host, guest):
        person.client.defaults["HTTP_ACCEPT_LANGUAGE"] = LANGUAGES[language]
    pages["lobby"] = _get(host, f"/mesa/{table.code}/")
    assert host.act(table, "empezar").status_code == 200
    pages["in play"] = _get(guest, f"/mesa/{table.code}/")
    pages["in play, a spectator"] = _get(_as(language), f"/mesa/{table.code}/")

    table, (ana, beto) = started("Ana", "Beto")
    ana.client.defaults["HTTP_ACCEPT_LANGUAGE"] = LANGUAGES[language]
    set_round(table, position("clasico", [["5H"], ["KD", "9C"]], "7H"))
    assert ana.move(table, "5H").status_code == 200
    pages["the round's summary"] = _get(ana, f"/mesa/{table.code}/")
    return pages


def _replays(capture) -> dict[str, str]:
    """A round played to its end (an 8 and its suit named, a reversed direction), replayed at
    its deal and at every move, in each language."""
    table, people = started("Ana", "Beto", "Caro", rules="especiales")
    play_to_the_end(table, people, random.Random(7), capture)
    table.refresh_from_db()
    record = TableRound.objects.get(table=table)
    moves = table.events.filter(kind="move").count()
    return {
        f"replay {language} {step}": _get(
            _as(language), f"/mesa/{table.code}/ronda/{record.pk}/?jugada={step}"
        )
        for language in LANGUAGES
        for step in range(moves + 1)
    }


def _errors(pages: dict[str, str], folder: Path) -> list[str]:
    """What vnu finds wrong on each page: one line per error, but htmx's attributes."""
    names = {}
    for number, (name, html) in enumerate(pages.items()):
        path = folder / f"{number}.html"
        path.write_text(html)
        names[path.name] = name
    checked = subprocess.run(
        [shutil.which("java") or "java", "-jar", str(VNU), "--format", "json", "--stdout",
         *sorted(str(folder / f"{n}.html") for n in range(len(pages)))],
        capture_output=True, text=True, timeout=240, check=False,
    )  # fmt: skip
    assert checked.stdout.strip(), f"vnu said nothing (exit {checked.returncode}): {checked.stderr}"
    messages = json.loads(checked.stdout)["messages"]
    return [
        f"{names.get(m.get('url', '').rsplit('/', 1)[-1], m.get('url'))},"
        f" line {m.get('lastLine')}: {m['message']} ({m.get('extract', '').strip()!r})"
        for m in messages
        if m["type"] == "error" or m.get("subType") == "fatal"
        if not HTMX_ATTRIBUTE.match(m["message"])
    ]


@pytest.mark.skipif(not VNU.exists() or not shutil.which("java"), reason="vnu.jar or Java missing")
def test_the_nu_checker_finds_no_error_on_any_page_in_any_language(
    settings, tmp_path, django_capture_on_commit_callbacks
):
    settings.LANGUAGES = [("es", "Español"), ("en", "English"), ("pt-br", "Português (Brasil)")]
    pages = {}
    for language in LANGUAGES:
        pages.update({f"{name} ({language})": html for name, html in _pages(language).items()})
    pages.update(_replays(django_capture_on_commit_callbacks))
    assert Table.objects.count() >= 7
    errors = _errors(pages, tmp_path)
    assert errors == [], "\n".join(errors)
