"""The table's story, for anyone with its link: "Mientras no estabas", the round's log, every
finished round's replay and fairness check, the history of every match and each match's files."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tables.audiences.match_record import match_record, match_transcript
from tables.audiences.narration import away_summary, round_log, table_log_lines
from tables.audiences.round_history import (
    finished_round,
    round_fairness,
    round_proof,
    round_replay,
    table_history,
)
from tables.models import Table, TableRound
from tables.state import clock
from tables.state.lookup import table_by_code, table_or_404
from tables.state.snapshot import TableSnapshot
from tables.web.params import number_or_none


@require_GET
def table_away(request: HttpRequest, code: str) -> HttpResponse:
    """'Mientras no estabas': what happened since the version this browser saw last."""
    table = table_or_404(code)
    since = number_or_none(request.GET.get("desde"))
    lines = away_summary(table, since) if since is not None and since >= 0 else []
    return HttpResponse(render_to_string("tables/table.html#away", {"lines": lines}))


@require_GET
def table_log(request: HttpRequest, code: str) -> HttpResponse:
    """The whole public log of the round, for players and spectators alike."""
    table = table_or_404(code)
    lines = round_log(TableSnapshot.load(table))
    context = {"lines": lines, "table": table, "proof": round_proof(table)}
    return HttpResponse(render_to_string("tables/table.html#log", context))


@require_GET
def table_log_since(request: HttpRequest, code: str) -> HttpResponse:
    """The game log's lines after version `desde`, for a page that missed some (it was away,
    or reconnected): the same lines the board's pushes carry, public to anyone at the table."""
    table = table_or_404(code)
    since = number_or_none(request.GET.get("desde"))
    if since is None or since < 0:
        return HttpResponse(_("Falta desde qué versión leer las jugadas."), status=400)
    lines = table_log_lines(table, min(since, table.version))
    context = {"log_feed": lines, "version": table.version}
    return HttpResponse(render_to_string("tables/table.html#log_feed", context))


# --- Finished rounds: replay, fairness, history (anyone with the table's link) ----------------

ROUND_NOT_SHOWN = _lazy(
    "Esa ronda no existe, su enlace cambió o todavía se está jugando: se puede ver cuando termina."
)


def _finished_round(code: str, round_id: int) -> TableRound | None:
    """The finished round of the table with this link, or None (the page says why not)."""
    table = table_by_code(code)
    return finished_round(table, round_id) if table is not None else None


def _round_not_shown(request: HttpRequest) -> HttpResponse:
    return render(request, "tables/missing.html", {"message": ROUND_NOT_SHOWN}, status=404)


@require_GET
def round_replay_page(request: HttpRequest, code: str, round_id: int) -> HttpResponse:
    """Ver la ronda: a finished round, move by move (`?jugada=N`), every hand face up."""
    record = _finished_round(code, round_id)
    if record is None:
        return _round_not_shown(request)
    step = number_or_none(request.GET.get("jugada"))
    if step is not None and step < 0:
        message = _("Esa jugada no existe: las jugadas se cuentan desde 0, el reparto.")
        return render(request, "tables/missing.html", {"message": message}, status=400)
    context = {**round_replay(record, step or 0), "code": code}
    if request.htmx:
        return render(request, "tables/replay.html#frame", context)
    return render(request, "tables/replay.html", context)


@require_GET
def round_fairness_page(request: HttpRequest, code: str, round_id: int) -> HttpResponse:
    """¿Fue justo el reparto?: how to check a finished round's deal, and the check itself."""
    record = _finished_round(code, round_id)
    if record is None:
        return _round_not_shown(request)
    context = {**round_fairness(record), "code": code}
    return render(request, "tables/fairness.html", context)


@require_GET
def table_history_page(request: HttpRequest, code: str) -> HttpResponse:
    """Every round of every match played at the table, with its winner, points and replay."""
    table = table_by_code(code)
    if table is None:
        return render(request, "tables/missing.html", status=404)
    context = {
        "table": table, "matches": table_history(table), "code": code,
    }
    return render(request, "tables/history.html", context)


MATCH_NOT_FOUND = _lazy("Esa partida no existe en esta mesa, o el enlace de la mesa cambió.")


def _match_not_found(request: HttpRequest) -> HttpResponse:
    return render(request, "tables/missing.html", {"message": MATCH_NOT_FOUND}, status=404)


def _match_file(table: Table, number: int, text: str, content_type: str) -> HttpResponse:
    """`text` as a download named after the table and the match (`.json`, `.txt`)."""
    extension = "json" if content_type.startswith("application/json") else "txt"
    filename = f"ocholoco-{table.created_at:%Y%m%d-%H%M}-partida-{number}.{extension}"
    response = HttpResponse(text, content_type=content_type)
    response["Content-Disposition"] = content_disposition_header(True, filename)
    return response


@require_GET
@never_cache
def match_record_download(request: HttpRequest, code: str, number: int) -> HttpResponse:
    """The match as a file the engine can check (`ocholoco.record_check`): its rules, players,
    every round's commitment, reveal once it is over, moves and points."""
    table = table_by_code(code)
    record = match_record(table, number, now=clock.now()) if table is not None else None
    if record is None:
        return _match_not_found(request)
    text = json.dumps(record, ensure_ascii=False, indent=1) + "\n"
    return _match_file(table, number, text, "application/json; charset=utf-8")


@require_GET
@never_cache
def match_transcript_download(request: HttpRequest, code: str, number: int) -> HttpResponse:
    """The match told in Spanish for a person to read, with the game log's sentences."""
    table = table_by_code(code)
    text = match_transcript(table, number, now=clock.now()) if table is not None else None
    if text is None:
        return _match_not_found(request)
    return _match_file(table, number, text, "text/plain; charset=utf-8")
