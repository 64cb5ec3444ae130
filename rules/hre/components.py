"""Loader and validator for the static component data of Dark Ages: Holy Roman Empire."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from rules.hre.modules import CATALOGUE, m02_board

DATA_DIR = Path(__file__).with_name("data")
RULE_SUMMARIES = DATA_DIR / "rule_summaries.json"  # read by the site's rules page only
FILES = ("map", "rulers", "titles", "culture_cards", "board", "barbarians")

RESOURCES = ("wood", "leather", "stone", "iron")
GAIN_KEYS = (*RESOURCES, "gold", "cp", "vp")
UNITS = ("infantry", "archer", "cavalry")
MODULES = (None, *CATALOGUE)  # the module a card or Ruler belongs to, None for the base game
ACTIONS = ("build", "culture", "research", "recruit", "manoeuvre")
REACTIONS = ("recruit", "regroup", "cultural_exchange", "wood_or_stone", "wood_or_leather", "sell")
PLAYER_COUNTS = (2, 3, 4)
CARD_TYPES = (
    "common_tech",
    "military_tech",
    "relic",
    "cognomen",
    "grand_building",
    "raider",
    "benjamin",
    "chrobry",
)
# Module data files whose "cards" join the Culture cards (each card names its module, so a base
# deck never holds them); the module checks the rest of its file when it registers.
MODULE_FILES = (
    "m01_lordlings",
    "m02_great_domain",
    "m07_skirmishers",
    "m13a_benjamin",
    "m15a_poland",
)
# A module card's id: the letter of its range (CS, CB, ...) and a number (L64-76).
MODULE_CARD_ID = re.compile(r"C[A-Z]\d{2}")
RAIDER_KINDS = ("reinforce", "raid", "surprise")
RAIDER_EFFECTS = ("add_raider", "add_token", "upgrade_raider", "attack")
SCORE_PER = (
    "city",
    "church",
    "keep_level",
    "title",
    "trophy",
    "farm",
    "province",
    "common_tech",
    "military_tech",
    "gold",
    "region_presence",
)
DISCOUNT_TARGETS = ("city", "production", "church", "keep", "farm", "warehouse", "recruit")
PHASES = ("volley", "charge", "melee")
# Only archers volley and only cavalry charge at level I, so an extra die elsewhere would be dead.
PHASE_UNIT = {"volley": "archer", "charge": "cavalry"}
BARBARIAN_TOKENS = 25
FARM_SPACES = 12
BASE_RULERS = 5
M03_RULERS = 2
TITLE_COUNT = 6
GRAND_BUILDING_IDS = tuple(f"C{n:03d}" for n in range(49, 55))
# The book's 248 "Culture and Module cards" (L33) less its module ranges CS..CM (L64-76, 146 cards)
# leave 102 C-numbered cards, C049-C054 and the starting cards included (data README).
CARD_COUNT = 102
CARD_ID = re.compile(r"C\d{3}")
SLUG = re.compile(r"[a-z][a-z0-9_]*")
HEX = re.compile(r"#[0-9a-fA-F]{6}")
WHITE = "#ffffff"


class ComponentError(ValueError):
    """Component data is malformed; the message names file, item and problem."""


@dataclass(frozen=True)
class HreData:
    """Validated, read-only view of every component; treat the dicts as immutable."""

    provinces: dict[str, dict[str, Any]]
    regions: dict[str, dict[str, Any]]
    rulers: dict[str, dict[str, Any]]
    titles: dict[str, dict[str, Any]]
    cards: dict[str, dict[str, Any]]
    board: dict[str, Any]
    barbarian_units: dict[str, dict[str, Any]]
    # This box's Barbarian tokens by id (B01-B25; Module 2's B26-B50 are in token_specs only).
    tokens: dict[str, dict[str, Any]]
    # Every token by id, whatever its set: the Barbarian tokens and Module 7's Skirmishers (Snn).
    token_specs: dict[str, dict[str, Any]]
    # The ids of each token set: "barbarian" (the base game's) and "skirmisher" (Module 7).
    token_sets: dict[str, tuple[str, ...]]
    adjacent: dict[str, tuple[str, ...]]
    region_provinces: dict[str, tuple[str, ...]]
    # For each Common Technology, the ongoing modifiers shown at levels 1, 2 and 3 (a level
    # marked "replaces" drops those below it): read on every prompt, so worked out once here.
    ongoing: dict[str, tuple[tuple[dict[str, Any], ...], ...]]


def _ongoing_by_level(card: dict[str, Any]) -> tuple[tuple[dict[str, Any], ...], ...]:
    """The active ongoing modifiers of a Common Technology at each level, in card order."""
    shown: list[tuple[dict[str, Any], ...]] = []
    active: list[dict[str, Any]] = []
    for level in card["levels"]:
        if level.get("replaces"):
            active = []
        active.extend(level.get("ongoing", []))
        shown.append(tuple(active))
    return tuple(shown)


# --------------------------------------------------------------------------- primitives


def _fail(where: str, msg: str) -> NoReturn:
    """Raise a ComponentError located at `where` ("file: item")."""
    raise ComponentError(f"{where}: {msg}")


def _obj(
    where: str, value: Any, required: Iterable[str], optional: Iterable[str] = ()
) -> dict[str, Any]:
    """Check that value is a dict with exactly the required keys plus allowed optional ones."""
    if not isinstance(value, dict):
        _fail(where, f"expected an object, got {type(value).__name__}")
    req = set(required)
    missing = sorted(req - value.keys())
    unknown = sorted(value.keys() - req - set(optional))
    if missing:
        _fail(where, f"missing key(s) {missing}")
    if unknown:
        _fail(where, f"unknown key(s) {unknown}")
    return value


def _list(where: str, value: Any, min_len: int = 0) -> list[Any]:
    """Check that value is a list of at least min_len items."""
    if not isinstance(value, list):
        _fail(where, f"expected a list, got {type(value).__name__}")
    if len(value) < min_len:
        _fail(where, f"expected at least {min_len} item(s), got {len(value)}")
    return value


def _int(where: str, value: Any, lo: int | None = None, hi: int | None = None) -> int:
    """Check that value is an int (not a bool) within [lo, hi]."""
    if isinstance(value, bool) or not isinstance(value, int):
        _fail(where, f"expected an integer, got {value!r}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        _fail(where, f"{value} is outside {lo}..{hi}")
    return value


def _str(where: str, value: Any, pattern: re.Pattern[str] | None = None) -> str:
    """Check that value is a non-empty string, optionally fully matching pattern."""
    if not isinstance(value, str) or not value:
        _fail(where, f"expected a non-empty string, got {value!r}")
    if pattern is not None and not pattern.fullmatch(value):
        _fail(where, f"{value!r} does not match {pattern.pattern}")
    return value


def _enum(where: str, value: Any, allowed: Iterable[Any]) -> Any:
    """Check that value is one of allowed."""
    options = tuple(allowed)
    if value not in options or isinstance(value, bool):
        _fail(where, f"{value!r} is not one of {list(options)}")
    return value


def _ref(where: str, value: Any, table: dict[str, Any], what: str) -> str:
    """Check that value is the id of an existing item of kind `what`."""
    if not isinstance(value, str) or value not in table:
        _fail(where, f"unknown {what} {value!r}")
    return value


def _unique_ids(where: str, items: list[Any], pattern: re.Pattern[str]) -> dict[str, Any]:
    """Index a list of objects by their unique, well-formed "id"."""
    out: dict[str, Any] = {}
    for n, item in enumerate(items):
        if not isinstance(item, dict) or "id" not in item:
            _fail(f"{where}[{n}]", "expected an object with an 'id'")
        cid = _str(f"{where}[{n}].id", item["id"], pattern)
        if cid in out:
            _fail(f"{where}: {cid}", "duplicate id")
        out[cid] = item
    return out


# --------------------------------------------------------------------------- effect vocabulary


def _amounts(
    where: str, value: Any, keys: Iterable[str], allow_empty: bool = False
) -> dict[str, int]:
    """Check a dict of key -> positive int drawn from keys."""
    if not isinstance(value, dict) or (not value and not allow_empty):
        _fail(where, f"expected a non-empty object, got {value!r}")
    for key, n in value.items():
        _enum(f"{where}.{key}", key, keys)
        _int(f"{where}.{key}", n, 1)
    return value


def _gain(where: str, value: Any) -> None:
    """Check a gain dict (resources, gold, cp, vp)."""
    _amounts(where, value, GAIN_KEYS)


def _cost(where: str, value: Any) -> None:
    """Check a cost dict; Gold is never a printed cost."""
    _amounts(where, value, RESOURCES)


def _immediate(where: str, value: Any) -> None:
    """Check one "Immediate!" effect."""
    if not isinstance(value, dict) or len(value) != 1:
        _fail(where, f"an immediate effect must have exactly one key, got {value!r}")
    key, arg = next(iter(value.items()))
    _enum(where, key, ("gain", "remove_farm", "free_unit"))
    if key == "gain":
        _gain(f"{where}.gain", arg)
    elif key == "remove_farm":
        _int(f"{where}.remove_farm", arg, 1, 1)
    else:
        _enum(f"{where}.free_unit", arg, UNITS)


FIELD_CHECKS: dict[str, Callable[[str, Any], Any]] = {
    "action": lambda w, v: _enum(w, v, ACTIONS),
    "gain": _gain,
    "free_unit": lambda w, v: _enum(w, v, UNITS),
    "phase": lambda w, v: _enum(w, v, PHASES),
    "unit": lambda w, v: _enum(w, v, UNITS),
    "amount": lambda w, v: _int(w, v, 1, 5),
    "target": lambda w, v: _enum(w, v, DISCOUNT_TARGETS),
    "cost": _cost,
}
MODIFIERS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "on_action": (("action", "gain"), ()),
    "after_pass": (("gain",), ()),
    "on_recruit": ((), ("gain", "free_unit")),
    "extra_die": (("phase", "unit"), ()),
    "cancel_damage": (("amount",), ()),
    "reduce_enemy_result": (("amount",), ()),
    "bonus_result": (("amount",), ()),
    "discount": (("target", "cost"), ()),
    "sell_bonus": (("amount",), ()),
    "hold_bonus": (("amount",), ()),
    "barbarian_vp": (("amount",), ()),
}


def _modifier(where: str, value: Any) -> None:
    """Check one ongoing modifier against the effect vocabulary."""
    if not isinstance(value, dict):
        _fail(where, f"expected an object, got {value!r}")
    kind = _enum(f"{where}.kind", value.get("kind"), MODIFIERS)
    required, optional = MODIFIERS[kind]
    _obj(where, value, ("kind", *required), optional)
    for key in (*required, *optional):
        if key in value:
            FIELD_CHECKS[key](f"{where}.{key}", value[key])
    if kind == "on_recruit" and len(value) != 2:
        _fail(where, "on_recruit needs exactly one of 'gain' or 'free_unit'")
    if kind == "extra_die" and PHASE_UNIT.get(value["phase"], value["unit"]) != value["unit"]:
        _fail(where, f"a {value['phase']} die must be for {PHASE_UNIT[value['phase']]}")


def _scoring(where: str, value: Any) -> None:
    """Check a list of score_per items."""
    for n, item in enumerate(_list(where, value, 1)):
        w = f"{where}[{n}]"
        _obj(w, item, ("per", "vp"), ("max",))
        _enum(f"{w}.per", item["per"], SCORE_PER)
        _int(f"{w}.vp", item["vp"], 1)
        if "max" in item:
            _int(f"{w}.max", item["max"], 1)


# --------------------------------------------------------------------------- culture cards


def _level(where: str, value: Any) -> int:
    """Check one Common Technology level and return its VP."""
    _obj(where, value, ("vp",), ("immediate", "ongoing", "replaces"))
    for n, eff in enumerate(_list(f"{where}.immediate", value.get("immediate", []))):
        _immediate(f"{where}.immediate[{n}]", eff)
    for n, mod in enumerate(_list(f"{where}.ongoing", value.get("ongoing", []))):
        _modifier(f"{where}.ongoing[{n}]", mod)
    if not isinstance(value.get("replaces", False), bool):
        _fail(f"{where}.replaces", "expected a boolean")
    return _int(f"{where}.vp", value["vp"], 0, 20)


def _common_tech(where: str, card: dict[str, Any]) -> None:
    """Check the three levels (rising VP) and optional extra scoring."""
    levels = _list(f"{where}.levels", card["levels"])
    if len(levels) != 3:
        _fail(f"{where}.levels", f"a Common Technology has exactly 3 levels, got {len(levels)}")
    vps = [_level(f"{where}.levels[{n}]", lvl) for n, lvl in enumerate(levels)]
    if vps != sorted(vps):
        _fail(f"{where}.levels", f"level VP must not fall, got {vps}")
    if "scoring" in card:
        _scoring(f"{where}.scoring", card["scoring"])


def _half(where: str, value: Any) -> str:
    """Check one Military Technology half and return its unit type."""
    _obj(where, value, ("unit", "level", "volley", "charge", "melee", "armour", "cost"))
    _enum(f"{where}.unit", value["unit"], UNITS)
    _enum(f"{where}.level", value["level"], (2, 3))
    for key in ("volley", "charge"):
        if value[key] is not None:
            _int(f"{where}.{key}", value[key], 2, 6)
    _int(f"{where}.melee", value["melee"], 2, 6)
    _int(f"{where}.armour", value["armour"], 1, 4)
    _cost(f"{where}.cost", value["cost"])
    return str(value["unit"])


def _military_tech(where: str, card: dict[str, Any]) -> None:
    """Check one or two halves; two halves must be different unit types."""
    halves = _list(f"{where}.halves", card["halves"], 1)
    if len(halves) > 2:
        _fail(f"{where}.halves", f"at most 2 halves, got {len(halves)}")
    units = [_half(f"{where}.halves[{n}]", h) for n, h in enumerate(halves)]
    if len(set(units)) != len(units):
        _fail(f"{where}.halves", "the two halves must show different unit types")


def _relic(where: str, card: dict[str, Any]) -> None:
    """Check a Relic: timing plus a discount and/or a gain."""
    relic = _obj(f"{where}.relic", card["relic"], (), ("when", "discount", "gain"))
    _enum(f"{where}.relic.when", relic.get("when", "before"), ("before", "after"))
    if "discount" not in relic and "gain" not in relic:
        _fail(f"{where}.relic", "needs at least one of 'discount' or 'gain'")
    if "discount" in relic:
        _cost(f"{where}.relic.discount", relic["discount"])
    if "gain" in relic:
        _gain(f"{where}.relic.gain", relic["gain"])


def _raider(where: str, card: dict[str, Any]) -> None:
    """A Raider card of the solo module (HRE-M01-RAIDER-01, authored effects, §2.10)."""
    _enum(f"{where}.kind", card["kind"], RAIDER_KINDS)
    for key in ("reveal", "penalty"):
        for effect in _list(f"{where}.{key}", card[key]):
            _enum(f"{where}.{key}", effect, RAIDER_EFFECTS)
    _text(f"{where}.text", card["text"])
    if card["module"] != "M01":
        _fail(where, "a Raider card belongs to module M01")


def _benjamin(where: str, card: dict[str, Any]) -> None:
    """A Travels of Benjamin card (HRE-M13A-PLAY-01): a journal stop, one line of text."""
    _str(f"{where}.stop", card["stop"])
    _text(f"{where}.text", card["text"])
    if card["module"] != "M13A":
        _fail(where, "a Travels of Benjamin card belongs to module M13A")


def _text(where: str, value: Any) -> None:
    """Check a Grand Building's one-line text."""
    if "\n" in _str(where, value):
        _fail(where, "expected a single line")


