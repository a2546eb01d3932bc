"""The scripts' words in the reader's language: Django's JavaScript catalog (the djangojs
domain, locale/<lang>/LC_MESSAGES/djangojs.po) served at /jsi18n/<language>/?v=<release>,
and the template tag that names that address for the page being rendered.

The address says everything the answer depends on: the language in the path (the view
answers in it, whatever the request's cookie or Accept-Language say) and the release in the
query (the catalogs ship with the code). So a browser may keep it for a year without asking:
a new release, or another language, is another address. Only an answer for the release this
process runs is kept that long; without a release (development, tests) or for another one
(a page of the next release whose request reached a process of the last, during a deploy)
it is asked again each time (no-cache), so it is never kept under a name it does not match.
"""

from __future__ import annotations

from django import template
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.views.decorators.http import require_GET
from django.views.i18n import JavaScriptCatalog

KEPT = 365 * 24 * 3600

# The site's own apps only (plus LOCALE_PATHS, which Django always adds): the admin's
# date-picker words, which the default (every installed app) would bring, are no page's.
_catalog = JavaScriptCatalog.as_view(packages=["tables", "chat", "bots"])


@require_GET
def script_catalog(request: HttpRequest, language: str) -> HttpResponse:
    """The catalog of `language` (one of settings.LANGUAGES) as a classic script defining
    gettext, ngettext, interpolate... (Django's JavaScriptCatalog)."""
    if language not in dict(settings.LANGUAGES):
        raise Http404
    with translation.override(language):
        response = _catalog(request)
    if settings.RELEASE and request.GET.get("v") == settings.RELEASE:
        response["Cache-Control"] = f"public, max-age={KEPT}, immutable"
    else:
        response["Cache-Control"] = "no-cache"
    return response


def catalog_url(language: str | None = None) -> str:
    """The catalog's address for `language` (the active one by default)."""
    language = language or translation.get_language() or settings.LANGUAGE_CODE
    if language not in dict(settings.LANGUAGES):
        language = settings.LANGUAGE_CODE
    url = reverse("script_catalog", args=[language])
    return f"{url}?v={settings.RELEASE}" if settings.RELEASE else url


# A builtin template library (settings.TEMPLATES' "builtins"): {% script_catalog_url %} and
# {% script_catalog %}.
register = template.Library()


@register.simple_tag(name="script_catalog_url")
def script_catalog_url_tag() -> str:
    return catalog_url()


@register.simple_tag(name="script_catalog")
def script_catalog_tag() -> SafeString:
    """A page's script element for its language's catalog, on a line of its own; none in the
    site's default language, the scripts' source (helpers.js words them without a catalog)."""
    if (translation.get_language() or settings.LANGUAGE_CODE) == settings.LANGUAGE_CODE:
        return SafeString("")
    return format_html('\n  <script src="{}" defer></script>', catalog_url())
