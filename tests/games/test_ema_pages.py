"""The EMA game page: the map, the tableau, prompts on the map, hidden information and rule summaries."""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.template.loader import render_to_string
from django.test import Client

from games import rulebook, services
from games.boards.ema import board as ema_board
from games.boards.ema import cards as ema_cards
from games.boards.ema import er as ema_er
from games.boards.ema import layout as ema_layout
from games.models import Game, Scenario
from rules.core.registry import get_engine
from rules.ema import endeavors, er, windows
from rules.ema.empire import halve
from rules.ema.state import TIES, Ctx, data
from tests.rules.ema.helpers import to_main as main_state

ENGINE = get_engine("ema")
RULES_SOURCE = Path(__file__).resolve().parents[2] / "rules" / "ema"
PARTIALS = ("map", "tableau", "hand")
State = dict[str, Any]


def _walk(
    seed: int, slug: str = "27-charlemagne", players: int = 2, steps: int = 3000
) -> Iterator[State]:
    """Every state of a random game, one after another (the engine never changes a state it returns)."""
    state = ENGINE.setup(seed, {"scenario": slug, "options": {}}, players)
    rnd = random.Random(seed)
    for _ in range(steps):
        yield state
        prompts = ENGINE.prompts(state)
        if not prompts:
            return
        prompt = rnd.choice(prompts)
        state, _events = ENGINE.apply(
            state, prompt["seat"], rnd.choice(prompt["options"])["action"]
        )


def _find(wanted: Callable[[State], bool], slug: str = "27-charlemagne", players: int = 2) -> State:
    """The first state of a few seeded random games that is as wanted."""
    for seed in range(12):
        for state in _walk(seed, slug, players):
            if wanted(state):
                return state
    raise AssertionError("no such position in the random games tried")


def _render(state: State, seat: int | None) -> str:
    """Every board partial as the page renders them for one viewer."""
    view = ENGINE.view(state, seat)
    prompt = ENGINE.prompt_for(state, seat) if seat is not None else None
    board = ema_board.board_context(view, prompt)
    ctx = {"board": board, "view": view, "prompt": prompt}
    html = "".join(render_to_string(f"games/boards/ema.html#{p}", ctx) for p in PARTIALS)
    for info in board["seats"]:
        card = {
            "index": info["index"],
            "label": f"Seat {info['index'] + 1}",
            "mine": info["index"] == seat,
            "info": info,
        }
        html += render_to_string("games/boards/ema.html#seat", {**ctx, "card": card})
    return html


def _start(user: Any, *kinds: services.SeatSpec, options: dict[str, Any] | None = None) -> Game:
    scenario = Scenario.objects.get(game="ema", slug="27-charlemagne")
    game = services.create_game(user, scenario, len(kinds), list(kinds), options)
    game.refresh_from_db()
    return game


def test_every_area_and_sea_has_a_register_and_none_overlap() -> None:
    d = data()
    pos = ema_layout.centres()
    assert set(ema_layout.GRID) == set(d.areas) | set(d.seas)
    for a, b in itertools.combinations(pos, 2):
        (xa, ya), (xb, yb) = pos[a], pos[b]
        (wa, ha), (wb, hb) = ema_layout.size(a), ema_layout.size(b)
        assert abs(xa - xb) >= (wa + wb) / 2 or abs(ya - yb) >= (ha + hb) / 2, f"{a} overlaps {b}"
    kinds = {link["kind"] for link in ema_layout.links()}
    assert kinds == {"land", "coast", "sea"}
    assert (
        len(ema_layout.links())
        == sum(len(v) for v in d.land_adj.values()) // 2
        + sum(len(v) for v in d.area_seas.values())
        + sum(len(v) for v in d.sea_adj.values()) // 2
    )


def test_the_board_highlights_the_areas_a_prompt_chooses() -> None:
    state = _find(
        lambda s: any(
            ema_board.option_area(o["action"]) for p in ENGINE.prompts(s) for o in p["options"]
        )
    )
    prompt = next(
        p
        for p in ENGINE.prompts(state)
        if any(ema_board.option_area(o["action"]) for o in p["options"])
    )
    view = ENGINE.view(state, prompt["seat"])
    board = ema_board.board_context(view, prompt)
    wanted: dict[str, list[int]] = {}
    for i, opt in enumerate(prompt["options"]):
        aid = ema_board.option_area(opt["action"])
        if aid:
            wanted.setdefault(aid, []).append(i)
    picked = {a["id"]: a["pick"] for a in board["areas"] if a["pick"]}
    assert set(picked) == set(wanted) and board["choosing"]
    html = render_to_string(
        "games/boards/ema.html#map", {"board": board, "view": view, "prompt": prompt}
    )
    for aid, indices in wanted.items():
        attr = (
            f'data-option="{indices[0]}"'
            if len(indices) == 1
            else f'data-options="{" ".join(map(str, indices))}"'
        )
        assert re.search(rf'id="area-{aid}"[^>]*{attr}', html), aid


