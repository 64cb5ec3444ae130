"""Django admin: scenarios (checked by the engine, copyable); games, seats and moves read-only.

Nothing here shows what a running game hides (its state, seed, actions, standing answers' chosen
options); private chat is shown only to superusers and seat notes to nobody.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from games import botkinds, services
from games.models import (
    ApiToken,
    ChatChannel,
    ChatMessage,
    Deck,
    DeckEntry,
    EmailActionUse,
    Game,
    GameClock,
    Job,
    MailPreference,
    Move,
    Mute,
    Outbox,
    Rating,
    RematchOffer,
    Result,
    Scenario,
    Seat,
    SeatClock,
    SeatNote,
    SeatResult,
    StandingAnswer,
)
from rules.core import all_engines, get_engine
from rules.core.engine import Engine, players_phrase
from rules.core.errors import ScenarioError


def _engine_choices() -> list[tuple[str, str]]:
    return [(engine.game_id, engine.title) for engine in all_engines()]


def _module_choices() -> list[tuple[str, str]]:
    """Every game's playable expansion modules (HRE's), from the engines' module registries."""
    return [
        (
            m["id"],
            f"{engine.game_id.upper()} {m['id']}: {m['name']} "
            f"({players_phrase(m['min_players'], m['max_players'])})",
        )
        for engine in all_engines()
        for m in engine.module_specs()
    ]


class ScenarioForm(forms.ModelForm):  # type: ignore[type-arg]  # generic in the stubs only
    """A scenario of one of the registered games; its config and player counts are the engine's to judge."""

    game = forms.ChoiceField(choices=_engine_choices)
    config = forms.JSONField(
        required=False,
        initial=dict,
        widget=forms.Textarea(attrs={"rows": 6, "cols": 60}),
        help_text="A JSON object; {} plays the game as shipped. The options and their values "
        "are listed below; the modules are chosen in the list above.",
    )
    modules = forms.MultipleChoiceField(
        required=False,
        choices=_module_choices,
        widget=forms.CheckboxSelectMultiple,
        help_text="The expansion modules this scenario plays (Holy Roman Empire); they replace "
        'any "modules" in the configuration. The game checks the combination.',
    )

    class Meta:
        model = Scenario
        fields = (
            "game",
            "slug",
            "title",
            "description",
            "min_players",
            "max_players",
            "modules",
            "config",
            "enabled",
        )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        config = self.instance.config if self.instance and self.instance.pk else {}
        if isinstance(config, dict) and isinstance(config.get("modules"), list):
            # The list shows the modules; the JSON box keeps the rest of the config.
            self.initial["modules"] = list(config["modules"])
            self.initial["config"] = {k: v for k, v in config.items() if k != "modules"}

    def clean_config(self) -> Any:
        value = self.cleaned_data.get("config")
        return {} if value in (None, "") else value

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        try:
            engine = get_engine(data.get("game", ""))
        except KeyError as error:
            raise forms.ValidationError({"game": "Choose one of the games."}) from error
        config = data.get("config")
        chosen = data.get("modules") or []
        if chosen:
            own = {m["id"] for m in engine.module_specs()}
            if not set(chosen) <= own:
                raise forms.ValidationError({"modules": f"{engine.title} has no such modules."})
            if not isinstance(config, dict):
                raise forms.ValidationError({"config": "The configuration must be a JSON object."})
            config = data["config"] = {**config, "modules": list(chosen)}
        errors = engine.validate_scenario({} if config is None else config)
        if errors:
            raise forms.ValidationError({"config": errors})
        low, high = data.get("min_players"), data.get("max_players")
        if low is not None and high is not None:
            _check_players(engine, config or {}, low, high)
        return data


class ShippedScenarioForm(forms.ModelForm):  # type: ignore[type-arg]
    """A shipped scenario is the engine's: only whether the site offers it may change."""

    class Meta:
        model = Scenario
        fields = ("enabled",)


def _check_players(engine: Engine, config: dict[str, Any], low: int, high: int) -> None:
    """Refuse player counts the engine cannot deal for this config (a game that never starts)."""
    try:
        can_low, can_high = engine.player_range(config)
    except ScenarioError as error:
        raise forms.ValidationError({"config": str(error)}) from error
    can = players_phrase(can_low, can_high)
    problems = {}
    if not can_low <= low <= can_high:
        problems["min_players"] = f"{engine.title} with this configuration takes {can}, not {low}."
    if not can_low <= high <= can_high:
        problems["max_players"] = f"{engine.title} with this configuration takes {can}, not {high}."
    if not problems and low > high:
        problems["max_players"] = "The most players cannot be fewer than the fewest."
    if problems:
        raise forms.ValidationError(problems)


