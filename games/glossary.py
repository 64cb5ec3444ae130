"""The words of each game a newcomer trips on: a glossary per game, and `gloss`, which gives every
abbreviation in a line of text its meaning (an <abbr title>) and drops the reference's internal
ambiguity ids, which mean nothing to a player (rule ids stay: they link to our summaries).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import import_module

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from games import boards


@dataclass(frozen=True)
class Term:
    """An abbreviation or word, what it means, and where a player meets it."""

    abbr: str
    name: str
    meaning: str
    where: str


FL_CLASSES = {
    "BD": "Bad Doc (Under-City)",
    "HD": "HooDoo (Under-City)",
    "SG": "Skar Gang (Under-City)",
    "MC": "Mercenary (Outer-City)",
    "SV": "Survivalist (Outer-City)",
    "WT": "Witness (Outer-City)",
    "WH": "War Head (Over-City)",
    "WK": "War Knight (Over-City)",
    "WR": "White Reaver (Over-City)",
}

GLOSSARY: dict[str, tuple[Term, ...]] = {
    "hre": (
        Term(
            "VP",
            "Victory Points",
            "What wins the game: scored during play and at the end.",
            "seat cards, the log",
        ),
        Term(
            "CP",
            "Culture Points",
            "Move your marker along the Culture track; red spaces open more of the card offer.",
            "seat cards, the log",
        ),
        Term(
            "I",
            "Infantry",
            "A unit type; on the map “I2” means two Infantry in the province.",
            "the map",
        ),
        Term("A", "Archers", "A unit type; “A1” on the map means one Archer unit.", "the map"),
        Term("C", "Cavalry", "A unit type; “C1” on the map means one Cavalry unit.", "the map"),
        Term(
            "Transient",
            "Transient units",
            "Grey units raised for one battle; they leave afterwards.",
            "battles, the log",
        ),
        Term(
            "Noble",
            "Noble disc",
            "Placed on an Action card to take its action; taken back when you pass.",
            "the Action cards, prompts",
        ),
        Term(
            "Title",
            "Title card",
            "Claimed for a Region when you pass; exhaust it to repeat a Noble action.",
            "seat cards, prompts",
        ),
        Term(
            "Cognomen",
            "Cognomen card",
            "A nickname card (the Saint, the Bad…) resolved when you pass, for its reward.",
            "your hand, the log",
        ),
    ),
    "ema": (
        Term(
            "ER",
            "Effectiveness Rating",
            "The number a Year Card's results are read against: higher is better. It is worked out from the Leader's Stature, the Areas' Social State and the other terms the Endeavor panel lists.",
            "prompts, the map's ER tags, the Endeavor panel, the log",
        ),
        Term(
            "SS",
            "Social State",
            "An Area's order and loyalty, from −3 up to its Norm + 2; it changes taxes, Endeavors and Unrest.",
            "the map (the big number), prompts, the log",
        ),
        Term(
            "RV",
            "Rebellion Value",
            "What an Area in Unrest is checked against: the higher, the likelier it rebels.",
            "the log",
        ),
        Term(
            "P",
            "Population",
            "An Area's population; it adds to Fortification and to taxes.",
            "the map",
        ),
        Term(
            "N",
            "Norm",
            "The Social State an Area tends to: its SS can rise to the Norm plus two.",
            "the map",
        ),
        Term(
            "C",
            "Combat Stature",
            "The Leader's skill in war, used for Conquest and Pillage (1, 2, 3, 5 or 9). On a Year Card, C(n►) is a Conquest.",
            "Treasury and Statures, Year Cards",
        ),
        Term(
            "A",
            "Administrative Stature",
            "The Leader's skill at ruling, used for Ruling and Fortification.",
            "Treasury and Statures",
        ),
        Term(
            "D",
            "Diplomacy Stature",
            "The Leader's skill at diplomacy, used for Diplomacy.",
            "Treasury and Statures",
        ),
        Term(
            "G",
            "Gold",
            "On a Year Card: roll on the Pillage and Plunder table and gain that gold.",
            "Year Cards, the log",
        ),
        Term(
            "F",
            "Fortification",
            "On a Year Card: the Fortification is built. On the map, F2/F3 mark a fort's strength.",
            "Year Cards, the map",
        ),
        Term(
            "T",
            "Diplomatic Tie",
            "On a Year Card: a Tie marker is placed. T/C: a Tie, or a Diplomatic Conquest at a high enough ER.",
            "Year Cards, the log",
        ),
        Term("U", "Unrest", "An Area in Unrest may rebel and is harder to use.", "the map"),
        Term(
            "Cl",
            "Claim",
            "A ruler's claim on an Area; the map shows each holder's mark.",
            "the map",
        ),
        Term(
            "(n►)",
            "n or more",
            "A Year Card result in brackets with ► applies only when the ER is n or more.",
            "Year Cards, the log",
        ),
        Term(
            "(◄n)",
            "n or less",
            "A result with ◄ applies only when the ER is n or less.",
            "Year Cards, the log",
        ),
        Term(
            "Year Card n: R / T / B",
            "A Year Card's row",
            "What the card turned up does for this Endeavor: the Result, then the change to the Target Area's Social State, then to the Base Area's.",
            "the log",
        ),
        Term(
            "GT",
            "Game-Turn",
            "Five Rounds, 25 years; a new one starts at each quarter century.",
            "the Round track",
        ),
        Term(
            "VP",
            "Victory Points",
            "What wins: Areas, buildings and the scenario's own points.",
            "seat cards, results",
        ),
    ),
    "feudal": (
        Term(
            "Sup",
            "Supply",
            "The Supply die: rolled each turn, spent to draft and arm your people.",
            "seat cards, costs, the log",
        ),
        Term(
            "Ld",
            "Leadership",
            "The Leadership die: rolled each turn, spent to send people into combat and to sway rolls.",
            "seat cards, costs, the log",
        ),
        Term(
            "VP",
            "Victory Points",
            "Tokens on your Leader plus Supplies in play; reach your target to win.",
            "seat cards, the log",
        ),
        Term(
            "DF",
            "Distance Fire",
            "The first stage of combat: shots from range, before the sides close in.",
            "cards, combat, prompts",
        ),
        Term(
            "CC",
            "Close Combat",
            "The second stage of combat: hand to hand, with hits and blocks.",
            "cards, combat, prompts",
        ),
        Term(
            "XX",
            "any class of a city",
            "A card marked XX takes people of any class of that city (Under-, Outer- or Over-City).",
            "cards",
        ),
        *(
            Term(code, name.split(" (")[0], f"A character class: {name}.", "cards")
            for code, name in FL_CLASSES.items()
        ),
    ),
}

# Internal ids of the rules reference's ambiguities: "(AMB-38)", "(A-43)", "(TC-17)".
INTERNAL_IDS = re.compile(r"\s*\((?:AMB|A|TC)-\d+[a-z]?\)|\b(?:AMB|TC)-\d+[a-z]?\b")
# Year Card results (EMA 9.4): C(3►), -1(◄2), T/C(5►), G.
YEAR_TOKEN = re.compile(r"(?<![\w/])(T/C|C|G|F|T|\+1|-1|−1)(?:\((-?\d+)►\)|\(◄(-?\d+)\))")
YEAR_RESULTS = {
    "T/C": "a Diplomatic Tie, or a Diplomatic Conquest",
    "C": "Conquest",
    "G": "gold: a roll on the Pillage and Plunder table",
    "F": "the Fortification is built",
    "T": "a Diplomatic Tie",
    "+1": "Social State +1",
    "-1": "Social State −1",
    "−1": "Social State −1",
}
# Only these games' short words are glossed in running text; single letters only where they
# cannot be ordinary words (EMA's map letters are explained by the map's key instead).
IN_TEXT = {
    "hre": ("VP", "CP"),
    "ema": ("ER", "SS", "RV", "VP", "GT"),
    "feudal": ("Sup", "Ld", "VP", "DF", "CC", "XX", *FL_CLASSES),
}


def terms(game: str) -> tuple[Term, ...]:
    """The game's glossary, in reading order."""
    return GLOSSARY.get(game, ())


