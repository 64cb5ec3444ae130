"""The new-game form: scenario, seats, the engine's options as fields, time control.

The form follows the choices (games/static js/newgame.js shows only the seats, decks and options
of the chosen scenario), keeps every value when a submission is refused, and gives each error in
plain words next to its field. The game itself is built by the services (or by a game's own
forms module, for Feudal Lords' decks).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model

from games import botkinds, clocks, scenarios, services
from games.inputs import BadInput, integer, text
from games.models import Scenario
from rules.core.options import OptionSpec
from rules.core.registry import get_engine

MAX_SEATS = 8
USERNAME_LENGTH = 150


@dataclass
class Cleaned:
    """What a valid submission asks for."""

    scenario: Scenario
    players: int
    seats: list[services.SeatSpec]
    options: dict[str, Any]
    public: bool
    time_control: Any


@dataclass
class NewGameForm:
    """The form's choices and values (the posted ones, else the defaults) and its errors."""

    user: Any
    data: Any = None  # request.POST, or None for a fresh form
    preset_game: str = ""  # ?game=hre: preselect that game's first scenario
    errors: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.scenarios = [s for s in scenarios.offered() if s.player_range()]

    # --- reading the submission -------------------------------------------------------------

    def _get(self, name: str, default: str = "") -> str:
        if self.data is None:
            return default
        value = self.data.get(name, default)
        return value if isinstance(value, str) else default

    def chosen(self) -> Scenario | None:
        """The scenario posted (or preset, or the first)."""
        raw = self._get("scenario")
        for s in self.scenarios:
            if str(s.pk) == raw:
                return s
        if self.preset_game:
            for s in self.scenarios:
                if s.game == self.preset_game:
                    return s
        return self.scenarios[0] if self.scenarios and self.data is None else None

    def clean(self) -> Cleaned | None:
        """The submission's meaning, or None with `errors` filled (field name -> sentence)."""
        scenario = self.chosen()
        if scenario is None:
            self.errors["scenario"] = self._not_offered() or "Choose a scenario from the list."
            return None
        low, high = scenario.player_range() or (1, 1)
        try:
            players = integer(self._get("players"), "The number of players", None, 1, MAX_SEATS)
        except BadInput:
            players = None
        if players is None or not low <= players <= high:
            self.errors["players"] = f"{scenario.title} is played by {scenario.players_text()}."
            return None
        seats = [self._seat(i) for i in range(players)]
        options = self._options(scenario)
        try:
            time_control = clocks.from_form(self.data)
        except ValueError as error:
            self.errors["clock"] = str(error)
            time_control = None
        if self.errors:
            return None
        public = self._get("public") == "on"
        return Cleaned(scenario, players, [s for s in seats if s], options, public, time_control)

    def _not_offered(self) -> str:
        """Why the posted scenario is not offered, when it is one the engine retired."""
        raw = self._get("scenario")
        row = Scenario.objects.filter(pk=int(raw), retired=True).first() if raw.isdigit() else None
        return scenarios.retired_text(row) if row is not None else ""

    def _seat(self, i: int) -> services.SeatSpec | None:
        kind = self._get(f"seat{i}", "open")
        if kind.startswith("bot:") and kind[4:] in botkinds.slugs():
            return services.SeatSpec("bot", bot=kind[4:])
        if kind in ("me", "open"):
            return services.SeatSpec(kind)
        if kind == "invite":
            try:
                name = text(self._get(f"invite{i}"), "The user name", USERNAME_LENGTH).strip()
            except BadInput as bad:
                self.errors[f"seat{i}"] = str(bad)
                return None
            if not name:
                self.errors[f"seat{i}"] = "Give the user name of the player to invite."
            elif not get_user_model().objects.filter(username__iexact=name).exists():
                self.errors[f"seat{i}"] = f"There is no player called {name}."
            elif name.lower() == self.user.username.lower():
                self.errors[f"seat{i}"] = "To play this seat yourself, choose “Me”."
            else:
                return services.SeatSpec("invite", username=name)
            return None
        self.errors[f"seat{i}"] = "Choose who plays this seat from the list."
        return None

    def _options(self, scenario: Scenario) -> dict[str, Any]:
        """The options that differ from the recommended reading (the engine fills the rest), of
        those the scenario plays (Engine.option_specs of its config)."""
        game = scenario.game
        chosen: dict[str, Any] = {}
        for spec in get_engine(game).option_specs(scenario.config):
            raw = self._get(option_field(game, spec["name"]))
            if raw == "":
                continue
            if spec["choices"]:
                match = [c["value"] for c in spec["choices"] if encode(c["value"]) == raw]
                if not match:
                    self.errors[option_field(game, spec["name"])] = (
                        f"Choose one of the listed answers for “{spec['label']}”."
                    )
                    continue
                value: Any = match[0]
            else:
                try:
                    value = integer(raw, spec["label"], None, spec["low"] or 0, spec["high"] or 0)
                except BadInput as bad:
                    self.errors[option_field(game, spec["name"])] = str(bad)
                    continue
            if value != spec["default"] or type(value) is not type(spec["default"]):
                chosen[spec["name"]] = value
        return chosen

    # --- drawing the form --------------------------------------------------------------------

    def context(self) -> dict[str, Any]:
        """What templates/games/new.html draws, with the posted values kept."""
        scenario = self.chosen()
        most = max((s.player_range() or (1, 1))[1] for s in self.scenarios) if self.scenarios else 1
        players = self._get("players", str(self._default_players(scenario)))
        count = int(players) if players.isdigit() else 0
        bots = botkinds.offered()
        games: dict[str, dict[str, Any]] = {}
        for s in self.scenarios:
            games.setdefault(s.game, {"game": s.game, "title": s.engine.title, "scenarios": []})
            low, high = s.player_range() or (1, 1)
            games[s.game]["scenarios"].append(
                {
                    "pk": s.pk,
                    "title": s.title,
                    "description": s.description,
                    "low": low,
                    "high": high,
                    "players_text": s.players_text(),
                    "modules": scenarios.chosen_modules(s.game, s.config, s.engine),
                    "selected": scenario is not None and s.pk == scenario.pk,
                }
            )
        seats = []
        for i in range(most):
            default = "me" if i == 0 else f"bot:{bots[0][0]}"
            seats.append(
                {
                    "index": i,
                    "kind": self._get(f"seat{i}", default),
                    "invite": self._get(f"invite{i}"),
                    "deck": self._get(f"deck{i}"),
                    "shown": i < count,
                    "error": self.errors.get(f"seat{i}", ""),
                }
            )
        option_sets = []
        for game, info in games.items():
            fields = self._fields(game, [s for s in self.scenarios if s.game == game], scenario)
            changed = any(f["error"] or (f["shown"] and not f["default"]) for f in fields)
            option_sets.append(
                {
                    "game": game,
                    "title": info["title"],
                    "shown": scenario is not None and scenario.game == game,
                    "open": changed,  # a variant chosen or refused is not folded away
                    "fields": fields,
                }
            )
        return {
            "games": list(games.values()),
            "scenario": scenario,
            "players": players,
            "player_counts": list(range(1, most + 1)),
            "seats": seats,
            "bots": bots,
            "option_sets": option_sets,
            "clock": self._get("clock", "none"),
            "days_per_move": self._get("days_per_move", "3"),
            "cap_days": self._get("cap_days", "10"),
            "on_timeout": self._get("on_timeout", "bot"),
            "public": self.data is None or self._get("public") == "on",
            "errors": self.errors,
        }

    def _default_players(self, scenario: Scenario | None) -> int:
        if scenario is None:
            return 2
        low, high = scenario.player_range() or (1, 1)
        return min(max(2, low), high)

    def _fields(
        self, game: str, shown: list[Scenario], chosen: Scenario | None
    ) -> list[dict[str, Any]]:
        """One field per option any of the game's scenarios plays, in the engine's order, each
        saying which scenarios offer it and each choice (the page shows the chosen one's)."""
        engine = get_engine(game)
        offered: dict[str, dict[str, list[int]]] = {}  # option -> encoded value -> scenario pks
        for s in shown:
            for spec in engine.option_specs(s.config):
                values = offered.setdefault(spec["name"], {})
                for value in [c["value"] for c in spec["choices"]] or [None]:
                    values.setdefault(encode(value), []).append(s.pk)
        fields = []
        for spec in engine.option_specs():
            if spec["name"] not in offered:
                continue
            by_value = offered[spec["name"]]
            pks = sorted({pk for v in by_value.values() for pk in v})
            field = self._field(game, spec)
            field["scenarios"] = " ".join(str(pk) for pk in pks)
            field["shown"] = chosen is not None and chosen.pk in pks
            for c in field["choices"]:
                c["scenarios"] = " ".join(str(pk) for pk in by_value.get(c["value"], []))
            fields.append(field)
        return fields

    def _field(self, game: str, spec: OptionSpec) -> dict[str, Any]:
        name = option_field(game, spec["name"])
        raw = self._get(name, encode(spec["default"]))
        return {
            "name": name,
            "label": spec["label"],
            "help": spec["help"],
            "low": spec["low"],
            "high": spec["high"],
            "value": raw,
            "default": raw == encode(spec["default"]),
            "choices": [
                {
                    "value": encode(c["value"]),
                    "label": c["label"],
                    "recommended": c["recommended"],
                    "selected": encode(c["value"]) == raw,
                }
                for c in spec["choices"]
            ],
            "error": self.errors.get(name, ""),
        }


def option_field(game: str, name: str) -> str:
    """The form field of one option of one game."""
    return f"opt_{game}_{name}"


def encode(value: Any) -> str:
    """An option's value as a form value (JSON keeps true, 1 and "1" apart)."""
    return json.dumps(value)
