"""Template fragments (games.fragments) name everything they read, and draw the same cached or not.

A fragment's html is kept per distinct value of the inputs its tag names, so an input left out
would show one position's (or one seat's) html in another. The first tests read each fragment's
body in the templates and fail on a variable it reads that its tag does not name; the last plays
random games and compares every live partial drawn with the cache and without it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string

from games import fragments, pages
from games.models import Game
from tests.games.test_live_diffs import new_game, play

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
FRAGMENT = re.compile(r"{%\s*fragment\s+(['\"])([\w-]+)\1((?:\s+[^%\s]+)+)\s*%}")
ENDFRAGMENT = re.compile(r"{%\s*endfragment\s*%}")
CODE = re.compile(r"{{(.*?)}}|{%(.*?)%}", re.S)
PARTIAL_DEF = re.compile(r"{%\s*partialdef\s+([\w-]+)[^%]*%}(.*?){%\s*endpartialdef\s*%}", re.S)
WORD = re.compile(r"""("[^"]*"|'[^']*'|[^\s"']+)""")
LITERAL = re.compile(r"""^("[^"]*"|'[^']*'|-?\d+(\.\d+)?|True|False|None)$""")
OPERATORS = {"and", "or", "not", "in", "is", "==", "!=", "<", ">", "<=", ">="}
# Tags that read nothing of the context (or only through arguments handled below).
QUIET = {
    "else",
    "empty",
    "endif",
    "endfor",
    "endwith",
    "endfragment",
    "localize",
    "endlocalize",
    "comment",
    "endcomment",
}

# Simple tags whose output is a function of their arguments alone.
PURE = {"abbr"}


def sources() -> dict[str, str]:
    return {
        str(path.relative_to(TEMPLATES)): path.read_text()
        for path in sorted(TEMPLATES.rglob("*.html"))
        if "fragment" in path.read_text()
    }


def partial_bodies(source: str) -> dict[str, str]:
    return {m.group(1): m.group(2) for m in PARTIAL_DEF.finditer(source)}


def fragment_bodies(source: str) -> list[tuple[str, list[str], str]]:
    """Each fragment of a template: its name, the inputs its tag names, its body."""
    found = []
    for tag in FRAGMENT.finditer(source):
        depth, at = 1, tag.end()
        while depth:
            opening = FRAGMENT.search(source, at)
            closing = ENDFRAGMENT.search(source, at)
            assert closing is not None, f"fragment {tag.group(2)} is not closed"
            if opening is not None and opening.start() < closing.start():
                depth, at = depth + 1, opening.end()
            else:
                depth, at = depth - 1, closing.end()
        body = source[tag.end() : closing.start()]
        found.append((tag.group(2), tag.group(3).split(), body))
    return found


def expression_reads(expression: str) -> set[str]:
    """The variables a filter expression reads: its head and any variable argument of a filter."""
    reads: set[str] = set()
    parts = re.split(r"\|(?=(?:[^\"']|\"[^\"]*\"|'[^']*')*$)", expression.strip())
    head, filters = parts[0], parts[1:]
    if head and not LITERAL.match(head):
        reads.add(head)
    for part in filters:
        _name, _, argument = part.partition(":")
        if argument and not LITERAL.match(argument):
            reads.add(argument)
    return reads


def body_reads(template: str, body: str, everything: dict[str, str]) -> tuple[set[str], set[str]]:
    """What the body reads of the context, and the problems found (tags this check cannot
    follow, a csrf token, which is per viewer and must never be kept)."""
    reads: set[str] = set()
    local: set[str] = {"forloop"}
    problems: set[str] = set()
    for code in CODE.finditer(body):
        if code.group(1) is not None:
            reads |= expression_reads(code.group(1))
            continue
        words = WORD.findall(code.group(2).strip())
        tag, args = words[0], words[1:]
        if tag in QUIET:
            continue
        if tag in ("if", "elif"):
            for word in args:
                if word not in OPERATORS:
                    reads |= expression_reads(word)
        elif tag == "for":
            names, source = " ".join(args).split(" in ", 1)
            local |= {n.strip() for n in names.split(",")}
            reads |= expression_reads(source.removesuffix(" reversed"))
        elif tag == "with":
            for word in args:
                name, _, value = word.partition("=")
                local.add(name)
                reads |= expression_reads(value)
        elif tag == "fragment":
            reads |= {word for word in args[1:] if not LITERAL.match(word)}
        elif tag in ("partial", "include"):
            target = args[0]
            if tag == "partial":
                inner_template, name = template, target
            elif target.startswith("board_template|add:"):
                reads.add("board_template")
                inner_template, name = template, target.split('"#')[1].rstrip('"')
            else:
                inner_template, name = target.strip("\"'").split("#")
            inner = partial_bodies(everything[inner_template]).get(name)
            if inner is None:
                problems.add(f"{tag} {target}: not found")
                continue
            more, trouble = body_reads(inner_template, inner, everything)
            reads |= more
            problems |= trouble
        elif tag in PURE:
            reads |= {word for word in args if not LITERAL.match(word)}
        elif tag == "csrf_token":
            problems.add("a csrf token")
        else:
            problems.add(f"the tag {tag!r}")
    return {r for r in reads if r.split(".")[0] not in local}, problems


