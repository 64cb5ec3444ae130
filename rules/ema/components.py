"""Component data of EMA (map, Year and Event cards, tables, scenarios), validated at load."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data"
RULE_SUMMARIES = DATA / "rule_summaries.json"  # read by the site's rules page only
ENDEAVORS = ("conquest", "pillage", "ruling", "fortification", "diplomacy")
COLUMNS = ("result", "target", "base")
RELIGIONS = (
    "RC",
    "EO",
    "moslem_east",
    "moslem_iberian",
    "pagan_germanic",
    "pagan_norse",
    "pagan_wslav",
    "pagan_eslav",
    "pagan_sslav",
    "pagan_baltic",
    "pagan_other",
    "heretic",
)
EVENT_KINDS = (
    "plenty",
    "famine",
    "epidemic",
    "heresy",
    "heirless",
    "recognition",
    "dynastic",
    "influence",
    "coup",
    "demesne",
    "weapons",
    "tactics",
    "fervor",
)
TOKEN = re.compile(r"^(T/C|C|G|F|T|\+1|-1)(?:\((-?\d+)►\)|\(◄(-?\d+)\))?$")


class DataError(ValueError):
    """A data file that breaks the schema or contradicts the rulebook."""


@dataclass(frozen=True)
class EmaData:
    """All static data, with derived adjacency for fast lookups."""

    languages: dict[str, Any]
    areas: dict[str, Any]
    seas: dict[str, Any]
    land_adj: dict[str, tuple[str, ...]]
    area_seas: dict[str, tuple[str, ...]]
    sea_lands: dict[str, tuple[str, ...]]
    sea_adj: dict[str, tuple[str, ...]]
    year_cards: dict[int, Any]
    events: dict[str, Any]
    tables: dict[str, Any]
    scenarios: dict[str, Any]


def _read(name: str) -> Any:
    with open(DATA / name, encoding="utf-8") as handle:
        return json.load(handle)


def parse_result(text: str, column: str) -> list[dict[str, Any]]:
    """Year card cell in book notation (9.4) to results: effect, column, comparator, threshold."""
    out: list[dict[str, Any]] = []
    if text.strip() == "-":
        return out
    for token in text.split():
        match = TOKEN.match(token)
        if not match:
            raise DataError(f"year card result {token!r} is not in the book's notation (9.4)")
        effect, at_least, at_most = match.groups()
        if at_least is not None:
            out.append({"e": effect, "col": column, "cmp": ">=", "n": int(at_least)})
        elif at_most is not None:
            out.append({"e": effect, "col": column, "cmp": "<=", "n": int(at_most)})
        else:
            out.append({"e": effect, "col": column, "cmp": "auto", "n": 0})
    return out


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise DataError(message)


def _validate_map(raw: dict[str, Any]) -> None:
    langs, areas, seas = raw["languages"], raw["areas"], raw["seas"]
    for aid, area in areas.items():
        lang = area["language"]
        _check(lang in langs or lang.startswith("nonie:"), f"area {aid}: unknown language {lang}")
        _check(area["religion"] in RELIGIONS, f"area {aid}: unknown religion {area['religion']}")
        for key in ("population", "norm", "x", "y"):
            _check(isinstance(area[key], int), f"area {aid}: {key} must be an int")
        _check(-3 <= area["norm"] <= 2, f"area {aid}: norm {area['norm']} outside -3..+2")
    for a, b in raw["land_links"]:
        _check(a in areas and b in areas and a != b, f"bad land link {a}-{b}")
    for a, s in raw["land_sea_links"]:
        _check(a in areas and s in seas, f"bad land-sea link {a}-{s}")
    for s, t in raw["sea_links"]:
        _check(s in seas and t in seas and s != t, f"bad sea link {s}-{t}")
    flanders = areas.get("flanders", {})
    _check(
        flanders.get("population") == -1 and flanders.get("norm") == 2,
        "Flanders must have population -1 and norm +2 (3.12)",
    )
    seafaring = sorted(a for a, v in areas.items() if v["seafaring"])
    _check(
        seafaring == ["constantinople", "denmark", "lombardy", "norway", "sweden", "venice"],
        f"seafaring Areas must be those of 9.53, not {seafaring}",
    )
    _check(len(areas) == 77, f"the book names 77 Land Areas (7.3), the map has {len(areas)}")


def _validate_cards(cards: list[dict[str, Any]]) -> dict[int, Any]:
    _check(len(cards) == 56, f"there are 56 Year Cards (3.2), not {len(cards)}")
    parsed: dict[int, Any] = {}
    for card in cards:
        num = card["number"]
        _check(
            57 <= num <= 112 and num not in parsed, f"Year Card number {num} invalid or repeated"
        )
        _check(
            all(s in (1, 2, 3, 5, 9) for s in card["leader_checks"]),
            f"card {num}: bad leader checks",
        )
        rows = {}
        for endeavor in ENDEAVORS:
            row = card[endeavor]
            rows[endeavor] = [r for col in COLUMNS for r in parse_result(row[col], col)]
        parsed[num] = {
            "number": num,
            "checks": list(card["leader_checks"]),
            "rows": rows,
            "text": card,
        }
    return parsed


def _validate_events(cards: list[dict[str, Any]], areas: dict[str, Any]) -> dict[str, Any]:
    _check(len(cards) == 56, f"the Event deck has 56 cards (3.3), not {len(cards)}")
    out: dict[str, Any] = {}
    for card in cards:
        _check(card["kind"] in EVENT_KINDS, f"event card {card['id']}: unknown kind {card['kind']}")
        for area in card.get("areas", []):
            _check(area in areas, f"event card {card['id']}: unknown area {area}")
        out[card["id"]] = card
    return out


def _validate_scenarios(scenarios: dict[str, Any], areas: dict[str, Any]) -> None:
    for key, scen in scenarios.items():
        for emp in scen["empires"]:
            _check(
                emp["court"] in emp["areas"], f"scenario {key}: {emp['key']} court not in its areas"
            )
            for a in emp["areas"] + emp["unrest"] + emp["claims_extra"]:
                _check(a in areas, f"scenario {key}: unknown area {a}")
            for s in emp["stature"].values():
                _check(s in (1, 2, 3, 5, 9), f"scenario {key}: stature {s} not in 1,2,3,5,9 (8.1)")
        for a, ss in scen["initial_ss"].items():
            _check(a in areas, f"scenario {key}: unknown area {a}")
            _check(
                ss <= areas[a]["norm"] + 2,
                f"scenario {key}: {a} starts at {ss}, above Norm+2 (7.12)",
            )
        for a in list(scen["forts"]) + [x for v in scen["religion"].values() for x in v]:
            _check(a in areas, f"scenario {key}: unknown area {a}")


def _adjacency(raw: dict[str, Any]) -> tuple[dict[str, tuple[str, ...]], ...]:
    land: dict[str, list[str]] = {a: [] for a in raw["areas"]}
    area_seas: dict[str, list[str]] = {a: [] for a in raw["areas"]}
    sea_lands: dict[str, list[str]] = {s: [] for s in raw["seas"]}
    sea_adj: dict[str, list[str]] = {s: [] for s in raw["seas"]}
    for a, b in raw["land_links"]:
        land[a].append(b)
        land[b].append(a)
    for a, s in raw["land_sea_links"]:
        area_seas[a].append(s)
        sea_lands[s].append(a)
    for s, t in raw["sea_links"]:
        sea_adj[s].append(t)
        sea_adj[t].append(s)
    return tuple(
        {k: tuple(sorted(set(v))) for k, v in d.items()}
        for d in (land, area_seas, sea_lands, sea_adj)
    )


@cache
def load() -> EmaData:
    """Read and validate every data file once."""
    raw = _read("map.json")
    _validate_map(raw)
    cards = _validate_cards(_read("year_cards.json")["cards"])
    events = _validate_events(_read("event_cards.json")["cards"], raw["areas"])
    scenarios = _read("scenarios.json")["scenarios"]
    _validate_scenarios(scenarios, raw["areas"])
    land, area_seas, sea_lands, sea_adj = _adjacency(raw)
    return EmaData(
        raw["languages"],
        raw["areas"],
        raw["seas"],
        land,
        area_seas,
        sea_lands,
        sea_adj,
        cards,
        events,
        _read("tables.json"),
        scenarios,
    )
