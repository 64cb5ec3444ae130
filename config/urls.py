"""URL routes."""

from django.contrib import admin
from django.urls import include, path

from games import api, views

urlpatterns = [
    path("", views.home, name="home"),
    path("lobby/", views.lobby, name="lobby"),
    path("games/new/", views.new_game, name="new_game"),
    path("games/next/", views.next_waiting, name="next_waiting"),
    path("games/<int:game_id>/", views.game_page, name="game"),
    path("games/<int:game_id>/act/", views.act, name="act"),
    path("games/<int:game_id>/join/", views.join, name="join"),
    path("rules/<slug:game>/", views.rules_page, name="rules"),
    path("profile/", views.profile, name="profile"),
    path("dev/inbox/", views.dev_inbox, name="dev_inbox"),
    path("api/", include(api.urlpatterns)),
    path("accounts/", include("allauth.urls")),
    path("admin/", admin.site.urls),
]
