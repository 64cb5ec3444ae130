"""URL routes."""

from django.contrib import admin
from django.urls import include, path

from games import account_views, api_urls, boards, correspondence_views, lifecycle_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("lobby/", views.lobby, name="lobby"),
    path("games/new/", views.new_game, name="new_game"),
    path("games/next/", views.next_waiting, name="next_waiting"),
    path("games/<int:game_id>/", views.game_page, name="game"),
    path("games/<int:game_id>/act/", views.act, name="act"),
    path("games/<int:game_id>/join/", views.join, name="join"),
    path("games/<int:game_id>/undo/", views.undo_view, name="undo"),
    path("games/<int:game_id>/standing/", views.standing_view, name="standing"),
    path("games/<int:game_id>/chat/", views.chat_post, name="chat_post"),
    path("games/<int:game_id>/chat/channel/", views.chat_channel, name="chat_channel"),
    path("games/<int:game_id>/chat/mute/", views.chat_mute, name="chat_mute"),
    path("games/<int:game_id>/notes/", views.notes_view, name="notes"),
    path("games/<int:game_id>/rematch/", views.rematch_view, name="rematch"),
    path("games/<int:game_id>/resign/", lifecycle_views.resign, name="resign"),
    path("games/<int:game_id>/resume/", lifecycle_views.resume, name="resume"),
    path("games/<int:game_id>/results/", views.results_page, name="results"),
    path("games/<int:game_id>/replay/", views.replay_page, name="replay"),
    path("games/<int:game_id>/log/", views.history_page, name="history"),
    path("games/<int:game_id>/record.json", views.record_download, name="record"),
    *[path("", include(module)) for module in boards.url_modules()],  # a game's own pages
    path("rules/", views.rules_index, name="rules_index"),
    path("rules/<slug:game>/glossary/", views.glossary_page, name="glossary"),
    path("rules/<slug:game>/", views.rules_page, name="rules"),
    path("profile/", views.profile, name="profile"),
    path("profile/mail/", correspondence_views.mail_settings, name="mail_settings"),
    path("profile/tokens/new/", account_views.token_new, name="token_new"),
    path("profile/tokens/<int:token_id>/revoke/", account_views.token_revoke, name="token_revoke"),
    path("games/<int:game_id>/take-back/", correspondence_views.take_back, name="take_back"),
    path(
        "mail/unsubscribe/<str:token>/", correspondence_views.unsubscribe, name="mail_unsubscribe"
    ),
    path("mail/act/<str:token>/", correspondence_views.mail_action, name="mail_action"),
    path("dev/inbox/", views.dev_inbox, name="dev_inbox"),
    path("api/", include(api_urls.urlpatterns)),
    path("accounts/", include("allauth.urls")),
    path("admin/", admin.site.urls),
]
