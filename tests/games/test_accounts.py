"""Accounts through django-allauth: sign up, log in and out, password reset by email, profile."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def locmem_mail(settings: Any) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


def test_a_newcomer_signs_up_and_lands_logged_in() -> None:
    client = Client()
    response = client.post(
        reverse("account_signup"),
        {
            "username": "dora",
            "email": "dora@example.com",
            "password1": "a long enough passphrase",
            "password2": "a long enough passphrase",
        },
    )
    assert response.status_code == 302
    assert client.get(reverse("profile")).status_code == 200


def test_log_in_and_out(alice: Any) -> None:
    client = Client()
    response = client.post(
        reverse("account_login"), {"login": "alice", "password": "correct horse battery"}
    )
    assert response.status_code == 302
    assert "alice" in client.get(reverse("profile")).content.decode()
    client.post(reverse("account_logout"))
    assert client.get(reverse("profile")).status_code == 302


def test_a_wrong_password_is_refused(alice: Any) -> None:
    response = Client().post(reverse("account_login"), {"login": "alice", "password": "nope"})
    assert response.status_code == 200 and "not correct" in response.content.decode()


def test_password_reset_by_email(alice: Any) -> None:
    client = Client()
    client.post(reverse("account_reset_password"), {"email": "alice@example.com"})
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["alice@example.com"]
    link = re.search(r"https?://[^\s]+/accounts/password/reset/key/[^\s]+", mail.outbox[0].body)
    assert link is not None
    path = link.group(0).split("://", 1)[1].split("/", 1)[1]
    response = client.get("/" + path, follow=True)
    form_url = response.redirect_chain[-1][0] if response.redirect_chain else "/" + path
    done = client.post(
        form_url, {"password1": "another long passphrase", "password2": "another long passphrase"}
    )
    assert done.status_code == 302
    assert Client().login(username="alice", password="another long passphrase")
