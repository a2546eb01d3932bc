"""The invitation as a chat app shows it: its title, its sentence and what its picture shows.

All of it read from the public board (`board_context`): never a card of a hand, never the
players' own address. `InvitationPreview.key`, a hash of it, is in the picture's address, so
the address changes exactly when the picture does.
"""

from __future__ import annotations

import hashlib
import json
from contextlib import AbstractContextManager, nullcontext
from dataclasses import asdict, dataclass

from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, override, pgettext

from tables.audiences import wording
from tables.audiences.visible import board_context
from tables.models import Table
from tables.state.snapshot import TableSnapshot

# Bumped whenever the picture is drawn differently: every picture's address changes with it.
DRAWING = 1

WIDTH, HEIGHT = 1200, 630

LOBBY, PLAYING, ROUND_OVER, MATCH_OVER = "lobby", "playing", "round_over", "match_over"
CLOSED, ARCHIVED, CHANGED = "closed", "archived", "changed"


def _speaking(language: str) -> AbstractContextManager[object]:
    """The preview's words in `language` (the host's), or in the active one ("")."""
    return override(language) if language else nullcontext()


@dataclass(frozen=True)
class InvitationPreview:
    """What a preview of one table's invitation says and shows, at one moment, worded in
    `language`: the host's (a chat app shows the same preview to everyone in the group)."""

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
    language: str = ""  # the host's ("": whoever asks, for a link that leads nowhere)

    @property
    def free_seats(self) -> int:
        return self.seat_count - len(self.seated)

    @property
    def key(self) -> str:
        facts = json.dumps([DRAWING, asdict(self)], ensure_ascii=False, sort_keys=True)
        return hashlib.sha256(facts.encode()).hexdigest()[:16]

    @property
    def title(self) -> str:
        with _speaking(self.language):
            host = self.host or pgettext("a player nobody knows", "Alguien")
            if self.kind == LOBBY:
                return _("%(host)s te invita a una mesa de Ocho Loco") % {"host": host}
            if self.kind in (PLAYING, ROUND_OVER):
                return _("%(host)s te invita a mirar una partida de Ocho Loco") % {"host": host}
            if self.kind == MATCH_OVER:
                return _("Partida terminada en la mesa de %(host)s") % {"host": host}
            if self.kind == CLOSED:
                return _("Esta mesa de Ocho Loco está cerrada")
            if self.kind == ARCHIVED:
                return _("Esta mesa de Ocho Loco está archivada")
            return _("Este enlace de Ocho Loco cambió")

    @property
    def seats_text(self) -> str:
        with _speaking(self.language):
            free = self.free_seats
            if free <= 0:
                return _("la mesa está completa")
            return ngettext(
                "queda %(free)s lugar", "quedan %(free)s lugares", free
            ) % {"free": free}

    @property
    def scores_text(self) -> str:
        return ", ".join(f"{name} {total}" for name, total in self.scores)

    @property
    def description(self) -> str:
        with _speaking(self.language):
            return self._description()

    def _description(self) -> str:
        args = {
            "rules": self.rules, "seats": self.seats_text, "round": self.round_number,
            "scores": self.scores_text, "target": self.target_text,
            "winners": wording.and_list(self.winners) if self.winners else "",
        }  # fmt: skip
        if self.kind == LOBBY:
            if self.free_seats <= 0:
                return _(
                    "%(rules)s · la mesa está completa: cuando empiece la partida, entra con el"
                    " enlace y mírala."
                ) % args
            return _(
                "%(rules)s · %(seats)s. Entra con el enlace, escribe tu nombre y siéntate a"
                " jugar."
            ) % args
        if self.kind == PLAYING:
            return _(
                "%(rules)s · se juega la ronda %(round)s · %(scores)s (%(target)s). Entra con el"
                " enlace y mira la partida."
            ) % args
        if self.kind == ROUND_OVER:
            return _(
                "%(rules)s · terminó la ronda %(round)s · %(scores)s (%(target)s). Entra con el"
                " enlace y mira la partida."
            ) % args
        if self.kind == MATCH_OVER:
            return _(
                "%(rules)s · gana %(winners)s · %(scores)s. Entra con el enlace y mira la"
                " revancha, si la juegan."
            ) % args
        if self.kind in (CLOSED, ARCHIVED):
            return _("Se puede mirar, pero ya no se juega.")
        return _(
            "La invitación ya no sirve (quien abrió la mesa la cambió, o la mesa no existe):"
            " pide el enlace nuevo."
        )

    @property
    def image_alt(self) -> str:
        """The picture told in words (og:image:alt)."""
        with _speaking(self.language):
            if self.kind == LOBBY:
                return _("Mesa de Ocho Loco, %(rules)s: un mazo boca abajo; %(seats)s.") % {
                    "rules": self.rules, "seats": self.seats_text,
                }  # fmt: skip
            if self.top:
                return _(
                    "Mesa de Ocho Loco, %(rules)s: el mazo y la carta de arriba de la pila;"
                    " ronda %(round)s, %(scores)s."
                ) % {"rules": self.rules, "round": self.round_number, "scores": self.scores_text}
            return _("Ocho Loco: %(title)s.") % {"title": self.title}


CHANGED_PREVIEW = InvitationPreview(kind=CHANGED)


def invitation_preview(snapshot: TableSnapshot | None) -> InvitationPreview:
    """The preview of a table as the public board shows it; None: a link that no longer
    leads to a table (renewed, or never one)."""
    if snapshot is None:
        return CHANGED_PREVIEW
    table = snapshot.table
    language = table.host_language
    with override(language):  # the host's words: the round's target, the rules' name
        board = board_context(snapshot)
        rules = wording.rules_name(table.rules)
    host = snapshot.seats.get(table.host_seat)
    common = {"host": host.name if host else "", "rules": rules, "language": language}
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