CARD_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "common_tech": (("levels",), ("scoring",)),
    "military_tech": (("halves",), ()),
    "relic": (("relic",), ()),
    "cognomen": (("scoring",), ()),
    "grand_building": (("text",), ()),
    "raider": (("kind", "reveal", "penalty", "text"), ()),
    "benjamin": (("stop", "text"), ()),
    "chrobry": (("text",), ()),
}
CARD_CHECKS: dict[str, Callable[[str, dict[str, Any]], None]] = {
    "common_tech": _common_tech,
    "military_tech": _military_tech,
    "relic": _relic,
    "cognomen": lambda w, c: _scoring(f"{w}.scoring", c["scoring"]),
    "grand_building": lambda w, c: _text(f"{w}.text", c["text"]),
    "raider": lambda w, c: _raider(w, c),
    "benjamin": lambda w, c: _benjamin(w, c),
    "chrobry": lambda w, c: _text(f"{w}.text", c["text"]),
}


def _card(cid: str, card: dict[str, Any]) -> None:
    """Check one Culture card of any type."""
    where = f"culture_cards.json: {cid}"
    ctype = _enum(f"{where}.type", card.get("type"), CARD_TYPES)
    required, optional = CARD_FIELDS[ctype]
    _obj(where, card, ("id", "name", "type", "players", "starting", "module", *required), optional)
    _str(f"{where}.name", card["name"])
    _enum(f"{where}.players", card["players"], PLAYER_COUNTS)
    _enum(f"{where}.module", card["module"], MODULES)
    if card["starting"] is not None:
        _str(f"{where}.starting", card["starting"], SLUG)
    is_gb = ctype == "grand_building"
    if is_gb != (cid in GRAND_BUILDING_IDS):
        _fail(
            where,
            f"{GRAND_BUILDING_IDS[0]}..{GRAND_BUILDING_IDS[-1]} are exactly the Grand Buildings",
        )
    if is_gb and card["module"] != "M03":
        _fail(where, "a Grand Building belongs to module M03")
    CARD_CHECKS[ctype](where, card)


