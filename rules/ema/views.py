"""Per-seat views: Year Cards, Holding cards and ballots of others stay hidden (ARCHITECTURE §3)."""

from __future__ import annotations

from typing import Any

from rules.core.engine import State
from rules.ema import endeavors, handlers, raiders, victory
from rules.ema.grand import is_grand
from rules.ema.state import Ctx, area_dict


def _played(me: dict[str, Any]) -> list[dict[str, Any]]:
    """Each Year Card turned up this Round with what it was used for, in the order played (public, 9.0 P6)."""
    uses = {u["number"]: u for u in me.get("card_uses", [])}
    out = []
    for number in me["revealed"]:
        use = uses.get(number, {})
        out.append(
            {
                "number": number,
                "use": use.get("use"),
                "endeavor": use.get("endeavor"),
                "target": use.get("target"),
            }
        )
    return out


def _seat_view(state: State, i: int, mine: bool) -> dict[str, Any]:
    me = state["seats"][i]
    shown = {k: v for k, v in me.items() if k not in ("hand", "years", "card_uses")}
    shown["st"] = dict(me["st"])
    shown["inplay"] = list(me["inplay"])
    shown["revealed"] = list(me["revealed"])
    shown["played"] = _played(me)
    shown["year_cards_face_down"] = len(
        me["years"]
    )  # hidden even from their holder until played (6.0)
    shown["hand_count"] = len(me["hand"])
    shown["hand"] = sorted(me["hand"]) if mine else None
    shown["vp"] = sum(
        victory.breakdown(state, i).values()
    )  # if the game ended now, from public facts (26.0)
    return shown


def _frame_view(frame: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """A stack frame without anything secret: ballots show only who has voted, and one's own."""
    if frame["kind"] != "parley":
        return {k: v for k, v in frame.items() if k not in ("queue",)}
    ballots = frame["ballots"]
    return {
        "kind": "parley",
        "type": frame["type"],
        "caller": frame["caller"],
        "other": frame["other"],
        "areas": list(frame["areas"]),
        "voters": list(frame["voters"]),
        "voted": sorted(int(k) for k in ballots),
        "influence": dict(frame.get("influence", {})),
        "my_ballot": ballots.get(str(seat)) if seat is not None else None,
    }


def _deciding_stack(state: State, seat: int | None) -> list[dict[str, Any]]:
    """Every pending decision, bottom first, as public as the top one (a Parley under its Influence
    declarations, an Endeavor's main menu under a Defense); the engine's own steps are left out."""
    return [_frame_view(f, seat) for f in state["stack"] if handlers.MACHINE.is_decision(f["kind"])]


def _endeavor(state: State) -> dict[str, Any] | None:
    """The announced Endeavor with its ER as the engine computes it (9.0 P4, 9.32, 13.0)."""
    en = state["endeavor"]
    if en is None:
        return None
    return {**en, "er": endeavors.announced_rating(Ctx(state), en)}


def _targets(state: State, seat: int | None) -> list[dict[str, Any]] | None:
    """For the seat choosing an Endeavor's Target: each Target's ER before gold and Defense (9.3)."""
    top = state["stack"][-1] if state["stack"] else None
    if (
        seat is None
        or top is None
        or top["kind"] != "declare"
        or top["seat"] != seat
        or top["stage"] != "target"
    ):
        return None
    ctx = Ctx(state)
    base = endeavors.declare_base(ctx, top)
    return [
        {"area": t, "er": endeavors.rating(ctx, seat, top["endeavor"], base, t)}
        for t in endeavors.declare_targets(ctx, top)
    ]


def _areas(state: State) -> dict[str, Any]:
    """Every Area's public state; with the optional rules, whose Magnate or Raider holds it and
    the colonization it is under (24.5, 24.13, 25.0)."""
    areas = {a: area_dict(h) for a, h in state["areas"].items()}
    for aid, key in state.get("npc_areas", {}).items():
        areas[aid]["npc"] = key
    for col in state.get("colonies", []):
        areas[col["area"]]["colony"] = {"seat": col["seat"], "points": col["points"]}
    return areas


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The state as one seat may see it; never the decks' order or the generator."""
    top = state["stack"][-1] if state["stack"] else None
    mine = seat is not None and 0 <= seat < len(state["seats"])
    return {
        "game": "ema",
        "scenario": state["slug"],
        "players": state["players"],
        "seat": seat,
        "year": state["year"],
        "round": state["round"],
        "rounds": state["rounds"],
        "order": list(state["order"]),
        "active": state["active"],
        "areas": _areas(state),
        "seats": [_seat_view(state, i, seat == i) for i in range(len(state["seats"]))],
        "year_deck_count": len(state["year_deck"]),
        "event_deck_count": len(state["event_deck"]),
        "event_discard": sorted(state["event_discard"]),
        "endeavor": _endeavor(state),
        "deciding": _frame_view(top, seat) if top else None,
        "black_death": state["black_death"],
        "options": dict(state["options"]),
        "over": state["over"],
        "agreements": [dict(a, parties=list(a["parties"])) for a in state.get("agreements", [])],
        "hand": sorted(state["seats"][seat]["hand"]) if mine and seat is not None else None,
        "current_event": state.get("current_event"),
        "deciding_stack": _deciding_stack(state, seat),
        "targets": _targets(state, seat),
        **optional_view(state),
    }


def optional_view(state: State) -> dict[str, Any]:
    """The public state of the optional rules in use (23.0-25.0) and of the Grand Scenario (32.0)."""
    found: dict[str, Any] = {}
    if is_grand(state):
        grand = state["grand"]
        found["grand"] = {
            "phase": grand["phase"],
            "numbers": dict(grand["numbers"]),
            "waiting": list(grand["waiting"]),
            "kingdoms": [dict(k, areas=list(k["areas"])) for k in grand.get("kingdoms", [])],
        }
    if state["options"].get("schism_crusades"):
        found["schism"] = state.get("schism", "schism")
        found["schism_row"] = state.get("schism_row")
    if state["options"].get("raiders_magnates"):
        found["magnates"] = [dict(m, defense_card=m["defense_card"] is not None)
                             for m in state.get("magnates", [])]  # fmt: skip
        found["npc_areas"] = dict(state.get("npc_areas", {}))
        found["raiders"] = {
            "scheduled": raiders.scheduled(int(state["year"])),
            "stopped": list(state.get("raiders_stopped", [])),
        }
    if state["options"].get("colonization"):
        found["colonies"] = [dict(c, bases=list(c["bases"])) for c in state.get("colonies", [])]
    return found
