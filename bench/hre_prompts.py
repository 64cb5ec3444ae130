"""CPU per HRE prompt by the kind of frame that asks, for before/after comparisons.

`python bench/hre_prompts.py [--games N]` plays N random 4-player games (seeds 1..N, choosing as
`python -m rules simulate` does), keeps a copy of every position whose top frame is a turn or a
Build, then times `prompts()` over each set five times and prints the best pass, in µs of CPU per
prompt, as one JSON object. Run it from a checkout's root with PYTHONPATH=. to measure that
checkout's `rules` package.
"""

from __future__ import annotations

import argparse
import copy
import json
import time
from collections import defaultdict
from typing import Any

from rules.core import rng
from rules.hre import ENGINE

KINDS = ("turn", "build")


def main() -> int:
    """Collect the positions, time the prompts, print one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args()
    config: dict[str, Any] = {"modules": [], "options": {}}
    states: dict[str, list[Any]] = defaultdict(list)
    for seed in range(1, args.games + 1):
        state = ENGINE.setup(seed, config, 4)
        chooser = {"rng": rng.seed_state(seed ^ 0x5DEECE66D)}
        while not ENGINE.is_over(state):
            if state["stack"][-1]["kind"] in KINDS:
                states[state["stack"][-1]["kind"]].append(copy.deepcopy(state))
            prompt = rng.choice(chooser, ENGINE.prompts(state))
            action = rng.choice(chooser, prompt["options"])["action"]
            ENGINE.apply_trusted(state, prompt["seat"], action)
    out = {}
    for kind in KINDS:
        best = float("inf")
        for _ in range(5):
            start = time.process_time()
            for state in states[kind]:
                ENGINE.prompts(state)
            best = min(best, (time.process_time() - start) / len(states[kind]))
        out[kind] = {"positions": len(states[kind]), "cpu_us": round(best * 1e6, 1)}
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