@cache
def _pattern(game: str) -> tuple[re.Pattern[str], dict[str, str]] | None:
    words = IN_TEXT.get(game)
    if not words:
        return None
    titles = {t.abbr: f"{t.name}: {t.meaning}" for t in terms(game) if t.abbr in words}
    alternatives = "|".join(re.escape(w) for w in sorted(titles, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])({alternatives})(?![\w-])"), titles


def in_text_titles(game: str) -> dict[str, str]:
    """The short words glossed in this game's running text, each with its hover text."""
    found = _pattern(game)
    return dict(found[1]) if found else {}


def title_of(game: str, abbr: str) -> str:
    """The hover text of one abbreviation ("" when the glossary does not know it)."""
    for term in terms(game):
        if term.abbr == abbr:
            return f"{term.name}: {term.meaning}"
    return ""


def abbr(game: str, word: str) -> SafeString:
    """One abbreviation with its meaning, for a template."""
    title = title_of(game, word)
    if not title:
        return escape(word)
    return mark_safe(f'<abbr title="{escape(title)}">{escape(word)}</abbr>')  # noqa: S308 (escaped)


def _year_title(match: re.Match[str]) -> str:
    token, more, less = match.group(1), match.group(2), match.group(3)
    what = YEAR_RESULTS[token]
    when = f"if the ER is {more} or more" if more is not None else f"if the ER is {less} or less"
    return f'<abbr title="{escape(what)}, {when}">{escape(match.group(0))}</abbr>'


