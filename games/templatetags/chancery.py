"""Small template helpers."""

from __future__ import annotations

import json
from typing import Any

from django import template
from django.utils.safestring import SafeString

register = template.Library()


@register.filter
def lookup(mapping: Any, key: Any) -> Any:
    """mapping[key], or None."""
    try:
        return mapping[key]
    except (KeyError, IndexError, TypeError):
        return None


@register.filter
def as_json(value: Any) -> str:
    """Compact JSON for a form field (the template escapes it)."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


@register.filter
def plus_one(value: int) -> int:
    """Seat numbers as players count them."""
    return int(value) + 1


@register.simple_tag
def join_decks(user: Any, game: Any) -> list[Any]:
    """The deck menu for joining an open Feudal Lords game (empty for other games)."""
    from games.boards.feudal import decks

    return decks.join_choices(user, game)


@register.filter
def gloss(text: Any, game: str) -> SafeString:
    """Game text with each abbreviation explained and internal ids left out (games.glossary)."""
    from games import glossary

    return glossary.gloss(game, "" if text is None else str(text))


@register.filter
def gloss_log(text: Any, game: str) -> SafeString:
    """A log line: glossed, and card names linked to their pages (games.glossary.gloss_log)."""
    from games import glossary

    return glossary.gloss_log(game, "" if text is None else str(text))


@register.simple_tag
def glossary_words(game: str) -> dict[str, str]:
    """The game's short words and their meanings, for the page's script to mark any the server
    did not (games.glossary.in_text_titles; static/js/chancery.js markAbbreviations)."""
    from games import glossary

    return glossary.in_text_titles(game)


@register.simple_tag
def abbr(game: str, word: str) -> SafeString:
    """An abbreviation of a game, with its meaning on hover and tap."""
    from games import glossary

    return glossary.abbr(game, word)


@register.filter
def prompt_key(prompt: Any) -> str:
    """The fingerprint of a seat's prompt, sent with a move (games.services.prompt_key)."""
    from games import services

    return services.prompt_key(prompt) if prompt else ""


class FragmentNode(template.Node):
    """{% fragment "name" input … %}: the body drawn once per distinct input (games.fragments)."""

    def __init__(
        self, name: str, inputs: list[template.base.FilterExpression], nodelist: template.NodeList
    ) -> None:
        self.name, self.inputs, self.nodelist = name, inputs, nodelist

    def render(self, context: template.Context) -> str:
        from games import fragments

        values = [expression.resolve(context, ignore_failures=True) for expression in self.inputs]
        return fragments.drawn(self.name, values, lambda: self.nodelist.render(context))


@register.tag("fragment")
def fragment(parser: template.base.Parser, token: template.base.Token) -> FragmentNode:
    bits = token.split_contents()
    if len(bits) < 3 or bits[1][0] not in "\"'" or bits[1][-1] != bits[1][0]:
        raise template.TemplateSyntaxError(
            "{% fragment %} takes a quoted name and the inputs its body reads"
        )
    nodelist = parser.parse(("endfragment",))
    parser.delete_first_token()
    inputs = [parser.compile_filter(bit) for bit in bits[2:]]
    return FragmentNode(bits[1][1:-1], inputs, nodelist)
