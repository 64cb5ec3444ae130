"""Instants (FL-INST): explicit priority windows where each seat plays or passes, then LIFO.

A window is a decision frame: seats answer in turn from the one who has priority; a play
gives everyone another chance, and once every seat has passed in a row the Instants played
resolve last-first (FL-INST-05). An effect that contradicts one already resolved in the same
window (moving, opening or cancelling the same combat) does nothing: the last played wins.
"""

from __future__ import annotations

from typing import Any

from rules.core.engine import Option
from rules.feudal import dice, handlers
from rules.feudal.arming import affordable, pay
from rules.feudal.combatants import find, task_mod
from rules.feudal.handlers import option
from rules.feudal.state import (
    Ctx,
    Frame,
    area_classes,
    card,
    clamp,
    class_ok,
    combat_frame,
    draw,
    partner,
)

STOP_NAMES = {
    "react": "the defender's reaction",
    "before_df": "before Distance Fire",
    "after_df": "after the DF rolls",
    "cc_att_hits": "after the attackers' CC hits",
    "cc_def_hits": "after the defenders' CC hits",
    "before_end": "before End Combat",
    "action": "the Action phase",
}


def open_window(
    ctx: Ctx, stop: str, first: int, played: list[dict[str, Any]] | None = None
) -> None:
    """Push a priority window, seats in clockwise order from `first` (FL-INST-04, A-21).

    `played` holds an Instant already on the stack (one played in the Action phase): every
    seat, its player included, then passes or answers it before anything resolves.
    """
    n = int(ctx.s["players"])
    order = [(first + k) % n for k in range(n)]
    if ctx.opt("priority") == "holders":
        # Faster, but skipping a seat tells the table it holds no playable Instant (§5.2).
        order = [s for s in order if playable(ctx, s, stop)]
    if order:
        ctx.push(
            {
                "kind": "window",
                "seat": order[0],
                "stop": stop,
                "order": order,
                "turn": 0,
                "passes": 0,
                "played": list(played or []),
            }
        )
    elif played:
        resolve(ctx, played)


def play_in_window(ctx: Ctx, seat: int, action: dict[str, Any], stop: str) -> None:
    """An Instant played outside a window opens one, the next seat first, so others may respond
    before it resolves (FL-INST-04, FL-INST-05, FL-INST-06)."""
    play = _play(ctx, seat, action)
    open_window(ctx, stop, (seat + 1) % int(ctx.s["players"]), [play])


def playable(ctx: Ctx, seat: int, stop: str) -> list[Option]:
    """Instant plays open to the seat at this stop, one option per card and target."""
    me = ctx.seat(seat)
    opts: list[Option] = []
    classes: list[str] | None = None
    for cid in sorted(set(me["hand"])):
        spec = card(cid)
        if (
            spec["type"] != "instant"
            or stop not in spec["timing"]
            or not affordable(ctx, seat, cid)
        ):
            continue
        if spec["class"] is not None:
            classes = area_classes(ctx, seat) if classes is None else classes
            if not class_ok(ctx, spec["class"], classes):
                continue  # FL-INST-03: a character of the class in area or pool
        effects = spec["effects"]
        if any(not _targets(ctx, seat, e) for e in effects):
            continue  # every effect must have something to act on now
        for target, label in _targets(ctx, seat, lead_effect(effects)):
            opts.append(
                option(
                    {"do": "instant", "card": cid, "target": target}, f"Play {spec['name']}{label}"
                )
            )
    return opts


def lead_effect(effects: list[dict[str, Any]]) -> dict[str, Any]:
    """The effect whose target the player chooses: the first targeted one, else the first.

    The loader allows one target kind per Instant (components.TARGETED), so every targeted
    effect of the card acts on the same chosen target.
    """
    return next((e for e in effects if targeted(e)), effects[0])


def targeted(effect: dict[str, Any]) -> bool:
    """Whether the player names a target for this effect (a seat, a site, a side, a combatant)."""
    kind = effect["kind"]
    return kind in ("drain", "boost", "mend") or (kind == "relocate" and effect["to"] != "open")


def _targets(ctx: Ctx, seat: int, effect: dict[str, Any]) -> list[tuple[Any, str]]:
    """Legal targets of an Instant's effect now."""
    kind, combat = effect["kind"], combat_frame(ctx)
    if kind in ("gain", "draw"):
        return [(None, "")]
    if kind == "drain":
        # Never against oneself, nor against a partner in team play (FL-TEAM-04).
        mate = partner(ctx, seat)
        return [
            (t, f" on {ctx.name(t)}") for t in range(int(ctx.s["players"])) if t not in (seat, mate)
        ]
    if combat is None:
        return []
    if kind == "cancel" or (kind == "relocate" and effect["to"] == "open"):
        return [(None, "")] if combat["site"] == "loc" else []
    if kind == "relocate":
        sites = card(ctx.seat(combat["target"])["locations"])["sites"]
        return [(i, f" (to {s['name']})") for i, s in enumerate(sites) if i != combat["loc"]]
    if kind == "boost":
        return [("a", " for the attackers"), ("d", " for the defenders")]
    hit = [c for side in ("a", "d") for c in combat[side] if c["hits"] > 0]
    return [(c["uid"], f" on {card(c['card'])['name']}") for c in hit]


