"""Preparing for play (4.0): the scenario's Empires, Areas, markers, treasuries and decks."""

from __future__ import annotations

from typing import Any

from rules.core import rng
from rules.core.engine import State
from rules.ema import handlers
from rules.ema.claims import allowed
from rules.ema.state import CLAIMS, LANG, OWNER, REL, UNREST, Ctx, data, has

PAGAN_BY_LANGUAGE = {
    "old_norse": "pagan_norse",
    "west_slavonic": "pagan_wslav",
    "east_slavonic": "pagan_eslav",
    "south_slavonic": "pagan_sslav",
    "baltic": "pagan_baltic",
}


def pagan_kind(lang: str) -> str:
    """The Pagan Religion of an Area by its Language (22.3, 22.25, A-42)."""
    if lang in PAGAN_BY_LANGUAGE:
        return PAGAN_BY_LANGUAGE[lang]
    langs = data().languages
    return (
        "pagan_germanic" if lang in langs and langs[lang]["group"] == "germanic" else "pagan_other"
    )


def _pagan_of(lang: str, printed: str) -> str:
    """A-33/27.6: a scenario Language without a Pagan row (Bulgar) keeps the 7.3 group's kind (South Slavonic)."""
    return pagan_kind(
        lang if lang in PAGAN_BY_LANGUAGE or printed not in PAGAN_BY_LANGUAGE else printed
    )


def _areas(scen: dict[str, Any]) -> dict[str, Any]:
    """Every Land Area at its Norm with printed or overridden Language and Religion (4.0 P6, P7)."""
    out = {}
    for aid, area in sorted(data().areas.items()):
        lang = scen["language"].get(aid, area["language"])
        rel = area["religion"]
        for kind, listed in scen["religion"].items():
            if aid in listed:
                rel = _pagan_of(lang, area["language"]) if kind == "pagan" else kind
        # A row: owner, SS, Unrest, forts, Ties, Claims, partial results, Language, Religion,
        # conversion (rules.ema.state.OWNER …).
        out[aid] = [
            None,
            scen["initial_ss"].get(aid, area["norm"]),
            False,
            scen["forts"].get(aid, 0),
            0,
            0,
            [],
            lang,
            rel,
            None,
        ]
    return out


def _seat(scen: dict[str, Any], emp: dict[str, Any], areas: dict[str, Any]) -> dict[str, Any]:
    court = emp["court"]
    over = scen.get("leader_overrides", {}).get(emp["key"], {})
    return {
        "empire": emp["key"],
        "empire_name": emp["name"],
        "leader": emp["leader"],
        "st": dict(emp["stature"]),
        "court": court,
        "orig_court": court,
        "lang": over.get("language", areas[court][LANG]),
        "rel": over.get("religion", areas[court][REL]),
        "gold": data().tables["start_gold"],
        "hand": [],
        "inplay": [],
        "years": [],
        "revealed": [],
        "card_uses": [],
        "defenses": 0,
        "excom": False,
        "exile": False,
        "asylum": None,
        "vp_conv": 0,
        "taxed": False,
        "endeavors": 0,
        "heirless_guard": False,
        "handicap": scen["handicap"].get(emp["key"], 0),
        "checks": 0,
        "waive": [],
    }


def _place(state: State, scen: dict[str, Any], seat: int, emp: dict[str, Any]) -> None:
    """Possessions, Unrest and Claims of one Empire (4.0 P2, P5; 18.14 at set-up, A-34)."""
    ctx = Ctx(state)
    for aid in emp["areas"]:
        state["areas"][aid][OWNER] = seat
        state["areas"][aid][UNREST] = aid in emp["unrest"]
    wanted = (emp["areas"] if emp["claims_own"] else []) + emp["claims_extra"]
    skip = scen["claims_except"].get(emp["key"], [])
    for aid in wanted:
        if (
            aid not in skip
            and allowed(ctx, seat, aid)
            and not has(state["areas"][aid][CLAIMS], seat)
        ):
            state["areas"][aid][CLAIMS] |= 1 << seat


def new_state(
    seed: int, slug: str, number: str, players: int, options: dict[str, Any], empires: list[str]
) -> State:
    """The initial state, before the first Round is run."""
    scen = data().scenarios[number]
    chosen = [e for k in empires for e in scen["empires"] if e["key"] == k]
    areas = _areas(scen)
    state: State = {
        "game": "ema",
        "slug": slug,
        "scenario": number,
        "players": players,
        "options": dict(options),
        "rng": rng.seed_state(seed),
        "round": 1,
        "rounds": options.get("rounds") or scen["rounds"],
        "year": scen["start_year"],
        "areas": areas,
        "seats": [_seat(scen, e, areas) for e in chosen],
        "seafaring_extra": list(scen["seafaring_extra"]),
        "special": list(scen["special"]),
        "year_deck": [],
        "event_deck": [],
        "event_discard": [],
        "order": [],
        "active": None,
        "stack": [],
        "endeavor": None,
        "heresy": None,
        "black_death": False,
        "parleys_round": [],
        "over": False,
        "agreements": [],
        "agreements_made": 0,
        "current_event": None,
    }
    for seat, emp in enumerate(chosen):
        _place(state, scen, seat, emp)
    _decks(state, chosen)
    state["stack"] = [{"kind": "round", "phase": "start", "i": 0}]
    handlers.MACHINE.advance(Ctx(state))
    return state


def _decks(state: State, chosen: list[dict[str, Any]]) -> None:
    """The Event deck (A-30 option) less starting Holdings, which their Empires hold in play (31.7)."""
    events = data().events
    deck = [
        c
        for c, card in sorted(events.items())
        if state["options"]["event_deck"] == 56 or not card.get("authored")
    ]
    for seat, emp in enumerate(chosen):
        for kind in emp["holding"]:
            card = next(c for c in deck if events[c]["kind"] == kind)
            deck.remove(card)
            state["seats"][seat]["inplay"].append(card)
    rng.shuffle(state, deck)
    state["event_deck"] = deck
