"""The sign-in backends, Django's and allauth's, reading the signed-in user with games.rows.

Every request of a signed-in player (each move among them) and every socket that connects reads
its user by key; through the ORM's query compiler that read cost ~0.8 ms against ~0.1 ms for the
statement (bench/README.md, "Move path"). Signing in, permissions and everything else are the
parent classes' own. games.sessions maps the parents' paths, which sessions made before these
classes carry, to these.
"""

from __future__ import annotations

from typing import Any

from allauth.account import auth_backends
from django.contrib.auth import backends

from games import rows


class ModelBackend(backends.ModelBackend):
    """Django's username-and-password backend (the admin, tests' force_login)."""

    def get_user(self, user_id: Any) -> Any:
        user = rows.user(user_id)
        return user if user is not None and self.user_can_authenticate(user) else None


class AuthenticationBackend(ModelBackend, auth_backends.AuthenticationBackend):
    """allauth's backend (sign-in by username or email address), with ModelBackend's get_user
    (allauth's backend is itself a ModelBackend, so this changes nothing else)."""


# The backend paths sessions made before these classes hold, and what they now name.
RENAMED = {
    "django.contrib.auth.backends.ModelBackend": "games.auth.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend": "games.auth.AuthenticationBackend",
}