# "1 card(s)" reads "1 card", "3 card(s)" reads "3 cards".
MAYBE_PLURAL = re.compile(r"\b(\d+) ([A-Za-z]+)\(s\)")


def _plural(match: re.Match[str]) -> str:
    n, word = match.group(1), match.group(2)
    return f"{n} {word}" if n == "1" else f"{n} {word}s"


# Kept per (game, text): a pure function of both, and the same option labels and lines come back
# move after move (the prompt bar draws every label of every option on each move).
@lru_cache(maxsize=8192)
def gloss(game: str, text: str) -> SafeString:
    """A line of game text, escaped, without internal ids, each abbreviation with its meaning."""
    plain = MAYBE_PLURAL.sub(_plural, INTERNAL_IDS.sub("", text))
    if game == "ema":
        # Year Card tokens first, on the raw text, then the words between them.
        pieces, last = [], 0
        for match in YEAR_TOKEN.finditer(plain):
            pieces.append(_words(game, plain[last : match.start()]))
            pieces.append(_year_title(match))
            last = match.end()
        pieces.append(_words(game, plain[last:]))
        return mark_safe("".join(pieces))  # noqa: S308 (every piece is escaped)
    return mark_safe(_words(game, plain))  # noqa: S308 (escaped)


def gloss_log(game: str, text: str) -> SafeString:
    """A log line glossed like `gloss`, with each card name linking to the card's page and
    showing its hover card, for a game whose board names a cards module."""
    board = boards.find(game)
    if board is None or not board.cards:
        return gloss(game, text)
    module = import_module(board.cards)
    marked, found = module.mark_names(MAYBE_PLURAL.sub(_plural, INTERNAL_IDS.sub("", text)))
    linked: str = module.put_links(_words(game, marked), found)
    return mark_safe(linked)  # noqa: S308 (escaped piece by piece)


YEAR_CARD = re.compile(r"Year Card \d+(?=: )")
YEAR_CARD_TITLE = (
    "The Year Card turned up for this Endeavor, then its row: the Result, the change to the "
    "Target's Social State, the change to the Base's (- for none)"
)


def _words(game: str, text: str) -> str:
    found = _pattern(game)
    escaped = str(escape(text))
    if game == "ema":
        escaped = YEAR_CARD.sub(
            lambda m: f'<abbr title="{YEAR_CARD_TITLE}">{m.group(0)}</abbr>', escaped
        )
    if found is None:
        return escaped
    pattern, titles = found
    return pattern.sub(
        lambda m: f'<abbr title="{escape(titles[m.group(1)])}">{m.group(1)}</abbr>', escaped
    )
