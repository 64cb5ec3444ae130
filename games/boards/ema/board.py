"""The EMA board: Area registers joined by their lines, as the printed map draws them, from a seat's view.

Only the engine's per-seat view is read, so nothing hidden can reach the page: Year Cards arrive as
counts, other seats' Holding cards as counts, ballots as who has voted. Where the prompt chooses an
Area, its register carries the indices of the options naming it (the same choices stay buttons in
the prompt bar), and when the choice is an Endeavor's Target the register shows the ER it would have.
"""

from __future__ import annotations

from typing import Any

from games.boards.common import Prompt, View, seat_mark
from games.boards.common import pick as _pick
from games.boards.ema import er as ema_er
from games.boards.ema import layout as ema_layout
from games.boards.ema import odds as ema_odds
from games.boards.ema import tableau as ema_tableau
from rules.ema.metadata import components

RELIGIONS = {
    "RC": "RC",
    "EO": "EO",
    "moslem_east": "Moslem",
    "moslem_iberian": "Moslem (Iberian)",
    "heretic": "Heretic",
}
LANGUAGE_SHORT = {
    "anglo_saxon": "Anglo-Sax.",
    "old_high_german": "O.H.German",
    "old_saxon": "Old Saxon",
    "old_norse": "Old Norse",
    "low_frankish": "Low Frank.",
    "langue_doc": "Langue d'Oc",
    "langue_doil": "Langue d'Oïl",
    "north_italic": "N. Italic",
    "south_italic": "S. Italic",
    "east_slavonic": "E. Slavonic",
    "west_slavonic": "W. Slavonic",
    "south_slavonic": "S. Slavonic",
}
RELIGION_SHORT = {
    "RC": "RC",
    "EO": "EO",
    "moslem_east": "Mos",
    "moslem_iberian": "Mos",
    "heretic": "Her",
}
AREA_KEYS = ("target", "base", "area", "court", "claim")
SQUEEZE_AT = 12  # characters of a name that fit the register at its font size


def option_area(action: Any) -> str | None:
    """The Area an option names, if any."""
    if not isinstance(action, dict):
        return None
    areas = components().areas
    for key in AREA_KEYS:
        if isinstance(action.get(key), str) and action[key] in areas:
            return str(action[key])
    return None


def picks(prompt: dict[str, Any] | None) -> dict[str, list[int]]:
    """Area id → indices of the prompt options that choose it."""
    found: dict[str, list[int]] = {}
    for i, opt in enumerate(prompt["options"] if prompt else []):
        aid = option_area(opt["action"])
        if aid is not None:
            found.setdefault(aid, []).append(i)
    return found


def religion_name(rel: str) -> str:
    """A Religion as players say it."""
    return RELIGIONS.get(rel, "Pagan" if rel.startswith("pagan") else rel)


def language_name(lang: str) -> str:
    """A Language as players say it; non-Indo-European ones by their people."""
    langs = components().languages
    if lang in langs:
        return str(langs[lang]["name"])
    return lang.split(":", 1)[-1].replace("_", " ").title() + " (non-IE)"


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def _badges(here: dict[str, Any], population: int) -> list[dict[str, Any]]:
    """Small markers along the register's foot: forts, Unrest, Claims, Ties, C results, conversion."""
    out: list[dict[str, Any]] = []
    if here["fort"]:
        out.append(
            {
                "kind": "fort",
                "label": f"F{here['fort']}",
                "marks": [],
                "title": f"Fortification {here['fort']}",
            }
        )
    if here["unrest"]:
        out.append({"kind": "unrest", "label": "U", "marks": [], "title": "Unrest"})
    if here["claims"]:
        out.append(
            {
                "kind": "claim",
                "label": "Cl",
                "marks": [seat_mark(s) for s in sorted(here["claims"])],
                "title": "Claims: " + ", ".join(f"seat {s + 1}" for s in sorted(here["claims"])),
            }
        )
    if here["ties"]:
        out.append(
            {
                "kind": "tie",
                "label": "T",
                "marks": [seat_mark(s) for s in sorted(here["ties"])],
                "title": "Diplomatic Ties: "
                + ", ".join(f"seat {s + 1}" for s in sorted(here["ties"])),
            }
        )
    need = max(1, population)
    totals: dict[int, int] = {}
    for p in here["partial"]:
        totals[p["seat"]] = totals.get(p["seat"], 0) + p["n"]
    for seat, n in sorted(totals.items()):
        out.append(
            {
                "kind": "partial",
                "label": f"{n}/{need}",
                "marks": [seat_mark(seat)],
                "title": f"Partial Conquest by seat {seat + 1}: {n} of {need} C results",
            }
        )
    if here.get("conv"):
        conv = here["conv"]
        out.append(
            {
                "kind": "conv",
                "label": f"✝{conv['n']}",
                "marks": [seat_mark(conv["seat"])],
                "title": f"Conversion by seat {conv['seat'] + 1}: {conv['n']} C result(s) so far",
            }
        )
    if here.get("npc"):
        npc = str(here["npc"])
        label, title = (
            ("Mag", "A Magnate's Area (24.5)")
            if npc.startswith("magnate")
            else ("Cru", "A Crusader State (23.32)")
            if npc == "crusade"
            else ("Vik", "Taken by the Vikings (24.13)")
        )
        out.append({"kind": "npc", "label": label, "marks": [], "title": title})
    if here.get("colony"):
        col = here["colony"]
        out.append(
            {
                "kind": "colony",
                "label": f"Col {col['points']}",
                "marks": [seat_mark(col["seat"])],
                "title": f"Colonized by seat {col['seat'] + 1}: {col['points']} points (25.0)",
            }
        )
    x = 3
    for badge in out:
        text_w = 5 + round(5.6 * len(badge["label"]))
        badge["x"], badge["w"] = x, text_w + 11 * len(badge["marks"]) + 1
        badge["marks"] = [{**m, "x": text_w + 11 * i} for i, m in enumerate(badge["marks"]) if m]
        x += badge["w"] + 2
    return out


