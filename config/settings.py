"""The one settings module, read from the environment.

Embedded defaults (no variable set): SQLite, the in-memory channel layer, Celery tasks run
in-process on a background thread, email to the console and the dev inbox. Production sets
DATABASE_URL, REDIS_URL, SECRET_KEY, ALLOWED_HOSTS, DEBUG=false and the EMAIL_* variables.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


def env_str(name: str, default: str = "") -> str:
    """A string from the environment."""
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    """A boolean from the environment: 1/true/yes/on are true."""
    value = os.environ.get(name)
    return default if value is None else value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    """A comma-separated list from the environment."""
    return [item.strip() for item in env_str(name, default).split(",") if item.strip()]


def env_int(name: str, default: int) -> int:
    """An int from the environment."""
    return int(env_str(name, str(default)))


DEBUG = env_bool("DEBUG", True)
SECRET_KEY = env_str("SECRET_KEY", "dev-only-insecure-key-change-me" if DEBUG else "")
if not SECRET_KEY:
    raise RuntimeError("SECRET_KEY must be set when DEBUG is off")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.sites",
    "channels",
    "django_htmx",
    "template_partials",
    "allauth",
    "allauth.account",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Every error under /api/ is JSON; every query string and form field is checked once.
    "games.middleware.ApiErrorsMiddleware",
    "games.middleware.InputGuardMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

# Database sessions (Django's), their row read without the ORM's query compiler: games/sessions.py.
SESSION_ENGINE = "games.sessions"
ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
SITE_ID = 1

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=env_int("DB_CONN_MAX_AGE", 0),
        # A connection is checked before use (with the pool: on every checkout), so one that
        # PostgreSQL closed (a restart, a terminated backend) is replaced instead of failing a request.
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Background task threads write too; wait for the lock rather than fail.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool(
    "DB_POOL", DATABASES["default"]["CONN_MAX_AGE"] == 0
):
    # A connection pool (psycopg_pool), not persistent connections: under ASGI each request's sync
    # code runs in a thread of its own, so a connection kept per thread is seldom reused, and
    # opening one costs a PostgreSQL backend (~4 ms here) on every request, render and task.
    # DB_POOL=false (or DB_CONN_MAX_AGE > 0) turns it off. Each process holds its own pool: the
    # README's production section adds them up against PostgreSQL's max_connections.
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": env_int("DB_POOL_MIN_SIZE", 2),
        "max_size": env_int("DB_POOL_MAX_SIZE", 20),
        # A request waits this long for a free connection, then fails (instead of hanging).
        "timeout": env_int("DB_POOL_TIMEOUT", 10),
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# Form posts are small (notes are the largest field); JSON bodies have their own 64 KB limit
# (games.inputs). Bigger bodies are refused before they are parsed.
DATA_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024
DATA_UPLOAD_MAX_NUMBER_FIELDS = 400

# Rate limits per user (django-ratelimit; the cache holds the counts): the token API as a whole,
# and moves (the page's act view and the API's action). Over the limit: 429 with Retry-After.
CHANCERY_RATES = {
    "api": env_str("CHANCERY_RATE_API", "300/m"),
    "moves": env_str("CHANCERY_RATE_MOVES", "120/m"),
}
CHANCERY_CHAT_RATE = env_str("CHANCERY_CHAT_RATE", "10/m")
RATELIMIT_FAIL_OPEN = True

REDIS_URL = env_str("REDIS_URL")
if REDIS_URL:
    CHANNEL_LAYERS = {
        # redis-py 8 reads with a 5 s socket timeout by default, which aborts channels-redis's
        # 5 s blocking BZPOPMIN and kills every idle websocket (django/channels_redis#422).
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": [{"address": REDIS_URL, "socket_timeout": 30, "socket_connect_timeout": 5}]
            },
        }
    }
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Celery: with a broker, tasks go to workers; without one (embedded), games.tasks runs them on
# an in-process background thread after the commit, so a request never waits for a bot.
# How games.tasks runs tasks: "celery", "thread" or "inline"; empty picks celery when a broker is set.
CHANCERY_TASKS = env_str("CHANCERY_TASKS")
# With tasks on a thread (no broker), the web process runs CELERY_BEAT_SCHEDULE itself (games/beat.py).
CHANCERY_EMBEDDED_BEAT = env_bool("CHANCERY_EMBEDDED_BEAT", True)
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", REDIS_URL)
CELERY_TASK_ALWAYS_EAGER = False
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
# With the broker down, queueing a task after a commit fails fast (the job row stays owed).
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Bots and standing answers may make this many moves in a row; then the game waits for a player.
CHANCERY_BOT_STREAK_LIMIT = env_int("CHANCERY_BOT_STREAK_LIMIT", 500)
# Bots think within their kind's budget (rules.bots.BOTS); a dict like {"iterations": 30} here
# overrides it for every bot (the unit tests, which must not wait a second per decision).
CHANCERY_BOT_BUDGET: dict[str, int] | None = None
# A turn mail waits this many seconds before it may go out, and is dropped if the player has
# answered meanwhile: a player at the keyboard gets none (games.notify). The drain runs each minute.
CHANCERY_TURN_MAIL_DELAY = env_int("CHANCERY_TURN_MAIL_DELAY", 60)
CELERY_BEAT_SCHEDULE = {
    # Owed jobs left pending (a dead broker, a dead worker) are dispatched again: a lost bot turn
    # is back within its claim (its budget plus a few seconds) and this interval.
    "requeue-stalled-bots": {"task": "games.tasks.requeue_stalled_bots", "schedule": 5.0},
    "purge-jobs": {"task": "games.tasks.purge_jobs", "schedule": 3600.0},
    # Mail owed by a move whose drain task was lost (a crash after the commit) goes out here.
    # Also sends turn mail once its CHANCERY_TURN_MAIL_DELAY is over.
    "drain-outbox": {"task": "games.tasks.drain_outbox", "schedule": 60.0},
    "sweep-clocks": {"task": "games.tasks.sweep_clocks", "schedule": 300.0},
    # Hourly, but each reader gets one digest a day (a unique outbox row per user and day).
    "send-digests": {"task": "games.tasks.send_digests", "schedule": 3600.0},
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
# Django's and allauth's backends, the signed-in user read by games.rows (games/auth.py).
AUTHENTICATION_BACKENDS = [
    "games.auth.ModelBackend",
    "games.auth.AuthenticationBackend",
]
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = env_str("ACCOUNT_EMAIL_VERIFICATION", "none")
LOGIN_REDIRECT_URL = "lobby"
LOGIN_URL = "account_login"

EMAIL_BACKEND = env_str(
    "EMAIL_BACKEND",
    "games.mail.DevInboxBackend" if DEBUG else "django.core.mail.backends.smtp.EmailBackend",
)
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Chancery <noreply@chancery.local>")

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# While DEBUG, WhiteNoise serves straight from the app folders (its finders), so there is no
# collected folder to look for; in production collectstatic fills this one (Procfile release).
STATIC_ROOT = None if DEBUG else BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    # Django's default logging gives "django" a console handler of its own; left to propagate,
    # every request line (daphne's runserver logs under django.channels.server) printed twice.
    "loggers": {
        "django": {
            "handlers": ["console"],
            "level": env_str("LOG_LEVEL", "INFO"),
            "propagate": False,
        }
    },
}
