"""Sockets and chat steps shared by the chat tests."""

from __future__ import annotations

import re
from typing import Any

from tables.models import Table
from tests.tables.helpers import Person


def say(person: Person, table: Table, text: str, **data: Any):
    return person.post(f"/mesa/{table.code}/chat/", {"text": text, **data})


def chat_log(html: str) -> str:
    start = html.index('<ol id="chat-log"')
    return html[start : html.index("</ol>", start)]


def texts(html: str) -> list[str]:
    """The messages' texts as written in the HTML, in order."""
    return re.findall(r'<span class="chat-text">(.*?)</span>', html, re.S)


def authors(html: str) -> list[str]:
    return re.findall(r'<span class="chat-author">(.*?)</span>', html)


def events(html: str) -> list[str]:
    return re.findall(r'class="chat-line chat-event" aria-hidden="true">(.*?)</li>', html)
