"""The Distance Fire round (FL-COMBAT-DF): targets, one 2d6 per shooter, hits become wounds."""

from __future__ import annotations

from typing import Any

from rules.core.engine import Option
from rules.feudal import combatants, handlers, instants
from rules.feudal.handlers import option
from rules.feudal.state import Ctx, Frame, card


def shooters(frame: Frame, side: str) -> list[dict[str, Any]]:
    """Combatants with DF ability: a non-empty DF string after additions (FL-COMBAT-DF-02)."""
    return [c for c in frame[side] if combatants.thresholds(c, "df")]


def _aim(ctx: Ctx, frame: Frame, side: str, after: str) -> None:
    """Every shooter must have a target; the only possible one is taken at once (DF-03, DF-06)."""
    enemies = frame[combatants.other(side)]
    for c in shooters(frame, side):
        if c["tgt"] is None or combatants.find(frame, c["tgt"]) is None:
            if len(enemies) == 1:
                c["tgt"] = enemies[0]["uid"]
                continue
            # Each owner aims his own shooters, an aiding partner too (FL-TEAM-04, A-30).
            ctx.push({"kind": "df_target", "seat": c["owner"], "uid": c["uid"]})
            return
    frame["stage"] = after


def _fire(ctx: Ctx, frame: Frame, side: str) -> None:
    """Roll 2d6 for each shooter; one hit per threshold met (FL-COMBAT-DF-04/05, DF-07)."""
    for c in shooters(frame, side):
        hits, rolled = combatants.roll_for(ctx, frame, side, c, "df")
        found = combatants.find(frame, c["tgt"])
        assert found is not None
        found[1]["hits"] += hits
        if hits:
            found[1]["hit_by"] = c["owner"]
        ctx.log(
            "FL-COMBAT-DF-04",
            f"{card(c['card'])['name']} fires at {card(found[1]['card'])['name']}: "
            f"{rolled} → {combatants.plural(hits, 'hit')}.",
        )


def _fire_d(ctx: Ctx, frame: Frame) -> None:
    """Defenders fire even when already carrying lethal hits (FL-COMBAT-DF-08)."""
    _fire(ctx, frame, "d")
    instants.open_window(ctx, "after_df", frame["att"])


handlers.combat_stage("df_aim_a")(lambda ctx, frame: _aim(ctx, frame, "a", "df_fire_a"))
handlers.combat_then("df_fire_a", "df_aim_d", lambda ctx, frame: _fire(ctx, frame, "a"))
handlers.combat_stage("df_aim_d")(lambda ctx, frame: _aim(ctx, frame, "d", "df_fire_d"))
handlers.combat_then("df_fire_d", "df_wounds", _fire_d)


@handlers.combat_stage("df_wounds")
def _wounds(ctx: Ctx, frame: Frame) -> None:
    """No blocks in DF unless a card allows them; hits become wounds; the dead leave (DF-09/10)."""
    for side in ("a", "d"):
        for c in frame[side]:
            _df_block(ctx, c)
    combatants.wound(ctx, frame, "FL-COMBAT-DF-10")
    frame["stage"] = "close" if not frame["a"] or not frame["d"] else "cc_round"


def _df_block(ctx: Ctx, c: dict[str, Any]) -> None:
    """Card text may allow blocks in DF (FL-COMBAT-DF-09, FL-SOLO-19)."""
    string = [t for e in combatants.effects(c) if e["kind"] == "df_block" for t in e["blocks"]]
    if not string or not c["hits"]:
        return
    blocks, rolled = combatants.block_roll(ctx, c, sorted(string))
    ctx.log(
        "FL-COMBAT-DF-09",
        f"{card(c['card'])['name']} blocks in DF: {rolled} → {combatants.plural(blocks, 'block')}.",
    )


def _target_options(ctx: Ctx, frame: Frame, seat: int) -> list[Option]:
    fight, side, _ = combatants.named(ctx, frame)
    return [
        option({"uid": e["uid"]}, f"Shoot at {card(e['card'])['name']}")
        for e in fight[combatants.other(side)]
    ]


handlers.decision(
    "df_target",
    "FL-COMBAT-DF-03",
    lambda ctx, f, s: "Choose the DF target of one of your combatants",
    _target_options,
    combatants.answer_into("tgt"),
)
