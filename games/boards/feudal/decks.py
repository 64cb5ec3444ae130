"""Feudal Lords decks on the site: building, checking, copying starters, and seating decks in games.

A Deck row holds what a player chose; whether it is legal is always the engine's answer
(rules.feudal.metadata.validate_deck), so the site and the rules never disagree.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction

from games import services
from games.boards.feudal import cards as feudal_cards
from games.models import Deck, DeckEntry, Game, Scenario, Seat
from rules.core.errors import ScenarioError
from rules.feudal.metadata import (
    GROUPS,
    MAX_COPIES,
    MIN_STOCKPILE,
    NOT_IN_STOCKPILE,
    components,
    validate_deck,
)

GAME = "feudal"
MAX_STORED = 9  # counts above MAX_COPIES are kept so the builder can say what is wrong
STARTER_PREFIX, DECK_PREFIX = "starter:", "deck:"


def cards() -> dict[str, dict[str, Any]]:
    """The card database by id."""
    return components().cards


def starters() -> dict[str, dict[str, Any]]:
    """The shipped starter decks by id."""
    return components().decks


def engine_deck(deck: Deck) -> dict[str, Any]:
    """The deck as the engine reads it (config "decks" entries, validate_deck)."""
    return {
        "name": deck.name,
        "leader": deck.leader,
        "locations": deck.locations,
        "artifacts": list(deck.artifacts or []),
        "stockpile": {e.card: e.count for e in deck.entries.all()},
    }


def errors(deck: Deck) -> list[str]:
    """Why the deck cannot be played yet, in the engine's words; empty when it is legal."""
    return validate_deck(engine_deck(deck))


def stockpile_size(deck: Deck) -> int:
    """Cards in the Stockpile."""
    return sum(e.count for e in deck.entries.all())


def summary(deck: Deck) -> dict[str, Any]:
    """What a list of decks shows of one deck."""
    leader = cards().get(deck.leader)
    return {
        "deck": deck,
        "leader": leader["name"] if leader else None,
        "size": stockpile_size(deck),
        "errors": errors(deck),
    }


def stockpile_cards() -> list[str]:
    """Ids of the cards that may go in a Stockpile, in display order."""
    return sorted(
        (cid for cid, spec in cards().items() if spec["type"] not in NOT_IN_STOCKPILE),
        key=feudal_cards.sort_key,
    )


def frame_choices(kind: str) -> list[dict[str, Any]]:
    """Leader, Controlled Locations or Artifact cards, for the builder's choosers."""
    return [
        feudal_cards.card(cid)
        for cid in sorted(cards(), key=feudal_cards.sort_key)
        if cards()[cid]["type"] == kind
    ]


COST_TOP = 5  # the cost filter's last choice is "5 or more"


def card_cost(spec: dict[str, Any]) -> int:
    """What a card costs to bring into play, for the cost filter: Sup + Ld for cards with printed
    costs, Control for a character (its draft target and send cost), 0 for Victory cards."""
    if spec["type"] == "character":
        return int(spec["control"])
    return int(spec.get("cost_sup", 0)) + int(spec.get("cost_ld", 0))


def cost_filters() -> list[dict[str, str]]:
    """The cost filter's choices: 0 .. 4, then 5 or more."""
    shown = [{"value": str(n), "label": str(n)} for n in range(COST_TOP)]
    return [*shown, {"value": f"{COST_TOP}+", "label": f"{COST_TOP} or more"}]


def _cost_matches(cost: str, spec: dict[str, Any]) -> bool:
    if not cost:
        return True
    value = card_cost(spec)
    if cost == f"{COST_TOP}+":
        return value >= COST_TOP
    return cost.isdigit() and value == int(cost)


def catalogue(
    kind: str = "",
    group: str = "",
    counts: dict[str, int] | None = None,
    cost: str = "",
    every: bool = False,
) -> list[dict[str, Any]]:
    """Stockpile cards (or, with `every`, all cards) filtered by type, class ("" for all, "none"
    for cards without a class, a class code, or a city group) and cost (see card_cost), with how
    many the deck holds."""
    counts = counts or {}
    found = []
    ids = sorted(cards(), key=feudal_cards.sort_key) if every else stockpile_cards()
    for cid in ids:
        shown = feudal_cards.card(cid)
        if kind and shown["type"] != kind:
            continue
        if not _cost_matches(cost, cards()[cid]):
            continue
        if group == "none" and shown["class"] is not None:
            continue
        if group in GROUPS and shown["group"] != group:
            continue
        if group and group not in GROUPS and group != "none" and shown["class"] != group:
            continue
        shown["count"] = counts.get(cid, 0)
        found.append(shown)
    return found


