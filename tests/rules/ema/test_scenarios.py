"""Scenario set-ups as data (EMA-4.0, EMA-27.x … EMA-31.x)."""

from __future__ import annotations

from rules.ema.state import CLAIMS, FORT, LANG, OWNER, REL, SS, UNREST, has
from tests.rules.ema.helpers import new


def _seat(state, key):
    return next(i for i, m in enumerate(state["seats"]) if m["empire"] == key)


def test_preparing_for_play_EMA_4_0():
    """EMA-4.0.GR EMA-4.0.P1 EMA-4.0.P2 EMA-4.0.P3 EMA-4.0.P4 EMA-4.0.P5 EMA-4.0.P6 EMA-4.0.P7 EMA-4.0.P8 EMA-4.0.P9."""
    state = new("28-millenium", 2)
    assert all(m["gold"] == 12 for m in state["seats"])
    assert state["seats"][0]["court"] == "lorraine" and state["year"] == 976
    assert state["areas"]["burgundy"][OWNER] is None and state["areas"]["burgundy"][SS] == 3
    assert state["areas"]["venice"][FORT] == 3 and len(state["event_deck"]) == 55
    assert all(len(m["years"]) == 5 for m in state["seats"])


def test_charlemagne_EMA_27():
    """EMA-27.0 EMA-27.1 EMA-27.22 EMA-27.3 EMA-27.4 EMA-27.5 EMA-27.6 EMA-27.8 EMA-27.92."""
    state = new("27-charlemagne", 2)
    fra, byz = state["seats"]
    assert fra["st"] == {"c": 9, "a": 9, "d": 9} and byz["st"] == {"c": 5, "a": 3, "d": 3}
    areas = state["areas"]
    assert (
        has(areas["lombardy"][CLAIMS], 0)
        and not has(areas["anatolia"][CLAIMS], 1)
        and has(areas["venice"][CLAIMS], 1)
    )
    assert areas["lorraine"][SS] == 3 and areas["wessex"][SS] == 1 and areas["saxony"][FORT] == 3
    assert areas["saxony"][REL] == "pagan_germanic" and areas["cordova"][REL] == "moslem_iberian"
    # 27.5, 27.6, A-33: Bulgar is non-IE, but Bulgaria's Pagans are of its 7.3 group: South Slavonic (CS 14)
    assert areas["bulgaria"][LANG].startswith("nonie") and areas["bulgaria"][REL] == "pagan_sslav"
    assert areas["brandenburg"][REL] == "pagan_wslav"
    assert areas["apulia"][REL] == "EO" and areas["brandenburg"][LANG] == "west_slavonic"
    assert state["rounds"] == 9 and fra["handicap"] == -40
    solo = new("27-charlemagne-solo", 1)
    assert solo["areas"]["constantinople"][OWNER] is None and len(solo["seats"]) == 1


def test_millenium_EMA_28():
    """EMA-28.0 EMA-28.1 EMA-28.22 EMA-28.3 EMA-28.4 EMA-28.5 EMA-28.6 EMA-28.7 EMA-28.8."""
    state = new("28-millenium", 6)
    assert [m["empire"] for m in state["seats"]] == ["GER", "FRA", "BUR", "DEN", "POL", "BYZ"]
    kie = new("28-millenium", 2, **{})
    assert kie["rounds"] == 20
    byz = _seat(state, "BYZ")
    areas = state["areas"]
    assert state["seats"][byz]["st"] == {"c": 5, "a": 5, "d": 5}
    assert not has(areas["anatolia"][CLAIMS], byz) and has(areas["greece"][CLAIMS], byz)
    assert areas["denmark"][FORT] == 2 and areas["lombardy"][SS] == 3 and areas["lombardy"][UNREST]
    assert areas["norway"][REL] == "pagan_norse" and areas["bulgaria"][LANG].startswith("nonie")
    assert state["seats"][_seat(state, "DEN")]["handicap"] == 30


def test_crusades_EMA_29():
    """EMA-29.0 EMA-29.1 EMA-29.22 EMA-29.3 EMA-29.42 EMA-29.5 EMA-29.6 EMA-29.7."""
    state = new("29-crusades", 6)
    eng = _seat(state, "ENG")
    areas = state["areas"]
    assert has(areas["aquitaine"][CLAIMS], eng) and state["seafaring_extra"] == ["sicily"]
    assert areas["hungary"][SS] == 2 and areas["portugal"][REL] == "moslem_iberian"
    assert state["rounds"] == 13 and state["seats"][_seat(state, "SIC")]["handicap"] == 20
    assert state["seats"][_seat(state, "BYZ")]["st"] == {"c": 5, "a": 3, "d": 5}


def test_defeat_in_the_east_EMA_30():
    """EMA-30.0 EMA-30.1 EMA-30.22 EMA-30.3 EMA-30.4 EMA-30.5 EMA-30.6 EMA-30.7."""
    state = new("30-defeat-in-the-east", 6)
    ger = _seat(state, "GER")
    areas = state["areas"]
    assert has(areas["sicily"][CLAIMS], ger) and areas["sicily"][OWNER] is None
    assert (
        areas["silesia"][SS] == 0
        and areas["venice"][FORT] == 3
        and areas["cordova"][REL] == "moslem_iberian"
    )
    assert state["rounds"] == 20 and state["seats"][_seat(state, "ARA")]["handicap"] == 25
    assert state["seats"][_seat(state, "FRA")]["st"]["c"] == 5


def test_twilight_EMA_31():
    """EMA-31.0 EMA-31.1 EMA-31.22 EMA-31.3 EMA-31.4 EMA-31.5 EMA-31.6 EMA-31.7 EMA-31.8 EMA-31.9."""
    state = new("31-twilight", 6)
    tur = _seat(state, "TUR")
    areas = state["areas"]
    assert all(not has(h[CLAIMS], tur) for h in areas.values())
    assert (
        areas["hungary"][FORT] == 2 and areas["asia"][LANG] == "turkish" and areas["asia"][SS] == 2
    )
    assert state["seats"][tur]["rel"] == "moslem_east" and state["seats"][tur]["inplay"]
    assert areas["granada"][REL] == "moslem_iberian" and areas["lithuania"][REL] == "RC"
    assert state["rounds"] == 16 and "zeal_of_the_turks" in state["special"]
