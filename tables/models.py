"""Tables, their seats, the append-only log of what happened at them, and who has them open.

A table's game state lives in two JSON snapshots written by `tables.changes.services` only: the
match (totals, round number, dealer) and the current round (hands, stock, discard...). Both are
`ocholoco` values serialized with its JSON functions. Nothing here holds game logic.
"""

import hashlib
import secrets

from django.conf import settings
from django.db import models

import ocholoco


def new_table_code() -> str:
    return secrets.token_urlsafe(9)


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _in_language(group: str, language: str | None) -> str:
    return group if language in (None, settings.LANGUAGE_CODE) else f"{group}-{language}"


class Table(models.Model):
    class Status(models.TextChoices):
        LOBBY = "lobby", "Esperando jugadores"
        PLAYING = "playing", "Jugando"
        ROUND_OVER = "round_over", "Ronda terminada"
        MATCH_OVER = "match_over", "Partida terminada"
        CLOSED = "closed", "Cerrada"
        ARCHIVED = "archived", "Archivada"

    class TurnLimit(models.IntegerChoices):
        NONE = 0, "Sin límite"
        MINUTE = 60, "1 minuto"
        HOUR = 3600, "1 hora"
        HALF_DAY = 12 * 3600, "12 horas"
        DAY = 24 * 3600, "24 horas"

    # A table with no move for this long is archived: read-only, still viewable.
    ARCHIVE_AFTER_DAYS = 30

    # The invitation link; the host can renew it, which makes the old link stop working.
    code = models.CharField("código", max_length=24, unique=True, default=new_table_code)
    # The players' own link to the table: never renewed, so a seated player's open page
    # and its URL keep working when the invitation changes. Only seated browsers are given it.
    player_code = models.CharField(
        "dirección de los jugadores", max_length=24, unique=True, default=new_table_code
    )
    rules_key = models.CharField("reglas", max_length=32)
    # House rules built at ABRIR MESA ("Reglas de la casa"), as `ocholoco.rules_to_json`.
    rules_custom = models.JSONField(null=True, blank=True)
    status = models.CharField("estado", max_length=16, choices=Status, default=Status.LOBBY)
    # Bumped by every change; a move must name the version it was made against.
    version = models.PositiveIntegerField(default=0)
    host_seat = models.PositiveSmallIntegerField(default=0)
    # Seat numbers taking part in the current match, in the engine's player order.
    match_seats = models.JSONField(default=list, blank=True)
    match_state = models.JSONField(null=True, blank=True)
    round_state = models.JSONField(null=True, blank=True)
    closed_reason = models.CharField("motivo del cierre", max_length=200, blank=True)
    # Seconds a person has for a turn (0: no limit); when it runs out a robot plays that turn.
    turn_limit = models.PositiveIntegerField(choices=TurnLimit, default=TurnLimit.NONE)
    turn_deadline = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField("creada", auto_now_add=True)
    updated_at = models.DateTimeField("cambiada", auto_now=True)
    last_move_at = models.DateTimeField("última jugada", null=True, blank=True)
    # The current (or last) round's commitment (`TableRound.commitment`), kept on the row so
    # every push of the board reads it at no cost.
    deal_commitment = models.CharField("huella del reparto", max_length=64, blank=True)
    # The languages the table's pages are read in (each page's own): every change is rendered
    # once in each (`tables.live.broadcast`). Added by the first page in a language, never
    # removed while the table lasts; empty: the site's default alone.
    languages = models.JSONField("idiomas", default=list, blank=True)

    class Meta:
        verbose_name = "mesa"
        verbose_name_plural = "mesas"
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status"]), models.Index(fields=["turn_deadline"])]

    def __str__(self) -> str:
        return f"Mesa {self.code}"

    @property
    def rules(self) -> ocholoco.RuleSet:
        """The table's rule set (a preset, or the host's own house rules)."""
        if self.rules_custom:
            return ocholoco.rules_from_json(self.rules_custom)
        return ocholoco.PRESETS[self.rules_key]

    @property
    def seat_count(self) -> int:
        """Seats at the table: as many as its rules let play."""
        return self.rules.max_players

    def languages_read(self) -> list[str]:
        """The languages the table is rendered in (the default's first when it is one)."""
        return self.languages or [settings.LANGUAGE_CODE]

    # The channel layer's groups of the table's pages: every page (the chat), a seat's, the
    # watchers'; one of each per language the pages read (the default's without a suffix).
    def group_name_in(self, language: str | None = None) -> str:
        return _in_language(f"table-{self.pk}", language)

    def seat_group_name(self, number: int, language: str | None = None) -> str:
        return _in_language(f"table-{self.pk}-seat-{number}", language)

    def watchers_group_name_in(self, language: str | None = None) -> str:
        return _in_language(f"table-{self.pk}-watchers", language)

    @property
    def group_name(self) -> str:
        return self.group_name_in()

    @property
    def watchers_group_name(self) -> str:
        return self.watchers_group_name_in()

    # A seat's number and the engine's player index: the one place that converts them. The
    # match's players are the seats in `match_seats`, in the engine's player order.
    def seat_of_player(self, player: int) -> int:
        """The seat number of the engine's `player` in the current match."""
        return self.match_seats[player]

    def player_of_seat(self, seat_number: int) -> int | None:
        """The engine's player index of the seat, or None if it is not in the match."""
        seats = self.match_seats
        return seats.index(seat_number) if seat_number in seats else None

    def seat_in_match(self, player: int) -> int | None:
        """The seat number of the engine's `player`, or None if the current match has no
        such player (an event of an earlier match, told with this match's seats)."""
        seats = self.match_seats
        return seats[player] if 0 <= player < len(seats) else None

    def seats_in_play(self) -> list[int]:
        """The seat numbers of the current match's players, in the engine's player order."""
        return list(self.match_seats)


