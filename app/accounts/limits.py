"""In-process token buckets for the rate limits (login, new sessions, moves).

A bucket holds ``tokens`` and refills them over ``period`` seconds; each request
takes one, and a request finding the bucket empty is told how long to wait. The
buckets live in this process (several workers each keep their own: the limit is
then per worker, which is fine for what it guards: brute force and floods).
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from dataclasses import dataclass

from app.core.settings import Settings, get_settings

MAX_KEYS = 50_000


@dataclass(slots=True)
class _Bucket:
    level: float
    stamp: float


class RateLimiter:
    """Buckets by key, each of ``tokens`` refilled over ``period`` seconds."""

    def __init__(self, tokens: int, period: float, clock: object = time.monotonic) -> None:
        self.tokens = tokens
        self.period = period
        self._clock = clock
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()

    def hit(self, key: str) -> float:
        """Take one token of ``key``'s bucket: 0.0 when allowed, else the seconds to wait."""
        now = self._clock()  # type: ignore[operator]
        rate = self.tokens / self.period
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = _Bucket(float(self.tokens), now)
            self._buckets[key] = bucket
            while len(self._buckets) > MAX_KEYS:
                self._buckets.popitem(last=False)
        else:
            bucket.level = min(float(self.tokens), bucket.level + (now - bucket.stamp) * rate)
            bucket.stamp = now
            self._buckets.move_to_end(key)
        if bucket.level >= 1.0:
            bucket.level -= 1.0
            return 0.0
        return (1.0 - bucket.level) / rate

    def refund(self, key: str) -> None:
        """Give ``key`` back one token (a request that turned out not to count)."""
        bucket = self._buckets.get(key)
        if bucket is not None:
            bucket.level = min(float(self.tokens), bucket.level + 1.0)

    def wait(self, key: str) -> float:
        """The seconds before ``key``'s bucket has a token again (0.0 when it has one now),
        taking nothing."""
        bucket = self._buckets.get(key)
        if bucket is None:
            return 0.0
        rate = self.tokens / self.period
        level = min(float(self.tokens), bucket.level + (self._clock() - bucket.stamp) * rate)  # type: ignore[operator]
        return 0.0 if level >= 1.0 else (1.0 - level) / rate


def retry_after(seconds: float) -> int:
    """The ``Retry-After`` header's whole seconds for a wait of ``seconds`` (at least 1)."""
    return max(1, math.ceil(seconds))


_CONFIGURED: dict[str, tuple[Settings, RateLimiter | None]] = {}


def configured(name: str) -> RateLimiter | None:
    """The per-process bucket of the rate limit ``name`` (``Settings.rate``: "login_failures",
    "code_failures"...) of the settings in force, made anew when they change (tests), or None
    when rate limits are off. For limits a service applies itself, where the request guard
    cannot tell a failure (a wrong password, a wrong invitation code)."""
    settings = get_settings()
    kept = _CONFIGURED.get(name)
    if kept is None or kept[0] is not settings:
        rate = settings.rate(name)
        kept = _CONFIGURED[name] = (settings, RateLimiter(*rate) if rate else None)
    return kept[1]
