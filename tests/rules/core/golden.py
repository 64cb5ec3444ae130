"""Fingerprints of random playouts, to check that a refactoring leaves each engine's play as it was.

A fingerprint digests, action by action, the prompts (seats, kinds, texts, rules, options and
labels), the chosen action and the events it produced, and every 25 actions the state hash and the
views of the spectator and of seat 0. `marks` keeps the running digest every 500 actions, so a
divergence can be located. Regenerate the fixture (only when behaviour is meant to change, with a
new rules_version) with `python -m tests.rules.core.golden` (or `... golden ema` for one game's cases).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from rules.core import rng
from rules.core.canonical import canonical_json, state_hash
from rules.core.engine import Engine
from rules.core.registry import all_engines
from tests.rules.tables import distinct_tables

FIXTURE = Path(__file__).parent / "fixtures" / "frames_golden.json"
SEEDS = {"hre": (1, 2, 3, 4), "feudal": (1, 2, 3, 4), "ema": (1, 2)}  # EMA games are long
EVERY = 25
MARK = 500
CAP = 50_000


def cases() -> list[tuple[str, str, int, int]]:
    """(game, scenario slug, players, seed) for every shipped scenario and seat count."""
    return [
        (engine.game_id, scenario["slug"], players, s)
        for engine, scenario, players in distinct_tables()
        for s in SEEDS[engine.game_id]
    ]


def fingerprint(engine: Engine, slug: str, players: int, seed: int) -> dict[str, Any]:
    """Play one random game, choosing as the playout does, and digest everything it shows."""
    config = next(s["config"] for s in engine.scenarios() if s["slug"] == slug)
    state = engine.setup(seed, config, players)
    chooser = {"rng": rng.seed_state(seed ^ 0x5DEECE66D)}
    digest = hashlib.sha256(state_hash(state).encode())
    marks: list[str] = []
    actions = 0
    while not engine.is_over(state) and actions < CAP:
        prompts = engine.prompts(state)
        digest.update(canonical_json(prompts).encode())
        prompt = rng.choice(chooser, prompts)
        action = rng.choice(chooser, prompt["options"])["action"]
        events = engine.apply_trusted(state, prompt["seat"], action)
        digest.update(canonical_json([action, events]).encode())
        actions += 1
        if actions % EVERY == 0:
            views = [engine.view(state, None), engine.view(state, 0)]
            digest.update((state_hash(state) + canonical_json(views)).encode())
        if actions % MARK == 0:
            marks.append(digest.hexdigest()[:12])
    digest.update(canonical_json(engine.prompts(state)).encode())
    return {
        "actions": actions,
        "hash": state_hash(state)[:16],
        "digest": digest.hexdigest()[:16],
        "marks": marks,
    }


def key(game: str, slug: str, players: int, seed: int) -> str:
    """The fixture's key of one case."""
    return f"{game}/{slug}/{players}/{seed}"


def main() -> int:
    """Write the fixture from the engines as they are now; with game ids as arguments, only theirs."""
    engines = {e.game_id: e for e in all_engines()}
    only = set(sys.argv[1:])
    out = json.loads(FIXTURE.read_text()) if only and FIXTURE.exists() else {}
    out = {k: v for k, v in out.items() if k.split("/")[0] not in only}
    for game, slug, players, seed in cases():
        if only and game not in only:
            continue
        out[key(game, slug, players, seed)] = fingerprint(engines[game], slug, players, seed)
        print(key(game, slug, players, seed), out[key(game, slug, players, seed)], file=sys.stderr)
    FIXTURE.parent.mkdir(exist_ok=True)
    FIXTURE.write_text(json.dumps(out, sort_keys=True, separators=(",", ":")) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
