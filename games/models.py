"""Scenarios, games, seats, the move log, API tokens and the dev inbox."""

from __future__ import annotations

import hashlib
import logging
import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from games import botkinds
from games.jsoncodec import Decoder, Encoder
from rules.core import RulesVersionError, get_engine
from rules.core.engine import Engine, players_phrase

log = logging.getLogger(__name__)


class Scenario(models.Model):
    """A playable set-up of a game, as the engine ships it or as an admin copied and changed it."""

    game = models.CharField(max_length=20)
    slug = models.SlugField(max_length=60)
    title = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    # Within the engine's own limits for the config (engine.player_range; the admin checks it).
    min_players = models.PositiveSmallIntegerField()
    max_players = models.PositiveSmallIntegerField()
    config = models.JSONField(default=dict)
    shipped = models.BooleanField(
        default=False, help_text="Loaded from the engine's own scenarios."
    )
    enabled = models.BooleanField(default=True)
    # The engine's word (its spec's "retired"), written by bootstrap like the fields above.
    retired = models.BooleanField(
        default=False,
        help_text="Kept by the engine for the games stored with it, replaced by other scenarios: "
        "those games still load and play, but no new game may start with it.",
    )

    class Meta:
        unique_together = [("game", "slug")]
        ordering = ["game", "slug"]

    def __str__(self) -> str:
        return f"{self.game}: {self.title}"

    @property
    def engine(self) -> Engine:
        """The rules engine of this scenario's game."""
        return get_engine(self.game)

    @property
    def offered(self) -> bool:
        """Whether a new game may start with it: enabled by the site, not retired by the engine."""
        return self.enabled and not self.retired

    def player_range(self) -> tuple[int, int] | None:
        """Seat counts a game of this scenario can be created with: its own range within the
        engine's (engine.player_range); None when there is none or the engine refuses the config."""
        try:
            low, high = self.engine.player_range(self.config)
        except (KeyError, ValueError):  # an unknown game, or ScenarioError
            return None
        low, high = max(low, self.min_players, 1), min(high, self.max_players)
        return (low, high) if low <= high else None

    def players_text(self) -> str:
        """'2–4 players' for pages; empty when the scenario cannot be played."""
        seats = self.player_range()
        return players_phrase(*seats) if seats else ""


class Game(models.Model):
    """One game: its scenario, seats, engine state (never shown raw) and log."""

    class Status(models.TextChoices):
        OPEN = "open", "Waiting for players"
        ACTIVE = "active", "In progress"
        FINISHED = "finished", "Finished"

    scenario = models.ForeignKey(Scenario, on_delete=models.PROTECT, related_name="games")
    game = models.CharField(max_length=20)
    # The columns a move writes or reads go through orjson (games.jsoncodec).
    config = models.JSONField(default=dict, encoder=Encoder, decoder=Decoder)
    players = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    public = models.BooleanField(default=True, help_text="Anyone may watch as a spectator.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    seed = models.BigIntegerField(default=0)
    rules_version = models.PositiveIntegerField(default=0)
    state = models.JSONField(null=True, blank=True, encoder=Encoder, decoder=Decoder)
    seq = models.PositiveIntegerField(default=0)
    result = models.JSONField(null=True, blank=True, encoder=Encoder, decoder=Decoder)
    # Moves in a row made by bots or standing answers, without a decision of a player at the time.
    bot_streak = models.PositiveIntegerField(default=0)
    # Set when bot_streak reached the limit (settings.CHANCERY_BOT_STREAK_LIMIT): bots wait for a player.
    paused = models.BooleanField(default=False)

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self) -> str:
        return f"Game {self.pk} ({self.game})"

    @property
    def engine(self) -> Engine:
        """The rules engine of this game."""
        return get_engine(self.game)

    @classmethod
    def from_db(cls, db: str | None, field_names: Any, values: Any) -> Game:
        """A game as read from the database, its state laid out for the engine's rules version."""
        game: Game = super().from_db(db, field_names, values)
        game.upgrade_state()
        return game

    def upgrade_state(self) -> None:
        """A state stored by an older rules version, upgraded by its engine (Engine.upgrade) and
        given the engine's version; the game's next save writes both. A state the engine cannot
        read stays as stored and its version unchanged, so moves on it are refused
        (services.moves)."""
        if {"game", "state", "rules_version"} & self.get_deferred_fields() or self.state is None:
            return
        engine = self.engine
        if self.rules_version >= engine.rules_version:
            return
        try:
            self.state = engine.upgrade(self.state, self.rules_version)
        except RulesVersionError as error:
            log.warning("game %s not upgraded: %s", self.pk, error)
            return
        self.rules_version = engine.rules_version

    def prompted_seats(self) -> list[int]:
        """Seat indexes that must decide now."""
        if self.state is None or self.status != Game.Status.ACTIVE:
            return []
        return [p["seat"] for p in self.engine.prompts(self.state)]