def test_target_prompts_show_the_er_the_engine_would_compute_before_the_card_is_turned() -> None:
    """EMA-9.35: each Target's rating, term by term, equals the engine's own rating on the full state."""

    def choosing_targets(s: State) -> bool:
        top = s["stack"][-1] if s["stack"] else {}
        return (
            top.get("kind") == "declare"
            and top.get("stage") == "target"
            and top["endeavor"] != "diplomacy"
        )

    state = _find(choosing_targets)
    prompt = ENGINE.prompts(state)[0]
    frame = state["stack"][-1]
    board = ema_board.board_context(ENGINE.view(state, prompt["seat"]), prompt)
    assert board["ratings"]
    ctx = Ctx(state)
    shown = {
        row["area"]: row["er"]["value"] for row in ENGINE.view(state, prompt["seat"])["targets"]
    }
    for rating in board["ratings"]:
        raw = er.raw(ctx, frame["seat"], frame["endeavor"], frame["base"], rating["id"])
        assert rating["raw"] == raw and sum(t["value"] for t in rating["terms"]) == raw
        assert (
            rating["value"]
            == (halve(state, raw) if rating["halved"] else raw)
            == shown[rating["id"]]
        )
    assert {r["id"] for r in board["ratings"]} == set(shown)
    html = render_to_string("games/boards/ema.html#map", {"board": board})
    assert "</abbr> of each Target" in html and 'class="er-tag"' in html


def test_an_announced_endeavor_shows_its_rating_while_the_year_card_is_face_down() -> None:
    """EMA-9.0.P4: the announced ER, with its terms, is on the board before the card is turned up (P6)."""
    state = _find(lambda s: bool(s["stack"]) and s["stack"][-1]["kind"] == "att_gold")
    en = state["endeavor"]
    board = ema_board.board_context(
        ENGINE.view(state, en["seat"]), ENGINE.prompt_for(state, en["seat"])
    )
    assert board["endeavor"]["er"]["raw"] == er.raw(
        Ctx(state), en["seat"], en["kind"], en["base"], en["target"]
    )
    assert board["endeavor"]["er"]["final"] == endeavors.final_er(Ctx(state), en)
    html = render_to_string("games/boards/ema.html#map", {"board": board})
    assert "the Year Card is still face down" in html
    if en["base"] not in (None, en["target"]):
        assert 'class="en-arrow"' in html


def test_the_event_in_force_is_shown_in_the_tableau_to_everyone() -> None:
    """EMA-19.1: the Event drawn this Player-Turn is on the tableau, face up, for players and spectators."""
    state = _find(lambda s: s.get("current_event") is not None and bool(ENGINE.prompts(s)))
    name = ema_cards.event_card(state["current_event"])["name"]
    for viewer in (None, 0, 1):
        html = _render(state, viewer)
        assert "Event this Player-Turn" in html and name in html


def test_each_played_year_card_says_what_it_was_used_for() -> None:
    """EMA-9.0.P6 EMA-13.22: a turned-up Year Card names its Endeavor and Target, or the Defense."""

    def used(s: State) -> bool:
        return any(u["use"] == "endeavor" for me in s["seats"] for u in me.get("card_uses", []))

    state = _find(used)
    seat, use = next(
        (i, u)
        for i, me in enumerate(state["seats"])
        for u in me["card_uses"]
        if u["use"] == "endeavor"
    )
    board = ema_board.board_context(ENGINE.view(state, None), None)
    card = next(c for c in board["year_cards"][seat]["played"] if c["number"] == use["number"])
    assert (
        card["use"]
        == f"{ema_er.KIND_NAMES[use['endeavor']]} of {data().areas[use['target']]['name']}"
    )
    row = "conquest" if use["endeavor"] == "convert" else use["endeavor"]
    assert [r["key"] for r in card["rows"] if r["current"]] == [row]
    assert card["use"] in _render(state, None)


