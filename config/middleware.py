"""A request is let go as soon as its answer is made.

The middleware below it hang things on the request that refer back to it: `request.user` and
`request.auser` (a closure and a partial over the request: Django's authentication),
`request.htmx` (django-htmx), `request.csp_nonce` (django-csp), the message storage's `request`
(Django's messages). Each is a cycle, so the request, and everything it reaches (its environ,
its body, the server's objects for it: some 85 objects), waits for the garbage collector
instead of going when its last reference does. At 100 moves a second that was 18,000 objects at
every young collection (20-25 ms each, every two seconds) and a pause of 70 ms at every older
one: the slowest moves of a busy process. Once the answer is made nothing reads those
attributes again, so this middleware, the outermost, takes them off, by their public names.

A page rendered with its request still leaves one cycle (Django's `RequestContext` and the
`ContextDict` it pushes refer to each other, and the context to the request): one a page load,
where a move's answer, rendered without its request, leaves none.
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
