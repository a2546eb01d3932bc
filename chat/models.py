"""The table chat, who may write in it, and what the moderators did.

The chat's history is its messages plus the table's own log (`tables.TableEvent`), merged by
time when shown: the table's events are never copied here.
"""

from django.conf import settings
from django.db import models


class ChatSettings(models.Model):
    """A table's chat switches, set by its host (absent row: the defaults)."""

    table = models.OneToOneField(
        "tables.Table", on_delete=models.CASCADE, related_name="chat_settings"
    )
    spectators_can_write = models.BooleanField("los que miran pueden escribir", default=True)

    class Meta:
        verbose_name = "ajustes del chat"
        verbose_name_plural = "ajustes del chat"

    def __str__(self) -> str:
        return f"Chat de {self.table}"


class ChatMessage(models.Model):
    table = models.ForeignKey(
        "tables.Table", on_delete=models.CASCADE, related_name="chat_messages",
        verbose_name="mesa",
    )
    # The seat it was written from, or None for a spectator ("mirando").
    seat_number = models.PositiveSmallIntegerField("lugar", null=True, blank=True)
    author_name = models.CharField("autor", max_length=24)
    # The writer's address, as a keyed hash (`tables.web.clients.address_key`): what a mute of a
    # spectator binds, since a spectator has no seat and can drop any cookie.
    address = models.CharField("dirección (cifrada)", max_length=32, db_index=True)
    text = models.TextField("texto", max_length=300)
    hidden = models.BooleanField("oculto", default=False)
    created_at = models.DateTimeField("escrito", auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = "mensaje"
        verbose_name_plural = "mensajes del chat"
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["table", "created_at"])]

    def __str__(self) -> str:
        return f"{self.author_name}: {self.text[:40]}"

    @property
    def is_spectator(self) -> bool:
        return self.seat_number is None


class ChatMute(models.Model):
    """A seat, or a spectator's address, that may not write in one table's chat."""

    table = models.ForeignKey(
        "tables.Table", on_delete=models.CASCADE, related_name="chat_mutes", verbose_name="mesa"
    )
    seat_number = models.PositiveSmallIntegerField("lugar", null=True, blank=True)
    address = models.CharField("dirección (cifrada)", max_length=32, blank=True)
    created_at = models.DateTimeField("desde", auto_now_add=True)

    class Meta:
        verbose_name = "silencio"
        verbose_name_plural = "silenciados"
        constraints = [
            models.CheckConstraint(
                condition=models.Q(seat_number__isnull=False) | ~models.Q(address=""),
                name="mute_names_a_seat_or_an_address",
            )
        ]

    def __str__(self) -> str:
        who = f"lugar {self.seat_number + 1}" if self.seat_number is not None else "espectador"
        return f"{who} en {self.table}"


class ModerationAction(models.Model):
    """Who did what to which table or message, when and why: written by the services only."""

    class Kind(models.TextChoices):
        CLOSE = "close", "Cerrar la mesa"
        REPLACE = "replace", "Reemplazar por un robot"
        RENAME = "rename", "Cambiar el nombre"
        HIDE = "hide", "Ocultar un mensaje"
        UNHIDE = "unhide", "Mostrar un mensaje"
        MUTE = "mute", "Silenciar"
        UNMUTE = "unmute", "Quitar el silencio"

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, verbose_name="quién"
    )
    kind = models.CharField("qué", max_length=16, choices=Kind)
    table = models.ForeignKey(
        "tables.Table", on_delete=models.SET_NULL, null=True, blank=True, verbose_name="mesa"
    )
    target = models.CharField("a quién o a qué", max_length=200, blank=True)
    reason = models.CharField("por qué", max_length=300)
    created_at = models.DateTimeField("cuándo", auto_now_add=True)

    class Meta:
        verbose_name = "acción de moderación"
        verbose_name_plural = "acciones de moderación"
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} · {self.target}"