def _options(ctx: Ctx, frame: Frame, seat: int) -> list[Option]:
    return [option({"do": "pass"}, "Pass"), *playable(ctx, seat, frame["stop"])]


def _choose(ctx: Ctx, frame: Frame, seat: int, action: Any) -> None:
    order = frame["order"]
    frame["turn"] = (frame["turn"] + 1) % len(order)
    frame["seat"] = order[frame["turn"]]
    if action["do"] == "pass":
        frame["passes"] += 1
        if frame["passes"] >= len(order):
            ctx.pop()
            resolve(ctx, frame["played"])
        return
    frame["passes"] = 0
    frame["played"].append(_play(ctx, seat, action))


def _play(ctx: Ctx, seat: int, action: dict[str, Any]) -> dict[str, Any]:
    """Pay for an Instant and take it from the hand; it waits in a window until all pass (FL-INST-01)."""
    cid = action["card"]
    pay(ctx, seat, cid)
    ctx.seat(seat)["hand"].remove(cid)
    # no exchange in reaction to a loss of Sup (FL-GEN-13)
    drain = any(e["kind"] == "drain" for e in card(cid)["effects"])
    ctx.log("FL-INST-01", f"{ctx.name(seat)} plays the Instant {card(cid)['name']}.")
    return {"seat": seat, "card": cid, "target": action["target"], "drain": drain}


def resolve(ctx: Ctx, played: list[dict[str, Any]]) -> None:
    """Resolve last-played first, every effect of each card in its printed order; an effect
    moving, opening or cancelling a combat whose site a later Instant already set fizzles,
    while the card's other effects still happen (FL-INST-05)."""
    site_set = False
    for play in reversed(played):
        name = card(play["card"])["name"]
        sets_site = False
        for effect in card(play["card"])["effects"]:
            if effect["kind"] in ("relocate", "cancel"):
                if site_set:
                    ctx.log("FL-INST-05", f"{name}: overridden by a later Instant.")
                    continue
                sets_site = True
            _apply(ctx, play, effect)
        site_set = site_set or sets_site
        ctx.log("FL-INST-05", f"{name} ({ctx.name(play['seat'])}) takes effect.")
        ctx.seat(play["seat"])["discard"].append(play["card"])


def _apply(ctx: Ctx, play: dict[str, Any], effect: dict[str, Any]) -> None:
    """Carry out one effect of an Instant (FL-INST-07 for moving, opening or cancelling)."""
    seat, kind, target, combat = play["seat"], effect["kind"], play["target"], combat_frame(ctx)
    if kind == "gain":
        me = ctx.seat(seat)
        me["sup"], me["ld"] = clamp(me["sup"] + effect["sup"]), clamp(me["ld"] + effect["ld"])
    elif kind == "draw":
        draw(ctx, seat, effect["n"], "FL-INST-01")
    elif kind == "drain":
        victim = ctx.seat(target)
        victim["sup"] = clamp(victim["sup"] - effect["sup"])
    elif combat is None:
        return
    elif kind == "cancel":
        combat["site"] = "cancelled"
    elif kind == "relocate" and effect["to"] == "open":
        combat["site"] = "open"
    elif kind == "relocate":
        combat["loc"], combat["site"] = target, "loc"
    elif kind == "boost":
        boost = combat["boost"][target]
        boost[effect["roll"]] = boost.get(effect["roll"], 0) + effect["amount"]
    else:
        _mend(ctx, combat, target, effect)


def _mend(ctx: Ctx, combat: Frame, uid: int, effect: dict[str, Any]) -> None:
    """A Task roll: a natural 1 fails; the location's Task modifier applies (A-12, A-13)."""
    found = find(combat, uid)
    if found is None:
        return
    roll = dice.d6(ctx.s)
    total = roll + task_mod(ctx, combat)
    ok = roll != 1 and total >= effect["task"]
    ctx.log("FL-GEN-08", f"Task roll {roll} (modified {total}): {'success' if ok else 'failure'}.")
    if ok:
        found[1]["hits"] -= min(effect["amount"], found[1]["hits"])


handlers.decision(
    "window",
    "FL-INST-04",
    lambda ctx, f, s: f"Play an Instant {STOP_NAMES[f['stop']]}, or pass",
    _options,
    _choose,
)
