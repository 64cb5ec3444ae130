"""The game socket: who may connect, and pushes rendered for each viewer after every move."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from config.asgi import application
from games import pages, services
from games.models import Game, Scenario
from rules.hre.state import data
from tests.games.helpers import leaks, make_game, options, page_seq, prompted, section, timeline

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 10  # seconds; rendering runs in a worker thread and may be slow on a busy machine


def cookie(user: Any | None) -> list[tuple[bytes, bytes]]:
    """The headers a logged-in browser tab sends when it opens the socket."""
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if user is not None:
        client = Client()
        client.force_login(user)
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    return headers


def socket(game: Game, headers: list[tuple[bytes, bytes]]) -> WebsocketCommunicator:
    return WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=headers)


def hand_names(state: dict[str, Any], seat: int) -> set[str]:
    return {data().cards[c]["name"] for c in state["seats"][seat]["hand"]}


@pytest.fixture
def table(scenarios: None, alice: Any, bob: Any, carol: Any) -> dict[str, Any]:
    """Alice and Bob at a duel past the Ruler draft, and the socket headers of three viewers."""
    game = make_game(alice, "me", bob)
    users = {0: alice, 1: bob}
    while game.state["stack"][-1]["kind"] == "draft" or not all(
        s["hand"] for s in game.state["seats"]
    ):
        seat = prompted(game)[0]
        services.submit(game.pk, users[seat], options(game, seat)[0], game.seq, seat=seat)
        game.refresh_from_db()
    return {
        "game": game,
        "users": users,
        "headers": {"alice": cookie(alice), "bob": cookie(bob), "carol": cookie(carol)},
    }


async def _drain_to(communicator: WebsocketCommunicator, seq: int) -> list[str]:
    """Frames until one drawn at `seq` (or later) arrives."""
    frames: list[str] = []
    while not frames or page_seq(frames[-1]) < seq:
        frames.append(await communicator.receive_from(timeout=WAIT))
    return frames


@pytest.mark.asyncio
async def test_a_player_connects_and_gets_the_live_partials_for_their_seat(
    table: dict[str, Any],
) -> None:
    game = table["game"]
    communicator = socket(game, table["headers"]["alice"])
    connected, _ = await communicator.connect(timeout=WAIT)
    assert connected
    frame = await communicator.receive_from(timeout=WAIT)
    for name in pages.LIVE_PARTIALS:
        assert f'id="{name}"' in frame
    # On connect the chat comes too: a socket that (re)connects is brought up to date.
    assert frame.count('hx-swap-oob="true"') == len(pages.LIVE_PARTIALS) + 1
    assert 'id="chat"' in frame
    assert page_seq(frame) == game.seq
    private = section(frame, "private")
    assert hand_names(game.state, 0) and all(name in private for name in hand_names(game.state, 0))
    await communicator.send_to(text_data=json.dumps({"sync": game.seq}))
    assert page_seq(await communicator.receive_from(timeout=WAIT)) == game.seq, (
        "a sync request re-renders"
    )
    await communicator.send_to(text_data="not json")
    await communicator.send_to(text_data=json.dumps({"seat": 1}))
    assert await communicator.receive_nothing(timeout=0.3), "anything but a sync request is ignored"
    await communicator.disconnect()


@pytest.mark.asyncio
async def test_a_spectator_of_a_public_game_connects_and_sees_no_hand(
    table: dict[str, Any],
) -> None:
    game = table["game"]
    for headers in (table["headers"]["carol"], cookie(None)):
        communicator = socket(game, headers)
        connected, _ = await communicator.connect(timeout=WAIT)
        assert connected
        private = section(await communicator.receive_from(timeout=WAIT), "private")
        hands = hand_names(game.state, 0) | hand_names(game.state, 1)
        assert hands and not [name for name in hands if name in private]
        await communicator.disconnect()


@pytest.mark.asyncio
async def test_an_outsider_of_a_private_game_is_refused(
    scenarios: None, alice: Any, carol: Any
) -> None:
    game = await database_sync_to_async(make_game)(alice, "me", "bot:random", public=False)
    for headers in (await database_sync_to_async(cookie)(carol), cookie(None)):
        communicator = socket(game, headers)
        connected, code = await communicator.connect(timeout=WAIT)
        assert not connected and code == 4403
    communicator = socket(game, await database_sync_to_async(cookie)(alice))
    connected, _ = await communicator.connect(timeout=WAIT)
    assert connected, "the player herself may watch her private game"
    await communicator.receive_from(timeout=WAIT)
    await communicator.disconnect()


@pytest.mark.asyncio
async def test_a_socket_from_a_foreign_origin_is_refused(table: dict[str, Any]) -> None:
    headers = [(k, v) for k, v in table["headers"]["alice"] if k != b"origin"] + [
        (b"origin", b"https://evil.example")
    ]
    connected, _ = await socket(table["game"], headers).connect(timeout=WAIT)
    assert not connected


@pytest.mark.asyncio
async def test_after_a_move_each_viewer_gets_a_push_rendered_for_themselves(
    table: dict[str, Any],
) -> None:
    game, users = table["game"], table["users"]
    viewers = {name: socket(game, table["headers"][name]) for name in ("alice", "bob", "carol")}
    seats = {"alice": {0}, "bob": {1}, "carol": set()}
    # A push carries only the partials that changed for its viewer (games.pages.live_update):
    # each viewer's hand panel is the one last pushed.
    private: dict[str, str] = {}
    for name, communicator in viewers.items():
        assert (await communicator.connect(timeout=WAIT))[0]
        private[name] = section(await communicator.receive_from(timeout=WAIT), "private")
    picker = random.Random(5)
    for _ in range(4):
        seat = (await database_sync_to_async(prompted)(game))[0]
        action = picker.choice(options(game, seat))
        move = await database_sync_to_async(services.submit)(
            game.pk, users[seat], action, game.seq, seat=seat
        )
        await database_sync_to_async(game.refresh_from_db)()
        line = await database_sync_to_async(timeline)(game)
        for name, communicator in viewers.items():
            frames = await _drain_to(communicator, move.seq)
            frame = frames[-1]
            assert page_seq(frame) == move.seq
            for frame in frames:
                assert leaks(frame, line, page_seq(frame), seats[name]) == [], name
            for frame in frames:
                if 'id="private"' in frame:
                    private[name] = section(frame, "private")
            state = line.states[move.seq]
            for seat_index in (0, 1):
                names = hand_names(state, seat_index) - hand_names(state, 1 - seat_index)
                shown = {n for n in names if n in private[name]}
                assert shown == (names if seat_index in seats[name] else set()), (name, seat_index)
            if name != "carol":
                mine = seats[name].copy().pop()
                deciding = "data-option-button" in section(frames[-1], "prompt")
                assert deciding == (mine in game.prompted_seats())
    for communicator in viewers.values():
        assert await communicator.receive_nothing(timeout=0.2)
        await communicator.disconnect()


@pytest.mark.asyncio
async def test_bot_moves_after_mine_are_pushed_too(scenarios: None, alice: Any) -> None:
    game = await database_sync_to_async(make_game)(alice, "me", "bot:random")
    communicator = socket(game, await database_sync_to_async(cookie)(alice))
    assert (await communicator.connect(timeout=WAIT))[0]
    await communicator.receive_from(timeout=WAIT)
    bot_answered = False
    for _ in range(10):
        seq = game.seq
        await database_sync_to_async(services.submit)(
            game.pk, alice, options(game, 0)[0], seq, seat=0
        )
        await database_sync_to_async(game.refresh_from_db)()
        frames = await _drain_to(communicator, game.seq)
        assert page_seq(frames[-1]) == game.seq
        if game.seq > seq + 1:
            bot_answered = True
            break
    assert bot_answered, "the bot answered inline and its moves were pushed"
    assert await communicator.receive_nothing(timeout=0.3), (
        "no stale re-render after the newest one"
    )
    await communicator.disconnect()


@pytest.mark.asyncio
async def test_watchers_of_an_open_game_see_seats_taken_and_the_game_start(
    scenarios: None, alice: Any, bob: Any, carol: Any
) -> None:
    def open_game() -> Game:
        scenario = Scenario.objects.get(game="hre", slug="base")
        return services.create_game(
            alice,
            scenario,
            3,
            [services.SeatSpec("me"), services.SeatSpec("open"), services.SeatSpec("open")],
        )

    game = await database_sync_to_async(open_game)()
    communicator = socket(game, await database_sync_to_async(cookie)(alice))
    assert (await communicator.connect(timeout=WAIT))[0]
    first = await communicator.receive_from(timeout=WAIT)
    assert "bob" not in section(first, "players")
    await database_sync_to_async(services.join)(game.pk, bob)
    frame = await communicator.receive_from(timeout=WAIT)
    assert "bob" in section(frame, "players"), "a seat taken is shown at once"
    await database_sync_to_async(services.join)(game.pk, carol)
    frame = await communicator.receive_from(timeout=WAIT)
    assert "carol" in section(frame, "players") and 'id="board"' in frame
    await database_sync_to_async(game.refresh_from_db)()
    assert game.status == Game.Status.ACTIVE
    assert (
        "Waiting for players" in section(first, "prompt")
    ) and "Waiting for players" not in section(frame, "prompt")
    await communicator.disconnect()


@pytest.mark.asyncio
async def test_the_player_who_moved_is_drawn_before_the_other_sockets(
    table: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The mover's socket renders first (games.consumers.FIRST_WAIT): the others connected
    earlier, so without the wait the group would reach them first."""
    game, users = table["game"], table["users"]
    order: list[str] = []
    drawn = pages.live_update

    def recorded(game_id: int, user: Any, sent: Any, force: bool = False) -> Any:
        order.append(user.username)
        return drawn(game_id, user, sent, force)

    monkeypatch.setattr(pages, "live_update", recorded)
    viewers = {name: socket(game, table["headers"][name]) for name in ("carol", "bob", "alice")}
    for communicator in viewers.values():
        assert (await communicator.connect(timeout=WAIT))[0]
        await communicator.receive_from(timeout=WAIT)
    for _ in range(3):
        seat = (await database_sync_to_async(prompted)(game))[0]
        mover = users[seat].username
        order.clear()
        move = await database_sync_to_async(services.submit)(
            game.pk, users[seat], options(game, seat)[0], game.seq, seat=seat
        )
        await database_sync_to_async(game.refresh_from_db)()
        for communicator in viewers.values():
            await _drain_to(communicator, move.seq)
        assert order[0] == mover and sorted(order) == ["alice", "bob", "carol"], order
    for communicator in viewers.values():
        await communicator.disconnect()