class Seat(models.Model):
    """A place at a game's table: a human (open, invited or taken) or a bot.

    A seat a bot holds for its player (a timeout) keeps its user; so does a resigned seat, whose
    player is out of the game for good (`resigned_at`) while a bot plays it to the end.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="seats",
    )
    invited = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="invitations",
    )
    # A slug of the bot registry (rules.bots.BOTS); the choices are read from it.
    bot = models.CharField(max_length=20, choices=botkinds.choices, blank=True)
    resigned_at = models.DateTimeField(null=True, blank=True)
    # When the seat's player last opened the game (page or socket): a turn mail they have not
    # seen yet is not followed by another (games.notify).
    seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        unique_together = [("game", "index")]
        ordering = ["index"]

    def __str__(self) -> str:
        return f"Seat {self.index + 1} of game {self.game_id}"

    @property
    def filled(self) -> bool:
        """Whether a human or a bot holds the seat."""
        return bool(self.bot) or self.user_id is not None

    def player_label(self) -> str:
        """Who played this seat, for results: the player, even if a bot took the seat over."""
        return str(self.user) if self.user_id else self.label()

    def label(self) -> str:
        """Who sits here, for pages."""
        if self.bot:
            return botkinds.name_of(self.bot)
        if self.user_id:
            return str(self.user)
        return f"invited: {self.invited}" if self.invited_id else "open"


class Move(models.Model):
    """An accepted move: its seq, seat, action, the events it produced and the state hash after."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField(encoder=Encoder, decoder=Decoder)
    events = models.JSONField(default=list, encoder=Encoder, decoder=Decoder)
    state_hash = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)
    by_bot = models.BooleanField(default=False)
    # Answered by the seat's standing answer, not by the player at the time.
    by_standing = models.BooleanField(default=False)
    # The engine's undo barrier for this move (a die, a draw, a reveal); rows from before the
    # flag existed count as barriers, so they are never taken back.
    barrier = models.BooleanField(default=True)

    class Meta:
        unique_together = [("game", "seq")]
        ordering = ["seq"]

    def __str__(self) -> str:
        return f"Move {self.seq} of game {self.game_id}"


class ApiToken(models.Model):
    """A personal API token; only its sha256 is stored."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
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
    html = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.subject


class Deck(models.Model):
    """A player's Feudal Lords deck: the cards beside the Stockpile, and the Stockpile's entries.

    Whether it is legal is the engine's judgement (rules.feudal.components.validate_deck), asked
    through games.boards.feudal.decks; an illegal deck is kept while it is being built but cannot be played.
    """

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="decks"
    )
    name = models.CharField(max_length=80)
    leader = models.CharField(max_length=60, blank=True)
    locations = models.CharField(
        max_length=60, blank=True, help_text="The Controlled Locations card."
    )
    artifacts = models.JSONField(default=list, blank=True)
    starter = models.CharField(
        max_length=60, blank=True, help_text="The starter deck this was copied from."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return f"{self.name} ({self.owner})"


class DeckEntry(models.Model):
    """Copies of one card in a deck's Stockpile."""

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="entries")
    card = models.CharField(max_length=60)
    count = models.PositiveSmallIntegerField(default=1)

    class Meta:
        unique_together = [("deck", "card")]
        ordering = ["card"]

    def __str__(self) -> str:
        return f"{self.count}× {self.card}"


# --- correspondence play: standing answers, results and ratings, chat, notes, rematches -------


