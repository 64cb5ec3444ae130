"""Websocket routes."""

from typing import Any, cast

from django.urls import path

from games.consumers import GameConsumer

# Django's path() is typed for views returning responses, Channels' URLRouter for ASGI apps:
# the one list is both, which neither set of stubs can say.
websocket_urlpatterns: list[Any] = [
    path("ws/games/<int:game_id>/", cast(Any, GameConsumer.as_asgi())),
]
