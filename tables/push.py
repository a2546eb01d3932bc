"""'Te toca' alerts by Web Push, for a person whose table is not open anywhere.

When a change hands the turn to a person, `turn_alert` sends one notification to each push
subscription of that seat, unless the seat has the table open (an open socket: the page
shows the turn itself), plays as a robot, or left. Sending happens off the request thread.
VAPID keys come from the environment (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY), or for local use
from the file `manage.py vapid_keys` writes.
"""

from __future__ import annotations

import json
import logging
from concurrent.futures import Future, ThreadPoolExecutor

from django.conf import settings
from django.db import close_old_connections
from pywebpush import WebPushException, webpush

import ocholoco
from tables.models import PushSubscription, Seat, Table

logger = logging.getLogger(__name__)
_sender = ThreadPoolExecutor(max_workers=2, thread_name_prefix="push")
_pending: list[Future] = []


def vapid_keys() -> tuple[str, str]:
    """(public key for the browser, private key for signing), or ('', '') when unset."""
    return settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY


def alert_text(table: Table, seat: Seat) -> dict[str, str]:
    """What the notification says: the table and what just happened ("Ana jugó…: te toca")."""
    seats = {s.number: s for s in table.seats.all()}
    host = seats.get(table.host_seat)
    title = f"Mesa de {host.name}" if host else "Ocho Loco"
    body = "Te toca."
    if table.round_state:
        history = ocholoco.from_json(table.round_state).history
        last = next((e for e in reversed(history) if e.kind in ("play", "pass", "penalty")), None)
        if last is not None:
            said = ocholoco.describe_event(
                last, lambda player: seats[table.match_seats[player]].name
            )
            body = f"{said}: te toca."
    return {"title": title, "body": body, "url": f"/mesa/{table.code}/", "tag": f"mesa-{table.pk}"}


def _should_alert(table: Table, seat: Seat) -> bool:
    from chat.models import Presence

    if seat.plays_as_robot or not seat.secret_hash:
        return False
    return not Presence.objects.filter(table=table, seat_number=seat.number).exists()


def turn_alert(*, table_id: int, seat_number: int) -> None:
    """The turn just passed to `seat_number`: alert it if it is away from the table."""
    public, private = vapid_keys()
    if not private:
        return
    table = Table.objects.filter(pk=table_id).first()
    seat = table and table.seats.filter(number=seat_number).first()
    if seat is None or not _should_alert(table, seat):
        return
    subscriptions = list(seat.push_subscriptions.all())
    if not subscriptions:
        return
    payload = json.dumps(alert_text(table, seat))
    for subscription in subscriptions:
        _pending.append(_sender.submit(_send, subscription.pk, subscription.info(), payload))


def _send(subscription_id: int, info: dict, payload: str) -> None:
    try:
        webpush(
            info, payload, vapid_private_key=settings.VAPID_PRIVATE_KEY,
            vapid_claims={"sub": settings.VAPID_SUBJECT}, ttl=24 * 3600, timeout=10,
        )
    except WebPushException as failure:
        status = getattr(failure.response, "status_code", None)
        if status in (404, 410):  # the browser dropped the subscription
            close_old_connections()
            PushSubscription.objects.filter(pk=subscription_id).delete()
            close_old_connections()
        else:
            logger.warning("Web Push failed: %s", failure)
    except Exception:
        logger.exception("Web Push failed")


def wait_for_sends(timeout: float = 10) -> None:
    """Let every queued notification go out (tests, and a clean shutdown)."""
    while _pending:
        _pending.pop().result(timeout=timeout)
