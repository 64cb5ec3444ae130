"""Seat colours as colour-blind players see them: CIEDE2000 between every pair of seats, for
normal vision and simulated protanopia, deuteranopia and tritanopia, and contrast on white.

The simulation is Machado, Oliveira & Fernandes (2009) at severity 1.0, applied in linear sRGB;
the distance is CIEDE2000 in CIELAB (D65). `python -m tests.games.palette` prints the figures of
games.boards.common.COLOURS (README, "Seat colours").
"""

from __future__ import annotations

import itertools
import math

VISIONS = ("normal", "protan", "deutan", "tritan")
_MACHADO = {
    "protan": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
               (-0.003882, -0.048116, 1.051998)),
    "deutan": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
               (-0.011820, 0.042940, 0.968881)),
    "tritan": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
               (0.004733, 0.691367, 0.303900)),
}  # fmt: skip


def _linear(hex_colour: str) -> tuple[float, float, float]:
    values = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in values)
    return r, g, b


def seen(hex_colour: str, vision: str) -> tuple[float, float, float]:
    """The colour in linear sRGB as a viewer with this vision sees it."""
    rgb = _linear(hex_colour)
    if vision == "normal":
        return rgb
    rows = _MACHADO[vision]
    r, g, b = (
        min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb, strict=True)))) for row in rows
    )
    return r, g, b


def lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    """Linear sRGB to CIELAB (D65 white)."""
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def ciede2000(one: tuple[float, float, float], two: tuple[float, float, float]) -> float:
    """The CIEDE2000 colour difference (kL = kC = kH = 1)."""
    (l1, a1, b1), (l2, a2, b2) = one, two
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar**7 / (c_bar**7 + 25**7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1, h2 = math.degrees(math.atan2(b1, a1)) % 360, math.degrees(math.atan2(b2, a2)) % 360
    dh = 0.0 if c1 * c2 == 0 else (h2 - h1 + 180) % 360 - 180
    d_l, d_c = l2 - l1, c2 - c1
    d_h = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    l_bar, c_bar2 = (l1 + l2) / 2, (c1 + c2) / 2
    if c1 * c2 == 0:
        h_bar = h1 + h2
    elif abs(h1 - h2) <= 180:
        h_bar = (h1 + h2) / 2
    else:
        h_bar = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_bar - 30))
        + 0.24 * math.cos(math.radians(2 * h_bar))
        + 0.32 * math.cos(math.radians(3 * h_bar + 6))
        - 0.20 * math.cos(math.radians(4 * h_bar - 63))
    )
    s_l = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    s_c, s_h = 1 + 0.045 * c_bar2, 1 + 0.015 * c_bar2 * t
    r_c = 2 * math.sqrt(c_bar2**7 / (c_bar2**7 + 25**7))
    r_t = -math.sin(math.radians(60 * math.exp(-(((h_bar - 275) / 25) ** 2)))) * r_c
    return math.sqrt(
        (d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_h / s_h) ** 2 + r_t * (d_c / s_c) * (d_h / s_h)
    )


def contrast_on_white(hex_colour: str) -> float:
    """WCAG contrast ratio of the colour against white."""
    r, g, b = _linear(hex_colour)
    return 1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05)


def closest_pairs(colours: tuple[str, ...]) -> dict[str, tuple[float, int, int]]:
    """For each vision: the smallest CIEDE2000 between two seats, and which seats (0-based)."""
    found = {}
    for vision in VISIONS:
        labs = [lab(seen(c, vision)) for c in colours]
        found[vision] = min(
            (ciede2000(labs[i], labs[j]), i, j)
            for i, j in itertools.combinations(range(len(colours)), 2)
        )
    return found


def main() -> None:
    from games.boards.common import COLOURS

    for n in range(2, len(COLOURS) + 1):
        worst = closest_pairs(COLOURS[:n])
        cells = [f"{v} {d:.1f} (seats {i + 1}/{j + 1})" for v, (d, i, j) in worst.items()]
        print(f"{n} seats: " + "; ".join(cells))
    print("contrast on white: " + ", ".join(f"{c} {contrast_on_white(c):.1f}" for c in COLOURS))


if __name__ == "__main__":
    main()