def options_table(engines: list[Engine]) -> str:
    """Each engine's options: name, allowed values (the recommended reading first) and help.

    A list rather than a table, so it reads on a phone as on a desktop.
    """
    items = []
    for engine in engines:
        try:
            specs = engine.option_specs()
        except ValueError as error:  # an option without wording: the engine's bug, not a 500 here
            items.append(format_html("<li>{}: {}</li>", engine.game_id, error))
            continue
        for spec in specs:
            if spec["choices"]:
                values = format_html_join(
                    ", ",
                    "<code>{}</code>{}",
                    (
                        (json.dumps(c["value"]), " (recommended)" if c["recommended"] else "")
                        for c in spec["choices"]
                    ),
                )
            else:
                values = format_html(
                    "a whole number from {} to {} (default <code>{}</code>)",
                    spec["low"],
                    spec["high"],
                    json.dumps(spec["default"]),
                )
            items.append(
                format_html(
                    '<li style="margin:.4rem 0"><code>{}</code> <small>({})</small> — {}<br>'
                    "Values: {}<br>{}</li>",
                    spec["name"],
                    engine.game_id,
                    spec["label"],
                    values,
                    spec["help"],
                )
            )
    if not items:
        return "No options."
    example = format_html(
        "<p>Write them as <code>{}</code>: JSON spelling (<code>true</code>, <code>false</code>, "
        "text in double quotes).</p>",
        '{"options": {"name": value}}',
    )
    # Every item is escaped by format_html above.
    return mark_safe(example + f'<ul class="chancery-options">{"".join(items)}</ul>')  # noqa: S308


# What the change page of a shipped scenario shows, read-only ("enabled" aside), and a variant's fields.
SHIPPED_SHOWN = (
    "shipped_note",
    "game",
    "slug",
    "title",
    "description",
    "players",
    "config",
    "retired",
    "options_help",
)
EDITABLE = (*ScenarioForm.Meta.fields, "options_help")


