"""The search bots' re-deal of unseen Barbarian tokens (`determinize`): `first_fill` gives the
deal that trying every token in order and backing up gives, without its exponential worst case."""

from __future__ import annotations

import random
import time

from rules.hre.engine import first_fill


def _backing_up(order: list[str], fits: dict[str, list[str]]) -> dict[str, str] | None:
    """The plain search that `first_fill` replaces (rules version 9's `_redeal_tokens`)."""
    chosen: dict[str, str] = {}

    def fill(index: int, used: set[str]) -> bool:
        if index == len(order):
            return True
        pid = order[index]
        for token in fits[pid]:
            if token not in used:
                chosen[pid] = token
                used.add(token)
                if fill(index + 1, used):
                    return True
                used.discard(token)
        return False

    return dict(chosen) if fill(0, set()) else None


def _instance(pick: random.Random) -> tuple[list[str], dict[str, list[str]]]:
    """Slots and their fitting tokens, a true deal planted among random extra fits."""
    slots = [f"s{i}" for i in range(pick.randint(1, 9))]
    tokens = [f"t{i}" for i in range(len(slots) + pick.randint(0, 3))]
    truth = dict(zip(slots, pick.sample(tokens, len(slots)), strict=True))
    fits = {
        s: sorted({truth[s], *pick.sample(tokens, pick.randint(0, len(tokens)))}) for s in slots
    }
    for s in slots:
        pick.shuffle(fits[s])
    order = sorted(slots, key=lambda s: (len(fits[s]), s))
    return order, fits


def test_it_gives_the_same_deal_as_backing_up() -> None:
    pick = random.Random(19)
    for _ in range(3000):
        order, fits = _instance(pick)
        assert first_fill(order, fits) == _backing_up(order, fits), (order, fits)


def test_it_says_when_there_is_no_deal() -> None:
    assert first_fill(["a", "b"], {"a": ["t"], "b": ["t"]}) is None


def test_a_late_tight_slot_costs_no_search() -> None:
    """Twelve slots share thirteen tokens and a later slot needs the one the first of them took
    (the shape of a joined-board position that kept the old search busy for minutes)."""
    n = 12
    shared = [f"t{i}" for i in range(n + 1)]
    own = [f"e{i}" for i in range(n + 1)]
    fits = {f"p{i:02}": list(shared) for i in range(n)}
    fits |= {f"r{i:02}": list(own) for i in range(n + 1)}
    fits["q"] = [shared[0], *own]  # its other tokens all go to the r slots
    order = sorted(fits, key=lambda s: (len(fits[s]), s))
    start = time.process_time()
    deal = first_fill(order, fits)
    assert time.process_time() - start < 1.0
    assert deal is not None and deal["q"] == shared[0]
    assert len(set(deal.values())) == len(deal) and all(deal[s] in fits[s] for s in fits)