def test_a_parley_stays_on_the_board_while_influence_is_declared() -> None:
    """EMA-19.2.Influence EMA-20.5: the Parley under the declarations is shown; ballots stay secret."""
    state = ENGINE.setup(1, {"scenario": "28-millenium", "options": {}}, 3)
    state["stack"].append(
        {
            "kind": "parley",
            "type": "claim",
            "caller": 0,
            "other": None,
            "areas": ["saxony"],
            "voters": [0, 1, 2],
            "ballots": {"1": {"vote": "against", "influence": 0}},
            "influence": {"0": 1},
        }
    )
    state["stack"].append({"kind": "influence", "seat": 2, "queue": [2]})
    for viewer in (None, 0, 2):
        html = _render(state, viewer)
        assert "Parley: Claim Resolution Parley" in html and "declaring Influence" in html
        assert "1 Influence card declared" in html and "Your ballot" not in html
        assert (
            "declares Influence cards face up before the ballot" in html
        )  # the Now panel, top first
    assert "Your ballot: <strong>against</strong>" in _render(state, 1)


def test_holding_windows_and_tie_removal_read_plainly_and_long_lists_go_by_language() -> None:
    """EMA-19.2 EMA-12.43: a Holding-card window says when it is; a long list of Ties is paged by language."""
    state = _find(lambda s: bool(s["stack"]) and s["stack"][-1]["kind"] == "card_window")
    why = state["stack"][-1]["why"]
    assert "may play a Holding card" in _render(state, None) and windows.WHY[why] in _render(
        state, None
    )

    state = main_state("28-millenium", 2)
    seat = ENGINE.prompts(state)[0]["seat"]
    for here in state["areas"].values():
        here[TIES] |= 1 << seat
    state, _ = ENGINE.apply(state, seat, {"do": "drop_tie"})
    prompt = ENGINE.prompt_for(state, seat)
    assert prompt is not None and prompt["kind"] == "drop_tie"
    board = ema_board.board_context(ENGINE.view(state, seat), prompt)
    assert board["pages"] and all(g["name"].endswith("languages") for g in board["pages"])
    html = render_to_string("games/boards/ema.html#map", {"board": board})
    first = board["pages"][0]
    assert f'data-option="{first["index"]}">{first["name"]}</button>' in html
    assert "chooses which of his Diplomatic Ties to remove" in _render(state, seat)
    state, _ = ENGINE.apply(state, seat, prompt["options"][first["index"]]["action"])
    prompt = ENGINE.prompt_for(state, seat)
    board = ema_board.board_context(ENGINE.view(state, seat), prompt)
    assert board["choosing"] and not board["pages"]
    assert {a["id"] for a in board["areas"] if a["pick"]} == {
        o["action"]["area"] for o in prompt["options"] if o["action"]["area"]
    }


def _hidden_text(state: State, viewer: int | None) -> list[str]:
    """Our card texts for Holding cards only another seat holds (none of that kind is shown openly)."""
    shown = {data().events[c]["kind"] for me in state["seats"] for c in me["inplay"]}
    if viewer is not None:
        shown |= {data().events[c]["kind"] for c in state["seats"][viewer]["hand"]}
    hidden = {
        data().events[c]["kind"]
        for i, me in enumerate(state["seats"])
        if i != viewer
        for c in me["hand"]
    }
    return [ema_cards.TEXTS[k] for k in sorted(hidden - shown)]


# Every 29th state of the game's first 1,500 in the unit suite (3 of them Parleys); every 7th in
# make test-slow (10 Parleys).
@pytest.mark.parametrize("every", [29, pytest.param(7, marks=pytest.mark.slow)])
def test_no_hidden_card_or_ballot_reaches_any_viewer(every: int) -> None:
    """Unplayed Year Cards (6.0), other seats' Holding cards (19.2) and ballots (20.5) never appear."""
    checked = {"hand": 0, "years": 0, "ballot": 0}
    for state in itertools.islice(_walk(5, "28-millenium", 4), 0, 1500, every):
        top = state["stack"][-1] if state["stack"] else {}
        for viewer in (None, *range(state["players"])):
            html = _render(state, viewer)
            for me in state["seats"]:
                for number in me["years"]:
                    assert f"Nr. {number}<" not in html
                    checked["years"] += 1
            for text in _hidden_text(state, viewer):
                assert text not in html
                checked["hand"] += 1
            if top.get("kind") == "parley":
                mine = top["ballots"].get(str(viewer)) if viewer is not None else None
                assert ("Your ballot" in html) == bool(mine)
                checked["ballot"] += 1
    assert all(checked.values()), checked