def _relang(here: dict[str, Any]) -> str:
    """Religion and Language, short enough for the register."""
    rel = RELIGION_SHORT.get(here["rel"], "Pag" if here["rel"].startswith("pagan") else here["rel"])
    return f"{rel} · {LANGUAGE_SHORT.get(here['lang'], language_name(here['lang']).replace(' (non-IE)', '*'))}"


def _describe(spec: dict[str, Any], here: dict[str, Any], court_of: int | None) -> str:
    """One sentence for a tooltip and screen readers."""
    owner = f"seat {here['owner'] + 1}" if here["owner"] is not None else "Independent"
    parts = [
        f"{spec['name']}: {owner}",
        f"SS {_signed(here['ss'])} (Norm {_signed(spec['norm'])})",
        f"Population {_signed(spec['population'])}",
        f"{language_name(here['lang'])}, {religion_name(here['rel'])}",
    ]
    if court_of is not None:
        parts.insert(1, f"Court of seat {court_of + 1}")
    parts += [b["title"] for b in _badges(here, int(spec["population"]))]
    return "; ".join(parts)


def register(
    aid: str,
    here: dict[str, Any],
    courts: dict[str, int],
    pick: dict[str, Any] | None,
    er: dict[str, Any] | None,
    role: str | None,
) -> dict[str, Any]:
    """One Area register, ready to draw."""
    spec = components().areas[aid]
    cx, cy = ema_layout.centres()[aid]
    owner = seat_mark(here["owner"])
    name = str(spec["name"])
    return {
        "id": aid,
        "name": name,
        "squeeze": len(name) > SQUEEZE_AT - (2 if aid in courts else 0),
        "cx": cx,
        "cy": cy,
        "x": cx - ema_layout.REG_W // 2,
        "y": cy - ema_layout.REG_H // 2,
        "owner": owner,
        "fill": owner["tint"] if owner else "#fbf7ec",
        "court": aid in courts,
        "ss": _signed(here["ss"]),
        "ss_low": here["ss"] < 0,
        "norm": _signed(int(spec["norm"])),
        "pop": _signed(int(spec["population"])),
        "relang": _relang(here),
        "badges": _badges(here, int(spec["population"])),
        "pick": pick,
        "er": er,
        "role": role,
        "title": _describe(spec, here, courts.get(aid)),
    }


def seas() -> list[dict[str, Any]]:
    """The Sea Areas, named, where the layout puts them."""
    out = []
    for sid, spec in sorted(components().seas.items()):
        cx, cy = ema_layout.centres()[sid]
        out.append(
            {
                "id": sid,
                "name": spec["name"],
                "x": cx - ema_layout.SEA_W // 2,
                "tx": ema_layout.SEA_W // 2,
                "y": cy - ema_layout.SEA_H // 2,
                "cx": cx,
                "cy": cy,
            }
        )
    return out


