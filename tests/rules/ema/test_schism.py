"""The Schism (23.0, 23.1x, 23.2; optional) and the reference's worked cases TC-32."""

from __future__ import annotations

from rules.ema import er, parley, schism
from rules.ema.optional_data import tables
from rules.ema.state import OWNER, TIES, mask_of
from tests.rules.ema.helpers import ENGINE, ctx, fill, new, rules_of, to_main


def _cell(row: int, dice: int) -> str:
    return str(tables()["schism_table"][str(row)][dice - 2])


def test_tc32_schism_table_cells_EMA_23_2():
    """EMA-23.2 EMA-23.11 TC-32a TC-32b TC-32c TC-32d: cells of the table by condition and roll."""
    assert [_cell(1, d) for d in (7, 8, 12)] == ["U", "-", "U"]
    assert [_cell(3, d) for d in (3, 5, 12)] == ["S", "-", "U"]
    assert [_cell(4, d) for d in (7, 9, 12, 2)] == ["-", "-", "-", "U"]
    assert [_cell(6, d) for d in (9, 7)] == ["S", "-"]
    assert "".join(_cell(2, d) for d in range(2, 13)) == "UU--SSS---U"
    assert "".join(_cell(5, d) for d in range(2, 13)) == "USSSS-S-SSS"


def test_the_six_conditions_of_byzantine_influence_EMA_23_0_P_Schism():
    """EMA-23.0.P-Schism EMA-23.1 A-44: the condition follows Rome's owner and Ties."""
    state = new("27-charlemagne", 2, schism_crusades=True)
    c = ctx(state)
    rome = c.area("rome")
    byz = schism.byzantine(c)
    assert byz == 1
    fill(rome, owner=None, ties=[])
    assert schism.condition(c) == 4
    rome[TIES] = mask_of([0])
    assert schism.condition(c) == 5
    rome[TIES] = mask_of([1, 0])
    assert schism.condition(c) == 3
    fill(rome, owner=1, ties=[1])
    assert schism.condition(c) == 1
    rome[TIES] = mask_of([1, 0])
    assert schism.condition(c) == 2
    rome[TIES] = mask_of([])
    assert schism.condition(c) == 2  # possession without a Tie reads row 2
    rome[OWNER] = 0
    assert schism.condition(c) == 6


def test_rolled_at_each_game_turn_start_from_schism_EMA_23_0_GR_Schism():
    """EMA-23.0.GR-Schism EMA-SOP-II A-44: the game starts in Schism and rolls at the first Game-Turn;
    without the rule there is always Schism and no roll."""
    state = new("27-charlemagne", 2, schism_crusades=True)
    assert state["schism"] in ("schism", "union") and state["schism_row"] == 4
    view = ENGINE.view(state, None)
    assert view["schism"] == state["schism"] and view["schism_row"] == 4
    plain = new("27-charlemagne", 2)
    assert "schism" not in plain and "schism" not in ENGINE.view(plain, None)


def test_union_makes_one_church_EMA_23_11():
    """EMA-23.11 EMA-23.1: in Union RC and EO count as the same Church for the modifiers, and the
    Byzantine loses his +5 votes on Eastern Orthodox Areas."""
    state = new("27-charlemagne", 2, schism_crusades=True)
    c = ctx(state)
    fill(c.area("apulia"), rel="EO", lang=c.seat(0)["lang"])
    state["schism"] = "schism"
    before = er.modifier(c, 0, "apulia", "ruling")
    frame = {"areas": ["apulia"]}
    assert parley.weight(c, frame, 1, 0) == c.seat(1)["st"]["d"] + 5
    state["schism"] = "union"
    assert er.modifier(c, 0, "apulia", "ruling") == before - 1
    assert parley.weight(c, frame, 1, 0) == c.seat(1)["st"]["d"]


def test_a_change_of_influence_means_a_new_roll_EMA_23_12():
    """EMA-23.12 TC-32: a Tie to Rome changes the condition, so the table is rolled at once."""
    state = to_main("27-charlemagne", 2, schism_crusades=True)
    c = ctx(state)
    assert schism.condition(c) == 4
    c.area("rome")[TIES] = 1 << state["active"]
    events = ENGINE.apply_trusted(state, state["active"], {"do": "endeavor", "kind": "ruling"})
    assert "EMA-23.12" in rules_of(events)
    assert state["schism_row"] == schism.condition(c)
    events = ENGINE.apply_trusted(state, state["active"], {"cancel": True})
    assert "EMA-23.12" not in rules_of(events)  # unchanged condition: no further roll
    c.area("rome")[OWNER] = schism.byzantine(c)  # the book's example: Rome conquered too
    events = ENGINE.apply_trusted(state, state["active"], {"do": "endeavor", "kind": "ruling"})
    assert "EMA-23.12" in rules_of(events) and state["schism_row"] == schism.condition(c)


def test_option_validated():
    """The Schism and Crusades are one option, refused unless true or false."""
    errors = ENGINE.validate_scenario(
        {"scenario": "29-crusades", "options": {"schism_crusades": "on"}}
    )
    assert errors == ["Option schism_crusades must be one of false, true."]


def test_tc32e_a_tie_then_a_conquest_of_rome_roll_twice_EMA_23_12():
    """EMA-23.12 TC-32e (the book's example): the Byzantine forms a Tie to Rome, unheld and
    untied before, and then conquers it in the same turn: two extra rolls, the first on the row
    "Byzantine Tie to Rome" (3), the second on "Byzantine possession and exclusive Tie" (1)."""
    from rules.ema.territory import transfer

    state = new("28-millenium", 6, 2, schism_crusades=True)
    c = ctx(state)
    byz = schism.byzantine(c)
    fill(c.area("rome"), owner=None, ties=[])
    state["schism_row"] = schism.condition(c)
    assert state["schism_row"] == 4
    schism.recheck(c)
    assert "EMA-23.12" not in rules_of(c.events)  # nothing changed: no roll
    fill(c.area("rome"), ties=[byz])
    schism.recheck(c)
    transfer(c, "rome", byz, "conquest")
    schism.recheck(c)
    rolls = [e["public"] for e in c.events if e["rule"] == "EMA-23.12"]
    assert len(rolls) == 2
    assert rolls[0].startswith("Schism Table, condition 3 ") and rolls[1].startswith(
        "Schism Table, condition 1 "
    )
    assert state["schism_row"] == 1
