"""Django's database sessions, each request's read of the session row done by games.rows.

Every request of a signed-in player (each move among them) reads its session; the ORM's query
compiler costs several times the query. Rows, expiry and everything else are Django's own.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.utils import timezone

from games import rows
from games.auth import RENAMED


class SessionStore(db.SessionStore):
    """The database session store, reading its row with one statement composed once."""

    def _get_session_from_db(self) -> Session | None:
        found = rows.session(self.session_key, timezone.now()) if self.session_key else None
        if found is None:
            self._session_key = None
        return found

    def load(self) -> dict[str, Any]:
        """The session's data; a sign-in made through a parent of games.auth's backends is
        read as made through the backend that replaced it (the player stays signed in)."""
        data: dict[str, Any] = super().load()
        renamed = RENAMED.get(data.get(BACKEND_SESSION_KEY, ""))
        if renamed is not None:
            data[BACKEND_SESSION_KEY] = renamed
        return data
