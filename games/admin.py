"""Django admin: scenarios (checked by the engine, copyable); games, seats and moves read-only.

Nothing here shows what a running game hides (its state, seed, actions, standing answers' chosen
options); private chat is shown only to superusers and seat notes to nobody.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

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
from rules.core import get_engine
from rules.core.engine import Engine, players_phrase
from rules.core.errors import ScenarioError


class ScenarioForm(forms.ModelForm):  # type: ignore[type-arg]  # generic in the stubs only
    """Scenario config is validated by the game's engine."""

    class Meta:
        model = Scenario
        fields = "__all__"

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        try:
            engine = get_engine(data.get("game", ""))
        except KeyError as error:
            raise forms.ValidationError(str(error)) from error
        config = data.get("config")
        errors = engine.validate_scenario({} if config is None else config)
        if errors:
            raise forms.ValidationError({"config": errors})
        low, high = data.get("min_players"), data.get("max_players")
        if low is not None and high is not None:
            _check_players(engine, config or {}, low, high)
        return data


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


@admin.register(Scenario)
class ScenarioAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    form = ScenarioForm
    list_display = ("game", "slug", "title", "min_players", "max_players", "shipped", "enabled")
    list_filter = ("game", "shipped", "enabled")
    actions = ["copy"]

    @admin.action(description="Copy as a new variant")
    def copy(self, request: HttpRequest, queryset: QuerySet[Scenario]) -> None:
        for scenario in queryset:
            base, n = f"{scenario.slug}-copy", 1
            slug = base
            while Scenario.objects.filter(game=scenario.game, slug=slug).exists():
                n += 1
                slug = f"{base}-{n}"
            scenario.pk = None
            scenario.slug, scenario.title, scenario.shipped = (
                slug,
                f"{scenario.title} (copy)",
                False,
            )
            scenario.save()
        messages.success(request, "Copied; edit the copies to make variants.")


class ReadOnly(admin.ModelAdmin):  # type: ignore[type-arg]
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(admin.TabularInline):  # type: ignore[type-arg]
    """Seats as they are; a bot seat shows its kind as the registry names it (rules.bots)."""

    model = Seat
    extra = 0
    can_delete = False
    readonly_fields = ("index", "user", "invited", "bot", "resigned_at")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(ReadOnly):
    list_display = ("pk", "game", "scenario", "status", "paused", "players", "seq", "updated_at")
    list_filter = ("game", "status", "paused")
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
    list_display = ("game", "seq", "seat", "by_bot", "created_at")
    list_filter = ("by_bot",)
    exclude = ("action", "events")
    readonly_fields = ("game", "seq", "seat", "state_hash", "by_bot", "created_at", "shown_action")

    @admin.display(description="Action")
    def shown_action(self, obj: Move) -> Any:
        return (
            obj.action
            if obj.game.status == Game.Status.FINISHED
            else "hidden while the game is in progress"
        )


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("name", "user", "created_at", "last_used")
    readonly_fields = ("digest",)


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
class EmailActionUseAdmin(ReadOnly):
    list_display = ("game", "seq", "seat", "user", "used_at")


@admin.register(MailPreference)
class MailPreferenceAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("user", "mode", "vacation_until", "vacation_days_used")
    list_filter = ("mode",)


# Jobs are the record of work owed after commits (games.jobs); the sweep runs them, not the admin.


@admin.register(Job)
class JobAdmin(ReadOnly):
    list_display = ("pk", "kind", "game", "seq", "seat", "status", "attempts", "note", "created_at")
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
class StandingAnswerAdmin(ReadOnly):
    list_display = ("game", "seat", "kind", "choice", "updated_at")
    list_filter = ("kind", "choice")
    exclude = ("option_label", "option_action")
    readonly_fields = ("game", "seat", "kind", "choice", "updated_at", "shown_option")

    @admin.display(description="Option")
    def shown_option(self, obj: StandingAnswer) -> Any:
        # "Always this option" can name a card in the seat's hand.
        return obj.option_label if _over(obj.game) else HIDDEN


# Results and ratings come from the scoring task; read-only.


class SeatResultInline(admin.TabularInline):  # type: ignore[type-arg]
    model = SeatResult
    extra = 0
    can_delete = False
    readonly_fields = (
        "seat",
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
class ChatMessageAdmin(ReadOnly):
    list_display = ("pk", "game", "channel", "seat", "author", "short_text", "created_at")
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
class MuteAdmin(ReadOnly):
    list_display = ("game", "seat", "muted")


@admin.register(SeatNote)
class SeatNoteAdmin(ReadOnly):
    list_display = ("game", "seat", "size", "updated_at")
    exclude = ("text",)
    readonly_fields = ("game", "seat", "size", "updated_at")

    @admin.display(description="Characters")
    def size(self, obj: SeatNote) -> int:
        # Notes are the seat's own and seen by nobody else, in a running game or after.
        return len(obj.text)
