"""Module 2, the Great Domain (rules-hre.md §1.24): 5 to 8 players on the joined board."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core.playout import play_and_replay
from rules.hre import ENGINE, build, endgame, flow
from rules.hre.components import in_play
from rules.hre.economy import accessible
from rules.hre.modules import m02_great_domain
from rules.hre.state import Ctx, board_number, data, neighbours
from tests.rules.hre.helpers import draft_all, game, give, top, turn_of
from tests.rules.hre.modules.solo import events_text

State = dict[str, Any]
COUNTS = (5, 6, 7, 8)


def config(**options: Any) -> dict[str, Any]:
    return {"modules": ["M02"], "options": options}


def drafted(players: int, seed: int = 1, **options: Any) -> tuple[State, list[Any]]:
    """A Great Domain game after every Ruler is drafted (the board is then laid out)."""
    return draft_all(ENGINE.setup(seed, config(**options), players))


def west() -> set[str]:
    return {p for p, spec in data().provinces.items() if spec["players"] >= 5}


@pytest.mark.parametrize("players", COUNTS)
def test_HRE_M02_SETUP_01_both_halves_make_one_board(players: int) -> None:
    """HRE-M02-SETUP-01: the western half joins this box's map: both are in play as one board."""
    state, events = drafted(players)
    central = in_play(data().provinces, 4)
    assert central <= set(state["prov"])
    assert set(state["prov"]) & west() == in_play(data().provinces, players) & west()
    assert "HRE-M02-SETUP-01" in events_text(events)
    ENGINE.check_invariants(state)


def test_HRE_M02_SETUP_02_one_set_of_action_cards() -> None:
    """HRE-M02-SETUP-02: five Action spaces, each Action card once."""
    state, events = drafted(8)
    assert sorted(s["action"] for s in state["slots"]) == sorted(data().board["actions"])
    assert "HRE-M02-SETUP-02" in events_text(events)


@pytest.mark.parametrize("players", COUNTS)
def test_HRE_M02_SETUP_03_markings_block_provinces_and_remove_four_player_cards(
    players: int,
) -> None:
    """HRE-M02-SETUP-03: provinces marked for more players are blocked; with 5 or 6 players the
    cards marked "4 players only" leave the game (AMB-66), with 7 or 8 they stay."""
    state, _ = drafted(players)
    marked = {p: spec["players"] for p, spec in data().provinces.items()}
    assert all(marked[p] <= players for p in state["prov"])
    assert {p for p in marked if marked[p] <= players} == set(state["prov"])
    if players <= 6:
        assert {p for p in marked if marked[p] in (7, 8)}.isdisjoint(state["prov"])
    cards = state["deck"] + state["offer"]
    four = [c for c in cards if data().cards[c]["players"] == 4]
    assert (four == []) == (players <= 6)


def test_HRE_M02_SETUP_04_rulers_of_both_halves_are_drafted_as_usual() -> None:
    """HRE-M02-SETUP-04: the draft offers the central and the western Rulers, counter-clockwise
    from the starting player's right as in the base game."""
    state = ENGINE.setup(3, config(), 8)
    offered = [o["action"]["ruler"] for o in ENGINE.prompts(state)[0]["options"]]
    assert len(offered) == 10
    assert {m02_great_domain.western(r) for r in offered} == {True, False}
    start = state["start"]
    assert top(state)["seat"] == (start + 7) % 8  # the last seat picks first
    state, _ = draft_all(state)
    assert len({me["ruler"] for me in state["seats"]}) == 8


def test_HRE_M02_SETUP_04_the_balanced_draft_keeps_the_halves_even() -> None:
    """HRE-M02-SETUP-04: with ruler_balance "balanced", once a half has given half the seats the
    draft offers only the other half's Rulers."""
    state = ENGINE.setup(3, config(ruler_balance="balanced"), 6)
    while top(state)["kind"] == "draft":
        seat = top(state)["seat"]
        offered = [o["action"]["ruler"] for o in ENGINE.prompts(state)[0]["options"]]
        western = [r for r in offered if m02_great_domain.western(r)]
        state, _ = ENGINE.apply(state, seat, {"ruler": (western or offered)[0]})
    sides = [m02_great_domain.western(me["ruler"]) for me in state["seats"]]
    assert sides.count(True) == sides.count(False) == 3
    free = ENGINE.setup(3, config(), 6)
    while top(free)["kind"] == "draft":
        offered = [o["action"]["ruler"] for o in ENGINE.prompts(free)[0]["options"]]
        pick = [r for r in offered if m02_great_domain.western(r)] or offered
        free, _ = ENGINE.apply(free, top(free)["seat"], {"ruler": pick[0]})
    assert [m02_great_domain.western(me["ruler"]) for me in free["seats"]].count(True) == 5


