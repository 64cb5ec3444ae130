"""Loader and validator for the Feudal Lords card database and starter decks (reference §2)."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

DATA_DIR = Path(__file__).with_name("data")
RULE_SUMMARIES = DATA_DIR / "rule_summaries.json"  # read by the site's rules page only
CARD_TYPES = (
    "character",
    "leader",
    "locations",
    "skill",
    "weapon",
    "supply",
    "instant",
    "victory",
    "constant",
    "artifact",
)
# Class codes by city group (icon table; A-10): "XX-<group>" on a card means any class of that group.
GROUPS = {"under": ("BD", "HD", "SG"), "outer": ("MC", "SV", "WT"), "over": ("WH", "WK", "WR")}
CLASSES = tuple(code for codes in GROUPS.values() for code in codes)
CLASS_LIMITS = (*CLASSES, *(f"XX-{g}" for g in GROUPS))
ROLLS = ("df", "cc_hit", "cc_block")
STOPS = ("react", "before_df", "after_df", "cc_att_hits", "cc_def_hits", "before_end", "action")
WHEN = ("sacked", "kills", "repelled", "no_losses")
TARGETED = ("drain", "relocate", "boost", "mend")  # Instant effects whose target a player names
NOT_IN_STOCKPILE = ("leader", "locations", "artifact")
MIN_STOCKPILE = 55
MAX_COPIES = 4
MAX_ARTIFACTS = 3  # one per location (FL-SETUP-04)
ID = re.compile(r"[a-z][a-z0-9_]*")

# The effect vocabulary: kind -> required keys (besides "kind") and where it may appear.
EFFECTS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "roll": (("roll", "amount"), ("character", "skill", "weapon")),
    "string": (("string", "add"), ("character", "skill", "weapon")),
    "life": (("amount",), ("character", "skill", "weapon")),
    "enemy_roll": (("roll", "amount"), ("character", "skill", "weapon")),
    "armor": (("blocks",), ("weapon",)),
    "df_block": (("blocks",), ("character", "skill", "weapon")),
    "all_roll": (("roll", "amount"), ("site",)),
    "task": (("amount",), ("site",)),
    "send": (("side", "amount"), ("leader", "constant", "artifact")),
    "min_hand": (("amount",), ("leader", "constant", "artifact")),
    "side_roll": (("roll", "amount"), ("leader", "constant", "artifact")),
    "markers": (("amount",), ("artifact",)),
    "relocate": (("to",), ("instant",)),
    "cancel": ((), ("instant",)),
    "boost": (("roll", "amount"), ("instant",)),
    "mend": (("task", "amount"), ("instant",)),
    "drain": (("sup",), ("instant",)),
    "gain": (("sup", "ld"), ("instant",)),
    "draw": (("n",), ("instant",)),
}
COMMON = ("type", "name", "text", "source")
FIELDS: dict[str, tuple[str, ...]] = {
    "character": (
        "class",
        "generic",
        "life",
        "control",
        "skills",
        "weapons",
        "df",
        "cc",
        "block",
        "effects",
    ),
    "leader": (
        "max_draft",
        "attack_send",
        "defend_send",
        "supply_die",
        "min_hand",
        "leadership_die",
        "effects",
    ),
    "locations": ("sites",),
    "skill": ("cost_sup", "cost_ld", "class", "effects"),
    "weapon": ("cost_sup", "cost_ld", "class", "family", "weight", "armor", "effects"),
    "supply": ("cost_sup", "cost_ld", "class", "effects"),
    "instant": ("cost_sup", "cost_ld", "class", "timing", "effects"),
    "victory": ("when", "min", "vp", "later_draw"),
    "constant": ("cost_sup", "cost_ld", "class", "effects"),
    "artifact": ("vp_target", "effects"),
}


class ComponentError(ValueError):
    """Card data is malformed; the message names the file, the card and the problem."""


@dataclass(frozen=True)
class FeudalData:
    """Validated card database and starter decks; treat the dicts as read-only."""

    cards: dict[str, dict[str, Any]]
    decks: dict[str, dict[str, Any]]


def _fail(where: str, msg: str) -> NoReturn:
    raise ComponentError(f"{where}: {msg}")


def _keys(where: str, value: Any, keys: Iterable[str]) -> dict[str, Any]:
    """Check that value is an object with exactly these keys."""
    if not isinstance(value, dict):
        _fail(where, f"expected an object, got {type(value).__name__}")
    want = set(keys)
    if set(value) != want:
        _fail(where, f"missing {sorted(want - set(value))}, unknown {sorted(set(value) - want)}")
    return value


def _int(where: str, value: Any, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        _fail(where, f"expected an integer in {lo}..{hi}, got {value!r}")
    return value


def _thresholds(where: str, value: Any) -> None:
    """A combat string: a sorted list of thresholds (FL-STR-01, A-01)."""
    if not isinstance(value, list) or any(
        isinstance(v, bool) or not isinstance(v, int) for v in value
    ):
        _fail(where, f"a combat string is a list of integers, got {value!r}")
    if value != sorted(value) or any(not 2 <= v <= 14 for v in value):
        _fail(where, f"thresholds must be sorted and within 2..14, got {value!r}")


def _effect(where: str, effect: Any, host: str) -> None:
    """Check one effect against the vocabulary."""
    if not isinstance(effect, dict) or effect.get("kind") not in EFFECTS:
        _fail(where, f"unknown effect {effect!r}; kinds are {sorted(EFFECTS)}")
    required, hosts = EFFECTS[effect["kind"]]
    _keys(where, effect, ("kind", *required))
    if host not in hosts:
        _fail(where, f"effect {effect['kind']!r} cannot appear on a {host}")
    if "roll" in effect and effect["roll"] not in ROLLS:
        _fail(where, f"roll must be one of {ROLLS}")
    if "string" in effect and effect["string"] not in ROLLS:
        _fail(where, f"string must be one of {ROLLS}")
    for key in ("add", "blocks"):
        if key in effect:
            _thresholds(where, effect[key])
    if effect["kind"] == "send" and effect["side"] not in ("attack", "defend"):
        _fail(where, "send side must be attack or defend")
    if effect["kind"] == "relocate" and effect["to"] not in ("open", "location"):
        _fail(where, "relocate goes to 'open' or 'location'")


def _class(where: str, value: Any, nullable: bool) -> None:
    allowed = CLASS_LIMITS if nullable else CLASSES
    if value is None and nullable:
        return
    if value not in allowed:
        _fail(where, f"class {value!r} is not one of {list(allowed)}")


def _check_card(cid: str, card: Any) -> None:
    """Check one card's fields by type."""
    where = f"cards.json: {cid}"
    if not ID.fullmatch(cid):
        _fail(where, "card ids are lower_snake_case")
    if not isinstance(card, dict) or card.get("type") not in CARD_TYPES:
        _fail(where, f"type must be one of {CARD_TYPES}")
    kind = card["type"]
    _keys(where, card, (*COMMON, *FIELDS[kind]))
    if card["source"] not in ("book", "authored"):
        _fail(where, "source is 'book' or 'authored'")
    _CHECKS[kind](where, card)
    if kind == "locations":
        for site in card["sites"]:
            for effect in site["effects"]:
                _effect(where, effect, "site")
    else:
        for effect in card.get("effects", []):
            _effect(where, effect, kind)


