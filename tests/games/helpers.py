"""Shared helpers for site tests: games with named seats, moves for a human seat, leak checks."""

from __future__ import annotations

import html
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games import services
from games.models import Game, Scenario
from rules.core.canonical import state_hash
from rules.hre.state import data

SEQ_ATTR = re.compile(r'id="prompt"[^>]*data-seq="(\d+)"')


def spec(kind: Any) -> services.SeatSpec:
    """'me', 'open', 'bot:random', 'bot:greedy', or a user (invited by username)."""
    if isinstance(kind, str) and kind.startswith("bot:"):
        return services.SeatSpec("bot", bot=kind[4:])
    if isinstance(kind, str):
        return services.SeatSpec(kind)
    return services.SeatSpec("invite", username=kind.username)


def make_game(
    creator: Any, *kinds: Any, public: bool = True, options: dict[str, Any] | None = None
) -> Game:
    """An HRE base game; users in `kinds` are invited and then join, so the game starts."""
    scenario = Scenario.objects.get(game="hre", slug="base")
    game = services.create_game(
        creator, scenario, len(kinds), [spec(k) for k in kinds], options, public
    )
    for kind in kinds:
        if not isinstance(kind, str):
            services.join(game.pk, kind)
    game.refresh_from_db()
    return game


def great_domain_game(users: list[Any], moves: int, seed: int) -> Game:
    """A Great Domain game (HRE Module 2) with one seat for each user, the first its creator,
    played at random (the draft first) until `moves` moves are made or it ends."""
    scenario = Scenario.objects.get(game="hre", slug=f"great-domain-{len(users)}")
    specs = [services.SeatSpec("me")] + [spec(u) for u in users[1:]]
    game = services.create_game(users[0], scenario, len(users), specs)
    for user in users[1:]:
        services.join(game.pk, user)
    picker = random.Random(seed)
    game.refresh_from_db()
    while game.seq < moves and game.status == Game.Status.ACTIVE:
        seat = game.prompted_seats()[0]
        services.submit(
            game.pk, users[seat], picker.choice(options(game, seat)), game.seq, seat=seat
        )
        game.refresh_from_db()
    return game


def prompted(game: Game) -> list[int]:
    """Seats deciding now (fresh from the database)."""
    game.refresh_from_db()
    return game.prompted_seats()


def options(game: Game, seat: int) -> list[Any]:
    """The legal actions of a seat now."""
    prompt = game.engine.prompt_for(game.state, seat)
    assert prompt is not None, f"seat {seat} has nothing to decide"
    return [o["action"] for o in prompt["options"]]


def snapshot(game: Game) -> tuple[int, str, int, str]:
    """What must not change when a move is refused."""
    game.refresh_from_db()
    return game.seq, state_hash(game.state), game.moves.count(), game.status


def human_move(game: Game, user: Any, picker: random.Random) -> Any:
    """Submit a random legal action for the user's deciding seat; returns the Move."""
    game.refresh_from_db()
    mine = services.seats_of(game, user)
    seat = next(i for i in game.prompted_seats() if i in mine)
    action = picker.choice(options(game, seat))
    return services.submit(game.pk, user, action, game.seq, seat=seat)


def play(
    game: Game,
    user: Any,
    picker: random.Random,
    moves: int = 10_000,
    until: Callable[[Game], bool] = lambda g: False,
) -> Game:
    """Play random moves for the user's seats (bots answer inline) until the game ends or `until`."""
    for _ in range(moves):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE or until(game):
            break
        human_move(game, user, picker)
    game.refresh_from_db()
    return game


def section(page: str, element_id: str) -> str:
    """The element with this id, from its opening tag to the next </section> or </div>."""
    match = re.search(rf'<(section|div)[^>]*\bid="{element_id}".*?</\1>', page, re.S)
    assert match, f"no #{element_id} in the page"
    return match.group(0)


# --- hidden information -------------------------------------------------------------------

TOKEN_IDS = sorted(data().tokens)
IDS = re.compile(r"\b[BC]\d{2,3}\b")


@dataclass
class Timeline:
    """Every state of a game by seq, and the cards that had been face up by then."""

    states: list[dict[str, Any]] = field(default_factory=list)
    seen: list[set[str]] = field(default_factory=list)


def timeline(game: Game) -> Timeline:
    """Replay the game's log from its seed, checking each stored hash on the way."""
    game.refresh_from_db()
    engine = game.engine
    state = engine.setup(game.seed, game.config, game.players)
    line = Timeline()
    seen: set[str] = set()

    def record(s: dict[str, Any]) -> None:
        seen.update(s["offer"], s["discard"])
        for seat in s["seats"]:
            seen.update(t["card"] for t in seat["techs"])
            seen.update(m["card"] for m in seat["mil"].values() if m)
            seen.update(seat["mil_under"])
        line.states.append(s)
        line.seen.append(set(seen))

    record(state)
    for move in game.moves.order_by("seq"):
        state, _ = engine.apply(state, move.seat, move.action)
        assert state_hash(state) == move.state_hash, f"replay diverges at seq {move.seq}"
        record(state)
    return line


def _static_names() -> list[str]:
    d = data()
    names = [r["name"] for r in d.rulers.values()] + [p["name"] for p in d.provinces.values()]
    names += [t["name"] for t in d.titles.values() if "name" in t]
    return names


STATIC_NAMES = _static_names()


def hidden_from(state: dict[str, Any], seats: set[int]) -> set[str]:
    """Card ids the viewer (holding `seats`; empty for a spectator) may not see: the deck and rival hands."""
    hidden = set(state["deck"])
    for i, seat in enumerate(state["seats"]):
        if i not in seats:
            hidden.update(seat["hand"])
    return hidden


def forbidden_names(state: dict[str, Any], seen: set[str], seats: set[int]) -> set[str]:
    """Names of hidden cards that never were face up and that no visible name contains."""
    cards = data().cards
    hidden = hidden_from(state, seats)
    own = {c for i in seats for c in state["seats"][i]["hand"]}
    visible_names = [cards[c]["name"] for c in set(cards) - hidden] + STATIC_NAMES
    names = set()
    for card in hidden - seen - own:
        name = cards[card]["name"]
        if not any(name in other for other in visible_names):
            names.add(name)
    return names


def leaks(
    payload: str, line: Timeline, seq: int, seats: set[int], trophy_ids: bool = False
) -> list[str]:
    """Every hidden card id, hidden card name and Barbarian token id found in a payload.

    `trophy_ids` lets through the ids of tokens won as trophies, which the engine's view lists
    (the API sends the view as it is): such a token was fought and its reward paid, so neither
    side is hidden any more.
    """
    state = line.states[seq]
    ids = set(IDS.findall(payload))
    found = [f"card id {c}" for c in sorted(hidden_from(state, seats) & ids)]
    for name in sorted(forbidden_names(state, line.seen[seq], seats)):
        if name in payload or html.escape(name) in payload:
            found.append(f"card name {name!r}")
    trophies = {t for seat in state["seats"] for t in seat["trophies"]} if trophy_ids else set()
    found += [f"token id {t}" for t in sorted((set(TOKEN_IDS) - trophies) & ids)]
    return found


def page_seq(payload: str) -> int:
    """The seq a rendered prompt bar was drawn at."""
    match = SEQ_ATTR.search(payload)
    assert match, "no prompt bar with data-seq in the payload"
    return int(match.group(1))