def covered(read: str, inputs: list[str]) -> bool:
    return any(read == name or read.startswith(name + ".") for name in inputs)


def all_fragments() -> list[tuple[str, str, list[str], str]]:
    everything = sources()
    return [
        (template, name, inputs, body)
        for template, source in everything.items()
        for name, inputs, body in fragment_bodies(source)
    ]


def test_every_fragment_names_what_it_reads() -> None:
    everything = sources()
    found = all_fragments()
    assert len(found) >= 10, "the boards' sections and seat cards are fragments"
    for template, name, inputs, body in found:
        reads, problems = body_reads(template, body, everything)
        assert not problems, f"{template} fragment {name}: {sorted(problems)}"
        missing = sorted(r for r in reads if not covered(r, inputs))
        assert not missing, f"{template} fragment {name} reads {missing} but does not name them"


def test_fragment_names_are_unique() -> None:
    names = [name for _template, name, _inputs, _body in all_fragments()]
    assert len(names) == len(set(names))


def test_the_checker_catches_a_missing_input() -> None:
    """The check itself: a body reading what its tag leaves out, or a csrf token, is caught."""
    body = "{% for s in board.slots %}{{ s.n|add:board.extra }}{% endfor %}{{ card.x }}"
    reads, problems = body_reads("t.html", body, {})
    assert reads == {"board.slots", "board.extra", "card.x"} and not problems
    assert not covered("board.extra", ["board.slots", "card"])
    assert body_reads("t.html", "{% csrf_token %}", {})[1] == {"a csrf token"}


def test_a_model_input_is_drawn_every_time() -> None:
    """An input whose fields the digest cannot read is never cached (its html is drawn anew)."""
    drawn = []

    def draw() -> str:
        drawn.append(1)
        return "x"

    for _ in range(2):
        assert fragments.drawn("t-model", [AnonymousUser(), object()], draw) == "x"
    assert len(drawn) == 2
    for _ in range(2):
        assert fragments.drawn("t-plain", [{"a": 1}, [1, 2]], draw) == "x"
    assert len(drawn) == 3


GAMES = [("hre", "base"), ("hre", "all-modules-2p"), ("ema", "27-charlemagne"), ("feudal", "duel")]


def drawn_fresh(game: Game, viewer: object) -> dict[str, str]:
    """Every live partial drawn now for the viewer, past the partials' own render cache."""
    ctx = pages.Live(game, viewer).context(pages.LIVE_PARTIALS, oob=True)
    return {name: render_to_string(f"games/game.html#{name}", ctx) for name in pages.LIVE_PARTIALS}


@pytest.mark.django_db
@pytest.mark.parametrize(("game_name", "slug"), GAMES)
def test_cached_fragments_draw_what_a_fresh_render_draws(
    scenarios: None, alice: object, bob: object, game_name: str, slug: str
) -> None:
    """Random games, every live partial for both seats and a spectator, with the fragment cache
    warm and with it off: the same html (the cache never serves one position's or seat's)."""
    game = new_game(game_name, slug, alice, bob)
    users = [alice, bob]
    viewers = [alice, bob, AnonymousUser()]
    fragments.clear()
    before = fragments.stats["hits"]
    checked = [0]

    def check() -> None:
        checked[0] += 1
        if checked[0] % 3:
            return
        current = pages.load(game.pk)
        assert current is not None
        for viewer in viewers:
            warm = drawn_fresh(current, viewer)
            with fragments.disabled():
                fresh = drawn_fresh(current, viewer)
            assert warm == fresh, (game_name, current.seq)

    assert play(game, users, 45, seed=11, check=check) > 10
    assert fragments.stats["hits"] > before