def _cards(raw: Any) -> dict[str, dict[str, Any]]:
    """Check every Culture card and index them by id; the ids run C001..C102 without a gap."""
    cards = _unique_ids("culture_cards.json", _list("culture_cards.json", raw, 1), CARD_ID)
    for cid, card in cards.items():
        _card(cid, card)
    expected = {f"C{n:03d}" for n in range(1, CARD_COUNT + 1)}
    missing, extra = sorted(expected - cards.keys()), sorted(cards.keys() - expected)
    if missing or extra:
        _fail(
            "culture_cards.json",
            f"expected the {CARD_COUNT} cards C001..C{CARD_COUNT:03d}; "
            f"missing {missing}, outside the range {extra}",
        )
    return cards


def _strength(block: dict[str, Any]) -> tuple[int, int, int, int]:
    """A unit's stats, each oriented so that more is better (a lower to-hit value is better)."""
    return (
        7 - (block["volley"] or 7),
        7 - (block["charge"] or 7),
        7 - block["melee"],
        block["armour"],
    )


def _military_levels(cards: dict[str, Any], board: dict[str, Any]) -> None:
    """Design rule: a level II half beats level I; a level III half matches every level II half.

    Playing a card raises a unit by exactly one level (HRE-BASE-RESEARCH-07), so a higher level
    that were weaker in some stat would make a Research a loss.
    """
    halves = [
        (cid, h) for cid, c in cards.items() if c["type"] == "military_tech" for h in c["halves"]
    ]
    for cid, half in halves:
        where = f"culture_cards.json: {cid} {half['unit']} level {half['level']}"
        mine, base = _strength(half), _strength(board["units"][half["unit"]])
        if mine == base or any(a < b for a, b in zip(mine, base, strict=True)):
            _fail(where, "must match the printed level I in every stat and beat it in one")
        if half["level"] != 3:
            continue
        for low_id, low in halves:
            same = low["unit"] == half["unit"] and low["level"] == 2
            if same and any(a < b for a, b in zip(mine, _strength(low), strict=True)):
                _fail(where, f"is weaker in some stat than the level II half of {low_id}")


