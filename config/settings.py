"""Settings for Ocho Loco, all read here from environment variables.

Defaults are the embedded, one-process setup: SQLite, the in-memory channel layer, DEBUG on.
Production sets DATABASE_URL, REDIS_URL, SECRET_KEY, ALLOWED_HOSTS and DEBUG=0 (see .env.example).
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_bool("DEBUG", True)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY is required when DEBUG is off.")
    SECRET_KEY = "local-development-only-not-secret"

ALLOWED_HOSTS = [h.strip() for h in os.environ.get("ALLOWED_HOSTS", "").split(",") if h.strip()]
if DEBUG and not ALLOWED_HOSTS:
    ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]", "testserver"]
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "config.storage.StaticFiles",  # django.contrib.staticfiles (config/storage.py)
    "channels",
    "django_htmx",
    "template_partials",
    "django_tasks",
    "django_tasks_db",
    "csp",
    "django_ratelimit",
    "tables",
    "chat",
    "bots",
]

MIDDLEWARE = [
    "config.middleware.let_the_request_go",  # outermost: see config/middleware.py
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",  # the person's language: cookie, then browser
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "tables.web.middleware.DatabaseUnavailableMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_ratelimit.middleware.RatelimitMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",  # LANGUAGES, LANGUAGE_CODE
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tables.web.deck.deck",  # every page shows the browser's deck design
            ],
            "builtins": [
                "template_partials.templatetags.partials",
                "config.i18n",  # {% script_catalog_url %}: the scripts' words (base.html, sw.js)
            ],
        },
    },
]

# Database: DATABASE_URL, or a local SQLite file tuned so that two writers wait for each other
# (IMMEDIATE transactions, a busy timeout) instead of failing with "database is locked".
SQLITE_PATH = Path(os.environ.get("SQLITE_PATH", BASE_DIR / "var" / "ocholoco.sqlite3"))
if os.environ.get("DATABASE_URL"):
    DATABASES = {"default": dj_database_url.parse(os.environ["DATABASE_URL"])}
    if DATABASES["default"]["ENGINE"].endswith("postgresql"):
        # Psycopg 3's pool (Django's own option): each process holds at most DB_POOL_MAX
        # connections whatever the load, however many threads serve requests. Django checks a
        # connection from the pool before use, so a restarted PostgreSQL costs one error.
        DATABASES["default"]["OPTIONS"] = {
            "pool": {
                "min_size": int(os.environ.get("DB_POOL_MIN", "1")),
                "max_size": int(os.environ.get("DB_POOL_MAX", "8")),
                "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "5")),
                # A connection the pool failed to make is tried again after a second, then
                # given up; the next request asks for a new one at once. (By default the pool
                # kept trying for 5 minutes, waiting twice as long each time: after a 20 s
                # outage moves were refused 4.6 s more, 0.3 s this way: bench/faults.py.)
                "reconnect_timeout": float(os.environ.get("DB_RECONNECT_TIMEOUT", "1")),
            }
        }
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
else:
    # SQLITE_SYNCHRONOUS: FULL (the default) syncs the WAL at every commit, so a move that was
    # answered survives a power cut; NORMAL (WAL mode) never corrupts the database but a power
    # cut (not a crash of the process) may roll back what was committed since the last
    # checkpoint. FULL costs a wait for the disk a commit, no CPU: docs/operating.md and
    # docs/performance.md, "Durability".
    SQLITE_SYNCHRONOUS = os.environ.get("SQLITE_SYNCHRONOUS", "FULL").strip().upper()
    if SQLITE_SYNCHRONOUS not in {"NORMAL", "FULL"}:
        raise ImproperlyConfigured("SQLITE_SYNCHRONOUS must be NORMAL or FULL.")
    SQLITE_PATH.parent.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": SQLITE_PATH,
            # Each thread keeps its connection while it lives.
            "CONN_MAX_AGE": None,
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": (
                    f"PRAGMA journal_mode=WAL; PRAGMA synchronous={SQLITE_SYNCHRONOUS};"
                ),
            },
        }
    }

# Requests served at once, each in a thread of the pool that runs Django (config.asgi); the
# others wait their turn. Python runs one thread at a time, so more threads serve no more; on
# SQLite, which lets one writer in at a time, a second thread only waited in SQLite's busy
# handler and fought the first for the interpreter (100 busy tables: 8.9 ms of CPU a move and
# p99 384 ms with two threads, 8.0 ms and 73 ms with one). On PostgreSQL a request may wait
# for a row's lock or the network while another runs.
ON_SQLITE = DATABASES["default"]["ENGINE"].endswith("sqlite3")
REQUEST_THREADS = int(os.environ.get("REQUEST_THREADS", "1" if ON_SQLITE else "4"))

# Channel layer: Redis pub/sub when REDIS_URL is set (several processes share tables),
# otherwise in memory (one process).
if os.environ.get("REDIS_URL"):
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [os.environ["REDIS_URL"]],
                "prefix": os.environ.get("CHANNEL_PREFIX", "asgi"),
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "config.layers.InMemoryChannelLayer"}}

# Background work (robots' turns, turn deadlines, "te toca" alerts, archiving) is a queue of
# tasks in the database (django-tasks, database backend), run by task workers: TASK_WORKERS
# threads inside each web process (the embedded default: one process does everything), and/or
# `manage.py tasks_worker` processes (production: TASK_WORKERS=0 and as many as needed).
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
TASK_WORKERS = int(os.environ.get("TASK_WORKERS", "1"))
# Seconds a task worker waits when nothing is due before it looks again (a robot plays at most
# this long after its ROBOT_DELAY).
TASK_POLL_INTERVAL = float(os.environ.get("TASK_POLL_INTERVAL", "0.1"))
# Seconds between robot moves, so that people can follow them.
ROBOT_DELAY = float(os.environ.get("ROBOT_DELAY", "1.0"))
# Days an archived table is kept (still viewable, its matches downloadable) before the hourly
# housekeeping deletes it with its rounds, log and chat; 0 keeps archived tables for ever.
ARCHIVED_TABLES_KEEP_DAYS = max(0, int(os.environ.get("ARCHIVED_TABLES_KEEP_DAYS", "365")))

# Metrics (tables.metrics): with METRICS_PORT set, this process serves its own metrics, in
# Prometheus' text format, on METRICS_HOST:METRICS_PORT: an internal address, never the public
# site's. Each process (web or task worker) needs a port of its own.
METRICS_PORT = int(os.environ["METRICS_PORT"]) if os.environ.get("METRICS_PORT") else None
METRICS_HOST = os.environ.get("METRICS_HOST", "127.0.0.1")

# The release this process serves (scripts/deploy.sh sets it: a UTC time, then the commit, so
# that a later release sorts after an earlier one). A page opened on an earlier release reloads
# itself into a later one when its socket reconnects to it (static/js/socket.js).
RELEASE = os.environ.get("RELEASE", "")

# Backups (manage.py backup / restore; docs/operating.md, "Backups"): written to BACKUP_DIR,
# outside the checkout (a re-clone or `git clean -x` never takes them); by default the user's
# data folder. Taken every BACKUP_EVERY_HOURS by a task worker (0: not scheduled; the production
# scripts set 1), and kept: the newest of each of the last BACKUP_KEEP_HOURLY hours,
# BACKUP_KEEP_DAILY days and BACKUP_KEEP_WEEKLY weeks, and the last BACKUP_KEEP_LABELLED of each
# label (a deploy's, the database a restore replaced).
_data_home = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
BACKUP_DIR = Path(os.environ.get("BACKUP_DIR") or _data_home / "ocholoco" / "backups")
BACKUP_EVERY_HOURS = float(os.environ.get("BACKUP_EVERY_HOURS", "0"))
BACKUP_KEEP_HOURLY = int(os.environ.get("BACKUP_KEEP_HOURLY", "24"))
BACKUP_KEEP_DAILY = int(os.environ.get("BACKUP_KEEP_DAILY", "7"))
BACKUP_KEEP_WEEKLY = int(os.environ.get("BACKUP_KEEP_WEEKLY", "4"))
BACKUP_KEEP_LABELLED = int(os.environ.get("BACKUP_KEEP_LABELLED", "5"))

# Web Push ("te toca" when no tab is open): VAPID keys from the environment, or for local use
# from the file `manage.py vapid_keys` writes (never committed).
VAPID_FILE = Path(os.environ.get("VAPID_FILE", BASE_DIR / "var" / "vapid.json"))
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "")
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "")
if not VAPID_PRIVATE_KEY and VAPID_FILE.exists():
    import json

    _vapid = json.loads(VAPID_FILE.read_text())
    VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY = _vapid["public_key"], _vapid["private_key"]
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "mailto:avisos@ocholoco.invalid")

# No accounts: the browser's seats live in a signed cookie (the seat secret itself is only
# stored hashed on the server).
SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 365
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
# Secure cookies whenever DEBUG is off, unless told (a benchmark served over plain http).
SECURE_COOKIES = env_bool("SECURE_COOKIES", not DEBUG)
SESSION_COOKIE_SECURE = SECURE_COOKIES
CSRF_COOKIE_SECURE = SECURE_COOKIES
LANGUAGE_COOKIE_SECURE = SECURE_COOKIES

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

# Spanish is the source and the default; each person reads the site in the language they chose
# (Django's language cookie, set by `set_language`), else their browser's, else Spanish. The
# catalogs are in locale/ and each app's locale/ (README, "Adding a language").
LANGUAGE_CODE = "es"
# Offered: the languages whose catalogs are whole (tests/tables/test_every_word.py). A new
# language is tried before it is offered: LANGUAGES_OFFERED="es,en,pt-br,fr", say, once its
# name is in LANGUAGE_NAMES; LANGUAGES_OFFERED=es serves Spanish alone (no chooser).
LANGUAGE_NAMES = {"es": "Español", "en": "English", "pt-br": "Português (Brasil)"}
LANGUAGES = [
    (code, LANGUAGE_NAMES[code])
    for code in os.environ.get("LANGUAGES_OFFERED", "es,en,pt-br").split(",")
    if code in LANGUAGE_NAMES
] or [("es", "Español")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 400 * 24 * 3600  # as long as browsers keep a cookie
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Where collectstatic puts the static files (WhiteNoise serves them, nginx too in production).
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "config.storage.StaticFilesStorage"  # WhiteNoise's, module imports hashed too
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.channels.server": {"level": "WARNING"},
        # Every task's start and end (a robot's every move): only problems are worth a line.
        "django_tasks": {"level": "WARNING"},
        "django_tasks_db": {"level": "WARNING"},
    },
}


# --- Hardening: HTTPS, Content-Security-Policy, rate limits, error answers ------------------

# HTTPS: redirect plain http and send HSTS whenever cookies are secure (DEBUG off), unless the
# environment says otherwise. Behind a proxy that ends TLS, TRUSTED_PROXIES names it (below)
# and its X-Forwarded-Proto says whether the visitor used https.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", SECURE_COOKIES)
SECURE_HSTS_SECONDS = int(
    os.environ.get("SECURE_HSTS_SECONDS", 365 * 24 * 3600 if SECURE_COOKIES else 0)
)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", SECURE_COOKIES)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", SECURE_COOKIES)
X_FRAME_OPTIONS = "DENY"
# Proxies whose X-Forwarded-For / X-Forwarded-Proto are believed: addresses or networks,
# comma-separated (e.g. "127.0.0.1,10.0.0.0/8"). Unset: the connecting address is the client.
TRUSTED_PROXIES = [p.strip() for p in os.environ.get("TRUSTED_PROXIES", "").split(",") if p.strip()]
if TRUSTED_PROXIES:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Content-Security-Policy (django-csp 4.x format): scripts, styles and everything else from
# this site only; no inline script, no inline style, no eval. The websocket is same-origin.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "worker-src": ["'self'"],
        "manifest-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# Rate limits (django-ratelimit on Django's cache, so every process counts together):
# "count/period", period s, m, h or d with an optional multiplier ("5/10s").
RATE_LIMITS = {
    # ABRIR MESA and SENTARME, per client address.
    "table_open": os.environ.get("RATE_TABLE_OPEN", "20/h"),
    "seat_claim": os.environ.get("RATE_SEAT_CLAIM", "30/h"),
    # The chat: per seat for players, per address for spectators, and all the spectators of
    # one table together.
    "chat": os.environ.get("RATE_CHAT", "5/10s"),
    "chat_spectators": os.environ.get("RATE_CHAT_SPECTATORS", "10/10s"),
    # Admin sign-in attempts, per address.
    "admin_login": os.environ.get("RATE_ADMIN_LOGIN", "5/5m"),
}
RATELIMIT_IP_META_KEY = "tables.web.clients.client_address"
RATELIMIT_VIEW = "tables.web.error_pages.too_many_requests"

# The cache the limits count in: Redis when REDIS_URL is set (atomic increments, shared by
# every process); otherwise a table in the database, shared by every process that uses it.
if os.environ.get("REDIS_URL"):
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": os.environ["REDIS_URL"],
            "KEY_PREFIX": os.environ.get("CACHE_PREFIX", "ocholoco"),
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "ocholoco_cache",
            "OPTIONS": {"MAX_ENTRIES": 100_000},
        }
    }
SILENCED_SYSTEM_CHECKS = [
    # django-ratelimit lists django-redis, not Django's own RedisCache, whose increments are
    # Redis INCR: atomic and shared.
    "django_ratelimit.W001",
    # Without REDIS_URL the site is one process (the in-memory channel layer cannot span
    # processes), so the database cache's read-then-write increment has no rival writer.
    *([] if os.environ.get("REDIS_URL") else ["django_ratelimit.E003"]),
]

# Error answers in Spanish: a CSRF failure says what happened (and htmx renews the token).
CSRF_FAILURE_VIEW = "tables.web.error_pages.csrf_failure"
