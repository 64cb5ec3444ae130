"""Django admin: scenarios (checked by the engine, copyable); games, seats and moves read-only."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from games.models import ApiToken, Game, Move, Scenario, Seat
from rules.core import get_engine


class ScenarioForm(forms.ModelForm):
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
        errors = engine.validate_scenario(data.get("config") or {})
        if errors:
            raise forms.ValidationError({"config": errors})
        if data.get("min_players") and data.get("max_players") and data["min_players"] > data["max_players"]:
            raise forms.ValidationError("The minimum number of players is above the maximum.")
        return data


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
            scenario.slug, scenario.title, scenario.shipped = slug, f"{scenario.title} (copy)", False
            scenario.save()
        messages.success(request, "Copied; edit the copies to make variants.")


class ReadOnly(admin.ModelAdmin):  # type: ignore[type-arg]
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Seat
    extra = 0
    can_delete = False
    readonly_fields = ("index", "user", "invited", "bot")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(ReadOnly):
    list_display = ("pk", "game", "scenario", "status", "players", "seq", "updated_at")
    list_filter = ("game", "status")
    inlines = [SeatInline]
    exclude = ("state", "seed")
    readonly_fields = ("final_state",)

    @admin.display(description="State (shown once the game is over)")
    def final_state(self, obj: Game) -> Any:
        # A running game's state holds every hand and the deck order: hidden until it ends.
        return obj.state if obj.status == Game.Status.FINISHED else "hidden while the game is in progress"


@admin.register(Move)
class MoveAdmin(ReadOnly):
    list_display = ("game", "seq", "seat", "by_bot", "created_at")
    list_filter = ("by_bot",)
    exclude = ("action", "events")
    readonly_fields = ("game", "seq", "seat", "state_hash", "by_bot", "created_at", "shown_action")

    @admin.display(description="Action")
    def shown_action(self, obj: Move) -> Any:
        return obj.action if obj.game.status == Game.Status.FINISHED else "hidden while the game is in progress"


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("name", "user", "created_at", "last_used")
    readonly_fields = ("digest",)
