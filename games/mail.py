"""The dev mail backend: print to the console and keep a copy for the dev inbox page."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.mail.backends.console import EmailBackend as ConsoleBackend
from django.core.mail.message import EmailMessage

from games.models import DevEmail


class DevInboxBackend(ConsoleBackend):
    """Console mail that is also stored as DevEmail rows."""

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        sent = super().send_messages(email_messages)
        for message in email_messages:
            body: Any = message.body
            html = next(
                (
                    str(content)
                    for content, kind in getattr(message, "alternatives", [])
                    if kind == "text/html"
                ),
                "",
            )
            DevEmail.objects.create(
                to=", ".join(message.to), subject=str(message.subject), body=str(body), html=html
            )
        return sent