def test_every_rule_the_engine_cites_has_a_summary() -> None:
    cited = set()
    for source in RULES_SOURCE.glob("*.py"):
        cited |= set(re.findall(r'"(EMA-[A-Za-z0-9.\-]+)"', source.read_text()))
    missing = sorted(cited - set(rulebook.summaries("ema")))
    assert cited and not missing, missing


@pytest.mark.django_db
@pytest.mark.usefixtures("commits")  # bots move, mail goes out, after the commit
def test_a_player_sees_the_map_the_tableau_and_only_their_own_cards(
    scenarios: None, alice: Any, client: Client
) -> None:
    game = _start(alice, services.SeatSpec("me"), services.SeatSpec("bot", bot="random"))
    client.force_login(alice)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert 'class="map ema-map' in html and 'id="area-lorraine"' in html and "North Sea" in html
    assert (
        "Treasury and Statures" in html
        and "Year Cards this Round" in html
        and "Round 1 of 9" in html
    )
    assert (
        html.count("Your Holding cards") == 1 and 'class="ema-back"' in html
    )  # in the private panel only
    private = html[html.index('id="private"') :]
    assert "Your Holding cards" in private[: private.index("</section>")]
    for text in _hidden_text(game.state, 0):
        assert text not in html
    for me in game.state["seats"]:
        for number in me["years"]:
            assert f"Nr. {number}<" not in html


@pytest.mark.django_db
@pytest.mark.usefixtures("commits")  # bots move, mail goes out, after the commit
def test_a_prompt_for_an_area_is_clickable_on_the_page(
    scenarios: None, alice: Any, client: Client
) -> None:
    game = _start(alice, services.SeatSpec("me"), services.SeatSpec("bot", bot="random"))
    rnd = random.Random(3)
    for _ in range(200):
        game.refresh_from_db()
        prompt = game.engine.prompt_for(game.state, 0)
        assert prompt is not None
        if any(ema_board.option_area(o["action"]) for o in prompt["options"]):
            break
        services.submit(game.pk, alice, rnd.choice(prompt["options"])["action"], game.seq, seat=0)
    client.force_login(alice)
    html = client.get(f"/games/{game.pk}/").content.decode()
    aid = next(
        ema_board.option_area(o["action"])
        for o in prompt["options"]
        if ema_board.option_area(o["action"])
    )
    assert re.search(rf'id="area-{aid}" class="area[^"]* pick[^"]*"[^>]*data-options?="', html)


@pytest.mark.django_db
@pytest.mark.usefixtures("commits")  # bots move, mail goes out, after the commit
def test_a_spectator_sees_the_board_and_no_hand(
    scenarios: None, alice: Any, client: Client
) -> None:
    game = _start(alice, services.SeatSpec("me"), services.SeatSpec("bot", bot="random"))
    carol = get_user_model().objects.create_user(
        "dave", "dave@example.com", "correct horse battery"
    )
    client.force_login(carol)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert 'class="map ema-map' in html and "Treasury and Statures" in html
    assert "Your Holding cards" not in html and "Your ballot" not in html
    for text in _hidden_text(game.state, None):
        assert text not in html


@pytest.mark.django_db
@pytest.mark.usefixtures("commits")  # bots move, mail goes out, after the commit
def test_a_finished_ema_game_shows_the_result_and_linked_rules(
    scenarios: None, alice: Any, client: Client
) -> None:
    game = _start(
        alice,
        services.SeatSpec("bot", bot="random"),
        services.SeatSpec("bot", bot="random"),
        options={"rounds": 1},
    )
    assert game.status == Game.Status.FINISHED
    client.force_login(alice)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "Final scores" in html and 'class="map ema-map' in html
    for row in game.result["seats"]:
        assert f"<td><strong>{row['score']}</strong></td>" in html
    assert "/rules/ema/#EMA-" in html
    linked = set(re.findall(r'/rules/ema/#(EMA-[^"]+)"', html))
    assert linked <= set(rulebook.summaries("ema"))


