"""Module 2's joined board as data: the authored western half checked and joined to the map.

`m02_great_domain.json` (see `rules/hre/data/README.md`, Module 2) holds the western half of
the joined 5-8 player board: its Regions, provinces (with their links across the join, which
name provinces of `map.json`), Titles, Rulers with their starting cards, the companion box's 25
Barbarian tokens and the numbers of the joined Culture board. `join` checks it against every
number the book gives (HRE L566-595, reference §1.24) and returns the component tables with the
western half added. Western provinces, Titles and Rulers are marked for 5 players or more (and
the Rulers belong to M02), so no game of 1 to 4 players ever puts them in play: the base game's
tables are unchanged by the join.
"""

from __future__ import annotations

from typing import Any, NoReturn

# Imported by rules/hre/components.py, so nothing here imports it back: the checks it needs are
# written out below, and a problem raises ValueError (components reports it as a ComponentError).
RESOURCES = ("wood", "leather", "stone", "iron")

FILE = "m02_great_domain.json"
COUNTS = (5, 6, 7, 8)
# The book's numbers for 5/6/7/8 players (HRE L585-595, HRE-M02-SETUP-07..09, PLAY-01, END-01).
CITIES = {5: 18, 6: 20, 7: 23, 8: 25}
EXHAUSTED = {5: [3, 1], 6: [4, 2], 7: [5, 2], 8: [6, 3]}
CHURCH_END = {5: 11, 6: 12, 7: 14, 8: 15}
REACT_AT = {5: 3, 6: 4, 7: 4, 8: 4}
CHURCHES = 16  # on the joined Church track (HRE-M02-SETUP-06)
DISCS = 4  # each player's Noble discs (HRE-M02-SETUP-08)
PER_RED = 2  # cards each red Culture space unlocks (HRE-M02-PLAY-02)
TOKENS = 25  # the companion box's Barbarian tokens, B26-B50
WESTERN_RULERS = 5
TITLE_PROVINCES = 3  # the fewest provinces in play of a titled Region, as on this box's board


def _fail(where: str, msg: str) -> NoReturn:
    raise ValueError(f"{where}: {msg}")


def in_play(provinces: dict[str, dict[str, Any]], players: int) -> set[str]:
    """The provinces used at this player count (as rules.hre.components.in_play does)."""
    return {pid for pid, prov in provinces.items() if prov["players"] <= players}


def _table(raw: dict[str, Any], base_board: dict[str, Any]) -> None:
    """The joined Culture board's numbers are the book's (twice the offer, two per red space)."""
    where = f"{FILE}: table"
    table = raw["table"]
    reds = sum(1 for space in base_board["culture_track"] if space["red"])
    if table["offer_size"] != 2 * base_board["offer_size"]:
        _fail(where, "the joined offer has twice the base offer's spaces (HRE-M02-SETUP-05)")
    if table["per_red"] != PER_RED or table["base_access"] + PER_RED * reds != table["offer_size"]:
        _fail(where, "each red space unlocks two cards, reaching the whole offer at the end")
    if table["church_spaces"] != CHURCHES:
        _fail(where, f"{CHURCHES} Churches on the joined track (HRE-M02-SETUP-06)")
    rows = table["by_players"]
    if sorted(rows) != [str(n) for n in COUNTS]:
        _fail(where, "one row for each of 5, 6, 7 and 8 players")
    for n in COUNTS:
        row = rows[str(n)]
        want = {
            "cities": CITIES[n],
            "discs": DISCS,
            "exhausted": EXHAUSTED[n],
            "church_end": CHURCH_END[n],
            "react_at": REACT_AT[n],
        }
        if row != want:
            _fail(f"{where}.by_players.{n}", f"expected the book's {want}, got {row}")


def _provinces(
    raw: dict[str, Any], central: dict[str, Any], regions: dict[str, Any]
) -> dict[str, Any]:
    """The western provinces, each with its own fields; markings 5 to 8."""
    west: dict[str, Any] = {}
    keys = set(next(iter(central.values())))  # a province's fields, as map.json has them
    for prov in raw["provinces"]:
        pid = prov.get("id")
        where = f"{FILE}: province {pid}"
        if set(prov) != keys:
            _fail(where, f"expected the keys {sorted(keys)}")
        if pid in central or pid in west:
            _fail(where, "a province id is used twice")
        if prov["region"] not in regions or prov["resource"] not in RESOURCES:
            _fail(where, "unknown region or resource")
        if prov["players"] not in COUNTS or not prov["solo_blocked"] or prov["solo_number"]:
            _fail(where, "a western province is marked 5 to 8 and never on the solo map")
        if not all(isinstance(prov[k], int) and -1000 <= prov[k] <= 1000 for k in ("x", "y")):
            _fail(where, "coordinates lie on the joined sheet, -1000..1000")
        west[pid] = prov
    return west


