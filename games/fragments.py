"""Template fragments drawn once per distinct input, shared by every page and socket.

`{% fragment "name" input1 input2 … %}…{% endfragment %}` (games.templatetags.chancery) draws
its body once for each distinct value of the inputs it names and keeps the html in a
process-wide cache. The inputs must be everything the body reads: the board template's sections
and seat cards name the parts of the board context they show, and
`tests/games/test_fragments.py` reads each fragment's body and fails if it reads anything its
tag does not name. So the html is a function of the named inputs alone, and two viewers whose
inputs are equal are sent the same html: a fragment can never show one seat what another sees.

Why: a move changes a few parts of the tableau and one or two seat cards, but the live partials
are drawn whole (then diffed by child, games.pages.split); with the unchanged sections taken
from here, a socket's render costs what changed (issue 11, "render only what changed").

An input the digest cannot read exactly (a model instance, whose fields the digest would not
see) draws the body every time; so does a fragment while `disabled()` is in force (the tests
compare both ways).
"""

from __future__ import annotations

import contextlib
import hashlib
import threading
from collections.abc import Callable, Iterator
from typing import Any

import orjson

from games.kept import Kept

# A seat card is ~1-2 KB and a tableau section up to ~10 KB: at most ~10 MB.
SIZE = 2048

_cache: Kept[bytes, str] = Kept(SIZE)
_off = threading.local()
stats = {"hits": 0, "misses": 0, "uncached": 0}


def _exact(value: Any) -> Any:
    """Sets and ranges as lists; anything else JSON cannot hold exactly has no digest."""
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    if isinstance(value, range):
        return ["range", value.start, value.stop, value.step]
    raise TypeError(f"no exact digest for {type(value).__name__}")


def key(name: str, inputs: list[Any]) -> bytes | None:
    """The cache key of a fragment drawn from these inputs; None when one has no exact digest."""
    try:
        data = orjson.dumps([name, inputs], default=_exact, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:
        return None
    return hashlib.blake2b(data, digest_size=16).digest()


def drawn(name: str, inputs: list[Any], draw: Callable[[], str]) -> str:
    """The fragment's html: from the cache when these inputs were drawn before."""
    found = None if getattr(_off, "on", False) else key(name, inputs)
    if found is None:
        stats["uncached"] += 1
        return draw()
    html = _cache.get(found)
    if html is not None:
        stats["hits"] += 1
        return html
    html = draw()
    stats["misses"] += 1
    _cache.put(found, html)
    return html


@contextlib.contextmanager
def disabled() -> Iterator[None]:
    """Every fragment drawn afresh in this thread (tests compare the two)."""
    before = getattr(_off, "on", False)
    _off.on = True
    try:
        yield
    finally:
        _off.on = before


def clear() -> None:
    _cache.clear()
