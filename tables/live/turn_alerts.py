"""'Te toca' alerts by Web Push, for a person whose table is not open anywhere.

A change that hands the turn to a person who asked ("Avisarme cuando me toque",
`push_subscribe`) enqueues `turn_alert` in its transaction; the task notifies each subscription
of that seat unless by then the table is open there, the turn moved on, or the seat plays as a
robot or was left. VAPID keys: the environment, or locally the file `manage.py vapid_keys` writes.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.translation import get_language, override
from django.utils.translation import gettext as _
from django_tasks import task
from pywebpush import WebPushException, webpush

import ocholoco
from tables.audiences import wording
from tables.live.presence import seat_has_table_open
from tables.models import PushSubscription, Seat, Table
from tables.state.refusal import TableError
from tables.state.seat_secrets import seat_by_secret
from tables.state.snapshot import AppliedChange

logger = logging.getLogger(__name__)


def vapid_keys() -> tuple[str, str]:
    """(public key for the browser, private key for signing), or ('', '') when unset."""
    return settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY


def alert_text(table: Table, seat: Seat) -> dict[str, str]:
    """What the notification says, in the active language: the table and what just happened
    ("Ana jugó…: te toca")."""
    seats = {s.number: s for s in table.seats.all()}
    host = seats.get(table.host_seat)
    title = _("Mesa de %(host)s") % {"host": host.name} if host else "Ocho Loco"
    body = _("Te toca.")
    if table.round_state:
        history = ocholoco.from_json(table.round_state).history
        last = next((e for e in reversed(history) if e.kind in ("play", "pass", "penalty")), None)
        if last is not None:
            said = wording.event_sentence(
                last, lambda player: seats[table.seat_of_player(player)].name
            )
            body = _("%(move)s: te toca.") % {"move": said}
    url = f"/mesa/{table.player_code}/"  # the players' own link: a new invitation keeps it
    return {"title": title, "body": body, "url": url, "tag": f"mesa-{table.pk}"}


def _should_alert(table: Table, seat: Seat) -> bool:
    if seat.plays_as_robot or not seat.secret_hash:
        return False
    return not seat_has_table_open(table, seat.number)


def push_subscribe(
    *, table_id: int, secret: str | None, subscription: dict[str, Any], language: str = ""
) -> None:
    """'Avisarme cuando me toque': keep this browser's Web Push subscription for its seat, and
    the language its alerts are worded in (the subscribing page's; "": the active one)."""
    language = language or get_language() or settings.LANGUAGE_CODE
    try:
        endpoint = str(subscription["endpoint"])
        p256dh = str(subscription["keys"]["p256dh"])
        auth = str(subscription["keys"]["auth"])
    except (KeyError, TypeError):
        raise TableError(_("No se pudo activar los avisos: suscripción no válida.")) from None
    if not endpoint.startswith(("https://", "http://")) or len(endpoint) > 1000:
        raise TableError(_("No se pudo activar los avisos: suscripción no válida."))
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if table is None:
            raise TableError(_("Esa mesa no existe."))
        seat = seat_by_secret(table.seats.all(), secret)
        if seat is None:
            raise TableError(_("No tienes un lugar en esta mesa."))
        PushSubscription.objects.update_or_create(
            seat=seat, endpoint=endpoint,
            defaults={"p256dh": p256dh, "auth": auth, "language": language},
        )
        if not seat.alerts:
            seat.alerts = True
            seat.save(update_fields=["alerts"])


def turn_alert_schedule(change: AppliedChange) -> None:
    """Inside a change: a person whose turn began, and who asked for alerts, gets one."""
    number = change.turn_passed_to
    if number is None or not settings.VAPID_PRIVATE_KEY:
        return
    seat = change.snapshot.seats.get(number)
    if seat is None or seat.plays_as_robot or not seat.alerts:
        return
    turn_alert.enqueue(table_id=change.table.pk, seat_number=number, version=change.version)


@task()
def turn_alert(*, table_id: int, seat_number: int, version: int) -> None:
    """The turn passed to `seat_number` at `version`: alert it if it is away from the table."""
    public, private = vapid_keys()
    if not private:
        return
    table = Table.objects.filter(pk=table_id, version=version).first()
    seat = table and table.seats.filter(number=seat_number).first()
    if seat is None or not _should_alert(table, seat):
        return
    payloads: dict[str, str] = {}  # worded once per language, in each receiver's
    for subscription in seat.push_subscriptions.all():
        language = subscription.language
        if language not in payloads:
            with override(language):
                payloads[language] = json.dumps(alert_text(table, seat))
        _send(subscription.pk, subscription.info(), payloads[language])


def _send(subscription_id: int, info: dict, payload: str) -> None:
    try:
        webpush(
            info, payload, vapid_private_key=settings.VAPID_PRIVATE_KEY,
            vapid_claims={"sub": settings.VAPID_SUBJECT}, ttl=24 * 3600, timeout=10,
        )
    except WebPushException as failure:
        status = getattr(failure.response, "status_code", None)
        if status in (404, 410):  # the browser dropped the subscription
            subscription = PushSubscription.objects.filter(pk=subscription_id).first()
            if subscription is not None:
                subscription.delete()
                if not subscription.seat.push_subscriptions.exists():
                    Seat.objects.filter(pk=subscription.seat_id).update(alerts=False)
        else:
            logger.warning("Web Push failed: %s", failure)
    except Exception:
        logger.exception("Web Push failed")
