"""Errors of the services, each with the HTTP status the API gives it.

Services raise them with a sentence a player can read (``.message``), and most with a
``.code`` (a short stable string, e.g. ``"seat_taken"``) and ``.params`` (plain values:
seat numbers from 0, room numbers, card codes) that the pages translate
(app/web/errors.py). The app maps them to ``{"detail": message}`` with
``.status``; ``detail`` is the English sentence programs read. A refusal of the engine
keeps the engine's code and params: ``Unprocessable.of(exc)``.
"""

from __future__ import annotations

from typing import Any


def _encodable(text: str) -> str:
    """``text`` with what UTF-8 cannot encode (a lone surrogate a client sent, echoed in a
    refusal such as "you do not hold the \\ud800") written as a backslash escape, so the
    refusal's answer can be sent at all (it was a 500)."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


class ServiceError(Exception):
    """A use case refused: ``.status`` is the HTTP status, ``.message`` the reason.

    ``ServiceError(message, code=None, **params)``: ``.code`` is None for a refusal the
    pages show in English as it is; ``.params`` the values the code's sentence needs.
    """

    status = 400

    def __init__(self, message: str, code: str | None = None, **params: Any) -> None:
        message = _encodable(message)
        super().__init__(message)
        self.message = message
        self.code = code
        self.params: dict[str, Any] = {
            k: _encodable(v) if isinstance(v, str) else v for k, v in params.items()
        }

    @classmethod
    def of(cls, exc: Exception, prefix: str = "", **params: Any) -> ServiceError:
        """This error for the engine's refusal ``exc`` (an ``IllegalAction``, or any
        exception with ``.code`` and ``.params``): the same English message (after
        ``prefix``), code and params, plus ``params``."""
        code = getattr(exc, "code", None)
        return cls(prefix + str(exc), code, **{**getattr(exc, "params", {}), **params})


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

    def __init__(
        self, message: str, retry_after: int, code: str | None = None, **params: Any
    ) -> None:
        super().__init__(message, code, **params)
        self.retry_after = retry_after
