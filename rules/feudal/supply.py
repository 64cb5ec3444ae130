"""Supply cards (FL-SUPPLY) and Constants (FL-CONST, A-20), played in the Action phase."""

from __future__ import annotations

from rules.core.engine import Option
from rules.feudal.arming import affordable, pay
from rules.feudal.handlers import option
from rules.feudal.state import Ctx, card, class_ok


def open_locations(ctx: Ctx, seat: int) -> list[int]:
    """Unsacked locations without a Supply card (FL-SUPPLY-03)."""
    return [
        i for i, loc in enumerate(ctx.seat(seat)["locs"]) if loc["token"] and loc["supply"] is None
    ]


def options(ctx: Ctx, seat: int) -> list[Option]:
    """Supply and Constant plays open to the seat now; a class-limited card needs a character
    of that class in the active area (FL-SUPPLY-04; A-20 reads Constants the same way)."""
    me = ctx.seat(seat)
    classes = [card(ch["card"])["class"] for ch in me["area"]]
    sites = card(me["locations"])["sites"]
    opts = []
    for cid in sorted(set(me["hand"])):
        spec = card(cid)
        if (
            spec["type"] == "supply"
            and affordable(ctx, seat, cid)
            and class_ok(ctx, spec["class"], classes)
        ):
            for i in open_locations(ctx, seat):
                opts.append(
                    option(
                        {"do": "supply", "card": cid, "loc": i},
                        f"Play {spec['name']} at {sites[i]['name']}",
                    )
                )
        elif (
            spec["type"] == "constant"
            and affordable(ctx, seat, cid)
            and class_ok(ctx, spec["class"], classes)  # a class limit needs such a character
        ):
            opts.append(
                option({"do": "constant", "card": cid}, f"Play the Constant {spec['name']}")
            )
    return opts


def play_supply(ctx: Ctx, seat: int, cid: str, loc: int) -> None:
    """Attach a Supply card to a location; it is worth 1 VP while there (FL-SUPPLY-02/06)."""
    pay(ctx, seat, cid)
    me = ctx.seat(seat)
    me["hand"].remove(cid)
    me["locs"][loc]["supply"] = cid
    site = card(me["locations"])["sites"][loc]["name"]
    ctx.log("FL-SUPPLY-03", f"{ctx.name(seat)} plays {card(cid)['name']} at {site}.")


def play_constant(ctx: Ctx, seat: int, cid: str) -> None:
    """A Constant stays in play as a lasting effect (A-20)."""
    pay(ctx, seat, cid)
    me = ctx.seat(seat)
    me["hand"].remove(cid)
    me["constants"].append(cid)
    ctx.log("FL-CONST-01", f"{ctx.name(seat)} plays the Constant {card(cid)['name']}.")
