"""Generate the VAPID keys Web Push needs, and keep them for local use.

    python manage.py vapid_keys           # create var/vapid.json if missing, print the keys
    python manage.py vapid_keys --new     # replace them (existing subscriptions stop working)

In production set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY in the environment instead.
"""

from __future__ import annotations

import base64
import json

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.core.management.base import BaseCommand


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def new_keys() -> dict[str, str]:
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return {"public_key": _b64(public), "private_key": _b64(private)}


class Command(BaseCommand):
    help = "Crea (o muestra) las claves VAPID para los avisos Web Push."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--new", action="store_true", help="reemplazar las claves")

    def handle(self, *args: object, **options: object) -> None:
        path = settings.VAPID_FILE
        if options["new"] or not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(new_keys()))
            path.chmod(0o600)
            self.stdout.write(f"Claves nuevas en {path}")
        keys = json.loads(path.read_text())
        self.stdout.write(f"VAPID_PUBLIC_KEY={keys['public_key']}")