def _check_character(where: str, card: dict[str, Any]) -> None:
    _class(where, card["class"], False)
    if not isinstance(card["generic"], bool):
        _fail(where, "generic must be true or false (A-11)")
    _int(where + " life", card["life"], 1, 9)
    _int(where + " control", card["control"], 1, 6)
    _int(where + " skills", card["skills"], 0, 4)
    _int(where + " weapons", card["weapons"], 0, 4)
    for key in ("df", "cc", "block"):
        _thresholds(f"{where} {key}", card[key])


def _check_leader(where: str, card: dict[str, Any]) -> None:
    for key in ("max_draft", "attack_send", "defend_send"):
        _int(f"{where} {key}", card[key], 0, 5)
    _int(where + " min_hand", card["min_hand"], 1, 10)
    for key in ("supply_die", "leadership_die"):
        if card[key] is not None:
            _int(f"{where} {key}", card[key], -3, 3)


def _check_locations(where: str, card: dict[str, Any]) -> None:
    sites = card["sites"]
    if not isinstance(sites, list) or len(sites) != 3:
        _fail(where, "a Controlled Locations card has exactly three locations (FL-DECK-01)")
    for site in sites:
        _keys(where, site, ("name", "text", "effects"))


def _check_costed(where: str, card: dict[str, Any]) -> None:
    _int(where + " cost_sup", card["cost_sup"], 0, 6)
    _int(where + " cost_ld", card["cost_ld"], 0, 6)
    _class(where, card["class"], True)


def _check_weapon(where: str, card: dict[str, Any]) -> None:
    _check_costed(where, card)
    if (card["family"] is None) != (card["weight"] is None) or card["weight"] not in (
        None,
        "light",
        "heavy",
    ):
        _fail(where, "a Light/Heavy weapon names both its family and its weight")
    armor = any(e.get("kind") == "armor" for e in card["effects"])
    if card["armor"] is not armor:
        _fail(where, "armor is true exactly when the weapon has an armor effect (FL-ARM-10)")


def _check_instant(where: str, card: dict[str, Any]) -> None:
    _check_costed(where, card)
    if not card["timing"] or any(t not in STOPS for t in card["timing"]):
        _fail(where, f"timing must list stops among {STOPS}")
    _check_targets(where, card)


