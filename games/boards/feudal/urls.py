"""The Feudal Lords deck and card pages (included at the site's root by config/urls.py)."""

from django.urls import path

from games.boards.feudal import views

urlpatterns = [
    path("decks/", views.deck_list, name="deck_list"),
    path("decks/new/", views.deck_new, name="deck_new"),
    path("decks/copy/", views.deck_copy, name="deck_copy"),
    path("decks/<int:deck_id>/", views.deck_builder, name="deck_builder"),
    path("decks/<int:deck_id>/cards/", views.deck_cards, name="deck_cards"),
    path("decks/<int:deck_id>/count/", views.deck_count, name="deck_count"),
    path("decks/<int:deck_id>/frame/", views.deck_frame, name="deck_frame"),
    path("decks/<int:deck_id>/delete/", views.deck_delete, name="deck_delete"),
    path("feudal/cards/", views.card_index, name="feudal_cards"),
    path("feudal/cards/<slug:cid>/", views.card_page, name="feudal_card"),
]
