"""App configuration."""

from django.apps import AppConfig


class GamesConfig(AppConfig):
    """The games app."""

    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Register the job handlers (games.tasks) with games.jobs, and the token revocation."""
        from games import signals, tasks  # noqa: F401
