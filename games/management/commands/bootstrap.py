"""Load every shipped scenario and create the demo users (embedded set-up)."""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sites.models import Site
from django.core.management.base import BaseCommand

from games.scenarios import load_shipped

DEMO_USERS = ("alice", "bob", "carol")


class Command(BaseCommand):
    help = "Load shipped scenarios and create demo users alice, bob and carol (passwords printed)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--no-demo-users", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        count, reset = load_shipped()
        self.stdout.write(f"{count} shipped scenario(s) loaded from the engines.")
        for line in reset:
            self.stdout.write(self.style.WARNING(f"reset {line}"))
        host = settings.SITE_URL.split("://", 1)[-1]
        Site.objects.update_or_create(
            pk=settings.SITE_ID, defaults={"domain": host, "name": "Chancery"}
        )
        if options["no_demo_users"]:
            return
        users = get_user_model()
        for name in DEMO_USERS:
            user, created = users.objects.get_or_create(
                username=name, defaults={"email": f"{name}@example.com"}
            )
            if created:
                password = secrets.token_urlsafe(9)
                user.set_password(password)
                user.save()
                self.stdout.write(f"demo user {name} / password {password}")
            else:
                self.stdout.write(f"demo user {name} exists (password unchanged)")
