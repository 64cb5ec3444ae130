"""Replays of finished games: the downloadable record, and any position recomputed from the seed.

Only a finished game is replayed: the record holds the seed and every move, which together
tell everything that was hidden (ARCHITECTURE §2.7). The record has the format of
rules.core.replay, so `python -m rules replay FILE` checks every hash of a download.
"""

from __future__ import annotations

from typing import Any

from games import boards, rulebook
from games.models import Game, Move
from rules.core.canonical import state_hash
from rules.core.engine import State


class NotReplayable(Exception):
    """The game is not over, so its record would reveal hidden information."""


def _finished(game: Game) -> None:
    if game.status != Game.Status.FINISHED:
        raise NotReplayable("A game can be replayed once it is over.")


def game_record(game: Game) -> dict[str, Any]:
    """The game's record: game, rules_version, seed, config, players, setup_hash, moves."""
    _finished(game)
    setup = game.engine.setup(game.seed, game.config, game.players)
    return {
        "game": game.game,
        "rules_version": game.rules_version,
        "seed": game.seed,
        "config": game.config,
        "players": game.players,
        "setup_hash": state_hash(setup),
        "moves": [
            {"seat": m.seat, "action": m.action, "hash": m.state_hash}
            for m in game.moves.order_by("seq")
        ],
    }


def state_at(game: Game, seq: int) -> State:
    """The full state after move `seq` (0 is the set-up), replayed from the seed."""
    engine = game.engine
    state = engine.setup(game.seed, game.config, game.players)
    for move in game.moves.filter(seq__lte=seq).order_by("seq").only("seat", "action"):
        engine.apply_trusted(state, move.seat, move.action)
    return state


def _log(game: Game, seq: int, names: dict[int, str]) -> list[dict[str, Any]]:
    """Every log line up to `seq`, with every seat's private text (the game is over), each
    private text marked with the name of the player who read it."""
    lines = []
    for move in Move.objects.filter(game=game, seq__lte=seq).order_by("seq"):
        for event in move.events:
            texts = [event.get("public") or ""]
            texts += [
                f"[{names.get(int(k), f'seat {int(k) + 1}')}] {v}"
                for k, v in sorted(event.get("private", {}).items())
                if v
            ]
            text = " ".join(t for t in texts if t)
            if text:
                lines.append(
                    {
                        "seq": move.seq,
                        "seat": move.seat,
                        "text": text,
                        "current": move.seq == seq,
                        "rule": rulebook.link(game.game, event.get("rule", "")),
                    }
                )
    return lines


def position(game: Game, seq: int) -> dict[str, Any]:
    """What the replay page shows at `seq`: the board, every seat's private view, and the log."""
    _finished(game)
    seq = max(0, min(seq, game.seq))
    engine = game.engine
    state = state_at(game, seq)
    view = engine.view(state, None)
    seats = list(game.seats.select_related("user"))
    hands = []
    for seat in seats:
        own = engine.view(state, seat.index)
        hand = (
            boards.board_context(game.game, own, None).get("hand")
            if boards.has_board(game.game)
            else None
        )
        hands.append(
            {
                "index": seat.index,
                "label": seat.label(),
                "hand": hand if hand is not None else own.get("hand"),
            }
        )
    move = game.moves.filter(seq=seq).first()
    names = {s.index: s.label() for s in seats}
    return {
        "game": game,
        "seq": seq,
        "last": game.seq,
        "view": view,
        "hands": hands,
        "move": move,
        "board": boards.board_context(game.game, view, None),
        "board_template": f"games/boards/{game.game}.html" if boards.has_board(game.game) else None,
        "log": _log(game, seq, names),
        "names": names,  # the players by seat, as the log names them
        "prompts": engine.prompts(state),
    }
