"""Scenarios, games, seats, the move log, API tokens and the dev inbox."""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from django.conf import settings
from django.db import models

from rules.core import get_engine
from rules.core.engine import Engine


class Scenario(models.Model):
    """A playable set-up of a game, as the engine ships it or as an admin copied and changed it."""

    game = models.CharField(max_length=20)
    slug = models.SlugField(max_length=60)
    title = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    min_players = models.PositiveSmallIntegerField()
    max_players = models.PositiveSmallIntegerField()
    config = models.JSONField(default=dict)
    shipped = models.BooleanField(default=False, help_text="Loaded from the engine's own scenarios.")
    enabled = models.BooleanField(default=True)

    class Meta:
        unique_together = [("game", "slug")]
        ordering = ["game", "slug"]

    def __str__(self) -> str:
        return f"{self.game}: {self.title}"

    @property
    def engine(self) -> Engine:
        """The rules engine of this scenario's game."""
        return get_engine(self.game)


class Game(models.Model):
    """One game: its scenario, seats, engine state (never shown raw) and log."""

    class Status(models.TextChoices):
        OPEN = "open", "Waiting for players"
        ACTIVE = "active", "In progress"
        FINISHED = "finished", "Finished"

    scenario = models.ForeignKey(Scenario, on_delete=models.PROTECT, related_name="games")
    game = models.CharField(max_length=20)
    config = models.JSONField(default=dict)
    players = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    public = models.BooleanField(default=True, help_text="Anyone may watch as a spectator.")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    seed = models.BigIntegerField(default=0)
    rules_version = models.PositiveIntegerField(default=0)
    state = models.JSONField(null=True, blank=True)
    seq = models.PositiveIntegerField(default=0)
    result = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self) -> str:
        return f"Game {self.pk} ({self.game})"

    @property
    def engine(self) -> Engine:
        """The rules engine of this game."""
        return get_engine(self.game)

    def prompted_seats(self) -> list[int]:
        """Seat indexes that must decide now."""
        if self.state is None or self.status != Game.Status.ACTIVE:
            return []
        return [p["seat"] for p in self.engine.prompts(self.state)]


class Seat(models.Model):
    """A place at a game's table: a human (open, invited or taken) or a bot."""

    class Bot(models.TextChoices):
        RANDOM = "random", "Random bot"
        GREEDY = "greedy", "Greedy bot"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                             related_name="seats")
    invited = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="invitations")
    bot = models.CharField(max_length=10, choices=Bot.choices, blank=True)

    class Meta:
        unique_together = [("game", "index")]
        ordering = ["index"]

    def __str__(self) -> str:
        return f"Seat {self.index + 1} of game {self.game_id}"

    @property
    def filled(self) -> bool:
        """Whether a human or a bot holds the seat."""
        return bool(self.bot) or self.user_id is not None

    def label(self) -> str:
        """Who sits here, for pages."""
        if self.bot:
            return self.get_bot_display()
        if self.user_id:
            return str(self.user)
        return f"invited: {self.invited}" if self.invited_id else "open"


class Move(models.Model):
    """An accepted move: its seq, seat, action, the events it produced and the state hash after."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    events = models.JSONField(default=list)
    state_hash = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)
    by_bot = models.BooleanField(default=False)

    class Meta:
        unique_together = [("game", "seq")]
        ordering = ["seq"]

    def __str__(self) -> str:
        return f"Move {self.seq} of game {self.game_id}"


class ApiToken(models.Model):
    """A personal API token; only its sha256 is stored."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100)
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.name} ({self.user})"

    @staticmethod
    def hash(raw: str) -> str:
        """The stored digest of a raw token."""
        return hashlib.sha256(raw.encode()).hexdigest()

    @classmethod
    def issue(cls, user: Any, name: str) -> tuple[ApiToken, str]:
        """Create a token; the raw value is returned once and never stored."""
        raw = "chy_" + secrets.token_urlsafe(32)
        return cls.objects.create(user=user, name=name, digest=cls.hash(raw)), raw


class DevEmail(models.Model):
    """Mail kept for the dev inbox page in the embedded set-up."""

    to = models.TextField()
    subject = models.CharField(max_length=300)
    body = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.subject
