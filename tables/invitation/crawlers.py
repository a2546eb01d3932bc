"""Who is a link preview: the fetch a chat app makes to show a link (no cookies, no JavaScript).

The user agents the `crawler-user-agents` list (its Python package ships the JSON) tags
"social-preview", plus Applebot (iMessage and Spotlight, filed there under search engines), less
Facebook's in-app browser (tagged "social-preview", but a person's browser).
"""

from __future__ import annotations

import re

from crawleruseragents import CRAWLER_USER_AGENTS_DATA
from django.http import HttpRequest

EXTRA = ["Applebot"]
PEOPLE = ["MetaIAB Facebook"]

PREVIEW_AGENTS = re.compile(
    "|".join(
        [
            entry["pattern"]
            for entry in CRAWLER_USER_AGENTS_DATA
            if "social-preview" in entry["tags"] and entry["pattern"] not in PEOPLE
        ]
        + EXTRA
    )
)


def is_link_preview(request: HttpRequest) -> bool:
    """Whether this request is a link-preview fetch (by its user agent)."""
    return bool(PREVIEW_AGENTS.search(request.headers.get("User-Agent", "")))
