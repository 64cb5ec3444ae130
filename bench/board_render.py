"""The HRE map partial drawn three ways: Django templates (what the site uses), Jinja2 (through
Django's own backend) and plain Python building the SVG; same board, compared output, CPU time.

Positions come from random games (seeded); each is drawn by each engine many times and the
CPU time of this thread is taken (steadier than wall time on a shared machine). The Jinja2
template (bench/board_engines/hre_map.jinja) and the Python builder below are translations of
`templates/games/boards/hre.html#map` kept for this measurement only; the output of each is
checked against the Django render (whitespace between tags aside) before anything is timed.

    .venv/bin/python bench/board_render.py [--positions 20] [--repeat 50] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import sys
import time
from html import escape
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

KEY = """<details class="key">
  <summary>Key</summary>"""


def e(value: Any) -> str:
    return escape(str(value), quote=True)


def python_map(board: dict[str, Any]) -> str:
    """The map partial built with f-strings (the same markup as the template)."""
    if not board.get("provinces"):
        return '<p class="empty-map">The map is laid out once every Ruler has been chosen.</p>'
    w, h = board["reg_w"], board["reg_h"]
    out = [
        f'<svg viewBox="{e(board["viewbox"])}" class="map{" choosing" if board.get("choosing") else ""}"'
        ' role="group" aria-label="Map of the Holy Roman Empire">',
        DEFS,
        '  <g class="links" aria-hidden="true">\n    ',
    ]
    for ln in board["links"]:
        kind = "water" if ln.get("water") else "land"
        out.append(
            f'<line x1="{ln["x1"]}" y1="{ln["y1"]}" x2="{ln["x2"]}" y2="{ln["y2"]}" class="{kind}"/>'
        )
    out.append("\n  </g>\n")
    for p in board["provinces"]:
        cls = "prov" + (" owned" if p.get("owner") else "") + (" pick" if p.get("pick") else "")
        cls += " battle" if p.get("battle") else ""
        pick = p.get("pick")
        if pick:
            opt = (
                f'data-option="{e(pick["single"])}"'
                if pick.get("single") is not None
                else f'data-options="{e(pick["options"])}"'
            )
            attrs = (
                f'tabindex="0" role="button" aria-label="{e(p["name"])}: {e(pick["label"])}" {opt}'
            )
        else:
            attrs = f'role="img" aria-label="{e(p["title"])}"'
        out.append(
            f'  <g id="prov-{e(p["id"])}" class="{cls}" transform="translate({p["x"]} {p["y"]})"\n'
            f"     {attrs}>\n"
            f"    <title>{e(p['title'])}{' — ' + e(pick['label']) if pick else ''}</title>\n"
        )
        if pick or p.get("battle"):
            out.append(
                f'<rect class="halo" x="-6" y="-6" width="{w + 12}" height="{h + 12}" rx="11"/>'
            )
        owner = p.get("owner")
        stroke = f' style="stroke: {e(owner["colour"])}"' if owner else ""
        out.append(
            f'<rect class="reg" width="{w}" height="{h}" rx="7" fill="{e(p["fill"])}"{stroke}/>'
        )
        if owner:
            out.append(
                f'<rect class="inner" x="2.5" y="2.5" width="{w - 5}" height="{h - 5}" rx="5"/>'
            )
        squeeze = (
            ' textLength="80" lengthAdjust="spacingAndGlyphs"' if p.get("squeeze_name") else ""
        )
        out.append(
            '<path class="band" d="M0 17V7a7 7 0 0 1 7-7h74a7 7 0 0 1 7 7v10z"/>'
            f'<text class="name" x="44" y="12.5"{squeeze}>{e(p["short"])}</text>'
        )
        if owner:
            out.append(
                '<g class="owner-mark"><circle cx="76" cy="29" r="8.5" class="badge-bg"/>'
                f'<use href="#mark-{e(owner["shape"])}" x="68" y="21" width="16" height="16"'
                f' fill="{e(owner["colour"])}"/></g>'
            )
        barb = p.get("barb")
        if barb:
            sq = ' textLength="76" lengthAdjust="spacingAndGlyphs"' if barb.get("squeeze") else ""
            out.append(
                f'<g class="barb {e(barb["face"])}"><rect x="3" y="20" width="82" height="17" rx="4"/>'
                f'<text x="44" y="32"{sq}>{e(barb["text"])}</text></g>'
            )
        elif p.get("units"):
            units = p["units"]
            title = ", ".join(f"{u['n']} {e(u['name'])}" for u in units)
            spans = " ".join(
                f'<tspan class="unit">{e(u["letter"])}<tspan class="n">{u["n"]}</tspan></tspan>'
                for u in units
            )
            out.append(f'<text class="units" x="5" y="33"><title>{title}</title>{spans}</text>')
        for i in p.get("pieces", []):
            n = f'<text x="13" y="10.5" class="n">{i["n"]}</text>' if i.get("n") else ""
            out.append(
                f'<g class="piece" transform="translate({i["x"]} 41)"><use href="#i-{e(i["icon"])}"'
                f' width="12" height="12" class="i-{e(i["icon"])}"/>{n}</g>'
            )
        for b in p.get("bld", []):
            out.append(
                f'<g transform="translate({b["x"]} 58)"><rect width="12" height="12" rx="2"'
                f' class="res-{e(b["res"])}"/><text x="6" y="9.8" class="reslt">{e(b["letter"])}</text></g>'
            )
        r = p["resource"]
        out.append(
            f'<g class="resource" transform="translate(77 64)"><circle r="7" class="res-{e(r["res"])}"/>'
            f'<text y="3.6" class="reslt">{e(r["letter"])}</text></g>\n  </g>\n'
        )
    out.append('  <g class="arrows" aria-hidden="true">\n    ')
    for a in board.get("arrows", []):
        out.append(
            f'<line x1="{a["x1"]}" y1="{a["y1"]}" x2="{a["x2"]}" y2="{a["y2"]}" marker-end="url(#arrowhead)"/>'
        )
    out.append("\n  </g>\n</svg>\n" + KEY_TEXT)
    return "".join(out)


DEFS = ""  # read from the template at start-up: the static parts are the same text
KEY_TEXT = ""


def squash(html: str) -> str:
    """Markup with the whitespace between tags dropped (where the three engines differ)."""
    return re.sub(r">\s+<", "><", re.sub(r"\s+", " ", html)).strip()


def main() -> None:
    global DEFS, KEY_TEXT
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.template.backends.jinja2 import Jinja2
    from django.template.loader import render_to_string

    from games import boards
    from rules.core.registry import get_engine

    source = (ROOT / "templates/games/boards/hre.html").read_text()
    DEFS = source[source.index("  <defs>") : source.index("  </defs>") + len("  </defs>\n")]
    map_part = source[source.index("{% partialdef map %}") :]
    KEY_TEXT = map_part[map_part.index(KEY) : map_part.index("</details>") + len("</details>")]
    jinja = Jinja2(
        {
            "NAME": "jinja2",
            "DIRS": [str(ROOT / "bench/board_engines")],
            "APP_DIRS": False,
            "OPTIONS": {},
        }
    )
    template = jinja.get_template("hre_map.jinja")

    engine = get_engine("hre")
    rng = random.Random(1)
    positions: list[dict[str, Any]] = []
    state = engine.setup(1, {}, 3)
    while len(positions) < args.positions:
        prompts = engine.prompts(state)
        if not prompts:
            state = engine.setup(len(positions) + 2, {}, 3)
            continue
        prompt = prompts[0]
        state, _events = engine.apply(
            state, prompt["seat"], rng.choice(prompt["options"])["action"]
        )
        if rng.random() < 0.1:
            view = engine.view(state, prompt["seat"])
            positions.append(
                boards.board_context("hre", view, engine.prompt_for(state, prompt["seat"]))
            )

    def django_draw(board: dict[str, Any]) -> str:
        return str(render_to_string("games/boards/hre.html#map", {"board": board}))

    def jinja_draw(board: dict[str, Any]) -> str:
        return str(template.render({"board": board}))

    drawers = {"django": django_draw, "jinja2": jinja_draw, "python": python_map}
    for board in positions:
        want = squash(django_draw(board))
        for name in ("jinja2", "python"):
            got = squash(drawers[name](board))
            if got != want:
                at = next(i for i, (a, b) in enumerate(zip(got, want, strict=False)) if a != b)
                raise SystemExit(f"{name} differs from django at {at}: {got[at - 80 : at + 80]!r}")
    out: dict[str, Any] = {
        "positions": len(positions),
        "repeat": args.repeat,
        "cpu_ms_per_draw": {},
    }
    for name, draw in drawers.items():
        per_draw = []
        for board in positions:
            start = time.thread_time()
            for _ in range(args.repeat):
                draw(board)
            per_draw.append((time.thread_time() - start) * 1000 / args.repeat)
        out["cpu_ms_per_draw"][name] = {
            "p50": round(statistics.median(per_draw), 3),
            "mean": round(statistics.fmean(per_draw), 3),
        }
    out["bytes_mean"] = round(statistics.fmean(len(django_draw(b)) for b in positions))
    print(json.dumps(out) if args.json else json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