def partial_markers(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Partial Conquest markers on the line from each Base to its Target (10.3)."""
    out = []
    for aid, here in sorted(view["areas"].items()):
        for p in here["partial"]:
            x, y = ema_layout.midpoint(p["base"], aid)
            (x1, y1), (x2, y2) = ema_layout.centres()[p["base"]], ema_layout.centres()[aid]
            out.append(
                {
                    "x": x,
                    "y": y,
                    "n": p["n"],
                    "mark": seat_mark(p["seat"]),
                    "x1": x1,
                    "y1": y1,
                    "x2": x2,
                    "y2": y2,
                    "title": f"{p['n']} C result(s) from {components().areas[p['base']]['name']} "
                    f"against {components().areas[aid]['name']}",
                }
            )
    return out


def target_ratings(
    view: dict[str, Any], prompt: dict[str, Any] | None
) -> dict[str, dict[str, Any]]:
    """For a prompt choosing an Endeavor's Target: the ER each Target would have (before gold), from the view."""
    frame = view.get("deciding")
    if not prompt or not frame or prompt["kind"] != "declare" or frame.get("kind") != "declare":
        return {}
    return ema_er.targets(view)


def _ratings_title(view: dict[str, Any]) -> str:
    """ "Pillage from Aquitaine", for the heading of the Target ratings."""
    frame = view["deciding"]
    kind = ema_er.KIND_NAMES.get(frame["endeavor"], frame["endeavor"])
    return f"{kind} from {components().areas[frame['base']]['name']}" if frame.get("base") else kind


def endeavor_arrow(view: dict[str, Any]) -> dict[str, Any] | None:
    """The announced Endeavor as an arrow from its Base to its Target, in the active seat's colour."""
    en = view.get("endeavor")
    if not en or not en.get("base") or en["base"] == en["target"]:
        return None
    (x1, y1), (x2, y2) = ema_layout.centres()[en["base"]], ema_layout.centres()[en["target"]]
    dx, dy = x2 - x1, y2 - y1
    # Stop at the register's edge, so the arrowhead stays visible above the box.
    t = max(
        0.0,
        1
        - 1 / max(abs(dx) / (ema_layout.REG_W / 2 + 6), abs(dy) / (ema_layout.REG_H / 2 + 6), 1.0),
    )
    return {
        "x1": x1,
        "y1": y1,
        "x2": round(x1 + dx * t),
        "y2": round(y1 + dy * t),
        "mark": seat_mark(en["seat"]),
    }


GROUP_NAMES = {
    "germanic": "Germanic",
    "romanic": "Romance",
    "slavonic": "Slavonic",
    "celtic": "Celtic",
    "hellenic": "Greek",
    "baltic": "Baltic",
    "turkish": "Turkish",
    "other": "other (non-Indo-European)",
}


def pages(prompt: dict[str, Any] | None) -> list[dict[str, Any]]:
    """A long Area list split by language group ({"page": g}, or a Diplomacy Target's {"group": g}):
    each group as a readable choice, with the option it answers."""
    out = []
    for i, opt in enumerate(prompt["options"] if prompt else []):
        action = opt["action"]
        if isinstance(action, dict) and len(action) == 1:
            group = action.get("page", action.get("group"))
            if isinstance(group, str):
                out.append(
                    {
                        "index": i,
                        "group": group,
                        "name": f"{GROUP_NAMES.get(group, group.title())} languages",
                    }
                )
    return out


def board_context(view: View, prompt: Prompt | None) -> dict[str, Any]:
    """Map, tracks, cards and seat summaries for one viewer."""
    chosen = picks(prompt)
    ratings = target_ratings(view, prompt)
    courts = {s["court"]: i for i, s in enumerate(view["seats"]) if s["court"]}
    en = view.get("endeavor") or {}
    roles = {en.get("base"): "base", en.get("target"): "target"} if en else {}
    frame = view.get("deciding") or {}
    if frame.get("kind") == "declare" and frame.get("base"):
        roles = {frame["base"]: "base"}
    areas = [
        register(
            aid, here, courts, _pick(chosen.get(aid), prompt), ratings.get(aid), roles.get(aid)
        )
        for aid, here in sorted(view["areas"].items())
    ]
    return {
        "game": "ema",
        "provinces": areas,
        "areas": areas,
        "seas": seas(),
        "links": ema_layout.links(),
        "viewbox": ema_layout.viewbox(),
        "partials": partial_markers(view),
        "arrow": endeavor_arrow(view),
        "choosing": bool(chosen),
        "reg_w": ema_layout.REG_W,
        "reg_h": ema_layout.REG_H,
        "sea_w": ema_layout.SEA_W,
        "sea_h": ema_layout.SEA_H,
        "marks": [seat_mark(i) for i in range(len(view["seats"]))],
        "ratings_title": _ratings_title(view) if ratings else "",
        "ratings": [
            {
                "id": aid,
                "name": components().areas[aid]["name"],
                **r,
                "odds": ema_odds.chance(
                    view, (view.get("deciding") or {}).get("endeavor"), r.get("value")
                ),
            }
            for aid, r in sorted(ratings.items())
        ],
        "pages": pages(prompt),
        **ema_tableau.tableau(view, prompt, seat_mark),
    }