@admin.register(Scenario)
class ScenarioAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Shipped scenarios are read-only (copy one to change it); copies and new ones are checked by the engine."""

    form = ScenarioForm
    list_display = ("game", "slug", "title", "players", "shipped", "enabled", "retired")
    list_filter = ("game", "shipped", "enabled", "retired")
    search_fields = ("slug", "title")
    actions = ["copy"]

    @admin.display(description="Players")
    def players(self, obj: Scenario) -> str:
        return obj.players_text() or "cannot be played"

    @admin.display(description="Options of the game")
    def options_help(self, obj: Scenario | None) -> str:
        engines = [obj.engine] if obj is not None and obj.pk else list(all_engines())
        return options_table(engines)

    @admin.display(description="Shipped")
    def shipped_note(self, obj: Scenario) -> str:
        return (
            "Shipped with the game: read-only here, and `bootstrap` writes it again from the "
            "engine on every release. To change it, select it in the list and use "
            "“Copy as a new variant”, then edit the copy."
        )

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        if obj is not None and obj.shipped:
            kwargs["form"] = ShippedScenarioForm
        return super().get_form(request, obj, change, **kwargs)

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is not None and obj.shipped:
            return (*SHIPPED_SHOWN[:-1], "enabled", "options_help")
        return EDITABLE

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return SHIPPED_SHOWN if obj is not None and obj.shipped else ("options_help",)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return not (obj is not None and obj.shipped) and super().has_delete_permission(request, obj)

    @admin.action(description="Copy as a new variant")
    def copy(self, request: HttpRequest, queryset: QuerySet[Scenario]) -> None:
        for scenario in queryset:
            base, n = f"{scenario.slug}-copy", 1
            slug = base
            while Scenario.objects.filter(game=scenario.game, slug=slug).exists():
                n += 1
                slug = f"{base}-{n}"
            scenario.pk = None
            # A copy is the site's own variant: offered (when enabled) even if the engine
            # retired the scenario it was copied from.
            scenario.slug, scenario.title, scenario.shipped, scenario.retired = (
                slug,
                f"{scenario.title} (copy)",
                False,
                False,
            )
            scenario.save()
        messages.success(request, "Copied; edit the copies to make variants.")


class ReadOnly(admin.ModelAdmin):  # type: ignore[type-arg]
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatNo:
    """Seats as the site numbers them (1 and up); the database counts from 0."""

    @admin.display(description="Seat")
    def seat_no(self, obj: Any) -> Any:
        return None if obj.seat is None else obj.seat + 1


class SeatInline(admin.TabularInline):  # type: ignore[type-arg]
    """Seats as they are; a bot seat shows its kind as the registry names it (rules.bots)."""

    model = Seat
    extra = 0
    can_delete = False
    fields = ("number", "user", "invited", "bot", "resigned_at")
    readonly_fields = ("number", "user", "invited", "bot", "resigned_at")
    show_change_link = True

    @admin.display(description="Seat")
    def number(self, obj: Seat) -> int:
        return obj.index + 1

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(ReadOnly):
    list_display = ("pk", "game", "scenario", "status", "paused", "players", "seq", "updated_at")
    list_filter = ("game", "status", "paused", "scenario")
    list_select_related = ("scenario",)
    # By id ("=12"), a player's name or the scenario's slug or title.
    search_fields = ("=id", "seats__user__username", "scenario__slug", "scenario__title")
    inlines = [SeatInline]
    exclude = ("state", "seed")
    readonly_fields = ("final_state",)

    @admin.display(description="State (shown once the game is over)")
    def final_state(self, obj: Game) -> Any:
        # A running game's state holds every hand and the deck order: hidden until it ends.
        return (
            obj.state
            if obj.status == Game.Status.FINISHED
            else "hidden while the game is in progress"
        )


@admin.register(Move)
class MoveAdmin(ReadOnly):
    list_display = ("game", "seq", "shown_seat", "by_bot", "created_at")
    list_filter = ("by_bot", "game__status", "game__game")
    list_select_related = ("game",)
    search_fields = ("=game__id", "game__seats__user__username", "game__scenario__slug")
    exclude = ("action", "events", "seat")
    readonly_fields = (
        "game",
        "seq",
        "shown_seat",
        "state_hash",
        "by_bot",
        "created_at",
        "shown_action",
    )

    @admin.display(description="Seat")
    def shown_seat(self, obj: Move) -> int:
        return obj.seat + 1

    @admin.display(description="Action")
    def shown_action(self, obj: Move) -> Any:
        return (
            obj.action
            if obj.game.status == Game.Status.FINISHED
            else "hidden while the game is in progress"
        )


class HandSeatForm(forms.ModelForm):  # type: ignore[type-arg]
    """Give a seat to another player or to a bot; games.services.hand_seat does it."""

    to_player = forms.CharField(required=False, label="Give to the player (username)")
    to_bot = forms.ChoiceField(
        required=False, label="…or to a bot", choices=lambda: [("", "—"), *botkinds.choices()]
    )

    class Meta:
        model = Seat
        fields: tuple[str, ...] = ()

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        name, bot = (data.get("to_player") or "").strip(), data.get("to_bot") or ""
        if bool(name) == bool(bot):
            raise forms.ValidationError("Give the seat to a player or to a bot (one of the two).")
        if name:
            data["user"] = get_user_model().objects.filter(username=name).first()
            if data["user"] is None:
                raise forms.ValidationError({"to_player": f"There is no player called {name!r}."})
        return data


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Every seat; staff may hand one to another player or a bot (a stalled seat), logged."""

    form = HandSeatForm
    list_display = ("game", "number", "user", "invited", "bot", "resigned_at", "seen_at")
    list_filter = ("game__status", "game__game")
    list_select_related = ("game", "user", "invited")
    search_fields = ("=game__id", "user__username", "invited__username")
    readonly_fields = ("game", "number", "user", "invited", "bot", "resigned_at", "seen_at")
    fields = (*readonly_fields, "to_player", "to_bot")

    @admin.display(description="Seat")
    def number(self, obj: Seat) -> int:
        return obj.index + 1

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: Seat, form: Any, change: bool) -> None:
        data = form.cleaned_data
        try:
            services.hand_seat(
                obj.game_id,
                obj.index,
                request.user,
                user=data.get("user"),
                bot=data.get("to_bot", ""),
            )
        except services.MoveRefused as refused:
            messages.error(request, refused.message)
            return
        obj.refresh_from_db()


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Tokens are made on the player's profile, where the secret is shown once; here they are revoked."""

    list_display = ("name", "user", "created_at", "last_used")
    list_select_related = ("user",)
    search_fields = ("name", "user__username")
    readonly_fields = ("name", "user", "created_at", "last_used")
    exclude = ("digest",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.method in ("GET", "HEAD") and super().has_change_permission(request, obj)


HIDDEN = "hidden while the game is in progress"


def _over(game: Game) -> bool:
    return game.status == Game.Status.FINISHED


# Decks are the players' own and hide nothing of any game: editable.


class DeckEntryInline(admin.TabularInline):  # type: ignore[type-arg]
    model = DeckEntry
    extra = 0


@admin.register(Deck)
class DeckAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("name", "owner", "leader", "locations", "starter", "updated_at")
    list_select_related = ("owner",)
    search_fields = ("name", "owner__username")
    inlines = [DeckEntryInline]


# Mail: the outbox is the record of what was owed and sent; changing it by hand would resend or lose mail.


@admin.register(Outbox)
class OutboxAdmin(ReadOnly):
    list_display = (
        "pk",
        "kind",
        "user",
        "game",
        "seq",
        "status",
        "attempts",
        "created_at",
        "sent_at",
    )
    list_filter = ("kind", "status")
    list_select_related = ("user",)
    search_fields = ("user__username",)


@admin.register(EmailActionUse)
class EmailActionUseAdmin(SeatNo, ReadOnly):
    list_display = ("game", "seq", "seat_no", "user", "used_at")


@admin.register(MailPreference)
class MailPreferenceAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("user", "mode", "vacation_until", "vacation_days_used")
    list_filter = ("mode",)


# Jobs are the record of work owed after commits (games.jobs); the sweep runs them, not the admin.


@admin.register(Job)
class JobAdmin(ReadOnly):
    list_display = (
        "pk",
        "kind",
        "game",
        "seq",
        "job_seat",
        "status",
        "attempts",
        "note",
        "created_at",
    )

    @admin.display(description="Seat")
    def job_seat(self, obj: Job) -> Any:
        return obj.seat + 1 if obj.seat >= 0 else None

    list_filter = ("kind", "status")


# Clocks change only through games.services, which keeps deadlines, reminders and bots consistent.


@admin.register(GameClock)
class GameClockAdmin(ReadOnly):
    list_display = ("game", "per_move", "cap", "on_timeout")
    list_filter = ("on_timeout",)


@admin.register(SeatClock)
class SeatClockAdmin(ReadOnly):
    list_display = ("seat", "bank", "running_since", "deadline", "held_since")
    list_select_related = ("seat",)


@admin.register(StandingAnswer)
class StandingAnswerAdmin(SeatNo, ReadOnly):
    list_display = ("game", "seat_no", "kind", "choice", "updated_at")
    list_filter = ("kind", "choice")
    exclude = ("option_label", "option_action", "seat")
    readonly_fields = ("game", "seat_no", "kind", "choice", "updated_at", "shown_option")

    @admin.display(description="Option")
    def shown_option(self, obj: StandingAnswer) -> Any:
        # "Always this option" can name a card in the seat's hand.
        return obj.option_label if _over(obj.game) else HIDDEN


# Results and ratings come from the scoring task; read-only.


class SeatResultInline(SeatNo, admin.TabularInline):  # type: ignore[type-arg]
    model = SeatResult
    extra = 0
    can_delete = False
    exclude = ("seat",)
    readonly_fields = (
        "seat_no",
        "user",
        "bot",
        "rank",
        "score",
        "breakdown",
        "mu_before",
        "sigma_before",
        "mu_after",
        "sigma_after",
    )

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Result)
class ResultAdmin(ReadOnly):
    list_display = ("game", "rated", "created_at")
    list_filter = ("rated",)
    inlines = [SeatResultInline]


