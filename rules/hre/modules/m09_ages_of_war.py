"""Module 9, The Ages of War (HRE L702-733; reference §1.31): Combat cards and War tokens.

Cards and their benefits are authored (`rules/hre/data/m09_ages_of_war.json`, §2.10). State
`m09`: each seat's Combat `hands` (hidden) and `discards` (face up, HRE-M09-PLAY-03), the Title
cards still lying on their Titles (`titles`, HRE-M09-SETUP-03), the cards removed unseen
(`unseen`: the Common cards not dealt and the one each player threw away, HRE-M09-SETUP-01) and
face up (`out`: the Ruler and Title cards nobody plays with), the War tokens left (`tokens`,
HRE-M09-SETUP-04) and those each seat has won (`won`).

- A Manoeuvre attacking another player may play one Combat card: its two benefits go to the
  attacker for that battle, then it goes to the discard pile; an empty hand takes the pile back
  (HRE-M09-PLAY-02, -03).
- With the module every tie goes to the attacker while one of its units survives, Barbarians
  included (HRE-M09-PLAY-04), through the seat's `attacker_wins_tie` hook.
- An attacker who wins with a card gains a War token and 3 VP, the beaten defender the card's
  Reclaim bonus (HRE-M09-PLAY-05); a defender who wins gets nothing (HRE-M09-PLAY-06).
- A Title's card comes with the Title, from wherever it is (AMB-60), into hand or discard pile
  (HRE-M09-PLAY-01).
- The last War token taken triggers the end; the majority scores 9/6/3 (4 players), 9/4 (3),
  6 (2, kept from the book's table, AMB-60) (HRE-M09-END-01, -02).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.core import rng
from rules.core.engine import Option, State
from rules.core.errors import InvariantError
from rules.hre import handlers
from rules.hre.economy import gain
from rules.hre.handlers import option
from rules.hre.modules import category, declare, drop_unseen, effects, files, hook, majority, part
from rules.hre.state import Ctx, Frame, data, describe

DEALT = 2  # Common cards dealt to each player, one of them thrown away (L713)
LADDERS = {2: [6, 0], 3: [9, 4, 0], 4: [9, 6, 3, 0]}  # War token majority (L728-733)
KINDS = ("common", "title", "ruler")


def _check_card(where: str, card: dict[str, Any]) -> None:
    """Each card a kind, two benefits and a Reclaim bonus (L720, L723)."""
    if card["kind"] not in KINDS or len(card["benefits"]) != 2:
        raise ValueError(f"{where} needs a kind and two benefits (L720)")
    for b in card["benefits"]:
        effects.check(where, b)
    if not card["reclaim"]:
        raise ValueError(f"{where} has no Reclaim bonus (L723)")
    for alt in card["reclaim"]:
        effects.check(f"{where} reclaim", {"kind": "gain", "gain": alt})


BOOK = files.Book("m09_ages_of_war.json", "CW", 21, _check_card)
_raw, cards = BOOK.raw, BOOK.cards


@hook
def validate() -> None:
    """21 cards CW01-CW21: 8 Common, one per Title, one per Ruler (L706-711)."""
    BOOK.check()
    found = cards()
    kinds = [c["kind"] for c in found.values()]
    if (kinds.count("common"), kinds.count("title"), kinds.count("ruler")) != (8, 6, 7):
        raise ValueError("m09_ages_of_war.json: expected 8 Common, 6 Title and 7 Ruler cards")
    # this box's Titles and Rulers: Module 2's western half brings no Combat cards
    titles = sorted(t for t, spec in data().titles.items() if spec["players"] <= 4)
    rulers = sorted(r for r, spec in data().rulers.items() if spec["module"] != "M02")
    if sorted(c["title"] for c in found.values() if c["kind"] == "title") != titles:
        raise ValueError("m09_ages_of_war.json: one Title card for each Title")
    if sorted(c["ruler"] for c in found.values() if c["kind"] == "ruler") != rulers:
        raise ValueError("m09_ages_of_war.json: one Ruler card for each Ruler")


m09 = part("m09")


def _of(kind: str, key: str, value: str) -> str:
    return next(c for c, spec in cards().items() if spec["kind"] == kind and spec[key] == value)


@hook
def _setup(state: State) -> None:
    """Two Common cards each; Title cards on their Titles; the War tokens (SETUP-01, -03, -04)."""
    n = len(state["seats"])
    commons = sorted(c for c, spec in cards().items() if spec["kind"] == "common")
    rng.shuffle(state, commons)
    titles = {
        t: _of("title", "title", t) for t, spec in data().titles.items() if spec["players"] <= n
    }
    state["m09"] = {
        "hands": [sorted(commons[i * DEALT : (i + 1) * DEALT]) for i in range(n)],
        "discards": [[] for _ in range(n)],
        "titles": titles,
        "unseen": sorted(commons[n * DEALT :]),
        "out": sorted(
            c for c, s in cards().items() if s["kind"] == "title" and c not in titles.values()
        ),
        "tokens": int(_raw()["war_tokens"][str(n)]),
        "won": [0] * n,
    }
    handlers.after_setup(state, "m09_deal")


@handlers.once("m09_deal")
def _deal(ctx: Ctx, frame: Frame) -> None:
    """After the draft: each Ruler's card to its player, the rest out; then the throw-aways."""
    t = m09(ctx.s)
    drafted = [me["ruler"] for me in ctx.s["seats"]]
    for seat, ruler in enumerate(drafted):
        t["hands"][seat] = sorted([*t["hands"][seat], _of("ruler", "ruler", ruler)])
    unused = [c for c, s in cards().items() if s["kind"] == "ruler" and s["ruler"] not in drafted]
    t["out"] = sorted(t["out"] + unused)
    ctx.log(
        "HRE-M09-SETUP-02",
        "Every player takes the Combat card of their Ruler; the others leave the game.",
    )
    ctx.log(
        "HRE-M09-SETUP-03",
        f"A Combat card lies on each Title; {t['tokens']} War tokens wait beside the board.",
    )
    for seat in reversed(range(len(drafted))):
        ctx.push({"kind": "m09_drop", "seat": seat})


