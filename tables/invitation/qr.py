"""The invitation as a QR code, for someone in the same room to join from their own phone.

segno draws it (a regular QR code, never a Micro QR, which phones' cameras do not read) as a
small SVG; the page shows it as an image whose alternative text says what it is.
"""

from __future__ import annotations

import io
from functools import lru_cache

import segno

QR_NAME = "Código QR de la mesa"


@lru_cache(maxsize=256)
def invitation_qr_svg(url: str) -> bytes:
    """The QR code of `url` as SVG (about 2 KB; kept, an invitation's code never changes)."""
    out = io.BytesIO()
    segno.make_qr(url, error="m").save(
        out, kind="svg", border=4, omitsize=True, dark="#1b1b1f", light="#fff",
        xmldecl=False, title=QR_NAME, nl=False,
    )
    return out.getvalue()
