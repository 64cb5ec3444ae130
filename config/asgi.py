"""ASGI entry point: HTTP through Django, websockets through Channels with origin checks."""

import os

import django
from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)


class SyncChainHandler(ASGIHandler):
    """Django's ASGI handler, its middleware and views run as one sync call in a worker thread.

    Django builds an ASGI chain async where middleware can be async, so the sync-only ones
    (WhiteNoise, ours) and every MiddlewareMixin's request and response hooks each hop between
    the event loop and the thread: about fourteen hops a request. Every view here is sync, so
    the whole chain is built sync and entered once.
    """

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)
        # Django sets the chain without a type annotation.
        chain = self._middleware_chain  # type: ignore[has-type]
        self._middleware_chain = sync_to_async(chain, thread_sensitive=True)


django_app = SyncChainHandler()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games import beat  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)

# The embedded set-up has no Celery beat: its periodic tasks run on a thread of this process.
beat.start()
