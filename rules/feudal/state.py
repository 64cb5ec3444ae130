"""Shared helpers over the Feudal Lords state: the step context, cards, resources and draws."""

from __future__ import annotations

from typing import Any

from rules.core.frames import Frame as Frame  # re-exported: rule modules import it from here
from rules.core.frames import StepContext
from rules.core.words import counted
from rules.feudal.components import GROUPS, FeudalData, load

MAX_RES = 6
TYPE_NAMES = {
    "character": "Character",
    "skill": "Skill",
    "weapon": "Weapon",
    "supply": "Supply",
    "instant": "Instant",
    "victory": "Victory",
    "constant": "Constant",
}


def data() -> FeudalData:
    """The validated card data (loaded once)."""
    return load()


def card(cid: str) -> dict[str, Any]:
    """A card's static data by id."""
    found: dict[str, Any] = load().cards[cid]
    return found


class Ctx(StepContext[FeudalData]):
    """One step of the Feudal Lords engine: the state being changed, its data and the events."""

    __slots__ = ()

    static_data = staticmethod(load)  # the cached loader itself: no Python call per step

    def name(self, seat: int) -> str:
        """A seat's name in the log."""
        return f"Seat {seat + 1}"

    def opt(self, key: str) -> Any:
        """A game option (the ambiguity switches chosen at set-up)."""
        return self.s["options"][key]


def clamp(value: int) -> int:
    """Sup and Ld always stay within 0..6 (FL-GEN-10)."""
    return max(0, min(MAX_RES, value))


def draw(ctx: Ctx, seat: int, count: int, rule: str) -> int:
    """Draw up to count cards; an empty Stockpile gives nothing (FL-OOC-01/02)."""
    me = ctx.seat(seat)
    got = [me["stock"].pop() for _ in range(min(count, len(me["stock"])))]
    me["hand"].extend(got)
    if count:
        names = ", ".join(card(c)["name"] for c in got) or "nothing"
        ctx.log(
            rule,
            f"{ctx.name(seat)} draws {counted(len(got), 'card')}.",
            {seat: f"You draw {names}."},
        )
    return len(got)


def new_character(ctx: Ctx, cid: str) -> dict[str, Any]:
    """A character instance for the active area, with a fresh id and nothing attached."""
    uid = ctx.s["next_uid"]
    ctx.s["next_uid"] = uid + 1
    return {"uid": uid, "card": cid, "skills": [], "weapons": []}


def class_ok(ctx: Ctx, limit: str | None, classes: list[str]) -> bool:
    """Whether a class limit is met by one of the classes (A-10: XX means the whole group)."""
    if limit is None or ctx.s["starter"]:
        return True  # FL-GEN-02: starter games ignore class designations on these cards
    if limit.startswith("XX-"):
        return any(c in GROUPS[limit[3:]] for c in classes)
    return limit in classes


def area_classes(ctx: Ctx, seat: int) -> list[str]:
    """Classes of the seat's active area and of its combatants in a combat now (A-22)."""
    found = [card(ch["card"])["class"] for ch in ctx.seat(seat)["area"]]
    for frame in ctx.s["stack"]:
        if frame["kind"] == "combat":
            for side in ("a", "d"):
                found += [card(c["card"])["class"] for c in frame[side] if c["owner"] == seat]
    return found


def in_play_named(ctx: Ctx) -> set[str]:
    """Named characters anywhere in play: active areas and combat pools (FL-GEN-05)."""
    named: set[str] = set()
    for me in ctx.s["seats"]:
        named.update(ch["card"] for ch in me["area"])
    for frame in ctx.s["stack"]:
        if frame["kind"] == "combat":
            named.update(c["card"] for c in frame["a"] + frame["d"])
        elif frame["kind"] == "draft_marker":
            named.add(frame["card"])
    return {c for c in named if not card(c)["generic"]}


def _ability_sources(me: dict[str, Any]) -> list[str]:
    """The cards whose abilities last: the leader, Constants in play, Artifacts at locations."""
    return [
        me["leader"],
        *me["constants"],
        *[loc["artifact"] for loc in me["locs"] if loc["artifact"]],
    ]


def abilities(ctx: Ctx, seat: int, kind: str) -> int:
    """Summed amounts of a seat's leader, Constant and Artifact abilities of one kind."""
    total = 0
    for cid in _ability_sources(ctx.seat(seat)):
        for effect in card(cid).get("effects", []):
            if effect["kind"] == kind:
                total += effect["amount"]
    return total


def send_value(ctx: Ctx, seat: int, side: str) -> int:
    """The leader's Attack Send or Defend Send with the leader's, Constants' and Artifacts'
    `send` effects (FL-COMBAT-SEND-02)."""
    me = ctx.seat(seat)
    key = "attack_send" if side == "attack" else "defend_send"
    bonus = 0
    for cid in _ability_sources(me):
        for effect in card(cid)["effects"]:
            if effect["kind"] == "send" and effect["side"] == side:
                bonus += effect["amount"]
    return int(card(me["leader"])[key]) + bonus


def min_hand(ctx: Ctx, seat: int) -> int:
    """The leader's Minimum Hand Size with card modifiers (FL-RES-01)."""
    me = ctx.seat(seat)
    return int(card(me["leader"])["min_hand"]) + abilities(ctx, seat, "min_hand")


def partner(ctx: Ctx, seat: int) -> int | None:
    """The seat's partner in team play (partners sit opposite: FL-TEAM-01)."""
    if ctx.s["mode"] != "teams":
        return None
    return (seat + 2) % int(ctx.s["players"])


def combat_frame(ctx: Ctx) -> Frame | None:
    """The combat in progress, if any."""
    for frame in reversed(ctx.s["stack"]):
        if frame["kind"] == "combat":
            found: Frame = frame
            return found
    return None


def abilities_roll(ctx: Ctx, seat: int, roll: str) -> int:
    """A seat's Constant and Artifact modifiers to its combatants' rolls of one kind."""
    total = 0
    for cid in _ability_sources(ctx.seat(seat)):
        for effect in card(cid).get("effects", []):
            if effect["kind"] == "side_roll" and effect["roll"] == roll:
                total += effect["amount"]
    return total
