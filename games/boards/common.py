"""What every game's board shares: the Board record, seat marks, and tying elements to the prompt."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

View = dict[str, Any]
Prompt = dict[str, Any]
Mark = Callable[[int | None], dict[str, Any] | None]

# Strong colours that stay apart on pale fills; each seat also has a glyph and a shape, so no one
# needs hue alone. The tint is the seat's pale colour, for what it owns (EMA's Area registers).
# Eight seats (HRE's Module 2): chosen so that every pair stays apart (CIEDE2000 >= 15) for normal
# vision and simulated protanopia, deuteranopia and tritanopia, each at least 3:1 on white, the
# first three as they were; the figures and how they were found: README, "Seat colours".
COLOURS = ("#c0392b", "#1f5fa8", "#262626", "#9988dd", "#009988", "#dd7700", "#770000", "#550055")
TINTS = ("#f6dcd8", "#d9e5f4", "#dedede", "#eeebf9", "#d4eeeb", "#f9e8d4", "#e8d4d4", "#e2d4e2")
GLYPHS = ("▲", "●", "■", "◆", "⬟", "★", "⬢", "✚")
SHAPES = ("triangle", "circle", "square", "diamond", "pentagon", "star", "hexagon", "cross")


@dataclass(frozen=True)
class Board:
    """One game on the site: how its page draws a viewer's view, and how its rules page is headed.

    `template` holds the partials map, tableau, seat and hand (templates/games/boards/<game>.html);
    `headings` are the rulebook's sections in its order, keyed by the area code `area` finds in a
    rule id; `forms` and `urls` name (as dotted paths, read only when needed) the modules with the
    game's own new-game and join fields and its own pages, for a game that has any.
    """

    game: str
    context: Callable[[View, Prompt | None], dict[str, Any]]
    headings: Mapping[str, str]
    area: Callable[[str], str]
    summaries: Path
    forms: str = ""
    urls: str = ""
    cards: str = ""  # a module with mark_names/put_links: card names in the log link to pages
    # The summary id whose text opens a section as its paragraph (an expansion module's), if any.
    intro: Callable[[str], str] | None = None

    @property
    def template(self) -> str:
        """The board's template, whose named partials the game page includes."""
        return f"games/boards/{self.game}.html"


def seat_mark(seat: int | None) -> dict[str, Any] | None:
    """A seat's colour, tint, glyph and SVG shape, or None for nobody."""
    if seat is None:
        return None
    i = seat % len(COLOURS)
    return {
        "seat": seat,
        "colour": COLOURS[i],
        "tint": TINTS[i],
        "glyph": GLYPHS[i],
        "shape": SHAPES[i],
    }


def pick(indices: list[int] | None, prompt: Prompt | None) -> dict[str, Any] | None:
    """How a board element answers the prompt: one option submits it, several narrow the buttons."""
    if not indices or prompt is None:
        return None
    labels = [prompt["options"][i]["label"] for i in indices]
    return {
        "options": " ".join(str(i) for i in indices),
        "single": indices[0] if len(indices) == 1 else None,
        "label": labels[0] if len(labels) == 1 else f"{len(labels)} choices: " + "; ".join(labels),
    }
