"""The invitation as a chat app shows it: its title, its sentence and what its picture shows.

All of it read from the public board (`board_context`): never a card of a hand, never the
players' own address. `InvitationPreview.key`, a hash of it, is in the picture's address, so
the address changes exactly when the picture does.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass

from django.http import HttpRequest
from django.urls import reverse

from tables.audiences import wording
from tables.audiences.visible import board_context
from tables.models import Table
from tables.state.snapshot import TableSnapshot

# Bumped whenever the picture is drawn differently: every picture's address changes with it.
DRAWING = 1

WIDTH, HEIGHT = 1200, 630

LOBBY, PLAYING, ROUND_OVER, MATCH_OVER = "lobby", "playing", "round_over", "match_over"
CLOSED, ARCHIVED, CHANGED = "closed", "archived", "changed"


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " y " + names[-1]


@dataclass(frozen=True)
class InvitationPreview:
    """What a preview of one table's invitation says and shows, at one moment."""

    kind: str
    host: str = ""
    rules: str = ""
    seat_count: int = 0
    seated: tuple[str, ...] = ()  # before the match: the names in seat order
    round_number: int = 0
    scores: tuple[tuple[str, int], ...] = ()  # in the match: (name, total) in seat order
    target_text: str = ""
    winners: tuple[str, ...] = ()
    top: str = ""  # the face-up top card of the pile ("10H"), public
    active_suit: str = ""  # the suit an 8 asked for, when it is not the top card's

    @property
    def free_seats(self) -> int:
        return self.seat_count - len(self.seated)

    @property
    def key(self) -> str:
        facts = json.dumps([DRAWING, asdict(self)], ensure_ascii=False, sort_keys=True)
        return hashlib.sha256(facts.encode()).hexdigest()[:16]

    @property
    def title(self) -> str:
        host = self.host or "Alguien"
        if self.kind == LOBBY:
            return f"{host} te invita a una mesa de Ocho Loco"
        if self.kind in (PLAYING, ROUND_OVER):
            return f"{host} te invita a mirar una partida de Ocho Loco"
        if self.kind == MATCH_OVER:
            return f"Partida terminada en la mesa de {host}"
        if self.kind == CLOSED:
            return "Esta mesa de Ocho Loco está cerrada"
        if self.kind == ARCHIVED:
            return "Esta mesa de Ocho Loco está archivada"
        return "Este enlace de Ocho Loco cambió"

    @property
    def seats_text(self) -> str:
        free = self.free_seats
        if free <= 0:
            return "la mesa está completa"
        return "queda 1 lugar" if free == 1 else f"quedan {free} lugares"

    @property
    def scores_text(self) -> str:
        return ", ".join(f"{name} {total}" for name, total in self.scores)

    @property
    def description(self) -> str:
        if self.kind == LOBBY:
            if self.free_seats <= 0:
                return (
                    f"{self.rules} · la mesa está completa: cuando empiece la partida, "
                    "entra con el enlace y mírala."
                )
            return (
                f"{self.rules} · {self.seats_text}. Entra con el enlace, escribe tu nombre y "
                "siéntate a jugar."
            )
        if self.kind == PLAYING:
            return (
                f"{self.rules} · se juega la ronda {self.round_number} · {self.scores_text} "
                f"({self.target_text}). Entra con el enlace y mira la partida."
            )
        if self.kind == ROUND_OVER:
            return (
                f"{self.rules} · terminó la ronda {self.round_number} · {self.scores_text} "
                f"({self.target_text}). Entra con el enlace y mira la partida."
            )
        if self.kind == MATCH_OVER:
            return (
                f"{self.rules} · gana {_names(list(self.winners))} · {self.scores_text}. "
                "Entra con el enlace y mira la revancha, si la juegan."
            )
        if self.kind in (CLOSED, ARCHIVED):
            return "Se puede mirar, pero ya no se juega."
        return (
            "La invitación ya no sirve (quien abrió la mesa la cambió, o la mesa no existe): "
            "pide el enlace nuevo."
        )

    @property
    def image_alt(self) -> str:
        """The picture told in words (og:image:alt)."""
        if self.kind == LOBBY:
            return f"Mesa de Ocho Loco, {self.rules}: un mazo boca abajo; {self.seats_text}."
        if self.top:
            return (
                f"Mesa de Ocho Loco, {self.rules}: el mazo y la carta de arriba de la pila; "
                f"ronda {self.round_number}, {self.scores_text}."
            )
        return f"Ocho Loco: {self.title}."


CHANGED_PREVIEW = InvitationPreview(kind=CHANGED)


def invitation_preview(snapshot: TableSnapshot | None) -> InvitationPreview:
    """The preview of a table as the public board shows it; None: a link that no longer
    leads to a table (renewed, or never one)."""
    if snapshot is None:
        return CHANGED_PREVIEW
    board = board_context(snapshot)
    table = snapshot.table
    host = snapshot.seats.get(table.host_seat)
    common = {"host": host.name if host else "", "rules": wording.rules_name(table.rules)}
    if table.status == Table.Status.LOBBY:
        return InvitationPreview(
            kind=LOBBY, seat_count=table.seat_count,
            seated=tuple(s.name for _, s in sorted(snapshot.seats.items())), **common,
        )
    if table.status in (Table.Status.CLOSED, Table.Status.ARCHIVED):
        return InvitationPreview(kind=table.status, **common)
    top, active = board.get("top"), board.get("active_suit")
    match = board.get("match")
    players = [p for p in board["players"] if p["in_match"]]
    return InvitationPreview(
        kind=table.status,
        round_number=board.get("round_number", 0),
        scores=tuple((p["name"], p.get("score", 0)) for p in players),
        target_text=board.get("target_text", ""),
        winners=tuple(
            snapshot.seat_of_player(w).name for w in match.winners
        ) if match is not None and match.finished else (),
        top=top["code"].split("#")[0] if top else "",
        active_suit=active["code"] if active and board.get("suit_changed") else "",
        **common,
    )


def invitation_meta(request: HttpRequest, table: Table | None, code: str,
                    preview: InvitationPreview) -> dict[str, str | int]:
    """The tags of a page that carries an invitation (absolute addresses, as chat apps need):
    the invitation itself, never the players' address."""
    invitation = table.code if table is not None else code
    image = reverse("preview_image", kwargs={"code": invitation, "key": preview.key})
    return {
        "title": preview.title,
        "description": preview.description,
        "url": request.build_absolute_uri(reverse("table", kwargs={"code": invitation})),
        "image": request.build_absolute_uri(image),
        "image_alt": preview.image_alt,
        "width": WIDTH,
        "height": HEIGHT,
    }