# --------------------------------------------------------------------------- map


def _region(rid: str, region: Any) -> None:
    """Check one Region's fields."""
    where = f"map.json: region {rid}"
    _obj(where, region, ("id", "name", "colour", "colour_name", "title"))
    _str(f"{where}.name", region["name"])
    _str(f"{where}.colour", region["colour"], HEX)
    _str(f"{where}.colour_name", region["colour_name"])
    if region["title"] is not None:
        _str(f"{where}.title", region["title"], SLUG)


PROVINCE_KEYS = (
    "id",
    "name",
    "region",
    "resource",
    "players",
    "solo_number",
    "solo_blocked",
    "x",
    "y",
    "land",
    "water",
)


def _province(pid: str, prov: Any, regions: dict[str, Any]) -> None:
    """Check one Province's own fields (links are checked separately)."""
    where = f"map.json: province {pid}"
    _obj(where, prov, PROVINCE_KEYS)
    _str(f"{where}.name", prov["name"])
    _ref(f"{where}.region", prov["region"], regions, "region")
    _enum(f"{where}.resource", prov["resource"], RESOURCES)
    _enum(f"{where}.players", prov["players"], PLAYER_COUNTS)
    if prov["solo_number"] is not None:
        _int(f"{where}.solo_number", prov["solo_number"], 1, 20)
    if not isinstance(prov["solo_blocked"], bool):
        _fail(f"{where}.solo_blocked", "expected a boolean")
    _int(f"{where}.x", prov["x"], 0, 1000)
    _int(f"{where}.y", prov["y"], 0, 1000)


def _links(provinces: dict[str, Any], kind: str) -> None:
    """Check that land or water links name known provinces, without self links, symmetrically."""
    for pid, prov in provinces.items():
        where = f"map.json: province {pid}.{kind}"
        links = _list(where, prov[kind])
        if len(set(links)) != len(links):
            _fail(where, "duplicate link")
        for other in links:
            _ref(where, other, provinces, "province")
            if other == pid:
                _fail(where, "a province cannot neighbour itself")
            if pid not in provinces[other][kind]:
                _fail(where, f"link to {other} is not mirrored in {other}.{kind}")


