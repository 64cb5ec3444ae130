"""Live pushes carry only what changed (games.pages.live_update), and the page ends up the same.

Games of each kind are played with random legal moves. After every move each viewer's socket
memory (`pages.Sent`) is given the push; the test applies the push to its copy of the page as
htmx would (whole partials by id, changed children by id, new log lines appended and the list
trimmed) and checks that the copy equals a full render of every live partial. A second test
checks the digests themselves: two positions a viewer sees with the same digest of a partial's
inputs render that partial the same.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser

from games import pages, services
from games.models import Game, Scenario
from tests.games.helpers import make_game, spec

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("commits")]

OOB = re.compile(r' hx-swap-oob="[^"]*"')
LOG_LINE = re.compile(r"<li>.*?</li>", re.S)
SVG_PART = re.compile(r'<svg hx-swap-oob="svg:#([\w-]+)">(.*?)</svg>', re.S)


@pytest.fixture(autouse=True)
def split_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every split in these games, the page's and the test's, is checked against the whole
    tokenisation: recognising children seen before must never change the answer."""
    fast = pages.split

    def checked(html: str) -> Any:
        found = fast(html)
        assert found == pages.split_whole(html), html[:500]
        return found

    monkeypatch.setattr(pages, "split", checked)


def top_level(html: str) -> list[tuple[str, str]]:
    """The (id, html) of each top-level element of a push."""
    children = pages.split(f'<div id="push">{html}</div>')
    assert children is not None, html[:500]
    return [(cid, part) for cid, part, _ in children]


class Page:
    """The live regions of one browser tab, updated by the pushes its socket receives."""

    def __init__(self, first: str) -> None:
        self.parts = dict(top_level(first))
        assert set(self.parts) == set(pages.LIVE_PARTIALS)

    def apply(self, push: str, seq: int) -> None:
        self.seq = seq
        for cid, part in SVG_PART.findall(push):  # what static/js/chancery.js's "svg" swap does
            self.swap_register(cid, part)
        push = SVG_PART.sub("", push)
        if not push.strip():
            return self.trim_log()
        for cid, part in top_level(push):
            if cid in self.parts:
                self.parts[cid] = part
            elif cid == "log-new":
                self.append_log(part)
            else:
                self.swap_child(cid, part)
        self.trim_log()

    def append_log(self, part: str) -> None:
        self.set_log_lines(self.log_lines() + LOG_LINE.findall(part))

    def trim_log(self) -> None:
        """What static/js/chancery.js does after every swap: keep the newest LOG_LINES moves."""
        if LOG_LINE.search(self.parts["log"]):
            lines = self.log_lines()
            self.set_log_lines([ln for ln in lines if line_seq(ln) > self.seq - pages.LOG_LINES])

    def log_lines(self) -> list[str]:
        log = self.parts["log"]
        return LOG_LINE.findall(log[: log.rindex("</ol>")])

    def set_log_lines(self, lines: list[str]) -> None:
        log = self.parts["log"]
        start, end = log.index(">", log.index("<ol")) + 1, log.rindex("</ol>")
        self.parts["log"] = log[:start] + "\n    " + "".join(lines) + "\n  " + log[end:]

    def swap_register(self, cid: str, part: str) -> None:
        for name in pages.SVG_SPLIT:
            for child, old, _ in pages.svg_split(self.parts[name]) or []:
                if child == cid and child != pages.SKELETON:
                    self.parts[name] = self.parts[name].replace(old, part, 1)
                    return
        raise AssertionError(f"no register #{cid} on the map for a pushed register")

    def swap_child(self, cid: str, part: str) -> None:
        for name, html in self.parts.items():
            children = pages.split(html) if name in pages.SPLIT else None
            if name in pages.SVG_SPLIT:
                children = pages.svg_split(html)  # a part of the map beside its <svg>
            for child, old, _ in children or []:
                if child == cid:
                    self.parts[name] = html.replace(old, OOB.sub("", part), 1)
                    return
        raise AssertionError(f"no element #{cid} on the page for a pushed child")


def line_seq(line: str) -> int:
    found = re.search(r'<span class="seq">(\d+)</span>', line)
    assert found, line
    return int(found.group(1))


def normal(html: str) -> str:
    """Markup as the browser holds it: swap attributes gone, the log's whitespace ignored."""
    html = OOB.sub("", html)
    return re.sub(r"\s+", " ", html)


def full_render(game_id: int, user: Any) -> dict[str, str]:
    rendered = pages.live_render(game_id, user)
    assert rendered is not None
    return dict(top_level(rendered[1]))


def new_game(game_name: str, slug: str, alice: Any, bob: Any) -> Game:
    scenario = Scenario.objects.get(game=game_name, slug=slug)
    game = services.create_game(alice, scenario, 2, [spec(alice), spec(bob)])
    for user in (alice, bob):
        services.join(game.pk, user)
    game.refresh_from_db()
    return game


def play(game: Game, users: list[Any], moves: int, seed: int, check: Any) -> int:
    rng = random.Random(seed)
    played = 0
    for _ in range(moves):
        game.refresh_from_db()
        prompts = game.engine.prompts(game.state)
        if not prompts or game.status != Game.Status.ACTIVE:
            break
        prompt = prompts[0]
        option = rng.choice(prompt["options"])
        services.submit(game.pk, users[prompt["seat"]], option["action"], game.seq, prompt["seat"])
        played += 1
        check()
    return played