@pytest.mark.parametrize("players", COUNTS)
def test_HRE_M02_SETUP_05_one_deck_and_an_offer_twice_as_long(players: int) -> None:
    """HRE-M02-SETUP-05: every Culture card in play is in one deck, and 12 are dealt face up."""
    state, events = drafted(players)
    assert len(state["offer"]) == 12 == 2 * data().board["offer_size"]
    dealt = state["deck"] + state["offer"]
    wanted = {
        c
        for c, spec in data().cards.items()
        if spec["module"] is None
        and spec["starting"] is None
        and spec["players"] <= players
        and not (players <= 6 and spec["players"] == 4)
    }
    assert set(dealt) == wanted and len(dealt) == len(wanted)
    assert "HRE-M02-SETUP-05" in events_text(events)


def test_HRE_M02_SETUP_06_sixteen_churches_on_the_joined_track() -> None:
    """HRE-M02-SETUP-06: 16 Churches; a Church may be built while fewer stand (10 in the base)."""
    state, events = drafted(5)
    assert board_number(state, "church_spaces") == 16
    assert board_number(game(4), "church_spaces") == 10
    seat = 0
    turn_of(state, seat)
    home = next(p for p, h in state["prov"].items() if h["owner"] == seat)
    give(state, seat, wood=3, stone=2)

    def church_offered(built: int) -> bool:
        state["churches"] = built
        opts = build._province_options(Ctx(state), seat, home)
        return {"build": "church", "prov": home} in [o["action"] for o in opts]

    assert church_offered(10) and church_offered(15)
    assert not church_offered(16)
    assert "HRE-M02-SETUP-06" in events_text(events)


@pytest.mark.parametrize(("players", "cities"), [(5, 18), (6, 20), (7, 23), (8, 25)])
def test_HRE_M02_SETUP_07_cities_in_the_supply(players: int, cities: int) -> None:
    """HRE-M02-SETUP-07: 18/20/23/25 Cities, the Capitals taken from them."""
    state, events = drafted(players)
    on_board = sum(1 for h in state["prov"].values() if h["city"])
    assert on_board == players and state["cities"] + on_board == cities
    assert "HRE-M02-SETUP-07" in events_text(events)


@pytest.mark.parametrize("players", COUNTS)
def test_HRE_M02_SETUP_08_four_noble_discs_each(players: int) -> None:
    """HRE-M02-SETUP-08: every player has 4 Noble discs."""
    state, _ = drafted(players)
    assert all(me["total_discs"] == 4 for me in state["seats"])
    assert all(me["discs"] + me["exhausted"] == 4 for me in state["seats"])


@pytest.mark.parametrize(("players", "one", "two"), [(5, 3, 1), (6, 4, 2), (7, 5, 2), (8, 6, 3)])
def test_HRE_M02_SETUP_09_the_first_players_exhaust_one_or_two_discs(
    players: int, one: int, two: int
) -> None:
    """HRE-M02-SETUP-09: from the starting player clockwise, the first 3/4/5/6 exhaust a disc and
    the first 1/2/2/3 a second one."""
    state, events = drafted(players, seed=5)
    start = state["start"]
    exhausted = [state["seats"][(start + k) % players]["exhausted"] for k in range(players)]
    assert exhausted == [2] * two + [1] * (one - two) + [0] * (players - one)
    assert "HRE-M02-SETUP-09" in events_text(events)


@pytest.mark.parametrize(("players", "react_at"), [(5, 3), (6, 4), (7, 4), (8, 4)])
def test_HRE_M02_PLAY_01_reactions_at_three_or_four_stacked_discs(
    players: int, react_at: int
) -> None:
    """HRE-M02-PLAY-01: the bottom disc slides out at 3 stacked discs with 5 players, at 4 with
    6 to 8 (3 in the base game)."""
    for height in (react_at - 1, react_at):
        state, _ = drafted(players)
        slot = state["slots"][0]
        slot["stack"] = [1 + k % (players - 1) for k in range(height)]
        for seat in slot["stack"]:
            state["seats"][seat]["discs"] -= 1
        pushed = flow._push_reaction(Ctx(state))
        assert pushed == (height == react_at)
        if pushed:
            assert top(state)["kind"] == "reaction" and top(state)["seat"] == 1


def test_HRE_M02_PLAY_02_each_red_space_unlocks_two_cards() -> None:
    """HRE-M02-PLAY-02: the track keeps its length; 4 cards at the start, two more for each red
    space reached, all 12 from the last red space (the base game: 2, one more a red space)."""
    state, _ = drafted(6)
    track = data().board["culture_track"]
    reds = [i for i, space in enumerate(track) if space["red"]]
    ctx = Ctx(state)
    me = state["seats"][0]
    me["culture"] = 0
    assert accessible(ctx, 0) == 4
    for k, pos in enumerate(reds, start=1):
        me["culture"] = pos - 1
        assert accessible(ctx, 0) == 4 + 2 * (k - 1)
        me["culture"] = pos
        assert accessible(ctx, 0) == 4 + 2 * k
    assert accessible(ctx, 0) == len(state["offer"]) == 12
    base = game(3)
    base["seats"][0]["culture"] = reds[0]
    assert accessible(Ctx(base), 0) == 3


