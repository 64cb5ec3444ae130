"""Component data: map, Year Cards, Event deck, tables, scenarios (EMA-3.x, tables of the book)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from rules.ema import cards
from rules.ema.components import load, parse_result
from rules.ema.empire import court_costs
from rules.ema.state import OWNER
from tests.rules.ema.helpers import ENGINE, new


def test_the_map_has_the_77_areas_of_7_3_and_flanders_register_EMA_3_12():
    """EMA-3.12 EMA-7.3 EMA-2.0.Area EMA-3.11: 77 Land Areas; Flanders population −1, Norm +2."""
    d = load()
    assert len(d.areas) == 77 and len(d.seas) >= 10
    assert d.areas["flanders"]["population"] == -1 and d.areas["flanders"]["norm"] == 2
    assert (
        d.languages["old_saxon"]["group"] == d.languages["old_high_german"]["group"] == "germanic"
    )


def test_links_are_symmetric_and_seafaring_areas_are_those_of_9_53():
    """EMA-3.13 EMA-3.14 EMA-9.53: land lines, land–sea lines, sea–sea lines; six seafaring Areas."""
    d = load()
    for a, near in d.land_adj.items():
        assert all(a in d.land_adj[b] for b in near)
    assert "aegean_sea" in d.area_seas["constantinople"]
    assert sorted(a for a, v in d.areas.items() if v["seafaring"]) == [
        "constantinople",
        "denmark",
        "lombardy",
        "norway",
        "sweden",
        "venice",
    ]


def _overland(start: str) -> set[str]:
    """Every Land Area reachable from `start` by land lines alone."""
    d = load()
    seen, todo = {start}, [start]
    while todo:
        for n in d.land_adj[todo.pop()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def test_an_overland_crusade_reaches_syria_and_jerusalem_EMA_23_0_P_Cru3():
    """EMA-23.0.P-Cru3: a Crusade may go overland through Croatia or Hungary to the Levant, which
    needs the Bosporus crossing (Constantinople–Asia) as a land line (data README, the map)."""
    d = load()
    assert "asia" in d.land_adj["constantinople"]
    for start in ("croatia", "hungary"):
        assert {"syria", "jerusalem"} <= _overland(start)


def test_the_turk_of_1386_holds_his_areas_overland_and_england_aquitaine_by_one_sea_EMA_31_21():
    """EMA-31.21 EMA-7.51 EMA-9.51: the Dardanelles (Adrianople–Asia) join the Turkish Court to
    Asia Minor by land; Wessex on the Bay of Biscay puts Aquitaine one Sea from the English Court."""
    state = new("31-twilight", 6)
    costs = {s["empire"]: court_costs(state, i) for i, s in enumerate(state["seats"])}
    assert costs["TUR"] == dict.fromkeys(
        ["adrianople", "anatolia", "armenia", "asia", "cilicia"], 0
    )
    assert costs["ENG"]["aquitaine"] == 1


def test_year_card_57_reads_as_the_sample_EMA_3_21():
    """EMA-3.21 EMA-3.2 EMA-9.4 EMA-9.2 TC-01..TC-03: the sample card and its evaluation."""
    d = load()
    assert len(d.year_cards) == 56
    c57 = d.year_cards[57]
    assert c57["checks"] == [1]
    assert [r["e"] for r in cards.results(c57, "conquest", 8)] == ["C"]
    assert [r["e"] for r in cards.results(c57, "conquest", 7)] == ["-1"]
    assert [r["e"] for r in cards.results(c57, "conquest", 0)] == ["-1"]
    assert cards.results(c57, "pillage", 0) == []
    assert [r["col"] for r in cards.results(c57, "pillage", 1)] == ["target"]
    assert [r["e"] for r in cards.results(c57, "ruling", 7)] == ["+1"]
    assert cards.results(c57, "ruling", 6) == []
    assert [r["e"] for r in cards.results(c57, "fortification", 0)] == ["F"]


def test_default_event_deck_has_the_book_counts_EMA_19_2_Dynastic():
    """EMA-19.2.Dynastic EMA-19.0.GR EMA-3.3 (A-30): by default the deck is the 55 cards 19.1 and
    19.2 count, Dynastic Inheritance 3 single + 2 group; `event_deck: 56` adds the authored single."""
    events = load().events

    def dynastic(state: dict[str, Any]) -> Counter[str]:
        return Counter(
            events[c]["variant"] for c in state["event_deck"] if events[c]["kind"] == "dynastic"
        )

    state = ENGINE.setup(1, {"scenario": "28-millenium", "options": {}}, 2)
    assert len(state["event_deck"]) == 55 and state["options"]["event_deck"] == 55
    assert dynastic(state) == Counter(single=3, group=2)
    assert not any(events[c].get("authored") for c in state["event_deck"])
    full = ENGINE.setup(1, {"scenario": "28-millenium", "options": {"event_deck": 56}}, 2)
    assert len(full["event_deck"]) == 56 and dynastic(full) == Counter(single=4, group=2)


def test_the_authored_year_deck_is_calibrated_EMA_3_2_EMA_9_4():
    """EMA-3.2 EMA-9.4 EMA-10.2 EMA-15.2: the authored rows (data README, "How the Year Cards were
    calibrated"): a Conquest C from ER 1, each point of ER worth about the same; Ruling +1 from
    ER 0 and on half the deck at ER 2; a Ruling −1 only at ER 0; and the file is what
    bench/ema_year_cards.py writes."""
    import importlib.util
    import json
    from pathlib import Path

    deck = list(load().year_cards.values())

    def share(row: str, effect: str, value: int) -> float:
        hits = sum(any(r["e"] == effect for r in cards.results(c, row, value)) for c in deck)
        return hits / len(deck)

    conquest = [share("conquest", "C", v) for v in range(0, 13)]
    assert conquest[0] == 0 and conquest[1] > 0 and conquest[12] == 1
    steps = [b - a for a, b in zip(conquest, conquest[1:], strict=False)]
    assert all(0.03 <= step <= 0.13 for step in steps)  # about 1 card in 12 per point of ER
    assert 0.4 <= conquest[6] <= 0.6
    assert share("ruling", "+1", 0) > 0 and 0.4 <= share("ruling", "+1", 2) <= 0.6
    assert share("ruling", "+1", 5) >= 0.95
    assert share("ruling", "-1", 0) > 0 and share("ruling", "-1", 1) == 0
    path = Path(__file__).resolve().parents[3] / "bench" / "ema_year_cards.py"
    spec = importlib.util.spec_from_file_location("ema_year_cards", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    written = [module.SAMPLE] + [module.card(k) for k in range(1, 56)]
    on_disk = json.loads((Path(module.OUT)).read_text())["cards"]
    assert written == on_disk


def test_result_notation_thresholds_EMA_9_4():
    """EMA-9.4: +1(3►) needs ER ≥ 3, −1(◄1) needs ER ≤ 1."""
    up = parse_result("+1(3►)", "base")[0]
    down = parse_result("-1(◄1)", "target")[0]
    assert not cards.matches(up, 2) and cards.matches(up, 3)
    assert cards.matches(down, 1) and not cards.matches(down, 2)


def test_event_deck_has_56_cards_with_the_book_counts_EMA_19_0_GR():
    """EMA-3.3 EMA-19.0.GR EMA-19.1.Plenty EMA-19.1.Famine: counts of 19.x and one authored card (A-30)."""
    kinds = Counter(c["kind"] for c in load().events.values())
    assert len(load().events) == 56
    assert (
        kinds["plenty"] == kinds["famine"] == 9
        and kinds["epidemic"] == 2
        and kinds["heirless"] == 5
    )
    assert (
        kinds["recognition"] == 7
        and kinds["coup"] == 7
        and kinds["demesne"] == 4
        and kinds["influence"] == 3
    )
    assert kinds["dynastic"] == 6


def test_leader_stature_change_table_distribution_EMA_8_3():
    """EMA-8.3: the outcome counts of the table out of 36 (reference §1.3.2 checksums)."""
    table = load().tables["stature_change"]
    ways = {r: 6 - abs(7 - r) for r in range(2, 13)}
    expected = {
        "1": [3, 3, 16, 11, 3],
        "2": [1, 5, 15, 12, 3],
        "3": [1, 9, 16, 9, 1],
        "5": [3, 12, 11, 7, 3],
        "9": [3, 12, 12, 6, 3],
    }
    for column, counts in expected.items():
        got = Counter()
        for roll in range(2, 13):
            got[table[column][roll - 2]] += ways[roll]
        assert [got[v] for v in (1, 2, 3, 5, 9)] == counts


def test_every_starting_empire_is_connected_to_its_court_EMA_7_51():
    """EMA-7.51 EMA-4.0.P2 EMA-4.0.P3: every scenario's possessions trace to the Court."""
    for slug, players in (
        ("27-charlemagne", 2),
        ("28-millenium", 6),
        ("29-crusades", 6),
        ("30-defeat-in-the-east", 6),
        ("31-twilight", 6),
    ):
        state = new(slug, players)
        for seat, me in enumerate(state["seats"]):
            mine = [a for a, h in state["areas"].items() if h[OWNER] == seat]
            assert sorted(court_costs(state, seat)) == sorted(mine), (slug, me["empire"])
    from tests.rules.ema.helpers import ENGINE

    state = ENGINE.setup(
        1, {"scenario": "28-millenium", "empires": ["GER", "KIE"]}, 2
    )  # the 7th of 28.1
    kie = [a for a, h in state["areas"].items() if h[OWNER] == 1]
    assert state["seats"][1]["court"] == "kiev" and len(kie) > 1
    assert sorted(court_costs(state, 1)) == sorted(kie)