def class_filters() -> list[dict[str, str]]:
    """The class filter's choices: none, each city group, then each class code."""
    choices = [{"value": "none", "label": "No class limit"}]
    for group, codes in GROUPS.items():
        choices.append({"value": group, "label": f"{feudal_cards.GROUP_NAMES[group]} (any)"})
        choices += [{"value": c, "label": f"  {c}"} for c in codes]
    return choices


def type_filters() -> list[dict[str, str]]:
    """The type filter's choices, for Stockpile cards."""
    return [
        {"value": t, "label": feudal_cards.TYPE_NAMES[t]}
        for t in feudal_cards.TYPE_ORDER
        if t not in NOT_IN_STOCKPILE
    ]


def new_deck(user: User, name: str) -> Deck:
    """An empty deck with the first Leader and Controlled Locations card preselected."""
    leader = next(c["id"] for c in frame_choices("leader"))
    locations = next(c["id"] for c in frame_choices("locations"))
    return Deck.objects.create(
        owner=user,
        name=(name.strip() or "New deck")[:80],
        leader=leader,
        locations=locations,
        artifacts=[],
    )


def copy_starter(user: User, starter: str) -> Deck:
    """A copy of a starter deck among the user's decks, ready to play or to change."""
    spec = starters().get(starter)
    if spec is None:
        raise ValueError(f"There is no starter deck {starter!r}.")
    taken = set(Deck.objects.filter(owner=user).values_list("name", flat=True))
    name, n = spec["name"], 2
    while name in taken:
        name, n = f"{spec['name']} ({n})", n + 1
    with transaction.atomic():
        deck = Deck.objects.create(
            owner=user,
            name=name,
            leader=spec["leader"],
            locations=spec["locations"],
            artifacts=list(spec.get("artifacts", [])),
            starter=starter,
        )
        DeckEntry.objects.bulk_create(
            DeckEntry(deck=deck, card=cid, count=count)
            for cid, count in sorted(spec["stockpile"].items())
        )
    return deck


def set_count(deck: Deck, cid: str, count: int) -> int:
    """Put `count` copies of a card in the Stockpile (0 removes it); returns the stored count."""
    if cid not in cards():
        raise ValueError(f"There is no card {cid!r}.")
    count = max(0, min(MAX_STORED, count))
    if count == 0:
        DeckEntry.objects.filter(deck=deck, card=cid).delete()
    else:
        DeckEntry.objects.update_or_create(deck=deck, card=cid, defaults={"count": count})
    deck.save(update_fields=["updated_at"])
    return count


def count_of(deck: Deck, cid: str) -> int:
    """Copies of a card in the Stockpile."""
    entry = deck.entries.filter(card=cid).first()
    return entry.count if entry else 0


def set_frame(
    deck: Deck, leader: str, locations: str, artifacts: list[str], name: str | None = None
) -> None:
    """Choose the Leader, Controlled Locations and Artifacts (unknown ids are refused)."""
    for cid, kind in [
        (leader, "leader"),
        (locations, "locations"),
        *[(a, "artifact") for a in artifacts],
    ]:
        if cards().get(cid, {}).get("type") != kind:
            raise ValueError(f"{cid!r} is not a {feudal_cards.TYPE_NAMES[kind]} card.")
    deck.leader, deck.locations, deck.artifacts = leader, locations, list(dict.fromkeys(artifacts))
    if name is not None and name.strip():
        deck.name = name.strip()[:80]
    deck.save()


def status(deck: Deck) -> dict[str, Any]:
    """The builder's live verdict: size, errors, and whether the deck can be played."""
    problems = errors(deck)
    return {
        "size": stockpile_size(deck),
        "min": MIN_STOCKPILE,
        "max_copies": MAX_COPIES,
        "errors": problems,
        "ok": not problems,
    }


# Seating decks in a game.


@dataclass(frozen=True)
class DeckChoice:
    """One entry of a seat's deck menu: value for the form, label, and whether it may be played."""

    value: str
    label: str
    playable: bool = True
    note: str = ""


def starter_choices() -> list[DeckChoice]:
    """Every starter deck."""
    return [
        DeckChoice(f"{STARTER_PREFIX}{sid}", f"Starter: {spec['name']}")
        for sid, spec in starters().items()
    ]


