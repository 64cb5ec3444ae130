"""Django's database sessions, each request's read of the session row done by games.rows.

Every request of a signed-in player (each move among them) reads its session; the ORM's query
compiler costs several times the query. Rows, expiry and everything else are Django's own.
"""

from __future__ import annotations

from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.utils import timezone

from games import rows


class SessionStore(db.SessionStore):
    """The database session store, reading its row with one statement composed once."""

    def _get_session_from_db(self) -> Session | None:
        found = rows.session(self.session_key, timezone.now()) if self.session_key else None
        if found is None:
            self._session_key = None
        return found
