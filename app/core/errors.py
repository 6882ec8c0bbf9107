"""Errors of the services, each with the HTTP status the API gives it.

Services raise them with a sentence a player can read (``.message``); the app maps
them to ``{"detail": message}`` with ``.status``. Pages may catch them to show the
message in HTML.
"""

from __future__ import annotations


class ServiceError(Exception):
    """A use case refused: ``.status`` is the HTTP status, ``.message`` the reason."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Unauthorized(ServiceError):
    """No session: the caller must first create one (401)."""

    status = 401


class Forbidden(ServiceError):
    """The caller may not do this: not their seat, not their turn (403)."""

    status = 403


class NotFound(ServiceError):
    """No such room, seat or game (404)."""

    status = 404


class Conflict(ServiceError):
    """The table has moved on or the place is taken: stale seq, seat taken, not startable (409)."""

    status = 409


class Unprocessable(ServiceError):
    """The request is well-formed but not allowed by the rules: bad nickname, unknown game
    or option, illegal move (422)."""

    status = 422


class TooManyRequests(ServiceError):
    """429: a rate limit refused the request; ``.retry_after`` is the whole seconds to wait."""

    status = 429

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after