SOLO = 1  # the solo map (HRE-M01-SETUP-07): markings ignored, solo-icon provinces blocked
SOLO_NUMBERS = 20  # the red hexagons a d20 picks from (HRE-M01-GEN-07)
SOLO_SEATED = 4  # your Capital and the three Lordling Cities get no token (HRE-M01-SETUP-08)


def in_play(provinces: dict[str, dict[str, Any]], players: int) -> set[str]:
    """Return the ids of provinces used at this player count (1: the solo map)."""
    if players == SOLO:
        return {pid for pid, prov in provinces.items() if not prov["solo_blocked"]}
    return {pid for pid, prov in provinces.items() if prov["players"] <= players}


def _connected(provinces: dict[str, Any], players: int) -> None:
    """Check that the in-play provinces form one connected graph."""
    live = in_play(provinces, players)
    start = min(live)
    seen, todo = {start}, [start]
    while todo:
        here = provinces[todo.pop()]
        for other in (*here["land"], *here["water"]):
            if other in live and other not in seen:
                seen.add(other)
                todo.append(other)
    if seen != live:
        where = "the solo map" if players == SOLO else f"{players} players"
        _fail("map.json", f"{where}: provinces {sorted(live - seen)} are cut off")


def _white_regions(regions: dict[str, Any], provinces: dict[str, Any]) -> None:
    """Check every Region is used and white Regions are untitled single provinces."""
    for rid, region in regions.items():
        members = [p for p, prov in provinces.items() if prov["region"] == rid]
        if not members:
            _fail(f"map.json: region {rid}", "has no provinces")
        if region["colour"].lower() == WHITE and (len(members) != 1 or region["title"] is not None):
            _fail(f"map.json: region {rid}", "a white Region is a single province without a Title")


