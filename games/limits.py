"""Rate limits (django-ratelimit), set in settings.CHANCERY_RATES, answered with 429 and Retry-After.

A limit that cannot be checked (the cache, Redis in production, is down) lets the request
through: an outage of the cache must not stop a game.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django_ratelimit.core import get_usage

log = logging.getLogger(__name__)


def exceeded(request: HttpRequest, group: str, key: str, rate: str | None = None) -> int | None:
    """Seconds to wait when this request (counted now) goes over the group's rate, else None."""
    rates: dict[str, str] = getattr(settings, "CHANCERY_RATES", {})
    rate = rate or rates.get(group)
    if not rate:
        return None
    try:
        usage: dict[str, Any] | None = get_usage(
            request,
            group=f"chancery.{group}",
            key=lambda _group, _request: key,
            rate=rate,
            increment=True,
        )
    except Exception:
        log.exception("rate limit %s could not be checked; letting the request through", group)
        return None
    if not usage or not usage["should_limit"]:
        return None
    return max(int(usage["time_left"]), 1)


def too_many(wait: int, message: str = "Too many requests; wait a moment.") -> HttpResponse:
    """A 429 with a JSON error and Retry-After."""
    response = JsonResponse({"error": message, "code": "rate_limited"}, status=429)
    response["Retry-After"] = str(wait)
    return response
