"""A real SMTP server for mail tests, and holding the drain task back (fixtures in conftest)."""

from __future__ import annotations

import email
import logging
import socket
from collections.abc import Iterator
from email.message import EmailMessage
from email.policy import default as default_policy
from typing import Any

from aiosmtpd.controller import Controller

from games import jobs


class Collector:
    """An aiosmtpd handler that keeps every message it is given."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 (aiosmtpd's name)
        self.messages.append(email.message_from_bytes(envelope.content, policy=default_policy))  # type: ignore[arg-type]
        return "250 Message accepted"

    def to(self, user: Any) -> list[EmailMessage]:
        return [m for m in self.messages if user.email in m["To"]]

    def turns(self, user: Any) -> list[EmailMessage]:
        """The player's turn mails (not invitations or "your game has started")."""
        return [m for m in self.to(user) if "Your decision" in str(m["Subject"])]


def body(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content())


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def smtp_server(settings: Any) -> Iterator[Collector]:
    """A real SMTP server on a free localhost port, and Django's SMTP backend pointed at it."""
    logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd logs every SMTP command
    collector = Collector()
    port = free_port()
    controller = Controller(collector, hostname="127.0.0.1", port=port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_USE_TLS, settings.EMAIL_HOST_USER, settings.EMAIL_HOST_PASSWORD = False, "", ""
    settings.SITE_URL = "http://testserver"
    try:
        yield collector
    finally:
        controller.stop()


def hold_mail(monkeypatch: Any) -> None:
    """The drain task queued after a commit is lost, as if the worker died: the rows stay pending."""
    real = jobs.kick
    monkeypatch.setattr(jobs, "kick", lambda name: None if name == "drain_outbox" else real(name))
