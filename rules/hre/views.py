"""Per-seat views: what one seat, or a spectator, may know (ARCHITECTURE §3, AMB-44)."""

from __future__ import annotations

from typing import Any

from rules.core.engine import State
from rules.hre.state import Ctx, army_limit


def _token_face(ctx: Ctx, barb: dict[str, Any] | None) -> dict[str, Any] | None:
    """Only the side facing up; the token's id would name its hidden side, so it is left out."""
    if barb is None:
        return None
    token = ctx.d.token_specs[barb["token"]]
    shown = token["units"] if barb["face"] == "units" else token["reward"]
    return {"face": barb["face"], "shows": shown}


def _trophy(ctx: Ctx, token: str) -> dict[str, Any]:
    spec = ctx.d.token_specs[token]
    return {"units": dict(spec["units"]), "reward": spec["reward"]}


def _seat_public(ctx: Ctx, seat: int) -> dict[str, Any]:
    me = ctx.seat(seat)
    return {
        "seat": seat,
        "ruler": me["ruler"],
        "vp": me["vp"],
        "gold": me["gold"],
        "res": dict(me["res"]),
        "hand_count": len(me["hand"]),
        "techs": [dict(t) for t in me["techs"]],
        "mil": {u: (dict(m) if m else None) for u, m in me["mil"].items()},
        "culture": me["culture"],
        "warehouse": me["warehouse"],
        "farms_track": me["farms_track"],
        "army_limit": army_limit(ctx.s, seat) if me["ruler"] else None,
        "discs": me["discs"],
        "total_discs": me["total_discs"],
        "exhausted": me["exhausted"],
        # Both sides of a trophy were seen in its battle; the faces are shown, never token ids.
        "trophies": [_trophy(ctx, t) for t in me["trophies"]],
        "out": me["out"],
    }


def _battle_view(frame: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """A battle in progress; hits assigned by the other side stay hidden until applied (AMB-23)."""

    def unit(u: dict[str, Any], side: int) -> dict[str, Any]:
        chooser = frame["att"] if side == 1 else frame["def"]
        shown = {k: u[k] for k in ("t", "tr", "own", "d", "dead")}
        if seat is not None and chooser == seat:
            shown["p"] = u["p"]
        return shown

    return {
        "attacker": frame["att"],
        "defender": frame["def"],
        "prov": frame["prov"],
        "origin": frame["origin"],
        "phase": frame["phase"],
        "rolls": frame["rolls"],
        "sides": [[unit(u, i) for u in side] for i, side in enumerate(frame["sides"])],
    }


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The state as one seat may see it; spectators (None) see no hand."""
    ctx = Ctx(state)
    provinces = {}
    for pid, here in state["prov"].items():
        provinces[pid] = {k: v for k, v in here.items() if k != "barb"}
        provinces[pid]["units"] = dict(here["units"])
        provinces[pid]["bld"] = list(here["bld"])
        provinces[pid]["barb"] = _token_face(ctx, here["barb"])
    battle = next((f for f in state["stack"] if f["kind"] == "battle"), None)
    top = state["stack"][-1] if state["stack"] else None
    return {
        "game": "hre",
        "players": state["players"],
        "seat": seat,
        "active": state["active"],
        "start": state["start"],
        "deciding": top["seat"] if top else None,
        # Which step a rival is on can depend on their hand (a Relic step only appears with a
        # Relic in hand), so only the deciding seat sees it.
        "deciding_kind": top["kind"] if top and top["seat"] == seat else None,
        "slots": [{"action": s["action"], "stack": list(s["stack"])} for s in state["slots"]],
        "offer": list(state["offer"]),
        "deck_count": len(state["deck"]),
        "discard": list(state["discard"]),
        "red_claimed": list(state["red_claimed"]),
        "churches": state["churches"],
        "cities": state["cities"],
        "titles": {k: dict(v) for k, v in state["titles"].items()},
        "rulers_open": list(state["rulers_open"]),
        "provinces": provinces,
        "seats": [_seat_public(ctx, i) for i in range(len(state["seats"]))],
        "hand": list(state["seats"][seat]["hand"]) if seat is not None else None,
        "battle": _battle_view(battle, seat) if battle else None,
        "end_triggered": state["end_triggered"],
        "over": state["over"],
    }
