"""The chance of a Feudal Lords roll, as a player works it out at the table.

A draft (FL-DRAFT-04): one die, plus the Leadership paid as sway, must reach the character's
Control; a natural 1 fails (FL-DRAFT-06, A-12) unless a +1 marker rescues it afterwards, which the
chance shown here leaves out (it is offered, when it helps, after the roll).

A Lone combatant (FL-COMBAT-SEND-04): one die; the cost is Control minus the roll, at least 0,
and it is sent only if the Leadership in hand pays it (no natural-1 rule on this roll, A-12 (d);
exchanges and markers after the roll are left out).

A shot in Distance Fire (FL-COMBAT-DF-04, FL-STR-02): 2d6 plus the shooter's modifiers, one hit
per threshold of its DF string met; the target dies when its hits reach what Life it has left.
The modifiers are those printed on the cards in play: the shooter's own, its Skills' and
Weapons', the opposing pool's, its side's Constants, Artifacts and leader, the location's, and
the side's boost from a Victory card.
"""

from __future__ import annotations

from typing import Any

from rules.feudal.metadata import components


def draft(control: int, sway: int) -> dict[str, Any]:
    """{needs, percent, text}: the faces 2-6 that reach Control with the sway, over six."""
    hits = sum(1 for face in range(2, 7) if face + sway >= control)
    needs = max(2, control - sway)
    percent = round(100 * hits / 6)
    if hits == 0:
        return {"needs": None, "percent": 0, "text": "cannot succeed: 0%"}
    return {"needs": needs, "percent": percent, "text": f"needs {needs}+ on a die: {percent}%"}


def lone(control: int, ld: int) -> dict[str, Any]:
    """{needs, percent, text}: the faces whose cost (Control - face, at least 0) the Ld pays."""
    hits = sum(1 for face in range(1, 7) if max(0, control - face) <= ld)
    needs = max(1, control - ld)
    percent = round(100 * hits / 6)
    if hits == 0:
        return {"needs": None, "percent": 0, "text": f"your {ld} Ld cannot pay any roll: 0%"}
    if hits == 6:
        return {"needs": 1, "percent": 100, "text": f"your {ld} Ld pays any roll: 100%"}
    return {
        "needs": needs,
        "percent": percent,
        "text": f"your {ld} Ld pays on {needs}+: {percent}%",
    }


# How many of the 36 rolls of 2d6 make each total.
TWO_D6 = {total: 6 - abs(total - 7) for total in range(2, 13)}


def at_least(string: list[int], mod: int, wanted: int) -> int:
    """Percent chance that 2d6 + mod meets at least `wanted` thresholds of the string."""
    if wanted <= 0:
        return 100
    ways = sum(n for total, n in TWO_D6.items() if sum(total + mod >= t for t in string) >= wanted)
    return round(100 * ways / 36)


def _effects(c: dict[str, Any]) -> list[dict[str, Any]]:
    cards = components().cards
    found = list(cards[c["card"]]["effects"])
    for cid in c["skills"] + c["weapons"]:
        found += cards[cid]["effects"]
    return found


def _df_string(c: dict[str, Any]) -> list[int]:
    extra = [
        t for e in _effects(c) if e["kind"] == "string" and e["string"] == "df" for t in e["add"]
    ]
    return sorted([*components().cards[c["card"]]["df"], *extra])


def _df_mod(view: dict[str, Any], combat: dict[str, Any], side: str, c: dict[str, Any]) -> int:
    cards = components().cards
    other = combat["d" if side == "a" else "a"]
    total = sum(e["amount"] for e in _effects(c) if e["kind"] == "roll" and e["roll"] == "df")
    total += sum(
        e["amount"]
        for o in other
        for e in _effects(o)
        if e["kind"] == "enemy_roll" and e["roll"] == "df"
    )
    total += int(combat["boost"][side].get("df", 0))
    me = view["seats"][c["owner"]]
    sources = [
        me["leader"],
        *me["constants"],
        *[loc["artifact"] for loc in me["locs"] if loc["artifact"]],
    ]
    total += sum(
        e["amount"]
        for cid in sources
        for e in cards[cid].get("effects", [])
        if e["kind"] == "side_roll" and e["roll"] == "df"
    )
    if combat["fight"] != "intervention" and combat["site"] == "loc" and combat["loc"] is not None:
        site = cards[view["seats"][combat["target"]]["locations"]]["sites"][combat["loc"]]
        total += sum(
            e["amount"] for e in site["effects"] if e["kind"] == "all_roll" and e["roll"] == "df"
        )
    return int(total)


def _life_left(c: dict[str, Any]) -> int:
    life = components().cards[c["card"]]["life"] + sum(
        e["amount"] for e in _effects(c) if e["kind"] == "life"
    )
    return int(life) - int(c["wounds"]) - int(c["hits"])


def shot(view: dict[str, Any], seat: int) -> tuple[list[int], int, dict[int, str]] | None:
    """The shooter being aimed now (the seat's first with a DF string and no target, as the
    engine asks, FL-COMBAT-DF-03), its string and modifier, and a note per target's uid."""
    combat = view.get("combat")
    if not combat:
        return None
    for side in ("a", "d"):
        uids = {o["uid"] for s in ("a", "d") for o in combat[s]}
        for c in combat[side]:
            if c.get("owner") != seat or not _df_string(c) or c.get("tgt") in uids:
                continue
            string, mod = _df_string(c), _df_mod(view, combat, side, c)
            shown = "/".join(str(t) for t in string) + (f" {mod:+d}" if mod else "")
            first = at_least(string, mod, 1)
            out = {}
            for target in combat["d" if side == "a" else "a"]:
                left = max(1, _life_left(target))
                kill = at_least(string, mod, left)
                out[target["uid"]] = (
                    f"DF {shown} on 2d6: a hit {first}%, kills at {left} hit"
                    f"{'' if left == 1 else 's'}: {kill}%"
                )
            return string, mod, out
    return None


def notes(view: dict[str, Any], prompt: dict[str, Any] | None) -> list[str]:
    """One note per option of the prompt ("" where no roll is involved)."""
    if not prompt:
        return []
    seat = prompt.get("seat")
    aimed = (
        shot(view, seat) if prompt.get("kind") == "df_target" and isinstance(seat, int) else None
    )
    out = []
    for option in prompt["options"]:
        action = option["action"]
        note = ""
        if isinstance(action, dict) and action.get("do") == "draft":
            spec = components().cards.get(str(action.get("card")))
            if spec is not None and isinstance(action.get("sway"), int):
                note = draft(int(spec["control"]), action["sway"])["text"]
        elif isinstance(action, dict) and action.get("do") == "lone" and isinstance(seat, int):
            me = view["seats"][seat]
            character = next((c for c in me.get("area", []) if c["uid"] == action.get("uid")), None)
            if character is not None:
                note = lone(int(components().cards[character["card"]]["control"]), int(me["ld"]))[
                    "text"
                ]
        elif aimed is not None and isinstance(action, dict):
            note = aimed[2].get(int(action.get("uid", -1)), "")
        out.append(note)
    return out