def _map(raw: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """Check the map and return (regions, provinces) indexed by id."""
    top = _obj("map.json", raw, ("regions", "provinces"))
    regions = _unique_ids("map.json: regions", _list("map.json: regions", top["regions"], 1), SLUG)
    provs = _unique_ids(
        "map.json: provinces", _list("map.json: provinces", top["provinces"], 1), SLUG
    )
    for rid, region in regions.items():
        _region(rid, region)
    for pid, prov in provs.items():
        _province(pid, prov, regions)
    _links(provs, "land")
    _links(provs, "water")
    solo = in_play(provs, SOLO)
    numbers = sorted(provs[p]["solo_number"] for p in solo if provs[p]["solo_number"] is not None)
    if numbers != list(range(1, SOLO_NUMBERS + 1)) or len(solo) != SOLO_NUMBERS:
        _fail("map.json", "the solo map's 20 provinces carry the numbers 1 to 20, once each")
    if any(provs[p]["solo_number"] is not None for p in set(provs) - solo):
        _fail("map.json", "a solo-blocked province has no solo number")
    _white_regions(regions, provs)
    for players in (*PLAYER_COUNTS, SOLO):
        _connected(provs, players)
    return regions, provs


# --------------------------------------------------------------------------- rulers and titles


def _ruler(rid: str, ruler: Any, provs: dict[str, Any], cards: dict[str, Any]) -> None:
    """Check one Ruler card and its links to the map and the Culture cards."""
    where = f"rulers.json: {rid}"
    _obj(
        where,
        ruler,
        (
            "id",
            "name",
            "capital",
            "costs",
            "starting_cards",
            "players",
            "module",
            "solo_restricted",
        ),
    )
    _str(f"{where}.name", ruler["name"])
    _ref(f"{where}.capital", ruler["capital"], provs, "province")
    _enum(f"{where}.players", ruler["players"], PLAYER_COUNTS)
    _enum(f"{where}.module", ruler["module"], MODULES)
    if not isinstance(ruler["solo_restricted"], bool):
        _fail(f"{where}.solo_restricted", "expected a boolean")
    if provs[ruler["capital"]]["players"] > ruler["players"]:
        _fail(where, "the capital is not in play whenever the Ruler is")
    costs = [_int(f"{where}.costs", c, 1, 9) for c in _list(f"{where}.costs", ruler["costs"])]
    if len(costs) != 3 or not costs[0] < costs[1] < costs[2]:
        _fail(f"{where}.costs", f"expected three rising settlement costs, got {costs}")
    start = _list(f"{where}.starting_cards", ruler["starting_cards"])
    if len(start) != 2 or len(set(start)) != 2:
        _fail(f"{where}.starting_cards", "expected exactly two different cards")
    for cid in start:
        _ref(f"{where}.starting_cards", cid, cards, "card")
        if cards[cid]["starting"] != rid:
            _fail(f"{where}.starting_cards", f"{cid} is not marked as starting for {rid}")


def _rulers(raw: Any, provs: dict[str, Any], cards: dict[str, Any]) -> dict[str, Any]:
    """Check all Rulers: counts, distinct capitals, base capitals in distinct Regions."""
    rulers = _unique_ids("rulers.json", _list("rulers.json", raw), SLUG)
    for rid, ruler in rulers.items():
        _ruler(rid, ruler, provs, cards)
    base = [r for r in rulers.values() if r["module"] is None]
    if len(base) != BASE_RULERS or len(rulers) - len(base) != M03_RULERS:
        _fail("rulers.json", f"expected {BASE_RULERS} base and {M03_RULERS} M03 Rulers")
    capitals = [r["capital"] for r in rulers.values()]
    if len(set(capitals)) != len(capitals):
        _fail("rulers.json", "two Rulers share a capital")
    if len({provs[r["capital"]]["region"] for r in base}) != len(base):
        _fail("rulers.json", "base Ruler capitals must lie in different Regions")
    for cid, card in cards.items():
        if card["starting"] is not None and cid not in rulers.get(card["starting"], {}).get(
            "starting_cards", ()
        ):
            _fail(f"culture_cards.json: {cid}", f"starting for unknown Ruler {card['starting']!r}")
    return rulers


def _titles(raw: Any, regions: dict[str, Any]) -> dict[str, Any]:
    """Check the Titles and their two-way link with Regions."""
    titles = _unique_ids("titles.json", _list("titles.json", raw), SLUG)
    if len(titles) != TITLE_COUNT:
        _fail("titles.json", f"expected {TITLE_COUNT} Titles, got {len(titles)}")
    for tid, title in titles.items():
        where = f"titles.json: {tid}"
        _obj(where, title, ("id", "name", "region", "vp", "players"))
        _str(f"{where}.name", title["name"])
        _ref(f"{where}.region", title["region"], regions, "region")
        _int(f"{where}.vp", title["vp"], 1, 10)
        _enum(f"{where}.players", title["players"], PLAYER_COUNTS)
        if regions[title["region"]]["title"] != tid:
            _fail(where, f"region {title['region']} does not name this Title")
    if len({t["region"] for t in titles.values()}) != len(titles):
        _fail("titles.json", "two Titles share a Region")
    for rid, region in regions.items():
        if region["title"] is not None and region["title"] not in titles:
            _fail(f"map.json: region {rid}", f"unknown Title {region['title']!r}")
    return titles


# --------------------------------------------------------------------------- board


BOARD_KEYS = (
    "offer_size",
    "base_access",
    "culture_track",
    "church_track",
    "reaction_layout",
    "actions",
    "warehouse_track",
    "farm_track",
    "trophy_track",
    "units",
    "unit_supply",
    "cities",
    "discs",
    "exhausted_at_setup",
    "farms_per_player",
    "costs",
    "trade_value",
    "hand_limit",
    "react_at",
    "city_slots",
    "city_vp",
    "production_yield",
    "start_resources",
    "start_infantry",
)


def _culture_track(board: dict[str, Any]) -> None:
    """Check the Culture track: start at 0 VP, VP never fall, one red space per extra card."""
    where = "board.json: culture_track"
    offer = _int("board.json: offer_size", board["offer_size"], 1, 12)
    base = _int("board.json: base_access", board["base_access"], 1, offer)
    track = _list(where, board["culture_track"], 2)
    for n, space in enumerate(track):
        _obj(f"{where}[{n}]", space, ("vp", "red"))
        _int(f"{where}[{n}].vp", space["vp"], 0)
        if not isinstance(space["red"], bool):
            _fail(f"{where}[{n}].red", "expected a boolean")
    vps = [s["vp"] for s in track]
    if vps[0] != 0 or track[0]["red"] or vps != sorted(vps):
        _fail(where, "must start at 0 VP on a non-red space and never fall")
    reds = sum(s["red"] for s in track)
    if reds != offer - base:
        _fail(where, f"{reds} red spaces, expected offer_size - base_access = {offer - base}")


def _reactions(board: dict[str, Any]) -> None:
    """Check the 5 action cards and the reaction pairs beside the 5 action spaces."""
    where = "board.json: reaction_layout"
    actions = _list("board.json: actions", board["actions"])
    if sorted(actions) != sorted(ACTIONS):
        _fail("board.json: actions", f"expected the five actions {list(ACTIONS)}")
    pairs = _list(where, board["reaction_layout"])
    if len(pairs) != len(ACTIONS):
        _fail(where, f"expected {len(ACTIONS)} pairs, got {len(pairs)}")
    for n, pair in enumerate(pairs):
        for r in _list(f"{where}[{n}]", pair):
            _enum(f"{where}[{n}]", r, REACTIONS)
        if len(pair) != 2 or pair[0] == pair[1]:
            _fail(f"{where}[{n}]", "expected two different reactions")
    missing = set(REACTIONS) - {r for pair in pairs for r in pair}
    if missing:
        _fail(where, f"reactions {sorted(missing)} appear nowhere")


def _warehouse(board: dict[str, Any]) -> None:
    """Check Warehouse rows: free start row, one-resource first two rows, rising values."""
    where = "board.json: warehouse_track"
    rows = _list(where, board["warehouse_track"], 3)
    for n, row in enumerate(rows):
        _obj(f"{where}[{n}]", row, ("cost", "sell", "hold", "vp"))
        options = _list(f"{where}[{n}].cost", row["cost"], 0 if n == 0 else 1)
        for k, option in enumerate(options):
            _cost(f"{where}[{n}].cost[{k}]", option)
        for key in ("sell", "hold", "vp"):
            _int(f"{where}[{n}].{key}", row[key], 0)
    if rows[0]["cost"]:
        _fail(f"{where}[0]", "the start row has no cost")
    for key in ("sell", "hold", "vp"):
        values = [row[key] for row in rows]
        if values != sorted(values):
            _fail(where, f"{key} values must not fall, got {values}")


def _farm_and_trophies(board: dict[str, Any]) -> None:
    """Check the Farm track (12 spaces) and the trophy track."""
    where = "board.json: farm_track"
    farms = _list(where, board["farm_track"])
    if len(farms) != FARM_SPACES:
        _fail(where, f"expected {FARM_SPACES} spaces, got {len(farms)}")
    for n, space in enumerate(farms):
        _obj(f"{where}[{n}]", space, ("army_limit", "vp"))
        _int(f"{where}[{n}].army_limit", space["army_limit"], 1)
        _int(f"{where}[{n}].vp", space["vp"], 0)
    for key in ("army_limit", "vp"):
        values = [s[key] for s in farms]
        if values != sorted(values):
            _fail(where, f"{key} values must not fall, got {values}")
    where = "board.json: trophy_track"
    for n, space in enumerate(_list(where, board["trophy_track"], 1)):
        _obj(f"{where}[{n}]", space, ("vp", "extra"))
        _int(f"{where}[{n}].vp", space["vp"], 0)
        if space["extra"] is not None:
            _enum(f"{where}[{n}].extra", space["extra"], UNITS)


def _unit_stats(where: str, value: Any, with_cost: bool) -> None:
    """Check a level I stat block for the three unit types."""
    _obj(where, value, UNITS)
    keys = ("volley", "charge", "melee", "armour", *(("cost",) if with_cost else ()))
    for unit in UNITS:
        w = f"{where}.{unit}"
        _obj(w, value[unit], keys)
        for key in ("volley", "charge"):
            if value[unit][key] is not None:
                _int(f"{w}.{key}", value[unit][key], 2, 6)
        _int(f"{w}.melee", value[unit]["melee"], 2, 6)
        _int(f"{w}.armour", value[unit]["armour"], 1, 4)
        if with_cost:
            _cost(f"{w}.cost", value[unit]["cost"])


def _per_count(where: str, value: Any) -> None:
    """Check a {"2": n, "3": n, "4": n} table."""
    _obj(where, value, [str(n) for n in PLAYER_COUNTS])
    for key, n in value.items():
        _int(f"{where}.{key}", n, 0)


def _board_tables(board: dict[str, Any]) -> None:
    """Check the supplies, per-count tables, costs and scalar values."""
    for key in ("cities", "discs", "exhausted_at_setup"):
        _per_count(f"board.json: {key}", board[key])
    church = _obj("board.json: church_track", board["church_track"], ("spaces", "end"))
    spaces = _int("board.json: church_track.spaces", church["spaces"], 1)
    _per_count("board.json: church_track.end", church["end"])
    if max(church["end"].values()) > spaces:
        _fail("board.json: church_track.end", "an end marker lies beyond the last space")
    _amounts(
        "board.json: unit_supply",
        _obj("board.json: unit_supply", board["unit_supply"], UNITS),
        UNITS,
    )
    _amounts("board.json: trade_value", board["trade_value"], RESOURCES)
    _amounts("board.json: start_resources", board["start_resources"], (*RESOURCES, "gold"))
    costs = _obj(
        "board.json: costs",
        board["costs"],
        ("city", "production_local", "production_neighbour", "church", "keep", "farm"),
    )
    for key, value in costs.items():
        for n, cost in enumerate(value if key == "keep" else [value]):
            _cost(f"board.json: costs.{key}[{n}]", cost)
    for key in ("farms_per_player", "hand_limit", "react_at", "city_slots", "start_infantry"):
        _int(f"board.json: {key}", board[key], 1)
    for key in ("city_vp", "production_yield"):
        values = [_int(f"board.json: {key}", v, 0) for v in _list(f"board.json: {key}", board[key])]
        if len(values) != board["city_slots"] + 1:
            _fail(f"board.json: {key}", "expected one value per number of buildings 0..city_slots")


def _board(raw: Any) -> dict[str, Any]:
    """Check the whole board.json."""
    board = _obj("board.json", raw, BOARD_KEYS)
    _culture_track(board)
    _reactions(board)
    _warehouse(board)
    _farm_and_trophies(board)
    _unit_stats("board.json: units", board["units"], with_cost=True)
    _board_tables(board)
    if board["farms_per_player"] != len(board["farm_track"]):
        _fail("board.json: farms_per_player", "must equal the number of Farm track spaces")
    return board


# --------------------------------------------------------------------------- barbarians


def _token(tid: str, token: Any, file: str = "barbarians.json") -> None:
    """Check one Barbarian token: 1-4 units on one side, a reward on the other."""
    where = f"{file}: {tid}"
    _obj(where, token, ("id", "units", "reward"))
    units = _obj(f"{where}.units", token["units"], (), UNITS)
    total = sum(_int(f"{where}.units.{u}", n, 0) for u, n in units.items())
    if not 1 <= total <= 4:
        _fail(f"{where}.units", f"expected 1 to 4 units, got {total}")
    reward = _obj(f"{where}.reward", token["reward"], (), ("gain", "extra_turn"))
    if len(reward) != 1:
        _fail(f"{where}.reward", "expected exactly one of 'gain' or 'extra_turn'")
    if "gain" in reward:
        _gain(f"{where}.reward.gain", reward["gain"])
    elif reward["extra_turn"] is not True:
        _fail(f"{where}.reward.extra_turn", "must be true")


def _barbarians(raw: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """Check barbarians.json and return (military, tokens by id)."""
    top = _obj("barbarians.json", raw, ("military", "tokens"))
    _unit_stats("barbarians.json: military", top["military"], with_cost=False)
    tokens = _unique_ids(
        "barbarians.json: tokens",
        _list("barbarians.json: tokens", top["tokens"]),
        re.compile(r"B\d{2}"),
    )
    if len(tokens) != BARBARIAN_TOKENS:
        _fail("barbarians.json: tokens", f"expected {BARBARIAN_TOKENS} tokens, got {len(tokens)}")
    for tid, token in tokens.items():
        _token(tid, token)
    return top["military"], tokens


def _skirmishers(raw: Any) -> dict[str, Any]:
    """Check m07_skirmishers.json's tokens (HRE-M07-SETUP-01): as many as the Barbarian
    tokens, each checked like one, ids S01-S25."""
    where = "m07_skirmishers.json: tokens"
    top = _obj("m07_skirmishers.json", raw, ("authored", "cards", "tokens"))
    tokens = _unique_ids(where, _list(where, top["tokens"]), re.compile(r"S\d{2}"))
    if len(tokens) != BARBARIAN_TOKENS:
        _fail(where, f"expected {BARBARIAN_TOKENS} tokens, got {len(tokens)}")
    for tid, token in tokens.items():
        _token(tid, token, "m07_skirmishers.json")
    return tokens


def _coverage(provs: dict[str, Any], rulers: dict[str, Any], tokens: dict[str, Any]) -> None:
    """Check that the tokens can fill every in-play province that is not a Capital."""
    for players in PLAYER_COUNTS:
        live = in_play(provs, players)
        if len(live) > len(tokens) + players:
            _fail(
                "map.json",
                f"{players} players: {len(live)} provinces in play but only "
                f"{len(tokens)} Barbarian tokens for the non-Capitals",
            )
    solo = in_play(provs, SOLO)
    if len(solo) - SOLO_SEATED + 1 > len(tokens):  # a token for the Raiding Party too
        _fail("map.json", "the solo map needs more Barbarian tokens than there are")
    for rid, ruler in rulers.items():
        if ruler["module"] is None and provs[ruler["capital"]]["players"] != min(PLAYER_COUNTS):
            _fail(f"rulers.json: {rid}", "a base Ruler's capital must be in play at 2 players")
        if ruler["capital"] not in solo:
            _fail(f"rulers.json: {rid}", "every Ruler's capital is on the solo map")


# --------------------------------------------------------------------------- entry points


def validate(raw: dict[str, Any]) -> None:
    """Validate raw JSON keyed by file stem; raise ComponentError on the first problem."""
    _obj("data", raw, FILES, MODULE_FILES)
    regions, provs = _map(raw["map"])
    cards = _cards(raw["culture_cards"])
    rulers = _rulers(raw["rulers"], provs, cards)
    _titles(raw["titles"], regions)
    board = _board(raw["board"])
    _military_levels(cards, board)
    _, tokens = _barbarians(raw["barbarians"])
    _coverage(provs, rulers, tokens)
    if "m07_skirmishers" in raw:
        _skirmishers(raw["m07_skirmishers"])


def read_raw(directory: Path = DATA_DIR) -> dict[str, Any]:
    """Read every data file into a dict keyed by file stem."""
    raw: dict[str, Any] = {}
    for stem in (*FILES, *MODULE_FILES):
        path = directory / f"{stem}.json"
        try:
            raw[stem] = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise ComponentError(f"{stem}.json: cannot be read: {exc}") from exc
    return raw


def _module_cards(raw: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The cards the module data files add to the Culture cards, checked like them."""
    found: dict[str, dict[str, Any]] = {}
    for stem in MODULE_FILES:
        if stem not in raw:
            continue
        where = f"{stem}.json"
        cards = _unique_ids(where, _list(where, raw[stem].get("cards")), MODULE_CARD_ID)
        for cid, card in cards.items():
            if cid in found or card["module"] is None:
                _fail(f"{where}: {cid}", "a module card needs its module and a unique id")
            _card(cid, card)
        found.update(cards)
    return found


def build(raw: dict[str, Any]) -> HreData:
    """Validate raw data and assemble the indexed HreData."""
    validate(raw)
    provinces = {p["id"]: p for p in raw["map"]["provinces"]}
    regions = {r["id"]: r for r in raw["map"]["regions"]}
    skirmishers = (
        {t["id"]: t for t in raw["m07_skirmishers"]["tokens"]} if "m07_skirmishers" in raw else {}
    )
    cards = {c["id"]: c for c in raw["culture_cards"]} | _module_cards(raw)
    rulers = {r["id"]: r for r in raw["rulers"]}
    titles = {t["id"]: t for t in raw["titles"]}
    barbarians = {t["id"]: t for t in raw["barbarians"]["tokens"]}
    joined: dict[str, Any] = {}
    if "m02_great_domain" in raw:  # Module 2's western half, marked for 5 players or more
        try:
            provinces, regions, rulers, titles, joined = m02_board.join(
                raw, provinces, regions, rulers, titles
            )
        except ValueError as exc:
            raise ComponentError(str(exc)) from exc
        _links(provinces, "land")
        _links(provinces, "water")
        for players in m02_board.COUNTS:
            _connected(provinces, players)
    return HreData(
        provinces=provinces,
        regions=regions,
        rulers=rulers,
        titles=titles,
        cards=cards,
        board=raw["board"],
        barbarian_units=raw["barbarians"]["military"],
        tokens=barbarians,
        token_specs=barbarians | joined | skirmishers,
        token_sets={
            "barbarian": tuple(sorted(barbarians)),
            "skirmisher": tuple(sorted(skirmishers)),
            # both boxes' Barbarian tokens, on the joined board (Module 2)
            "great_domain": tuple(sorted(barbarians | joined)),
        },
        adjacent={pid: tuple(sorted({*p["land"], *p["water"]})) for pid, p in provinces.items()},
        region_provinces={
            rid: tuple(sorted(pid for pid, p in provinces.items() if p["region"] == rid))
            for rid in regions
        },
        ongoing={cid: _ongoing_by_level(c) for cid, c in cards.items() if "levels" in c},
    )


@functools.cache
def load() -> HreData:
    """Load, validate and cache the packaged component data."""
    return build(read_raw())