# (game, scenario, moves, the most of a whole page a push may carry on average): an EMA move
# changes its large map most of the time, so only HRE and Feudal Lords are held to a fraction.
# The unit suite plays the first moves of each game; make test-slow plays them long.
LONG = [
    ("hre", "base", 100, 0.4),
    ("hre", "all-modules-2p", 100, 1.0),  # the module blocks of the tableau (issue 17)
    ("ema", "27-charlemagne", 30, 1.0),
    ("feudal", "duel", 60, 0.7),
]
SHORT = {"hre": 30, "ema": 12, "feudal": 24}
CASES = [(g, s, SHORT[g], most) for g, s, _, most in LONG] + [
    pytest.param(*case, marks=pytest.mark.slow) for case in LONG
]


@pytest.mark.parametrize(("game_name", "slug", "moves", "most"), CASES)
def test_pushes_of_changes_give_the_full_page(
    scenarios: None, alice: Any, bob: Any, game_name: str, slug: str, moves: int, most: float
) -> None:
    """Each socket, applying only the changes it is pushed, shows what a full render shows."""
    game = new_game(game_name, slug, alice, bob)
    users = [alice, bob]
    viewers: list[Any] = [alice, bob, AnonymousUser()]  # both players and a spectator
    memories = [pages.Sent() for _ in viewers]
    browsers = []
    for viewer, sent in zip(viewers, memories, strict=True):
        first = pages.live_update(game.pk, viewer, sent, force=True)
        assert first is not None
        browsers.append(Page(first[1]))
    sizes: list[int] = []

    def check() -> None:
        for viewer, sent, browser in zip(viewers, memories, browsers, strict=True):
            pushed = pages.live_update(game.pk, viewer, sent)
            assert pushed is not None
            sizes.append(len(pushed[1]))
            if pushed[1]:
                browser.apply(pushed[1], pushed[0].seq)
            expected = full_render(game.pk, viewer)
            for name in pages.LIVE_PARTIALS:
                assert normal(browser.parts[name]) == normal(expected[name]), (name, game.seq)

    assert play(game, users, moves, seed=7, check=check) > 10
    whole = sum(len(p) for p in full_render(game.pk, alice).values())
    # Less than the whole page is sent per move on average (the figures are in bench/README.md).
    assert sum(sizes) / len(sizes) < most * whole


@pytest.mark.parametrize(("game_name", "slug", "moves", "most"), CASES)
def test_equal_digests_render_the_same(
    scenarios: None, alice: Any, bob: Any, game_name: str, slug: str, moves: int, most: float
) -> None:
    """A partial is keyed by a digest of the inputs it declares: same digest, same markup.

    This is what makes it safe to skip a partial whose digest a socket already has, and to share
    one render between every socket of the same seat: a template reading something its digest
    does not cover would show up here as two renders under one digest.
    """
    game = new_game(game_name, slug, alice, bob)
    seen: dict[bytes, str] = {}

    def check() -> None:
        for viewer in (alice, bob):
            loaded = pages.load(game.pk)
            assert loaded is not None
            ctx = pages.Live(loaded, viewer).context(pages.LIVE_PARTIALS, oob=True)
            for name in pages.LIVE_PARTIALS:
                key = pages.digest(name, ctx)
                assert key is not None, name
                html = pages.render_to_string(f"games/game.html#{name}", ctx)
                assert seen.setdefault(key, html) == html, (name, game.seq)

    play(game, [alice, bob], moves, seed=11, check=check)
    assert len(seen) > 20


def test_an_undo_or_a_reconnect_sends_everything(scenarios: None, alice: Any, bob: Any) -> None:
    """`force` (an undo, a socket that asks to be brought up to date) sends every partial whole."""
    game = make_game(alice, alice, bob)
    sent = pages.Sent()
    first = pages.live_update(game.pk, alice, sent, force=True)
    assert first is not None
    again = pages.live_update(game.pk, alice, sent)
    assert again is not None and again[1] == ""  # nothing changed: nothing sent
    forced = pages.live_update(game.pk, alice, sent, force=True)
    assert forced is not None
    assert [cid for cid, _ in top_level(forced[1])] == list(pages.LIVE_PARTIALS)


def test_template_keys_are_read_from_the_sources() -> None:
    """The board partial of each game declares the board keys its map reads, not the whole view."""
    for game in ("hre", "ema", "feudal"):
        reads = pages.keys_read(game, "board")
        assert reads["board"], game
        assert reads["view"] == frozenset(), game  # only "is there a view?"
    assert "hand" in (pages.keys_read("hre", "private")["board"] or ())
    assert "provinces" in (pages.keys_read("hre", "board")["board"] or ())


@pytest.mark.parametrize(
    "html",
    [
        '<div id="r"><p id="a">1</p> <p id="b">2</p></div>',
        '<div id="r"><p id="a">1</p> <p id="b">3</p></div>',  # a changed child beside a seen one
        '<div id="r"><p id="a">1</p>x<p id="b">2</p></div>',  # text between children
        '<div id="r"><p id="a">1</p><!-- c --><p id="b">2</p></div>',
        '<div id="r"><p id="a">1</p><p>no id</p></div>',
        '<div id="r"><p id="a">1<br></p><input id="i"><hr id="h"/></div>',  # void children
        '<div id="r"><p id="a"><b>1</b><!-- inside --></p></div>',
        '<div id="r"><p id="a">1</p></div> trailing',
        'lead <div id="r"><p id="a">1</p></div>',
        '<div id="r"><p id="a">1</p>',  # never closes
        '<div id="r"><p id="a">1</p></span>',
        '<div id="r"></div>',
        '<br id="r"><p id="a">1</p>',
        "",
        '<div id="r"><p id="a">1</p></div><div id="s"><p id="c">2</p></div>',
    ],
)
def test_split_recognises_children_as_the_whole_tokenisation_does(html: str) -> None:
    """Seen twice (the second time from the children it remembers), the same answer."""
    assert pages.split(html) == pages.split_whole(html)
    assert pages.split(html) == pages.split_whole(html)
