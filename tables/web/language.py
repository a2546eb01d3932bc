"""The language a person reads the site in: chosen on the home page and in the table's menu
(each language named in itself), kept in Django's language cookie by Django's own
`set_language`; without a choice, the browser's language (`LocaleMiddleware`), else Spanish."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from tables.web.error_pages import notice_fragment


@require_POST
def language_choose(request: HttpRequest) -> HttpResponse:
    """Remember `language` in the cookie and go back to `next` (a page of this site)."""
    if request.POST.get("language") not in dict(settings.LANGUAGES):
        return HttpResponse(notice_fragment(gettext("Ese idioma no existe.")), status=400)
    return set_language(request)
