"""Issue 19: eight seat colours that colour-blind players can tell apart, each with its shape."""

from __future__ import annotations

from games.boards.common import COLOURS, GLYPHS, SHAPES, TINTS, seat_mark
from tests.games.palette import ciede2000, closest_pairs, contrast_on_white, lab, seen


def test_the_colour_science_matches_published_values() -> None:
    """CIEDE2000 pairs 1, 7 and 26 of Sharma, Wu & Dalal (2005); white is L* 100, a* b* 0;
    protanopes see pure red and a dark olive alike, and black on white is 21:1."""
    for one, two, want in (
        ((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425),
        ((50, 0, 0), (50, -1, 2), 2.3669),
        ((50, 2.5, 0), (73, 25, -18), 27.1492),
    ):
        assert abs(ciede2000(one, two) - want) < 1e-3
    white = lab(seen("#ffffff", "normal"))
    assert abs(white[0] - 100) < 0.01 and abs(white[1]) < 0.05 and abs(white[2]) < 0.05
    assert round(contrast_on_white("#000000"), 1) == 21.0
    assert ciede2000(lab(seen("#ff0000", "protan")), lab(seen("#6b6400", "protan"))) < 10


def test_every_pair_of_eight_seats_stays_apart_for_every_vision() -> None:
    worst = closest_pairs(COLOURS)
    assert len(COLOURS) == 8
    assert all(distance >= 15 for distance, _i, _j in worst.values()), worst


def test_every_seat_colour_holds_3_to_1_on_white_and_has_its_own_shape_and_glyph() -> None:
    assert all(contrast_on_white(c) >= 3.0 for c in COLOURS)
    assert len(set(SHAPES)) == len(set(GLYPHS)) == len(set(TINTS)) == len(COLOURS)
    assert [seat_mark(i)["colour"] for i in range(8)] == list(COLOURS)  # type: ignore[index]