def label(cid: str) -> str:
    """A card's name and what it gives, for prompts and the log."""
    card = cards()[cid]
    return f"{card['name']} ({', '.join(effects.words(b) for b in card['benefits'])})"


def _drop_options(ctx: Ctx, frame: Frame) -> list[Option]:
    hand = m09(ctx.s)["hands"][frame["seat"]]
    return [
        option({"m09_drop": c}, f"Remove {label(c)}")
        for c in hand
        if cards()[c]["kind"] == "common"
    ]


def _drop_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    seat, card = frame["seat"], action["m09_drop"]
    words = f"{ctx.name(seat)} removes one of its two Common Combat cards unseen."
    drop_unseen(ctx, m09(ctx.s), seat, card, "HRE-M09-SETUP-01", words, cards()[card]["name"])


handlers.decision(
    "m09_drop",
    "HRE-M09-SETUP-01",
    lambda ctx, f: "Ages of War: remove one of your two Common Combat cards (unseen)",
    _drop_options,
    _drop_choose,
    once=True,
)


# ---------------------------------------------------------------- a Title's card


@hook
def _title_gained(ctx: Ctx, seat: int, tid: str) -> None:
    """The Title's card comes along from wherever it is (AMB-60); hand or pile (PLAY-01)."""
    t = m09(ctx.s)
    card = t["titles"].pop(tid, None) or _of("title", "title", tid)
    for other in range(len(t["hands"])):
        for pile in (t["hands"][other], t["discards"][other]):
            if card in pile:
                pile.remove(card)
                _refill(ctx, other)
    ctx.push({"kind": "m09_title", "seat": seat, "card": card})


def _title_options(ctx: Ctx, frame: Frame) -> list[Option]:
    name = cards()[frame["card"]]["name"]
    return [
        option({"m09_to": "hand"}, f"Take {name} into your Combat hand"),
        option({"m09_to": "discard"}, f"Put {name} on your Combat discard pile"),
    ]


