"""The request types views are written against: htmx's details, and a user behind login_required.

django-htmx's middleware adds `request.htmx` to every request; `login_required` guarantees a
signed-in user. Neither shows in Django's own HttpRequest type, so views say which they rely on.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxRequest(HttpRequest):
    """Any request, with what htmx sent (`request.htmx` is falsy for a plain request)."""

    htmx: HtmxDetails


class UserRequest(HtmxRequest):
    """A request behind login_required: its user is signed in."""

    user: User
