"""Game records and replay with divergence detection (ARCHITECTURE §2.12)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.core.canonical import state_hash
from rules.core.engine import Engine, State
from rules.core.errors import IllegalAction


@dataclass(frozen=True)
class ReplayReport:
    """The outcome of a replay: ok, or the first seq whose hash or legality diverged."""

    ok: bool
    steps: int
    divergence: int | None = None
    message: str = ""
    final_hash: str = ""


def new_record(
    engine: Engine,
    seed: int,
    config: dict[str, Any],
    players: int,
    state: State | None = None,
    hashed: bool = True,
) -> dict[str, Any]:
    """An empty record of a game: everything needed to replay it from setup.

    `state` is the set-up state when the caller has it already (it is set up again otherwise);
    without `hashed` the record names no set-up hash (benchmarks: `replay` then skips that check).
    """
    setup_hash = None
    if hashed:
        setup_hash = state_hash(engine.setup(seed, config, players) if state is None else state)
    return {
        "game": engine.game_id,
        "rules_version": engine.rules_version,
        "seed": seed,
        "config": config,
        "players": players,
        "setup_hash": setup_hash,
        "moves": [],
    }


def record_move(record: dict[str, Any], seat: int, action: Any, state: State) -> None:
    """Append a move with the hash of the state after it."""
    record["moves"].append({"seat": seat, "action": action, "hash": state_hash(state)})


def hash_matches(engine: Engine, state: State, stored: str) -> bool:
    """Whether a stored hash is this state's, in this layout or (a hash recorded before the
    engine's last layout change) in the earlier one."""
    if state_hash(state) == stored:
        return True
    earlier = engine.earlier_layout(state)
    return earlier is not None and state_hash(earlier) == stored


def replay(engine: Engine, record: dict[str, Any], checked: bool = True) -> ReplayReport:
    """Replay a record from setup, comparing every stored hash; stop at the first mismatch.

    A record of a rules version the engine cannot replay exactly is refused, saying why.
    """
    if record.get("game") != engine.game_id:
        return ReplayReport(False, 0, 0, f"record is for {record.get('game')!r}")
    version = record.get("rules_version", engine.rules_version)
    if not isinstance(version, int) or not engine.replayable(version):
        since = engine.replays_since or engine.rules_version
        return ReplayReport(
            False,
            0,
            0,
            f"the record was made with rules version {version}; {engine.title} rules version "
            f"{engine.rules_version} replays records of versions {since} to "
            f"{engine.rules_version} only",
        )
    state = engine.setup(record["seed"], record["config"], record["players"])
    setup_hash = record.get("setup_hash")
    if setup_hash is not None and not hash_matches(engine, state, setup_hash):
        return ReplayReport(False, 0, 0, "the setup state differs from the record")
    for seq, move in enumerate(record["moves"], start=1):
        try:
            if checked:
                state, _ = engine.apply(state, move["seat"], move["action"])
            else:
                engine.apply_trusted(state, move["seat"], move["action"])
        except IllegalAction as error:
            return ReplayReport(False, seq - 1, seq, f"move {seq} is refused on replay: {error}")
        if not hash_matches(engine, state, move["hash"]):
            return ReplayReport(False, seq - 1, seq, f"state hash differs after move {seq}")
    return ReplayReport(True, len(record["moves"]), None, "", state_hash(state))