def _check_targets(where: str, card: dict[str, Any]) -> None:
    """An Instant names at most one kind of target, shared by its targeted effects (FL-INST-01)."""
    kinds = {
        e["kind"]
        for e in card["effects"]
        if e["kind"] in TARGETED and (e["kind"] != "relocate" or e["to"] != "open")
    }
    if len(kinds) > 1:
        _fail(where, f"an Instant's effects may target one kind of thing, not {sorted(kinds)}")
    if not card["effects"]:
        _fail(where, "an Instant needs at least one effect")


def _check_victory(where: str, card: dict[str, Any]) -> None:
    if card["when"] not in WHEN:
        _fail(where, f"when must be one of {WHEN}")
    _int(where + " vp", card["vp"], 1, 5)
    _int(where + " min", card["min"], 0, 9)
    _int(where + " later_draw", card["later_draw"], 0, 5)


def _check_artifact(where: str, card: dict[str, Any]) -> None:
    _int(where + " vp_target", card["vp_target"], -3, 5)


_CHECKS = {
    "character": _check_character,
    "leader": _check_leader,
    "locations": _check_locations,
    "skill": _check_costed,
    "weapon": _check_weapon,
    "supply": _check_costed,
    "instant": _check_instant,
    "victory": _check_victory,
    "constant": _check_costed,
    "artifact": _check_artifact,
}


def _check_pairs(cards: dict[str, dict[str, Any]]) -> None:
    """Each Light/Heavy family has exactly one Light and one Heavy weapon (FL-ARM-06)."""
    families: dict[str, list[str]] = {}
    for card in cards.values():
        if card["type"] == "weapon" and card["family"]:
            families.setdefault(card["family"], []).append(card["weight"])
    for family, weights in families.items():
        if sorted(weights) != ["heavy", "light"]:
            _fail("cards.json", f"weapon family {family!r} needs one light and one heavy card")


def deck_errors(deck: Any, cards: dict[str, dict[str, Any]]) -> list[str]:
    """Readable problems with a deck, empty when it is legal (FL-DECK-01..04)."""
    if not isinstance(deck, dict) or set(deck) - {
        "name",
        "leader",
        "locations",
        "artifacts",
        "stockpile",
    }:
        return ["A deck is an object with leader, locations, artifacts and stockpile."]
    errors = _frame_errors(deck, cards)
    stock = deck.get("stockpile")
    if not isinstance(stock, dict):
        return [*errors, "The stockpile must map card ids to numbers of copies."]
    total = 0
    for cid, count in sorted(stock.items()):
        if cid not in cards:
            errors.append(f"The stockpile names an unknown card {cid!r}.")
            continue
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            errors.append(
                f"{cards[cid]['name']}: the number of copies must be a positive whole number."
            )
            continue
        total += count
        if cards[cid]["type"] in NOT_IN_STOCKPILE:
            errors.append(
                f"{cards[cid]['name']} is a {cards[cid]['type']} card: it never goes in the stockpile."
            )
        elif count > MAX_COPIES:
            errors.append(
                f"{cards[cid]['name']}: {count} copies, but at most {MAX_COPIES} are allowed."
            )
    if total < MIN_STOCKPILE:
        errors.append(f"The stockpile has {total} cards; it needs at least {MIN_STOCKPILE}.")
    return errors


def _frame_errors(deck: dict[str, Any], cards: dict[str, dict[str, Any]]) -> list[str]:
    """Leader, Controlled Locations and Artifacts outside the stockpile (FL-DECK-01, FL-SETUP-04)."""
    errors = []
    if cards.get(deck.get("leader", ""), {}).get("type") != "leader":
        errors.append("Choose exactly one Leader card.")
    if cards.get(deck.get("locations", ""), {}).get("type") != "locations":
        errors.append("Choose exactly one Controlled Locations card.")
    arts = deck.get("artifacts", [])
    if not isinstance(arts, list) or any(cards.get(a, {}).get("type") != "artifact" for a in arts):
        errors.append("Artifacts must be a list of Artifact cards.")
    elif len(arts) > MAX_ARTIFACTS:
        errors.append(f"At most {MAX_ARTIFACTS} Artifacts: one per location.")
    return errors


def validate(raw_cards: Any, raw_decks: Any) -> FeudalData:
    """Check the raw JSON of both files and return the validated data."""
    if not isinstance(raw_cards, dict) or not raw_cards:
        _fail("cards.json", "expected an object of cards by id")
    for cid, card in raw_cards.items():
        _check_card(cid, card)
    _check_pairs(raw_cards)
    if not isinstance(raw_decks, dict) or not raw_decks:
        _fail("decks.json", "expected an object of starter decks by id")
    for did, deck in raw_decks.items():
        problems = deck_errors(deck, raw_cards)
        if problems or "name" not in deck:
            _fail(f"decks.json: {did}", "; ".join(problems) or "a starter deck needs a name")
    return FeudalData(raw_cards, raw_decks)


