"""Binding agreements (20.3, 20.44) and Diplomatic Isolation of the Turk (31.7).

The engine records that an agreement exists, between whom and since when; its terms are the
Players' own (the site keeps their text). What the rules enforce is enforced here: consent of
both parties, cancellation by mutual consent, release on a Leader's death heirless, the
excommunication Parley of an injured party against a Christian breaker (a tie excommunicates),
and, in Twilight, the once-a-Round Parley against a Christian Leader's agreement with the Turk.
"""

from __future__ import annotations

from typing import Any

from rules.core.engine import Option
from rules.core.words import counted
from rules.ema import handlers, parley
from rules.ema.handlers import option
from rules.ema.state import Ctx, Frame, in_play, is_christian


def all_of(ctx: Ctx) -> list[dict[str, Any]]:
    """The agreements in force (a list kept in the state)."""
    found: list[dict[str, Any]] = ctx.s.setdefault("agreements", [])
    return found


def between(ctx: Ctx, seat: int) -> list[dict[str, Any]]:
    """Agreements the seat is party to."""
    return [a for a in all_of(ctx) if seat in a["parties"]]


def other_party(agreement: dict[str, Any], seat: int) -> int:
    """The party that is not this seat."""
    return int(next(p for p in agreement["parties"] if p != seat))


def _may_call(ctx: Ctx, seat: int) -> bool:
    return is_christian(ctx, seat) and not ctx.seat(seat)["excom"]


def _turkish(ctx: Ctx, agreement: dict[str, Any]) -> int | None:
    """The Christian party of an agreement with the Turk, if any (31.7)."""
    if "diplomatic_isolation" not in ctx.s["special"]:
        return None
    parties = agreement["parties"]
    if not any(ctx.seat(p)["empire"] == "TUR" for p in parties):
        return None
    return next((p for p in parties if is_christian(ctx, p)), None)


def menu(ctx: Ctx, seat: int, capped: set[str] | frozenset[str] = frozenset()) -> list[Option]:
    """Main-menu options on agreements: propose, cancel, denounce a breach, the 31.7 Parley;
    none of the kinds (of `turn.CAPS`) asked as often as a turn allows are `capped`."""
    opts = (
        []
        if "agree" in capped
        else [
            option({"do": "agree", "partner": p}, f"Propose a binding agreement to {ctx.name(p)}")
            for p in in_play(ctx.s)
            if p != seat
        ]
    )
    for a in between(ctx, seat):
        other = other_party(a, seat)
        if "cancel" not in capped:
            opts.append(
                option(
                    {"do": "cancel_agreement", "id": a["id"]},
                    f"Propose to {ctx.name(other)} to cancel agreement {a['id']}",
                )
            )
        if _may_call(ctx, seat) and is_christian(ctx, other) and not ctx.seat(other)["excom"]:
            opts.append(
                option(
                    {"do": "breach", "id": a["id"]},
                    f"{ctx.name(other)} broke agreement {a['id']}: call an excommunication Parley",
                )
            )
    for a in all_of(ctx):
        christian = _turkish(ctx, a)
        if (
            christian is None
            or christian == seat
            or not _may_call(ctx, seat)
            or ctx.seat(christian)["excom"]
        ):
            continue
        if f"turk:{a['id']}" not in ctx.s["parleys_round"]:
            opts.append(
                option(
                    {"do": "turk_parley", "id": a["id"]},
                    f"Call a Parley on the agreement of {ctx.name(christian)} with the Turk",
                )
            )
    return opts


def choose(ctx: Ctx, seat: int, action: dict[str, Any]) -> None:
    """Carry out a main-menu choice on agreements."""
    do = action["do"]
    if do == "agree":
        ctx.push({"kind": "agree_reply", "seat": action["partner"], "from": seat, "id": None})
        return
    agreement = next(a for a in all_of(ctx) if a["id"] == action["id"])
    if do == "cancel_agreement":
        ctx.push(
            {
                "kind": "agree_reply",
                "seat": other_party(agreement, seat),
                "from": seat,
                "id": agreement["id"],
            }
        )
    elif do == "breach":
        all_of(ctx).remove(agreement)  # 20.54: called or not, the breach is settled once
        parley.call(ctx, "breach", seat, other_party(agreement, seat), [])
    else:
        ctx.s["parleys_round"].append(f"turk:{agreement['id']}")
        parley.call(ctx, "turk", seat, _turkish(ctx, agreement), [])


def _reply_text(ctx: Ctx, frame: Frame) -> str:
    if frame["id"] is None:
        return f"{ctx.name(frame['from'])} proposes a binding agreement to you"
    return f"{ctx.name(frame['from'])} proposes to cancel agreement {frame['id']} by mutual consent"


def _accepted(ctx: Ctx, frame: Frame) -> None:
    seat, proposer = frame["seat"], frame["from"]
    if frame["id"] is None:
        ident = int(ctx.s.get("agreements_made", 0)) + 1
        ctx.s["agreements_made"] = ident
        all_of(ctx).append(
            {"id": ident, "parties": sorted((seat, proposer)), "year": ctx.s["year"]}
        )
        ctx.log(
            "EMA-20.3", f"{ctx.name(proposer)} and {ctx.name(seat)} make binding agreement {ident}."
        )
        return
    ctx.s["agreements"] = [a for a in all_of(ctx) if a["id"] != frame["id"]]
    ctx.log("EMA-20.3", f"Agreement {frame['id']} is cancelled by mutual consent.")


handlers.reply(
    "agree_reply",
    "EMA-20.3",
    _reply_text,
    lambda ctx, f: f"{ctx.name(f['seat'])} declines.",
    _accepted,
)


def release(ctx: Ctx, seat: int) -> None:
    """A Leader dies heirless: every party to his agreements is freed (20.3, 19.1)."""
    gone = between(ctx, seat)
    if gone:
        ctx.s["agreements"] = [a for a in all_of(ctx) if seat not in a["parties"]]
        ctx.log(
            "EMA-20.3",
            f"The death of the Leader of {ctx.name(seat)} frees all parties of "
            f"{counted(len(gone), 'agreement')}.",
        )