def _title_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.s["stack"].pop()
    seat, card = frame["seat"], frame["card"]
    place = "hands" if action["m09_to"] == "hand" else "discards"
    m09(ctx.s)[place][seat] = sorted([*m09(ctx.s)[place][seat], card])
    where = "hand" if place == "hands" else "discard pile"
    ctx.log(
        "HRE-M09-PLAY-01",
        f"{ctx.name(seat)} takes the Title's Combat card {cards()[card]['name']} into its {where}.",
    )
    _refill(ctx, seat)


handlers.decision(
    "m09_title",
    "HRE-M09-PLAY-01",
    lambda ctx, f: "Ages of War: where does the Title's Combat card go?",
    _title_options,
    _title_choose,
)


def _refill(ctx: Ctx, seat: int) -> None:
    """No Combat card left in hand: the whole discard pile comes back (PLAY-03)."""
    t = m09(ctx.s)
    if t["hands"][seat] or not t["discards"][seat]:
        return
    t["hands"][seat], t["discards"][seat] = sorted(t["discards"][seat]), []
    ctx.log(
        "HRE-M09-PLAY-03",
        f"{ctx.name(seat)} has no Combat card in hand and takes back its discard pile.",
    )


# ---------------------------------------------------------------- playing a card in battle


def _battle_wrapper(ctx: Ctx, frame: Frame, inner: Callable[[Ctx, Frame], None]) -> None:
    """Before the first roll, the attacker may play a card; after the result it is discarded."""
    if "m09" not in ctx.s:
        inner(ctx, frame)
        return
    if "m09" not in frame:
        frame["m09"] = None
        seat = frame["att"]
        if frame["def"] is not None and seat is not None and m09(ctx.s)["hands"][seat]:
            ctx.push({"kind": "m09_play", "seat": seat})
            return
    finishing = frame["stage"] == "result"
    inner(ctx, frame)
    if finishing and frame["m09"] is not None:
        seat = frame["att"]
        m09(ctx.s)["discards"][seat] = sorted([*m09(ctx.s)["discards"][seat], frame["m09"]])
        _refill(ctx, seat)


def _play_options(ctx: Ctx, frame: Frame) -> list[Option]:
    hand = m09(ctx.s)["hands"][frame["seat"]]
    opts = [option({"m09_play": c}, f"Play {label(c)}") for c in hand]
    return [*opts, option({"m09_play": None}, "Play no Combat card")]


def _play_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    """The card's two benefits go to the attacker for this battle (PLAY-02)."""
    ctx.s["stack"].pop()
    card = action["m09_play"]
    if card is None:
        return
    seat = frame["seat"]
    battle = ctx.s["stack"][-1]
    m09(ctx.s)["hands"][seat].remove(card)
    battle["m09"] = card
    ctx.log("HRE-M09-PLAY-02", f"{ctx.name(seat)} plays the Combat card {label(card)}.")
    for b in cards()[card]["benefits"]:
        effects.apply(ctx, battle, 0, b, "HRE-M09-PLAY-02", " from the Combat card")


handlers.decision(
    "m09_play",
    "HRE-M09-PLAY-02",
    lambda ctx, f: "Ages of War: you may play a Combat card in this attack",
    _play_options,
    _play_choose,
)


def _wins_tie(ctx: Ctx, frame: dict[str, Any]) -> bool:
    """The attacker wins ties while one of its units is alive (PLAY-04)."""
    alive = any(not u["dead"] for u in frame["sides"][0])
    if alive:
        ctx.log("HRE-M09-PLAY-04", "A tie: with the Ages of War the attacker wins it.")
    return alive


@hook
def _battle_won(ctx: Ctx, frame: dict[str, Any]) -> None:
    """A War token and 3 VP; the beaten defender gets the Reclaim bonus (PLAY-05, END-01)."""
    card, att, dfn = frame.get("m09"), frame["att"], frame["def"]
    if card is None or dfn is None:
        return
    t = m09(ctx.s)
    vp = int(_raw()["vp_per_win"])
    ctx.seat(att)["vp"] += vp
    if t["tokens"] > 0:
        t["tokens"] -= 1
        t["won"][att] += 1
        ctx.log(
            "HRE-M09-PLAY-05", f"{ctx.name(att)} wins with a Combat card: a War token and +{vp} VP."
        )
    else:
        ctx.log("HRE-M09-END-01", f"{ctx.name(att)} scores {vp} VP; no War token is left to take.")
    alternatives = cards()[card]["reclaim"]
    if len(alternatives) == 1:
        gain(ctx, dfn, alternatives[0], "HRE-M09-PLAY-05", " as the Reclaim bonus")
    else:
        ctx.push({"kind": "m09_reclaim", "seat": dfn, "card": card})


