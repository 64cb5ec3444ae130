"""Standing answers: how a seat answers a kind of off-turn prompt without being asked.

The kinds come from the engine (`prompt_kinds()`), the named choices and their matching from
`standing_options()` / `standing_answer()`, so no game needs code here. A standing answer is
submitted through `services.submit` like any move (by a job owed with each change, before
bots are woken) and its Move row is flagged `by_standing`.
"""

from __future__ import annotations

from typing import Any

from games import jobs
from games.models import Game, StandingAnswer
from rules.core.canonical import canonical_json
from rules.core.engine import Option, Prompt

MAX_LABEL = 300


class StandingRefused(Exception):
    """A standing answer that cannot be set; the message is for the player."""


def choices(game: Game, kind: str) -> list[dict[str, str]]:
    """Every choice a seat may set for a kind: ask me, the engine's named ones, a fixed option."""
    named = [{"name": c["name"], "label": c["label"]} for c in game.engine.standing_options(kind)]
    return [
        {"name": StandingAnswer.ASK, "label": "Ask me"},
        *named,
        {"name": StandingAnswer.OPTION, "label": "Always this choice, when it is offered:"},
    ]


def settings_for(game: Game, seat: int) -> list[dict[str, Any]]:
    """One row per kind the engine names, with the seat's current answer (ask me by default)."""
    stored = {a.kind: a for a in StandingAnswer.objects.filter(game=game, seat=seat)}
    rows = []
    for kind, description in sorted(game.engine.prompt_kinds().items()):
        answer = stored.get(kind)
        rows.append(
            {
                "kind": kind,
                "description": description,
                "choices": choices(game, kind),
                "choice": answer.choice if answer else StandingAnswer.ASK,
                "label": answer.option_label if answer else "",
            }
        )
    return rows


def set_answer(
    game: Game, seat: int, kind: str, choice: str, label: str = "", action: Any = None
) -> StandingAnswer | None:
    """Set (or clear, with 'ask') a seat's standing answer; wakes it if it applies right now."""
    if kind not in game.engine.prompt_kinds():
        raise StandingRefused(f"This game never asks {kind!r} questions.")
    if choice not in {c["name"] for c in choices(game, kind)}:
        raise StandingRefused("That is not one of the standing answers for this kind.")
    label = label.strip()
    if len(label) > MAX_LABEL:
        raise StandingRefused(f"A choice's label is at most {MAX_LABEL} characters.")
    if choice == StandingAnswer.OPTION and not label and action is None:
        raise StandingRefused("Name the choice to give: its label as the prompt shows it.")
    if choice == StandingAnswer.ASK:
        StandingAnswer.objects.filter(game=game, seat=seat, kind=kind).delete()
        return None
    answer, _ = StandingAnswer.objects.update_or_create(
        game=game,
        seat=seat,
        kind=kind,
        defaults={
            "choice": choice,
            "option_label": label if choice == StandingAnswer.OPTION else "",
            "option_action": action if choice == StandingAnswer.OPTION else None,
        },
    )
    # The seat may be waiting on this very kind now: answer it at once (the job checks the seq).
    owed = [jobs.add(jobs.STANDING_TURN, game.pk, game.seq, s) for s, _ in due(game)]
    jobs.dispatch_after_commit(owed)
    return answer


def pick(game: Game, answer: StandingAnswer, options: list[Option]) -> Option | None:
    """The option a standing answer gives among these, or None when the player must be asked."""
    if answer.choice == StandingAnswer.OPTION:
        if answer.option_action is not None:
            wanted = canonical_json(answer.option_action)
            found = next((o for o in options if canonical_json(o["action"]) == wanted), None)
            if found is not None:
                return found
        label = answer.option_label.casefold()
        return next((o for o in options if label and o["label"].casefold() == label), None)
    return game.engine.standing_answer(answer.kind, answer.choice, options)


def due(game: Game) -> list[tuple[int, Any]]:
    """(seat, action) for every human seat prompted now whose standing answer decides it."""
    if game.state is None or game.status != Game.Status.ACTIVE:
        return []
    kinds = game.engine.prompt_kinds()
    prompts: list[Prompt] = [p for p in game.engine.prompts(game.state) if p["kind"] in kinds]
    if not prompts:
        return []
    humans = {s.index for s in game.seats.all() if not s.bot and s.user_id is not None}
    answers = {(a.seat, a.kind): a for a in StandingAnswer.objects.filter(game=game)}
    # Standing answers cover decisions on another player's turn; on one's own turn one is asked.
    active = game.engine.active_seat(game.state)
    found = []
    for prompt in prompts:
        if prompt["seat"] == active:
            continue
        answer = answers.get((prompt["seat"], prompt["kind"]))
        if prompt["seat"] in humans and answer is not None:
            option = pick(game, answer, prompt["options"])
            if option is not None:
                found.append((prompt["seat"], option["action"]))
    return found
