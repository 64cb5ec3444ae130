"""The player's personal API tokens on the profile page: list, create (shown once), revoke."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from games.inputs import BadInput, text
from games.models import ApiToken
from games.requests import UserRequest
from games.views import profile_page

MAX_TOKENS = 20


@login_required
@require_POST
def token_new(request: UserRequest) -> HttpResponse:
    """Issue a token and show it once, on the profile page this answer draws (never stored raw)."""
    try:
        name = text(request.POST.get("name", ""), "The token's name", 100).strip() or "API token"
    except BadInput as bad:
        messages.error(request, str(bad))
        return redirect("profile")
    if ApiToken.objects.filter(user=request.user).count() >= MAX_TOKENS:
        messages.error(request, f"You have {MAX_TOKENS} tokens; revoke one first.")
        return redirect("profile")
    token, raw = ApiToken.issue(request.user, name)
    return profile_page(request, new_token=raw, new_name=token.name)


@login_required
@require_POST
def token_revoke(request: UserRequest, token_id: int) -> HttpResponse:
    """Revoke one of my tokens: programs using it are refused from now on."""
    token = get_object_or_404(ApiToken, pk=token_id, user=request.user)
    token.delete()
    messages.info(request, f"The token {token.name!r} is revoked.")
    return redirect("profile")