@admin.register(Rating)
class RatingAdmin(ReadOnly):
    list_display = ("user", "game", "mu", "sigma", "games", "updated_at")
    list_filter = ("game",)
    search_fields = ("user__username",)


@admin.register(RematchOffer)
class RematchOfferAdmin(ReadOnly):
    list_display = ("game", "offered_by", "new_game", "created_at")


# Chat: table talk is public; private channels are shown only to superusers (for moderation).


@admin.register(ChatChannel)
class ChatChannelAdmin(ReadOnly):
    list_display = ("pk", "game", "members", "created_at")


@admin.register(ChatMessage)
class ChatMessageAdmin(SeatNo, ReadOnly):
    list_display = ("pk", "game", "channel", "seat_no", "author", "short_text", "created_at")
    list_select_related = ("author",)
    search_fields = ("text", "author__username")

    def get_queryset(self, request: HttpRequest) -> QuerySet[ChatMessage]:
        messages_ = super().get_queryset(request)
        if not getattr(request.user, "is_superuser", False):
            messages_ = messages_.filter(channel__isnull=True)
        return messages_

    @admin.display(description="Text")
    def short_text(self, obj: ChatMessage) -> str:
        return obj.text if len(obj.text) <= 80 else obj.text[:79] + "…"


@admin.register(Mute)
class MuteAdmin(SeatNo, ReadOnly):
    list_display = ("game", "seat_no", "muted_seat")

    @admin.display(description="Muted seat")
    def muted_seat(self, obj: Mute) -> int:
        return obj.muted + 1


@admin.register(SeatNote)
class SeatNoteAdmin(SeatNo, ReadOnly):
    list_display = ("game", "seat_no", "size", "updated_at")
    exclude = ("text",)
    readonly_fields = ("game", "seat_no", "size", "updated_at")

    @admin.display(description="Characters")
    def size(self, obj: SeatNote) -> int:
        # Notes are the seat's own and seen by nobody else, in a running game or after.
        return len(obj.text)
