"""API tokens are revoked when their user's password changes (a change, a reset, the admin)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models.signals import pre_save
from django.dispatch import receiver

from games.models import ApiToken


@receiver(pre_save, sender=get_user_model())
def revoke_tokens_on_new_password(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A new password ends every personal token of the user: a leaked token dies with it.

    `set_password` leaves the new raw password on the instance until it is saved; Django's
    silent re-hash of an unchanged password at log-in (a stronger hasher) clears it first, so
    only a real change revokes.
    """
    if instance.pk is None or kwargs.get("raw") or getattr(instance, "_password", None) is None:
        return
    ApiToken.objects.filter(user_id=instance.pk).delete()
