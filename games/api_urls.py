"""The JSON API's routes (games.api and games.api_social)."""

from django.urls import path

from games import api, api_social

urlpatterns = [
    path("games/", api.games_view, name="api_games"),
    path("games/<int:game_id>/", api.game_view, name="api_game"),
    path("games/<int:game_id>/action/", api.submit, name="api_action"),
    path("games/<int:game_id>/resign/", api.resign, name="api_resign"),
    path("games/<int:game_id>/events/", api.events, name="api_events"),
    path("games/<int:game_id>/chat/", api_social.chat_view, name="api_chat"),
    path("games/<int:game_id>/undo/", api_social.undo_view, name="api_undo"),
    path("games/<int:game_id>/standing/", api_social.standing_view, name="api_standing"),
    path(
        "games/<int:game_id>/standing/<str:kind>/",
        api_social.standing_clear,
        name="api_standing_clear",
    ),
]
