"""A request is let go as soon as its answer is made.

The middleware below it hang things on the request that refer back to it (`request.user` and
`request.auser`, `request.htmx`, `request.csp_nonce`, the message storage's `request`): cycles,
so the request and all it reaches waited for the garbage collector. Nothing reads them once the
answer is made, so this middleware, the outermost, takes them off, by their public names.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.messages import get_messages
from django.http import HttpRequest, HttpResponseBase

BACK_REFERENCES = ("user", "auser", "htmx", "csp_nonce")


def let_the_request_go(
    get_response: Callable[[HttpRequest], HttpResponseBase],
) -> Callable[[HttpRequest], HttpResponseBase]:
    def middleware(request: HttpRequest) -> HttpResponseBase:
        response = get_response(request)
        attributes = vars(request)
        for name in BACK_REFERENCES:
            attributes.pop(name, None)
        storage = get_messages(request)
        for part in (storage, *getattr(storage, "storages", ())):
            if getattr(part, "request", None) is request:
                part.request = None
        return response

    return middleware
