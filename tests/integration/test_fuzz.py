"""A property-based fuzz (Hypothesis) of every JSON endpoint and the act view, on PostgreSQL.

Each endpoint gets 1,000 generated requests, each with a generated body and query string:
garbage, JSON of any shape, JSON shaped like the endpoint's own fields with wrong values, deep
nesting, huge numbers, NUL and other control characters, broken UTF-8. The properties: never a
5xx; under /api/ the answer is always JSON; and on every refusal (4xx) the game's seq and state
hash are unchanged. PostgreSQL is what refuses NUL in text, so the fuzz runs on it. The corpus is
derandomized: the same 1,000 requests per endpoint on every run, so CI is reproducible.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import pytest
from django.db import connection
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import services
from games.models import ApiToken, Scenario

pytestmark = pytest.mark.integration
EXAMPLES = 1000
FIELDS = [
    "action",
    "expected_seq",
    "seat",
    "text",
    "channel",
    "to_seq",
    "kind",
    "choice",
    "label",
    "game",
    "scenario",
    "players",
    "seats",
    "options",
    "public",
    "since",
]
SPECIAL_TEXT = ["²", "٣", "\x00", "a\x00b", "\ud800", "9" * 5000, "-1", "1e3", "NaN", "", " "]

leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.integers(min_value=-2, max_value=8),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30),
    st.sampled_from(SPECIAL_TEXT),
)
json_values = st.recursive(
    leaves,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=16,
)
shaped = st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=6)
nested = st.integers(min_value=20, max_value=3000).flatmap(
    lambda n: st.sampled_from(["[" * n + "]" * n, '{"a":' * n + "1" + "}" * n, "[" * n])
)
bodies = st.one_of(
    shaped.map(json.dumps),
    json_values.map(json.dumps),
    st.text(max_size=200),
    st.binary(max_size=200),
    nested,
    st.integers(min_value=4200, max_value=6000).map(lambda n: "9" * n),
    st.just("x" * 70_000),
    st.sampled_from(['{"action": NaN}', '{"text": "\\u0000"}', '{"text": "\\ud800"}', "[]", "{}"]),
)
query_text = st.text(st.characters(exclude_categories=["Cs"]), max_size=30)
queries = st.one_of(
    st.dictionaries(
        st.sampled_from(["seat", "since", "seq"]),
        query_text | st.sampled_from(SPECIAL_TEXT[:3] + SPECIAL_TEXT[5:]),
        max_size=3,
    ).map(urlencode),
    st.text(st.sampled_from("seatinc=&%0123456789fF²x"), max_size=40),
)
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture
def table(make_user: Any, django_settings: Any) -> Iterator[dict[str, Any]]:
    """A fresh two-player HRE game (alice and bob) and alice's token; rate limits off."""
    alice, bob = make_user("alice"), make_user("bob")
    scenario = Scenario.objects.get(game="hre", slug="base")
    specs = [services.SeatSpec("me"), services.SeatSpec("invite", username=bob.username)]
    game = services.create_game(alice, scenario, 2, specs)
    services.join(game.pk, bob)
    _, raw = ApiToken.issue(alice, "fuzz")
    page = Client()
    page.force_login(alice)
    yield {"game": game, "api": Client(HTTP_AUTHORIZATION=f"Bearer {raw}"), "page": page}


@pytest.fixture
def django_settings(settings: Any) -> Any:
    settings.RATELIMIT_ENABLE = False
    settings.CHANCERY_TASKS = "inline"
    return settings


def _position(game_id: int) -> tuple[int, str]:
    """The game's seq and a hash of its stored state (md5 of the jsonb text, in the database:
    equal texts are equal states, and it spares parsing the state for every example)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT seq, md5(state::text) FROM games_game WHERE id = %s", [game_id])
        seq, digest = cursor.fetchone()
    return int(seq), str(digest)


def _check(response: Any, before: tuple[int, str], game_id: int, api: bool) -> None:
    assert response.status_code < 500, response.content[:300]
    if api:
        assert response["Content-Type"].startswith("application/json"), response.content[:200]
        json.loads(response.content)
    # An htmx request is refused with a 200 that names the refusal (HX-Trigger), so the page can
    # show it; any other client gets the 4xx.
    refused = response.status_code >= 400 or "chancery:refused" in response.get("HX-Trigger", "")
    if refused:
        assert _position(game_id) == before, "a refused request changed the game"


ENDPOINTS = [
    ("get", "/api/games/"),
    ("post", "/api/games/"),
    ("get", "/api/games/{id}/"),
    ("post", "/api/games/{id}/action/"),
    ("post", "/api/games/{id}/resign/"),
    ("get", "/api/games/{id}/events/"),
    ("get", "/api/games/{id}/chat/"),
    ("post", "/api/games/{id}/chat/"),
    ("get", "/api/games/{id}/undo/"),
    ("post", "/api/games/{id}/undo/"),
    ("get", "/api/games/{id}/standing/"),
    ("post", "/api/games/{id}/standing/"),
    ("delete", "/api/games/{id}/standing/reaction/"),
]


@pytest.mark.parametrize(("method", "path"), ENDPOINTS)
def test_no_json_endpoint_answers_5xx_or_changes_a_game_it_refuses(
    table: dict[str, Any], method: str, path: str
) -> None:
    game = table["game"]
    url = path.format(id=game.pk)

    @FUZZ
    @given(body=bodies, query=queries)
    def one(body: str | bytes, query: str) -> None:
        before = _position(game.pk)
        send = getattr(table["api"], method)
        target = f"{url}?{query}" if query else url
        if method == "get":
            response = send(target)
        else:
            response = send(target, body, content_type="application/json")
        _check(response, before, game.pk, api=True)

    one()


def test_the_act_view_never_answers_5xx_or_changes_a_game_it_refuses(
    table: dict[str, Any],
) -> None:
    game = table["game"]
    url = f"/games/{game.pk}/act/"
    form_text = st.text(st.characters(exclude_categories=["Cs"]), max_size=40)

    @FUZZ
    @given(
        action=bodies.map(lambda b: b.decode("latin-1") if isinstance(b, bytes) else b),
        seq=form_text | st.integers(-3, 10).map(str) | st.sampled_from(SPECIAL_TEXT[:3]),
        seat=form_text | st.sampled_from(["0", "1", "2", "-1", "²", "\x00", ""]),
        query=queries,
        htmx=st.booleans(),
    )
    def one(action: str, seq: str, seat: str, query: str, htmx: bool) -> None:
        before = _position(game.pk)
        fields = {"action": action.replace("\ud800", ""), "expected_seq": seq, "seat": seat}
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        response = table["page"].post(f"{url}?{query}" if query else url, fields, **headers)
        _check(response, before, game.pk, api=False)

    one()
