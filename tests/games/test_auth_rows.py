"""The sign-in backends read the signed-in user with one composed statement (games.auth), and a
session made through the backends they replace still signs its player in (games.sessions)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth import get_user as session_user
from django.contrib.sessions.backends.base import SessionBase
from django.test import Client, RequestFactory

from games import auth, rows
from games.sessions import SessionStore

pytestmark = pytest.mark.django_db


def test_the_backends_read_the_user_the_orm_would(alice: Any) -> None:
    for backend in (auth.ModelBackend(), auth.AuthenticationBackend()):
        found = backend.get_user(alice.pk)
        assert found is not None and found.pk == alice.pk
        assert (found.username, found.email, found.password) == (
            alice.username,
            alice.email,
            alice.password,
        )
        assert backend.get_user(alice.pk + 10_000) is None
    assert rows.user(alice.pk + 10_000) is None


def test_an_inactive_user_is_not_signed_in(alice: Any) -> None:
    alice.is_active = False
    alice.save()
    assert auth.ModelBackend().get_user(alice.pk) is None
    assert auth.AuthenticationBackend().get_user(alice.pk) is None


@pytest.mark.parametrize("old", sorted(auth.RENAMED))
def test_a_session_made_through_a_replaced_backend_stays_signed_in(alice: Any, old: str) -> None:
    store: SessionBase = SessionStore()
    store[SESSION_KEY] = str(alice.pk)
    store[BACKEND_SESSION_KEY] = old
    store[HASH_SESSION_KEY] = alice.get_session_auth_hash()
    store.save()
    request = RequestFactory().get("/")
    request.session = SessionStore(store.session_key)
    user = session_user(request)
    assert user.is_authenticated and user.pk == alice.pk


def test_a_signed_in_page_works_through_the_new_backends(alice: Any) -> None:
    client = Client()
    client.force_login(alice)
    assert client.session[BACKEND_SESSION_KEY] == "games.auth.ModelBackend"
    answer = client.get("/lobby/")
    assert answer.status_code == 200 and alice.username in answer.content.decode()
