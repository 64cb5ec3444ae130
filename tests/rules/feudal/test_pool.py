"""The card pool and the starter decks: size, spread over every type and class, distinct decks."""

from __future__ import annotations

from rules.feudal.components import CARD_TYPES, CLASSES, STOPS, deck_errors, load


def test_the_pool_has_200_distinct_cards_of_every_type() -> None:
    """At least 200 cards, at least 8 of every card type, and names that are all different."""
    cards = load().cards
    assert len(cards) >= 200
    assert len({c["name"] for c in cards.values()}) == len(cards)
    counts = {kind: sum(1 for c in cards.values() if c["type"] == kind) for kind in CARD_TYPES}
    assert all(n >= 8 for n in counts.values()), counts


def test_every_class_has_named_and_generic_characters() -> None:
    """A-10, A-11: each of the nine classes has Named and Generic characters, and
    class-limited cards of other types."""
    cards = load().cards.values()
    for code in CLASSES:
        people = [c for c in cards if c["type"] == "character" and c["class"] == code]
        assert any(c["generic"] for c in people) and any(not c["generic"] for c in people), code
        assert any(c["type"] != "character" and c.get("class") == code for c in cards), code


def test_fl_inst_04_instants_cover_every_timing_window() -> None:
    """FL-INST-04 (A-21): for every stop some Instant may be played there."""
    timings = {t for c in load().cards.values() if c["type"] == "instant" for t in c["timing"]}
    assert timings == set(STOPS)


def test_six_legal_and_clearly_different_starter_decks() -> None:
    """FL-DECK-01, FL-DECK-02, FL-DECK-03, FL-DECK-04: at least six legal starter decks with
    different leaders, each deck's characters mostly of a different class."""
    decks = load().decks
    cards = load().cards
    assert all(deck_errors(d, cards) == [] for d in decks.values())
    assert len(decks) >= 6
    assert len({d["leader"] for d in decks.values()}) >= 6

    def main_class(deck: dict[str, object]) -> str:
        stock = deck["stockpile"]
        assert isinstance(stock, dict)
        tally: dict[str, int] = {}
        for cid, n in stock.items():
            if cards[cid]["type"] == "character":
                tally[cards[cid]["class"]] = tally.get(cards[cid]["class"], 0) + n
        return max(tally, key=lambda k: tally[k])

    assert len({main_class(d) for d in decks.values()}) >= 6
