"""Deciding from a mail: a signed, single-use link for a trivial decision, made through the move
service with the seq the mail was written at (the links themselves: games.emails)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from games import services
from games.emails import LinkRefused, is_trivial, read_action
from games.models import EmailActionUse, Game, Move


def act_from_mail(token: str) -> Move:
    """Make the decision a mail link carries, once, through the move service with its seq."""
    data = read_action(token)
    used = {"game_id": data["g"], "seq": data["q"], "seat": data["s"]}
    if EmailActionUse.objects.filter(**used).exists():
        raise LinkRefused("This link has already been used.", 409)
    user = get_user_model().objects.filter(pk=data["u"]).first()
    # The service would answer the same move made on the page with its first acceptance; a
    # link issued before the game moved on is refused instead, whatever moved it.
    game = Game.objects.filter(pk=data["g"], seq=data["q"]).first()
    if game is None:
        raise LinkRefused(
            "The game has moved on since this mail was sent; open the game instead.", 409
        )
    # Only an answer the engine calls trivial, to the question the mail asked (a signed link is
    # never trusted for a weightier move, even one made by the site itself).
    prompt = game.engine.prompt_for(game.state, data["s"]) if game.state is not None else None
    if not is_trivial(game.engine, prompt, data["a"]):
        raise LinkRefused("This link is not valid.", 400)
    try:
        move = services.submit(data["g"], user, data["a"], data["q"], seat=data["s"])
    except services.MoveRefused as refused:
        raise LinkRefused(refused.message, 409 if refused.code == "stale" else 403) from refused
    try:
        with transaction.atomic():
            EmailActionUse.objects.create(user_id=data["u"], **used)
    except IntegrityError as error:
        # A second click raced the first: the service answered it with the first acceptance.
        raise LinkRefused("This link has already been used.", 409) from error
    return move
