"""The combat log names each roll, its modifier and the thresholds it met (FL-STR-02, site issue 3.4).

Uses the rulebook's two-player combat (TC-08..TC-12) with its dice, and reads the log events.
"""

from __future__ import annotations

from rules.core.engine import Event
from rules.feudal.combatants import met_text, plural, roll_text
from tests.rules.feudal.helpers import RICHARD, State, act, fight, top, uid_of
from tests.rules.feudal.test_combat_example import attack_pool, position


def test_met_text_names_met_and_missed_thresholds() -> None:
    """FL-STR-02: one success per threshold met; the text says which."""
    assert met_text(9, [8, 11]) == "9 on 8/11: meets 8, not 11"
    assert met_text(12, [8, 11]) == "12 on 8/11: meets 8, 11"
    assert met_text(7, [8, 11]) == "7 on 8/11: misses 8, 11"
    assert met_text(7, []) == "7 (no thresholds)"
    assert roll_text(10, -1, [10, 12]) == "rolls 10-1 = 9 on 10/12: misses 10, 12"
    assert roll_text(8, 0, [8]) == "rolls 8 on 8: meets 8"
    assert (
        plural(0, "hit") == "no hit"
        and plural(1, "hit") == "1 hit"
        and plural(2, "block") == "2 blocks"
    )


def _pass_all(state: State, log: list[Event]) -> State:
    """Pass every Instant window in a row, keeping the events."""
    while state["stack"] and top(state)["kind"] == "window":
        state, events = act(state, {"do": "pass"})
        log += events
    return state


def _texts(log: list[Event], rule: str) -> list[str]:
    return [str(e["public"]) for e in log if e["rule"] == rule]


def test_distance_fire_and_close_combat_log_each_roll_and_threshold(rig: list[int]) -> None:
    """FL-COMBAT-DF-04, FL-COMBAT-CC-02, FL-COMBAT-CC-08: TC-10..TC-12 as log lines."""
    log: list[Event] = []
    state = attack_pool(position())
    state, _ = act(state, {"do": "done"})
    state, _ = act(state, {"do": "down", "card": "training"})
    state, _ = act(state, {"loc": 0})
    state = _pass_all(state, log)
    rig.append(3)
    state, _ = act(state, {"do": "lone", "uid": uid_of(state, RICHARD, "brass")})
    state, _ = act(state, {"do": "pay"})
    state, _ = act(state, {"do": "none"})
    rig += [10, 11, 5]
    state = _pass_all(state, log)
    rig.append(11)
    grinner = next(c["uid"] for c in fight(state)["a"] if c["card"] == "grinner")
    state, events = act(state, {"uid": grinner})
    log += events
    state = _pass_all(state, log)
    df = _texts(log, "FL-COMBAT-DF-04")
    # Brass puts -1 on the attackers' DF rolls: Grinner's 10 becomes 9 and misses (TC-10).
    assert df[0] == "Grinner fires at Brass: rolls 10-1 = 9 on 10/12: misses 10, 12 → no hit."
    assert df[1].startswith("Looter fires at Brass: rolls 11-1 = 10 on ") and df[1].endswith(
        "→ 1 hit."
    )
    assert df[3].startswith("Brass fires at Grinner: rolls 11") and "meets" in df[3]

    looter = next(c["uid"] for c in fight(state)["a"] if c["card"] == "looter")
    rig += [9, 12]
    state, events = act(state, {"mine": looter, "theirs": fight(state)["d"][0]["uid"]})
    log += events
    rig += [8, 11]
    state = _pass_all(state, log)
    cc = _texts(log, "FL-COMBAT-CC-02")
    assert cc[0].startswith("Looter strikes Brass: rolls 9") and cc[0].endswith("→ 1 hit.")
    # Pastor supports Looter: a supporter scores one hit at most (FL-COMBAT-CC-05).
    assert cc[1].startswith("Pastor supports against Brass: rolls 12")
    blocks = _texts(log, "FL-COMBAT-CC-08")
    assert (
        blocks
        and blocks[0].startswith("Brass blocks: rolls 8+2 = 10 on ")
        and "1 block of 2 hits" in blocks[0]
    )
