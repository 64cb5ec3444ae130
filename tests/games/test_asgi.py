"""HTTP through the ASGI application: the whole middleware chain and view run as one sync call."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import AsyncToSync, SyncToAsync
from channels.testing import HttpCommunicator
from django.test import Client

from config.asgi import django_app
from games.models import Game
from tests.games.helpers import make_game

pytestmark = pytest.mark.django_db(transaction=True)


async def fetch(method: str, path: str, body: bytes = b"", headers: Any = ()) -> dict[str, Any]:
    base = [(b"host", b"testserver")]
    communicator = HttpCommunicator(
        django_app, method, path, body=body, headers=base + list(headers)
    )
    return await communicator.get_response(timeout=10)


@pytest.mark.asyncio
async def test_the_middleware_chain_is_entered_once_as_a_sync_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No hop back to the event loop inside a request (config/asgi.py): Django's own ASGI chain
    went thread -> loop -> thread at our sync middleware and around every MiddlewareMixin hook."""
    assert isinstance(django_app._middleware_chain, SyncToAsync)
    hops = []
    entered = AsyncToSync.__call__

    def counted(self: AsyncToSync, *args: Any, **kwargs: Any) -> Any:
        hops.append(self)
        return entered(self, *args, **kwargs)

    monkeypatch.setattr(AsyncToSync, "__call__", counted)
    page = await fetch("GET", "/accounts/login/")
    assert page["status"] == 200
    assert hops == []


@pytest.mark.asyncio
async def test_pages_sessions_and_csrf_work_through_the_sync_chain() -> None:
    page = await fetch("GET", "/accounts/login/")
    assert page["status"] == 200 and b"csrfmiddlewaretoken" in page["body"]
    # A POST without its CSRF token is refused by the middleware (it never reaches the view).
    refused = await fetch(
        "POST",
        "/accounts/login/",
        b"login=x&password=y",
        [(b"content-type", b"application/x-www-form-urlencoded")],
    )
    assert refused["status"] == 403
    # Our own guard still answers before any view: a control character in the query string.
    bad = await fetch("GET", "/accounts/login/?next=%01")
    assert bad["status"] == 400 and b"control character" in bad["body"]


@pytest.fixture
def seated(scenarios: None, alice: Any, bob: Any) -> tuple[Game, str]:
    """A game of Alice and Bob, and Alice's session cookie."""
    game = make_game(alice, "me", bob)
    client = Client()
    client.force_login(alice)
    return game, client.cookies["sessionid"].value


@pytest.mark.asyncio
async def test_a_signed_in_player_sees_the_game_page_through_the_sync_chain(
    seated: tuple[Game, str],
) -> None:
    game, session = seated
    cookie = [(b"cookie", f"sessionid={session}".encode())]
    answer = await fetch("GET", f"/games/{game.pk}/", headers=cookie)
    assert answer["status"] == 200 and b'id="prompt"' in answer["body"]
    api_miss = await fetch("GET", "/api/no-such-thing/")
    assert api_miss["status"] == 404 and api_miss["body"].startswith(b"{")