@functools.cache
def load() -> FeudalData:
    """Read and validate the data files once."""
    with open(DATA_DIR / "cards.json", encoding="utf-8") as handle:
        raw_cards = json.load(handle)
    with open(DATA_DIR / "decks.json", encoding="utf-8") as handle:
        raw_decks = json.load(handle)
    return validate(raw_cards, raw_decks)


# Solitaire levels (house option solo_level) and the fewest characters a roster may hold: nine
# defenders, a hand of seven and a few to draw (FL-SOLO-01..03).
SOLO_LEVELS = ("default", "easier", "harder")
MIN_ROSTER = 24


def validate_rosters(raw: Any, cards: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Check solitaire.json: per level, the pool's first markers, whether defenders keep their
    wounds (A-31), and the roster: the characters dealt into the game, each once; "all" stands
    for every character of the pool (FL-SOLO-01), and another level's name for that level's list
    (so that two levels dealing the same characters cannot drift apart)."""
    levels = _keys("solitaire.json", raw, SOLO_LEVELS)
    everyone = sorted(cid for cid, spec in cards.items() if spec["type"] == "character")
    rosters = {}
    for level, spec in levels.items():
        where = f"solitaire.json: {level}"
        spec = _keys(where, spec, ("markers", "wounds", "roster", "note"))
        _int(where + " markers", spec["markers"], 1, 50)
        if spec["wounds"] not in ("clear", "keep"):
            _fail(where, 'wounds is "clear" or "keep" (A-31)')
        ids = spec["roster"]
        if isinstance(ids, str) and ids in levels and ids != level:
            ids = levels[ids]["roster"]  # one step only: the level named holds a list or "all"
        ids = everyone if ids == "all" else ids
        if not isinstance(ids, list) or len(set(ids)) != len(ids):
            _fail(
                where,
                'the roster is "all", a list of character ids, each once, or the name of a level'
                " that holds one",
            )
        strays = [cid for cid in ids if cards.get(cid, {}).get("type") != "character"]
        if strays:
            _fail(where, f"not characters: {strays}")
        if len(ids) < MIN_ROSTER:
            _fail(where, f"a roster needs at least {MIN_ROSTER} characters")
        rosters[level] = {
            "markers": spec["markers"],
            "wounds": spec["wounds"],
            "roster": sorted(ids),
        }
    return rosters


@functools.cache
def solo_rosters() -> dict[str, dict[str, Any]]:
    """The validated solitaire levels (markers, wounds, roster), read once."""
    with open(DATA_DIR / "solitaire.json", encoding="utf-8") as handle:
        return validate_rosters(json.load(handle), load().cards)


def validate_deck(deck: Any) -> list[str]:
    """Errors in a player's deck, as sentences; empty when legal (for the site's deck builder)."""
    return deck_errors(deck, load().cards)


# The numeric fields of each type, in the order a card listing shows them.
NUMBERS: dict[str, tuple[str, ...]] = {
    "character": ("life", "control", "skills", "weapons", "df", "cc", "block"),
    "leader": (
        "max_draft",
        "attack_send",
        "defend_send",
        "min_hand",
        "supply_die",
        "leadership_die",
    ),
    "locations": (),
    "skill": ("cost_sup", "cost_ld"),
    "weapon": ("cost_sup", "cost_ld"),
    "supply": ("cost_sup", "cost_ld"),
    "instant": ("cost_sup", "cost_ld"),
    "victory": ("vp", "min", "later_draw"),
    "constant": ("cost_sup", "cost_ld"),
    "artifact": ("vp_target",),
}


def card_rows() -> list[dict[str, Any]]:
    """Every card as a player reads it: id, name, type, class, numbers and text, by type then name.

    A Controlled Locations card's text lists its three locations; an Instant's names its timing.
    """
    rows = []
    order = {kind: i for i, kind in enumerate(CARD_TYPES)}
    for cid, spec in sorted(load().cards.items(), key=lambda kv: (order[kv[1]["type"]], kv[0])):
        text = spec["text"]
        if spec["type"] == "locations":
            text += " " + " ".join(f"{s['name']}: {s['text']}" for s in spec["sites"])
        row: dict[str, Any] = {
            "id": cid,
            "name": spec["name"],
            "type": spec["type"],
            "class": spec.get("class"),
            "numbers": {key: spec[key] for key in NUMBERS[spec["type"]]},
            "text": text,
        }
        if spec["type"] == "character":
            row["generic"] = spec["generic"]
        if spec["type"] == "instant":
            row["timing"] = list(spec["timing"])
        if spec["type"] == "weapon":
            row["weight"], row["armor"] = spec["weight"], spec["armor"]
        rows.append(row)
    return rows