class StandingAnswer(models.Model):
    """How a seat answers a kind of off-turn prompt without being asked (issue 5, point 3)."""

    ASK = "ask"
    OPTION = "option"  # "always this option when it is offered", matched by action, else label

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="standing_answers")
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=40)
    choice = models.CharField(max_length=40, default=ASK)
    option_label = models.CharField(max_length=300, blank=True)
    option_action = models.JSONField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        unique_together = [("game", "seat", "kind")]
        ordering = ["seat", "kind"]

    def __str__(self) -> str:
        return f"Seat {self.seat + 1} of game {self.game_id}: {self.kind} → {self.choice}"


class Result(models.Model):
    """The stored outcome of a finished game; one per game, so scoring twice changes nothing."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="final")
    created_at = models.DateTimeField(auto_now_add=True)
    rated = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"Result of game {self.game_id}"


class SeatResult(models.Model):
    """One seat's rank, score and breakdown, and its player's rating before and after."""

    result = models.ForeignKey(Result, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    bot = models.CharField(max_length=20, blank=True)
    resigned = models.BooleanField(default=False)
    rank = models.PositiveSmallIntegerField()
    score = models.IntegerField()
    breakdown = models.JSONField(default=dict)
    mu_before = models.FloatField(null=True, blank=True)
    sigma_before = models.FloatField(null=True, blank=True)
    mu_after = models.FloatField(null=True, blank=True)
    sigma_after = models.FloatField(null=True, blank=True)

    class Meta:
        unique_together = [("result", "seat")]
        ordering = ["rank", "seat"]

    def __str__(self) -> str:
        return f"Seat {self.seat + 1}: rank {self.rank}, {self.score}"


class Rating(models.Model):
    """A player's openskill rating for one game (hre, ema, feudal)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    game = models.CharField(max_length=20)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        unique_together = [("user", "game")]

    def __str__(self) -> str:
        return f"{self.user} at {self.game}: {self.mu:.1f}±{self.sigma:.1f}"


class ChatChannel(models.Model):
    """A private channel between some seats of a game (diplomacy); the table chat has none."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_channels")
    members = models.JSONField(default=list)  # sorted seat indexes
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"Channel {self.pk} of game {self.game_id}: seats {self.members}"


class ChatMessage(models.Model):
    """One message, to the whole table (channel None) or to a private channel."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_messages")
    channel = models.ForeignKey(
        ChatChannel, null=True, blank=True, on_delete=models.CASCADE, related_name="messages"
    )
    seat = models.PositiveSmallIntegerField()
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.TextField(max_length=2000)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"Message {self.pk} in game {self.game_id}"


class Mute(models.Model):
    """A seat that no longer sees another seat's messages in this game."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="mutes")
    seat = models.PositiveSmallIntegerField()
    muted = models.PositiveSmallIntegerField()

    class Meta:
        unique_together = [("game", "seat", "muted")]

    def __str__(self) -> str:
        return f"Seat {self.seat + 1} mutes seat {self.muted + 1} in game {self.game_id}"


class SeatNote(models.Model):
    """A seat's private notes on a game, seen by nobody else."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="notes")
    seat = models.PositiveSmallIntegerField()
    text = models.TextField(blank=True, max_length=20000)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        unique_together = [("game", "seat")]

    def __str__(self) -> str:
        return f"Notes of seat {self.seat + 1} in game {self.game_id}"


class RematchOffer(models.Model):
    """An offer to play a finished game again with the same seats and options."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="rematch")
    offered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    accepted = models.JSONField(default=list)  # user ids that accepted, the offerer first
    new_game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Rematch of game {self.game_id}"


# --- correspondence play: mail preferences, presence, the outbox, clocks -------------------


class MailPreference(models.Model):
    """How a player wants to hear about their games, and their vacation allowance."""

    class Mode(models.TextChoices):
        EACH = "each", "An email for every decision"
        DIGEST = "digest", "A daily digest of games waiting for me"
        NONE = "none", "No email"

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mail_preference"
    )
    mode = models.CharField(max_length=10, choices=Mode.choices, default=Mode.EACH)
    vacation_until = models.DateTimeField(null=True, blank=True)
    vacation_year = models.PositiveSmallIntegerField(default=0)
    vacation_days_used = models.PositiveSmallIntegerField(default=0)

    def __str__(self) -> str:
        return f"Mail preference of {self.user}"


class Presence(models.Model):
    """One open socket of a user on a game: while one exists, turn mail waits for the page."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    channel_name = models.CharField(max_length=200, unique=True)
    opened_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.user} on game {self.game_id}"