def _reclaim_options(ctx: Ctx, frame: Frame) -> list[Option]:
    return [
        option({"m09_reclaim": i}, f"Reclaim bonus: gain {describe(alt)}")
        for i, alt in enumerate(cards()[frame["card"]]["reclaim"])
    ]


def _reclaim_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.s["stack"].pop()
    alt = cards()[frame["card"]]["reclaim"][action["m09_reclaim"]]
    gain(ctx, frame["seat"], alt, "HRE-M09-PLAY-05", " as the Reclaim bonus")


handlers.decision(
    "m09_reclaim",
    "HRE-M09-PLAY-05",
    lambda ctx, f: "Ages of War: choose your Reclaim bonus",
    _reclaim_options,
    _reclaim_choose,
)
handlers.MACHINE.wrap_step("battle", _battle_wrapper)


# ---------------------------------------------------------------- end, score, views, checks


@hook
def _triggers(ctx: Ctx) -> list[str]:
    return ["HRE-M09-END-01"] if m09(ctx.s)["tokens"] == 0 else []


def war_vp(state: State) -> dict[int, int]:
    """VP of the War token majority (END-02)."""
    won = m09(state)["won"]
    return majority(won, LADDERS[min(len(won), 4)])


@hook
def _view(state: State, seat: int | None, found: dict[str, Any]) -> None:
    """Hands are hidden, their sizes are not; discard piles and tokens are face up."""
    t = m09(state)
    found["ages_of_war"] = {
        "tokens": t["tokens"],
        "won": list(t["won"]),
        "hand_counts": [len(h) for h in t["hands"]],
        "discards": [list(d) for d in t["discards"]],
        "titles": dict(t["titles"]),
        "mine": list(t["hands"][seat]) if seat is not None else [],
        "playing": next(
            (f["m09"] for f in state["stack"] if f["kind"] == "battle" and f.get("m09")), None
        ),
    }


def _in_battle(state: State) -> list[str]:
    return [f["m09"] for f in state["stack"] if f["kind"] == "battle" and f.get("m09")]


@hook
def _determinize(state: State, seat: int) -> None:
    """Other seats' Common cards are re-dealt from every Common card the seat has not seen."""
    t = m09(state)
    others = [i for i in range(len(t["hands"])) if i != seat]
    common = [[c for c in t["hands"][i] if cards()[c]["kind"] == "common"] for i in others]
    pool = sorted(t["unseen"] + [c for hand in common for c in hand])
    rng.shuffle(state, pool)
    for i, mine in zip(others, common, strict=True):
        kept = [c for c in t["hands"][i] if cards()[c]["kind"] != "common"]
        t["hands"][i], pool = sorted(kept + pool[: len(mine)]), pool[len(mine) :]
    t["unseen"] = sorted(pool)


@hook
def _invariants(state: State) -> None:
    t = m09(state)
    everything = t["unseen"] + t["out"] + list(t["titles"].values()) + _in_battle(state)
    everything += [c for h in t["hands"] + t["discards"] for c in h]
    everything += [f["card"] for f in state["stack"] if f["kind"] == "m09_title"]
    if state["rulers_open"]:
        return  # still drafting: the Ruler cards are not dealt yet
    if sorted(everything) != sorted(cards()):
        raise InvariantError("Combat cards are not conserved")
    if t["tokens"] < 0 or t["tokens"] + sum(t["won"]) != _raw()["war_tokens"][str(len(t["won"]))]:
        raise InvariantError("War tokens are not conserved")


MODULE = declare(
    __name__, "M09", BOOK, attacker_wins_tie=_wins_tie, scores=category("war_tokens", war_vp)
)
