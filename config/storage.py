"""Static files in production: WhiteNoise's compressed copies under hashed names. The page's
scripts are ES modules that import one another ("./helpers.js"): Django rewrites those
imports to the hashed names too, so each module has one address, fetched and run once
whether a <script type="module"> tag or another module asks for it (a module reached at two
addresses would run twice: two of every listener, every sound played twice)."""

from django.contrib.staticfiles.apps import StaticFilesConfig
from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    """Django's documented switch for rewriting `import ... from "./x.js";` (semicolon and
    relative path required, as static/js writes them)."""

    support_js_module_import_aggregation = True


class StaticFiles(StaticFilesConfig):
    """django.contrib.staticfiles, leaving out django-htmx's unminified htmx 2 extensions: the
    site serves their .min.js, and their JSDoc comments (`import("../htmx")`) read as imports
    of a file that does not exist, which would stop collectstatic."""

    ignore_patterns = [*StaticFilesConfig.ignore_patterns, "django_htmx/ext/hx-*-2.js"]
