"""Action phase (FL-ACT): arm, play Supply cards and Constants, Instants, one combat."""

from __future__ import annotations

from typing import Any

from rules.core.engine import Option
from rules.feudal import arming, handlers, instants, supply
from rules.feudal.combat_pre import attack_options, start_attack
from rules.feudal.flow import turn_frame
from rules.feudal.handlers import option
from rules.feudal.state import Ctx, Frame


def _options(ctx: Ctx, frame: Frame, seat: int) -> list[Option]:
    opts = (
        arming.options(ctx, seat)
        + supply.options(ctx, seat)
        + instants.playable(ctx, seat, "action")
    )
    if not turn_frame(ctx)["combat"]:
        opts += attack_options(ctx, seat)  # FL-TURN-03: one combat per turn
    opts.append(option({"do": "end"}, "End the Action phase"))
    return opts


def _choose(ctx: Ctx, frame: Frame, seat: int, action: Any) -> None:
    do = action["do"]
    if do == "end":
        ctx.pop()
    elif do == "arm":
        arming.start(ctx, seat, action["card"])
    elif do == "supply":
        supply.play_supply(ctx, seat, action["card"], action["loc"])
    elif do == "constant":
        supply.play_constant(ctx, seat, action["card"])
    elif do == "instant":
        instants.play_in_window(
            ctx, seat, action, "action"
        )  # the others may answer it (FL-INST-04)
    else:
        turn_frame(ctx)["combat"] = True
        start_attack(ctx, seat, action["target"])


handlers.decision(
    "action",
    "FL-ACT-01",
    lambda ctx, f, s: "Action phase: arm, play cards, attack, or end",
    _options,
    _choose,
)
