"""Issue a personal API token for a user; the raw token is printed once."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from games.models import ApiToken


class Command(BaseCommand):
    help = "Create a personal API token: api_token USERNAME NAME"

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("username")
        parser.add_argument("name")

    def handle(self, *args: Any, **options: Any) -> None:
        user = get_user_model().objects.filter(username=options["username"]).first()
        if user is None:
            raise CommandError(f"No user {options['username']!r}.")
        _, raw = ApiToken.issue(user, options["name"])
        self.stdout.write(raw)