def _joined_map(
    raw: dict[str, Any], central: dict[str, Any], base_regions: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Both halves as one map: the join's links mirrored on the central side (PLAY-03); the
    loader then checks its links and that it is connected at 5 to 8 players."""
    regions = dict(base_regions)
    for region in raw["regions"]:
        if region["id"] in regions:
            _fail(f"{FILE}: region {region['id']}", "a region id is used twice")
        regions[region["id"]] = region
    west = _provinces(raw, central, regions)
    joined = {
        pid: dict(p, land=list(p["land"]), water=list(p["water"])) for pid, p in central.items()
    }
    for pid, prov in west.items():
        for kind in ("land", "water"):
            for other in prov[kind]:
                if other in central:  # a link across the join, printed on the western half
                    joined[other][kind].append(pid)
    joined.update(west)
    for pid in central:
        for kind in ("land", "water"):
            joined[pid][kind].sort()
    if not any(other in central for p in west.values() for other in p["land"]):
        _fail(FILE, "the western half meets the central one nowhere")
    for rid in regions:
        if rid not in base_regions and not any(p["region"] == rid for p in west.values()):
            _fail(f"{FILE}: region {rid}", "has no provinces")
    return regions, joined


def _rulers(
    raw: dict[str, Any],
    provinces: dict[str, Any],
    rulers: dict[str, Any],
    base_cards: dict[str, Any],
) -> None:
    """Five western Rulers, each mirroring a central one's costs and starting cards' effects."""
    cards = {c["id"]: c for c in raw["cards"]}
    west = raw["rulers"]
    if len(west) != WESTERN_RULERS:
        _fail(FILE, f"expected {WESTERN_RULERS} western Rulers")
    capitals = {r["capital"] for r in rulers.values()}
    regions = set()
    for ruler in west:
        where = f"{FILE}: ruler {ruler['id']}"
        twin = rulers.get(ruler["twin"])
        home = provinces.get(ruler["capital"])
        if ruler["id"] in rulers or twin is None or twin["module"] is not None:
            _fail(where, "a new id, mirroring a base Ruler")
        if home is None or home["players"] != min(COUNTS) or ruler["capital"] in capitals:
            _fail(where, "its Capital is a western province in play from 5 players, not shared")
        if home["resource"] == "iron" or home["region"] in regions:
            _fail(where, "Capitals stand off Iron, each in its own Region")
        regions.add(home["region"])
        capitals.add(ruler["capital"])
        if (
            ruler["module"] != "M02"
            or ruler["players"] != min(COUNTS)
            or ruler["costs"] != twin["costs"]
        ):
            _fail(where, "belongs to M02, marked 5, with its twin's settling costs")
        if ruler["origin"] != "western":
            _fail(where, "is a Western Ruler (HRE-M02-SETUP-04)")
        for mine, theirs in zip(ruler["starting_cards"], twin["starting_cards"], strict=True):
            card = cards.get(mine)
            if card is None or card["starting"] != ruler["id"] or card["module"] != "M02":
                _fail(where, f"starting card {mine} is an M02 card marked as its own")
            if _effects(card) != _effects(base_cards[theirs]):
                _fail(where, f"starting card {mine} does what its twin's {theirs} does")


def _effects(card: dict[str, Any]) -> dict[str, Any]:
    """A card without what only names it: what it does."""
    return {k: v for k, v in card.items() if k not in ("id", "name", "starting", "module", "text")}


def _titles(
    raw: dict[str, Any], regions: dict[str, Any], titles: dict[str, Any], joined: dict[str, Any]
) -> None:
    """Each titled western Region has its Title, marked for the fewest players that use it, and
    at least 3 provinces in play whenever its Title is, as every Title of this box's board has:
    a Title never goes to a Capital alone, nor to one province and a disc (the balance figures of
    the data README)."""
    for title in raw["titles"]:
        where = f"{FILE}: title {title['id']}"
        region = regions.get(title["region"])
        if title["id"] in titles or region is None or region["title"] != title["id"]:
            _fail(where, "a new Title whose Region names it")
        if title["players"] not in COUNTS or not 1 <= title["vp"] <= 10:
            _fail(where, "marked 5 to 8, worth 1 to 10 VP")
        for n in (c for c in COUNTS if c >= title["players"]):
            live = [p for p in in_play(joined, n) if joined[p]["region"] == title["region"]]
            if len(live) < TITLE_PROVINCES:
                _fail(where, f"{n} players: fewer than {TITLE_PROVINCES} provinces in play")


def join(
    raw: dict[str, Any],
    provinces: dict[str, Any],
    regions: dict[str, Any],
    rulers: dict[str, Any],
    titles: dict[str, Any],
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], dict[str, Any], dict[str, Any]]:
    """Check the western half and return (provinces, regions, rulers, titles, tokens) joined."""
    m02 = raw["m02_great_domain"]
    _table(m02, raw["board"])
    regions, joined = _joined_map(m02, provinces, regions)
    _rulers(m02, joined, rulers, {c["id"]: c for c in raw["culture_cards"]})
    _titles(m02, regions, titles, joined)
    named = set(titles) | {t["id"] for t in m02["titles"]}
    for rid, region in regions.items():
        if region["title"] is not None and region["title"] not in named:
            _fail(f"{FILE}: region {rid}", f"unknown Title {region['title']!r}")
    tokens = {t["id"]: t for t in m02["tokens"]}
    base_tokens = {t["id"] for t in raw["barbarians"]["tokens"]}
    want = {f"B{n:02d}" for n in range(len(base_tokens) + 1, len(base_tokens) + TOKENS + 1)}
    if set(tokens) != want:
        _fail(f"{FILE}: tokens", f"expected the companion box's {TOKENS} tokens {min(want)}..")
    for tid, token in tokens.items():  # the companion box holds the same mix, token by token
        twin = next(
            t for t in raw["barbarians"]["tokens"] if int(t["id"][1:]) == int(tid[1:]) - TOKENS
        )
        if {**token, "id": twin["id"]} != twin:
            _fail(f"{FILE}: {tid}", f"shows what {twin['id']} shows")
    for n in COUNTS:
        live = in_play(joined, n)
        if len(live) > len(base_tokens) + len(tokens) + n:
            _fail(FILE, f"{n} players: more provinces than Barbarian tokens and Capitals")
    west_rulers = {r["id"]: r for r in m02["rulers"]}
    west_titles = {t["id"]: t for t in m02["titles"]}
    return joined, regions, rulers | west_rulers, titles | west_titles, tokens