def test_HRE_M02_PLAY_03_neighbours_across_the_join() -> None:
    """HRE-M02-PLAY-03: provinces on either side of the join neighbour each other as on one
    board; a Manoeuvre crosses it."""
    state, _ = drafted(5)
    assert "flanders" in neighbours(state, "frisia") and "frisia" in neighbours(state, "flanders")
    assert "provence" in neighbours(state, "ivrea") and "vienne" in neighbours(
        state, "upper_burgundy"
    )
    assert "flanders" not in neighbours(game(4), "frisia")  # no western half at 1-4 players
    assert "reims" in neighbours(state, "upper_lotharingia")  # marked 5, across the join
    assert "nantes" not in neighbours(state, "poitou")  # marked 6: blocked at 5
    assert "nantes" in neighbours(drafted(6)[0], "poitou")
    frisia = state["prov"]["frisia"]
    if frisia["barb"] is not None:
        state["box_tokens"] = sorted(state["box_tokens"] + [frisia["barb"]["token"]])
        frisia["barb"] = None
    seat = 0
    frisia.update(owner=seat)
    frisia["units"]["infantry"] = 1
    turn_of(state, seat)
    state, _ = ENGINE.apply(state, seat, {"do": "noble", "slot": _slot(state, "manoeuvre")})
    moves = [o["action"] for o in ENGINE.prompts(state)[0]["options"]]
    assert {"from": "frisia", "to": "flanders"} in moves


def _slot(state: State, action: str) -> int:
    return [s["action"] for s in state["slots"]].index(action)


@pytest.mark.parametrize(("players", "end"), [(5, 11), (6, 12), (7, 14), (8, 15)])
def test_HRE_M02_END_01_the_church_trigger_at_11_12_14_15(players: int, end: int) -> None:
    """HRE-M02-END-01: the end triggers are the base game's; the Church one comes with the
    11th/12th/14th/15th Church."""
    state, _ = drafted(players)
    ctx = Ctx(state)
    state["churches"] = end - 1
    assert "HRE-BASE-END-03" not in endgame.triggers(ctx)
    state["churches"] = end
    assert "HRE-BASE-END-03" in endgame.triggers(ctx)
    state["cities"] = 0
    assert "HRE-BASE-END-02" in endgame.triggers(ctx)


@pytest.mark.parametrize("players", COUNTS)
def test_a_great_domain_game_ends_and_replays_identically(players: int) -> None:
    playout = play_and_replay(ENGINE, players, config(), players)
    assert playout.over and playout.replay is not None and playout.replay.ok


def test_the_module_takes_five_to_eight_players_and_leaves_the_base_game_alone() -> None:
    assert ENGINE.player_range(config()) == (5, 8)
    assert ENGINE.player_range({"modules": ["M02", "M03"], "options": {}}) == (5, 8)
    assert ENGINE.validate_scenario({"modules": ["M02", "M07"], "options": {}})
    assert "table" not in game(4) and "table" in drafted(5)[0]
    view = ENGINE.view(drafted(7)[0], 0)
    assert view["great_domain"]["table"]["react_at"] == 4


@pytest.mark.parametrize(
    ("others", "players"), [(["M03"], 5), (["M05"], 5), (["M14A"], 5), (["M08", "M10", "M13A"], 8)]
)
def test_the_great_domain_plays_with_modules_laid_out_for_eight(
    others: list[str], players: int
) -> None:
    """The modules with their 5-8 player numbers play with it (the Wyrd, Campaigns and Benjamin
    from their own files); the two whose other-box components are not authored are refused."""
    modules = {"modules": ["M02", *others], "options": {}}
    playout = play_and_replay(ENGINE, 1, modules, players)
    assert playout.over and playout.replay is not None and playout.replay.ok
    for refused in ("M07", "M09"):
        assert ENGINE.validate_scenario({"modules": ["M02", refused], "options": {}})


def test_one_shipped_scenario_per_player_count_each_the_same_game() -> None:
    """great-domain-5 .. -8 each seat exactly their count; their config is great-domain's (kept for
    games and benches made with it), so a seed sets up the very same game in either."""
    shipped = {s["slug"]: s for s in ENGINE.scenarios()}
    joined = shipped["great-domain"]
    assert (joined["min_players"], joined["max_players"]) == (5, 8)
    for n in (5, 6, 7, 8):
        one = shipped[f"great-domain-{n}"]
        assert (one["min_players"], one["max_players"]) == (n, n)
        assert f"{n} players" in one["title"] and one["config"] == joined["config"]
        assert ENGINE.player_range(one["config"]) == ENGINE.player_range(joined["config"])