def choices_for(user: User) -> list[DeckChoice]:
    """The user's decks (playable ones first) and the starters, for the new-game form."""
    mine = []
    for deck in Deck.objects.filter(owner=user).prefetch_related("entries"):
        problems = errors(deck)
        mine.append(
            DeckChoice(
                f"{DECK_PREFIX}{deck.pk}",
                f"My deck: {deck.name}",
                not problems,
                problems[0] if problems else "",
            )
        )
    mine.sort(key=lambda c: not c.playable)
    return mine + starter_choices()


def default_starter(index: int) -> str:
    """The starter deck a seat gets when nobody chose one: each seat a different one."""
    ids = list(starters())
    return ids[index % len(ids)]


def resolve(user: User | None, value: str, index: int, where: str | None = None) -> Any:
    """A form's deck choice as a config "decks" entry: a starter id, or the user's legal deck.

    Errors start with `where` ("Seat 2: " unless given).
    """
    where = f"Seat {index + 1}: " if where is None else where
    if not value:
        return default_starter(index)
    if value.startswith(STARTER_PREFIX):
        sid = value[len(STARTER_PREFIX) :]
        if sid not in starters():
            raise ScenarioError(f"{where}there is no starter deck {sid!r}.")
        return sid
    if value.startswith(DECK_PREFIX) and user is not None:
        pk = value[len(DECK_PREFIX) :]
        deck = Deck.objects.filter(owner=user, pk=int(pk)).first() if pk.isdigit() else None
        if deck is None:
            raise ScenarioError(f"{where}that deck is not one of yours.")
        problems = errors(deck)
        if problems:
            raise ScenarioError(f"{where}{deck.name} cannot be played yet: {' '.join(problems)}")
        return engine_deck(deck)
    raise ScenarioError(f"{where}choose one of your decks or a starter deck.")


def seat_decks(user: User, seats: list[services.SeatSpec], values: list[str]) -> list[Any]:
    """Each seat's deck: humans' choices (a seat held by the creator may use the creator's decks),
    bots always a starter (their choice if a starter was picked, else one by seat)."""
    decks: list[Any] = []
    for index, (spec, value) in enumerate(zip(seats, values, strict=True)):
        if spec.kind == "bot" and not value.startswith(STARTER_PREFIX):
            value = ""
        owner = user if spec.kind == "me" else None
        decks.append(resolve(owner, value, index) if value else None)
    # Seats left to the default get starters nobody else chose, so a bot rarely mirrors its rival.
    taken = [d for d in decks if isinstance(d, str)]
    free = [sid for sid in starters() if sid not in taken] or list(starters())
    for index, deck in enumerate(decks):
        if deck is None:
            decks[index] = free[index % len(free)]
    return decks


def takes_deck_on_join(game: Game) -> bool:
    """Whether a player joining this open game chooses a deck (Feudal Lords, not solitaire)."""
    return (
        game.game == GAME
        and game.status == Game.Status.OPEN
        and isinstance((game.config or {}).get("decks"), list)
    )


def join_choices(user: User | AnonymousUser | None, game: Game) -> list[DeckChoice]:
    """The deck menu offered to a user who may join this game; empty when no deck is asked for."""
    if not isinstance(user, User) or not takes_deck_on_join(game):  # anonymous: nothing to join
        return []
    return choices_for(user)


def join(user: User, game: Game, value: str, index: int | None = None) -> Seat:
    """Join an open game, with the deck chosen ("" keeps the starter the creator gave the seat)."""
    chosen = value and takes_deck_on_join(game)
    deck = resolve(user, value, 0, where="You cannot join with that deck: ") if chosen else None
    return services.join(game.pk, user, index, deck=deck)


def create_game(
    user: User,
    scenario: Scenario,
    players: int,
    seats: list[services.SeatSpec],
    deck_values: list[str],
    options: dict[str, Any] | None = None,
    public: bool = True,
    time_control: Any = None,
) -> Game:
    """Create a Feudal Lords game with a deck per seat in its config (solitaire takes none)."""
    if scenario.game != GAME:
        raise ScenarioError("Decks belong to Feudal Lords games only.")
    services.check_players(scenario, players)
    if len(seats) != players:
        raise ScenarioError(f"Give one seat choice for each of the {players} players.")
    staged = copy.copy(
        scenario
    )  # never saved: the game's config gets the decks, the scenario does not
    staged.config = dict(scenario.config)
    if scenario.config.get("mode") != "solitaire":
        values = (deck_values + [""] * players)[:players]
        staged.config["decks"] = seat_decks(user, seats, values)
    return services.create_game(
        user, staged, players, seats, options, public, time_control=time_control
    )