class Outbox(models.Model):
    """One email owed to a player, written in the transaction of the move that caused it.

    The unique constraints are the promise "never two emails for the same decision": a move
    submitted twice or a drain task retried finds the row already there.
    """

    class Kind(models.TextChoices):
        TURN = "turn", "Your decision"
        REMINDER = "reminder", "Time nearly spent"
        TIMEOUT = "timeout", "Time ran out"
        RESULT = "result", "Game over"
        DIGEST = "digest", "Daily digest"
        PAUSED = "paused", "Bots paused"
        INVITE = "invite", "Invitation"
        STARTED = "started", "Game started"

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        SENT = "sent", "Sent"
        SKIPPED = "skipped", "Skipped"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    seq = models.PositiveIntegerField(help_text="The game's seq; for a digest, the day (ordinal).")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    note = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    claimed_until = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    # A turn mail waits a little (settings.CHANCERY_TURN_MAIL_DELAY) so a player answering at
    # the keyboard gets none; the drain sends a row only from this time on.
    not_before = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = "outbox mail"
        verbose_name_plural = "outbox"
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "game", "seq", "kind"],
                name="outbox_once_per_decision",
                condition=models.Q(game__isnull=False),
            ),
            models.UniqueConstraint(
                fields=["user", "seq", "kind"],
                name="outbox_once_per_day",
                condition=models.Q(game__isnull=True),
            ),
        ]
        indexes = [models.Index(fields=["status", "created_at"])]

    def __str__(self) -> str:
        return f"{self.kind} mail to {self.user} (game {self.game_id}, seq {self.seq})"


class EmailActionUse(models.Model):
    """A decision made from an email link: one per decision, so a link works once."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    used_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        unique_together = [("game", "seq", "seat")]

    def __str__(self) -> str:
        return f"Email action on game {self.game_id} at seq {self.seq}"


class GameClock(models.Model):
    """A game's time control: a time bank of `per_move` a move, up to `cap` (correspondence chess)."""

    class OnTimeout(models.TextChoices):
        BOT = "bot", "A bot takes the seat until the player comes back"
        END = "end", "The game ends; the player who ran out is ranked last"

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="clock")
    per_move = models.DurationField()
    cap = models.DurationField()
    on_timeout = models.CharField(max_length=5, choices=OnTimeout.choices, default=OnTimeout.BOT)

    def __str__(self) -> str:
        return f"Clock of game {self.game_id}"


class SeatClock(models.Model):
    """A human seat's time bank; it runs from `running_since` while the seat must decide."""

    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="clock")
    bank = models.DurationField()
    running_since = models.DateTimeField(
        null=True, blank=True, help_text="May lie in the future: a vacation delays the start."
    )
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    reminded_seq = models.IntegerField(default=-1)
    held_since = models.DateTimeField(
        null=True, blank=True, help_text="Set while a bot holds the seat."
    )

    def __str__(self) -> str:
        return f"Clock of {self.seat}"


class Job(models.Model):
    """Work owed after a commit (a bot's or a standing answer's turn, a live push), kept durably.

    Written in the transaction of the change that causes it, so a lost task or a dead broker
    delays the work but never loses it: games.jobs dispatches the row after the commit, and its
    sweep dispatches again whatever is still pending once its claim has lapsed. The unique key
    (kind, game, seq, seat) is "once per decision"; the move service's seq check makes a second
    run harmless anyway.
    """

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    kind = models.CharField(max_length=20)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="jobs")
    seq = models.PositiveIntegerField()
    seat = models.IntegerField(default=-1)  # -1: the job concerns no one seat
    args = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    lease_seconds = models.PositiveIntegerField(default=30)
    not_before = models.DateTimeField(help_text="Backoff: not run again before this time.")
    claimed_until = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    done_at = models.DateTimeField(null=True, blank=True)
    note = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "game", "seq", "seat"], name="job_once_per_decision"
            )
        ]
        indexes = [models.Index(fields=["status", "not_before"])]

    def __str__(self) -> str:
        return f"{self.kind} for game {self.game_id} at seq {self.seq} (seat {self.seat})"
