"""Every request's input checked once, and every error under /api/ answered in JSON.

`InputGuardMiddleware` refuses, before any view runs, a path, query string or form field that
holds a control character, and a body over the upload limits, with a readable 400.
`ApiErrorsMiddleware` turns any error response under /api/ (404, 405, 500 included) into
`{"error": …}` JSON, so API clients never have to parse an HTML page.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from http import HTTPStatus

from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import HttpRequest, HttpResponse, JsonResponse

from games.inputs import has_control

log = logging.getLogger(__name__)
API_PREFIX = "/api/"
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def is_api(request: HttpRequest) -> bool:
    """Whether the request is for the JSON API."""
    return request.path.startswith(API_PREFIX)


def refusal(request: HttpRequest, message: str, status: int = 400) -> HttpResponse:
    """A readable refusal: JSON under /api/, plain text elsewhere."""
    if is_api(request):
        return JsonResponse({"error": message, "code": "malformed"}, status=status)
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")


class InputGuardMiddleware:
    """Refuse control characters in the path, query string and form fields; bound the body."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            problem = self._problem(request)
        except (RequestDataTooBig, TooManyFieldsSent):
            problem = "The request is too large."
        if problem:
            return refusal(request, problem)
        return self.get_response(request)

    def _problem(self, request: HttpRequest) -> str:
        if has_control(request.path):
            return "The address contains a control character, which is not allowed."
        if _holds_control(request.GET.lists()):
            return "The query string contains a control character, which is not allowed."
        if request.method == "POST" and request.content_type in FORM_TYPES:
            if _holds_control(request.POST.lists()):
                return "A form field contains a control character, which is not allowed."
        elif request.method in ("POST", "PUT", "PATCH", "DELETE"):
            request.body  # noqa: B018 (reads it under DATA_UPLOAD_MAX_MEMORY_SIZE)
        return ""


def _holds_control(fields: object) -> bool:
    return any(
        has_control(key) or any(has_control(v) for v in values)
        for key, values in fields  # type: ignore[attr-defined]
    )


class ApiErrorsMiddleware:
    """Under /api/, every error is JSON: {"error": a readable message}."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not is_api(request) or response.status_code < 400:
            return response
        if response.get("Content-Type", "").startswith("application/json"):
            return response
        return _as_json(response)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        """An unexpected error under /api/: logged, and answered in JSON."""
        if not is_api(request):
            return None
        log.exception("API request %s %s failed", request.method, request.path)
        return JsonResponse(
            {"error": "Something went wrong on our side; nothing was changed.", "code": "server"},
            status=500,
        )


def _as_json(response: HttpResponse) -> HttpResponse:
    """The same status and headers, with a JSON body naming the error."""
    status = response.status_code
    try:
        message = HTTPStatus(status).phrase
    except ValueError:
        message = "Error"
    if status == 404:
        message = "No such resource."
    elif status == 405:
        message = f"Method not allowed here (allowed: {response.get('Allow', 'none')})."
    converted = HttpResponse(
        json.dumps({"error": message}), status=status, content_type="application/json"
    )
    for header in ("Allow", "Retry-After"):
        if header in response:
            converted[header] = response[header]
    return converted