class Seat(models.Model):
    class Kind(models.TextChoices):
        HUMAN = "human", "Persona"
        ROBOT = "robot", "Robot"

    class Level(models.TextChoices):
        EASY = "facil", "Fácil"
        NORMAL = "normal", "Normal"
        HARD = "dificil", "Difícil"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=24)
    kind = models.CharField(max_length=8, choices=Kind, default=Kind.HUMAN)
    robot_level = models.CharField(max_length=8, choices=Level, blank=True)
    # sha256 of the browser's seat secret; empty for robots and for seats whose person left.
    secret_hash = models.CharField(max_length=64, blank=True)
    # The person left (ABANDONAR): a robot plays the seat, the name and score stay.
    abandoned = models.BooleanField(default=False)
    # Turns in a row a robot played because the person's time ran out; at three the robot
    # keeps the seat (`away`) until the person takes it back.
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)
    away = models.BooleanField(default=False)
    # The person asked for "te toca" alerts (the seat has push subscriptions): a move reads it
    # with the seat instead of looking for subscriptions.
    alerts = models.BooleanField("avisos", default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "lugar"
        verbose_name_plural = "lugares"
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="one_seat_per_number")
        ]

    def __str__(self) -> str:
        return f"{self.name} (lugar {self.number + 1})"

    @property
    def is_robot(self) -> bool:
        return self.kind == self.Kind.ROBOT

    @property
    def plays_as_robot(self) -> bool:
        return self.is_robot or self.abandoned or self.away

    def secret_matches(self, secret: str) -> bool:
        return bool(self.secret_hash) and secrets.compare_digest(
            self.secret_hash, hash_secret(secret)
        )


class TableEvent(models.Model):
    """One entry of a table's append-only log: a move, a seat change, a round's end..."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="events")
    version = models.PositiveIntegerField()
    kind = models.CharField(max_length=32)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "evento"
        verbose_name_plural = "registro de la mesa"
        ordering = ["table", "id"]
        indexes = [models.Index(fields=["table", "version"])]

    def __str__(self) -> str:
        return f"{self.kind} v{self.version}"


class TableRound(models.Model):
    """One round dealt at a table: its committed deal, where its moves start in the table's
    log, and how it ended. `reveal` is secret until the round is over (`finished`): only
    `tables.audiences.round_history` reads it, and only then."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="rounds")
    match_number = models.PositiveIntegerField("partida")  # 1, then 2 after REVANCHA...
    number = models.PositiveIntegerField("ronda")  # within its match
    # The seats playing, in the engine's player order, and the dealer's player index.
    seats = models.JSONField(default=list)
    dealer = models.PositiveSmallIntegerField()
    reveal = models.TextField()  # `ocholoco.Deal.reveal`: the salt and the deck
    commitment = models.CharField(max_length=64)
    # The table's version before the deal: the round's moves are the "move" events after it.
    start_version = models.PositiveIntegerField()
    finished = models.BooleanField(default=False)
    winners = models.JSONField(default=list, blank=True)  # seat numbers
    points = models.JSONField(default=dict, blank=True)  # seat number (str) -> points gained
    blocked = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "ronda"
        verbose_name_plural = "rondas"
        ordering = ["table", "id"]

    def __str__(self) -> str:
        return f"Partida {self.match_number}, ronda {self.number}"


class PushSubscription(models.Model):
    """A browser's Web Push subscription for one seat: how to reach it when no tab is open."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "suscripción a avisos"
        verbose_name_plural = "suscripciones a avisos"
        constraints = [
            models.UniqueConstraint(
                fields=["seat", "endpoint"], name="one_subscription_per_endpoint"
            )
        ]

    def __str__(self) -> str:
        return f"Avisos de {self.seat}"

    def info(self) -> dict:
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


class Presence(models.Model):
    """One open websocket on a table page (rows come and go with the connections)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="presences")
    channel_name = models.CharField(max_length=200, unique=True)
    seat_number = models.PositiveSmallIntegerField(null=True, blank=True)
    connected_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.channel_name
