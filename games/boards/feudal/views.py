"""The Feudal Lords deck pages: my decks and the starters, and the builder (htmx for live checks)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_POST

from games.boards.feudal import cards as feudal_cards
from games.boards.feudal import decks
from games.inputs import BadInput, integer
from games.models import Deck
from games.requests import UserRequest
from rules.feudal.metadata import MAX_ARTIFACTS, MAX_COPIES


@login_required
def deck_list(request: UserRequest) -> HttpResponse:
    """My decks with their verdicts, and the starter decks to copy with one click."""
    mine = [
        decks.summary(d)
        for d in Deck.objects.filter(owner=request.user).prefetch_related("entries")
    ]
    starters = [
        {
            "id": sid,
            "name": spec["name"],
            "size": sum(spec["stockpile"].values()),
            "leader": decks.cards()[spec["leader"]]["name"],
            "locations": decks.cards()[spec["locations"]]["name"],
        }
        for sid, spec in decks.starters().items()
    ]
    return render(request, "games/decks.html", {"decks": mine, "starters": starters})


@login_required
@require_POST
def deck_new(request: UserRequest) -> HttpResponse:
    """Start an empty deck."""
    deck = decks.new_deck(request.user, request.POST.get("name", ""))
    return redirect("deck_builder", deck_id=deck.pk)


@login_required
@require_POST
def deck_copy(request: UserRequest) -> HttpResponse:
    """Copy a starter deck into my decks."""
    try:
        deck = decks.copy_starter(request.user, request.POST.get("starter", ""))
    except ValueError as error:
        messages.error(request, str(error))
        return redirect("deck_list")
    messages.success(request, f"{deck.name} is now one of your decks.")
    return redirect("deck_builder", deck_id=deck.pk)


def _my_deck(request: UserRequest, deck_id: int) -> Deck:
    return get_object_or_404(Deck, pk=deck_id, owner=request.user)


def _builder_context(deck: Deck, kind: str = "", group: str = "", cost: str = "") -> dict[str, Any]:
    counts = {e.card: e.count for e in deck.entries.all()}
    stock = sorted(counts, key=feudal_cards.sort_key)
    return {
        "deck": deck,
        "status": decks.status(deck),
        "max_copies": MAX_COPIES,
        "stock": [{**feudal_cards.card(cid), "count": counts[cid]} for cid in stock],
        "leaders": decks.frame_choices("leader"),
        "location_cards": decks.frame_choices("locations"),
        "artifacts": decks.frame_choices("artifact"),
        "max_artifacts": MAX_ARTIFACTS,
        "catalogue": decks.catalogue(kind, group, counts, cost),
        "kind": kind,
        "group": group,
        "cost": cost,
        "cost_filters": decks.cost_filters(),
        "type_filters": decks.type_filters(),
        "class_filters": decks.class_filters(),
    }


def _filters(request: UserRequest) -> tuple[str, str, str]:
    """The catalogue's filters from the query string: type, class, cost."""
    get = request.GET.get
    return get("type", ""), get("class", ""), get("cost", "")


@login_required
def deck_builder(request: UserRequest, deck_id: int) -> HttpResponse:
    """The deck builder: Leader, Locations, Artifacts, the Stockpile and the card catalogue."""
    deck = _my_deck(request, deck_id)
    ctx = _builder_context(deck, *_filters(request))
    return render(request, "games/deck_builder.html", ctx)


@login_required
def deck_cards(request: UserRequest, deck_id: int) -> HttpResponse:
    """The catalogue, filtered by type, class and cost (htmx)."""
    deck = _my_deck(request, deck_id)
    ctx = _builder_context(deck, *_filters(request))
    return render(request, "games/deck_builder.html#catalogue", ctx)


def _deck_state(request: UserRequest, deck: Deck, changed: str = "") -> HttpResponse:
    """The builder's live part after a change: verdict and Stockpile, plus the changed card's count."""
    if not request.htmx:
        return redirect("deck_builder", deck_id=deck.pk)
    ctx = _builder_context(deck)
    html = render_to_string("games/deck_builder.html#state", ctx, request=request)
    if changed:
        html += render_to_string(
            "games/deck_builder.html#count",
            {
                "c": {
                    "id": changed,
                    "name": decks.cards()[changed]["name"],
                    "count": decks.count_of(deck, changed),
                },
                "deck": deck,
                "oob": True,
                "max_copies": MAX_COPIES,
            },
            request=request,
        )
    return HttpResponse(html)


@login_required
@require_POST
def deck_count(request: UserRequest, deck_id: int) -> HttpResponse:
    """Set how many copies of a card the Stockpile holds."""
    deck = _my_deck(request, deck_id)
    cid = request.POST.get("card", "")
    try:
        count = integer(request.POST.get("count"), "The count", low=-1000, high=1000)
        if count is None:
            raise BadInput("Give the number of copies.")
        decks.set_count(deck, cid, count)
    except ValueError as error:
        return HttpResponse(str(error), status=400)
    return _deck_state(request, deck, cid)


@login_required
@require_POST
def deck_frame(request: UserRequest, deck_id: int) -> HttpResponse:
    """Name, Leader, Controlled Locations and Artifacts."""
    deck = _my_deck(request, deck_id)
    try:
        decks.set_frame(
            deck,
            request.POST.get("leader", ""),
            request.POST.get("locations", ""),
            request.POST.getlist("artifacts"),
            request.POST.get("name"),
        )
    except ValueError as error:
        return HttpResponse(str(error), status=400)
    return _deck_state(request, deck)


@login_required
@require_POST
def deck_delete(request: UserRequest, deck_id: int) -> HttpResponse:
    """Delete one of my decks (games already dealt keep their copy in their config)."""
    deck = _my_deck(request, deck_id)
    messages.info(request, f"{deck.name} was deleted.")
    deck.delete()
    return redirect("deck_list")


def card_index(request: UserRequest) -> HttpResponse:
    """Every card, by type, filtered like the deck builder (type, class, cost); public."""
    kind, group, cost = _filters(request)
    shown = decks.catalogue(kind, group, None, cost, every=True)
    return render(
        request,
        "games/feudal_cards.html",
        {
            "cards": shown,
            "kind": kind,
            "group": group,
            "cost": cost,
            "type_filters": [
                {"value": t, "label": feudal_cards.TYPE_NAMES[t]} for t in feudal_cards.TYPE_ORDER
            ],
            "class_filters": decks.class_filters(),
            "cost_filters": decks.cost_filters(),
            "total": len(decks.cards()),
        },
    )


def card_page(request: UserRequest, cid: str) -> HttpResponse:
    """One card: its face, numbers and text, and the starter decks that use it; public."""
    if cid not in decks.cards():
        raise Http404("There is no such card.")
    return render(
        request,
        "games/feudal_card.html",
        {"c": feudal_cards.card(cid), "starters": feudal_cards.starters_with(cid)},
    )
