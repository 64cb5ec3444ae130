"""The dice of a battle an attack would start, as a player counts them at the table (HRE BSEQ).

Each unit rolls one die in each phase it has a value for (Volley, Charge, Melee: HRE-BASE-BSEQ-03..05)
and hits on that value or more; a final 1 always misses (BSEQ-06), so each die hits with
(7 - max(value, 2)) in 6. In Melee each side adds +1 per Keep level it holds in the contested or
a neighbouring province (BSEQ-05). The attacker's dice are those of every unit in the province it
moves from (it may send fewer); the defender's are a player's units there, or the Barbarians'
shown on their token with the extra unit the attacker's trophies bring (BARB-03, -04). A token
still showing its reward hides its units, and the note says so. Technologies that add dice or
damage are left out.
"""

from __future__ import annotations

from typing import Any

from rules.hre.metadata import components

PHASES = ("volley", "charge", "melee")
UNITS = ("infantry", "archer", "cavalry")


def chance(value: int) -> int:
    """Percent chance that one die hits at this value (a final 1 misses)."""
    return round(100 * (7 - max(value, 2)) / 6)


def _stats(view: dict[str, Any], seat: int | None, unit: str) -> dict[str, Any]:
    data = components()
    if seat is None:
        found: dict[str, Any] = data.barbarian_units[unit]
        return found
    seats = view.get("seats", [])
    me = seats[seat] if seat < len(seats) else {}
    if "levels" in me and unit in me["levels"]:  # a module's own units (the Lordlings, M01)
        own: dict[str, Any] = me["levels"][unit]["stats"]
        return own
    mil = me.get("mil", {}).get(unit)
    if mil is None:
        base: dict[str, Any] = data.board["units"][unit]
        return base
    half: dict[str, Any] = data.cards[mil["card"]]["halves"][mil["half"]]
    return half


def _keeps(view: dict[str, Any], seat: int | None, prov: str) -> int:
    if seat is None:
        return 0
    provinces = view["provinces"]
    places = [prov, *[p for p in components().adjacent.get(prov, ()) if p in provinces]]
    return sum(int(provinces[p]["keep"]) for p in places if provinces[p]["owner"] == seat)


def counts(
    view: dict[str, Any], seat: int | None, units: dict[str, int]
) -> dict[str, dict[int, int]]:
    """Phase -> value -> how many dice roll at it, for these units of this seat (None: Barbarians)."""
    found: dict[str, dict[int, int]] = {}
    for phase in PHASES:
        for unit in UNITS:
            value = _stats(view, seat, unit).get(phase)
            if units.get(unit) and value is not None:
                by_value = found.setdefault(phase, {})
                by_value[int(value)] = by_value.get(int(value), 0) + int(units[unit])
    return found


def _text(found: dict[str, dict[int, int]], keep: int) -> str:
    parts = []
    for phase, by_value in found.items():
        dice = ", ".join(f"{n} at {v}+ ({chance(v)}%)" for v, n in sorted(by_value.items()))
        keeps = f" +{keep} from Keeps" if phase == "melee" and keep else ""
        parts.append(f"{phase} {dice}{keeps}")
    return "; ".join(parts) or "no dice"


def sides(
    view: dict[str, Any], seat: int, src: str, dest: str
) -> tuple[dict[str, dict[int, int]], dict[str, dict[int, int]] | None, int, int]:
    """Both sides' dice of an attack (the defender's None while a token hides them), and each
    side's Keep bonus in Melee."""
    provinces = view["provinces"]
    here, there = provinces[src], provinces[dest]
    mine = counts(view, seat, here["units"])
    barb = there.get("barb")
    if barb is not None:
        if barb["face"] != "units":
            return mine, None, _keeps(view, seat, dest), 0
        units = {u: int(barb["shows"].get(u, 0)) for u in UNITS}
        track = components().board["trophy_track"]
        extra = track[min(len(view["seats"][seat]["trophies"]), len(track) - 1)]["extra"]
        if extra:
            units[extra] += 1
        return mine, counts(view, None, units), _keeps(view, seat, dest), 0
    owner = there["owner"]
    units = dict(there["units"])  # with the Transient defenders of its Farms and City (PVP-02)
    units["infantry"] = units.get("infantry", 0) + int(there["farms"])
    units["archer"] = units.get("archer", 0) + (1 if there["city"] else 0)
    return mine, counts(view, owner, units), _keeps(view, seat, dest), _keeps(view, owner, dest)


def battle(view: dict[str, Any], seat: int, src: str, dest: str) -> str:
    """The note of one attack: both sides' dice by phase, each die's chance."""
    mine, theirs, keep, their_keep = sides(view, seat, src, dest)
    who = "the Barbarians'" if view["provinces"][dest].get("barb") is not None else "theirs"
    if theirs is None:
        return f"your dice: {_text(mine, keep)} — the Barbarians' units are hidden until the token is turned"
    return f"your dice: {_text(mine, keep)} — {who}: {_text(theirs, their_keep)}"


def notes(view: dict[str, Any], prompt: dict[str, Any] | None) -> list[str]:
    """One note per option: the dice of each attack a Manoeuvre offers ("" for a plain move)."""
    if not prompt or prompt.get("kind") != "move" or not isinstance(prompt.get("seat"), int):
        return [""] * len(prompt["options"]) if prompt else []
    seat, provinces = prompt["seat"], view.get("provinces", {})
    out = []
    for option in prompt["options"]:
        action = option["action"]
        note = ""
        if (
            isinstance(action, dict)
            and action.get("from") in provinces
            and action.get("to") in provinces
        ):
            there = provinces[action["to"]]
            hostile = there.get("barb") is not None or there["owner"] not in (None, seat)
            if hostile and "units" in provinces[action["from"]]:
                note = battle(view, seat, action["from"], action["to"])
        out.append(note)
    return out