def test_the_odds_of_an_endeavor_count_the_unseen_year_cards_that_bring_it_ema_9_4() -> None:
    """EMA-9.4: a result (n►) applies at ER n or more; the chance is the share of the Year Cards
    not turned up this Round whose Conquest row gives C at that ER, read here from the cards'
    printed notation, independently of the parsed rows the site counts with."""
    from games.boards.ema import odds
    from rules.ema.metadata import components

    cards = components().year_cards

    def by_text(er: int, gone: set[int]) -> int:
        found = 0
        for n, card in cards.items():
            text = card["text"]["conquest"]["result"]
            if n not in gone and any(int(m) <= er for m in re.findall(r"(?<!/)C\((\d+)►\)", text)):
                found += 1
        return found

    view: dict[str, Any] = {"seats": [{"revealed": []}, {"revealed": []}]}
    for er_value in (0, 5, 8, 12):
        got = odds.chance(view, "conquest", er_value)
        assert got is not None and got["of"] == 56 and got["hits"] == by_text(er_value, set())
    gone = set(sorted(cards)[:3])
    view["seats"][1]["revealed"] = sorted(gone)
    got = odds.chance(view, "conquest", 8)
    assert got is not None and got["of"] == 53 and got["hits"] == by_text(8, gone)
    assert got["text"].endswith(f"{round(100 * got['hits'] / 53)}%")
    assert odds.chance(view, "convert", 5) is None and odds.chance(view, "conquest", None) is None


def test_diplomacy_and_conquest_odds_are_given_by_result_ema_9_4_and_12_3() -> None:
    """EMA-9.4, EMA-12.3: T/C(n►) is a Diplomatic Conquest at ER n or more, else a Tie; T(n►) a
    Tie and C(n►) a Conquest at ER n or more; each result on its own, so a Conquest's card may
    also cost the Base 1 SS (-1(◄n) at ER n or less). Counted from the printed notation."""
    from games.boards.ema import odds
    from rules.ema.metadata import components

    cards = components().year_cards
    view: dict[str, Any] = {"seats": [{"revealed": []}]}

    def at(rating: int, token: str, text: str) -> bool:
        return any(
            int(n) <= rating for n in re.findall(rf"(?<![\w/]){re.escape(token)}\((\d+)►\)", text)
        )

    for rating in (2, 5, 7, 9):
        conquest = tie = hurt = wins = 0
        for card in cards.values():
            text = card["text"]["diplomacy"]["result"]
            if at(rating, "T/C", text) or at(rating, "C", text):
                conquest += 1
            elif "T/C" in text or at(rating, "T", text):
                tie += 1
            wins += at(rating, "C", card["text"]["conquest"]["result"])
            hurt += any(
                rating <= int(n)
                for n in re.findall(r"-1\(◄(\d+)\)", card["text"]["conquest"]["base"])
            )
        got = odds.chance(view, "diplomacy", rating)
        assert got is not None
        assert got["by_result"] == {"wanted": conquest, "tie": tie, "nothing": 56 - conquest - tie}
        assert (f"a Tie on {tie} ({round(100 * tie / 56)}%)" in got["text"]) == bool(tie)
        won = odds.chance(view, "conquest", rating)
        assert won is not None and won["by_result"] == {"wanted": wins, "base": hurt}
        assert ("your Base loses 1 SS" in won["text"]) == bool(hurt)


def test_the_grand_division_questions_read_on_the_page_EMA_32_0_P2() -> None:
    """EMA-32.0.P2: the Frankish Player is asked to name each kingdom's Court, the Courts offered
    are clickable Areas of his map, and the other Players have nothing to click."""
    from rules.ema import grand
    from rules.ema.handlers import MACHINE

    state = ENGINE.setup(1, {"scenario": grand.SLUG, "options": {}}, 5)
    ctx = Ctx(state)
    ctx.seat(0)["checks"] = 2
    grand.round_end(ctx)
    MACHINE.advance(ctx)
    while ENGINE.prompts(state)[0]["kind"] == "grand_core":
        state, _ = ENGINE.apply(state, 0, ENGINE.prompts(state)[0]["options"][0]["action"])
    prompt = ENGINE.prompt_for(state, 0)
    assert prompt is not None and prompt["kind"] == "grand_court"
    assert prompt["text"].startswith("Divide the Frankish Empire: name the Court of Kingdom")
    html = _render(state, 0)
    for i, opt in enumerate(prompt["options"]):
        assert re.search(rf'id="area-{opt["action"]["court"]}"[^>]*data-option="{i}"', html)
    assert ENGINE.prompt_for(state, 1) is None and "data-option=" not in _render(state, 1)
