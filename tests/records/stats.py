"""Small exact statistics for the fairness tests (no scipy): the chi-square survival
function through the regularized incomplete gamma function, its critical values, and
the exact multivariate hypergeometric law of a hand's suit lengths."""

from __future__ import annotations

import math
from collections.abc import Iterable
from itertools import product


def _gamma_p_series(a: float, x: float) -> float:
    """Regularized lower incomplete gamma P(a, x) by its series (x < a + 1)."""
    term = total = 1.0 / a
    n = a
    for _ in range(100_000):
        n += 1
        term *= x / n
        total += term
        if abs(term) < abs(total) * 1e-16:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _gamma_q_fraction(a: float, x: float) -> float:
    """Regularized upper incomplete gamma Q(a, x) by Lentz's continued fraction (x >= a + 1)."""
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 100_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-16:
            break
    return h * math.exp(-x + a * math.log(x) - math.lgamma(a))


def chi2_sf(x: float, dof: int) -> float:
    """P(X >= x) for X ~ chi-square with ``dof`` degrees of freedom."""
    if x <= 0:
        return 1.0
    a, half = dof / 2.0, x / 2.0
    if half < a + 1.0:
        return 1.0 - _gamma_p_series(a, half)
    return _gamma_q_fraction(a, half)


def chi2_critical(alpha: float, dof: int) -> float:
    """The x with ``chi2_sf(x, dof) == alpha`` (bisection)."""
    lo, hi = 0.0, float(dof)
    while chi2_sf(hi, dof) > alpha:
        hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if chi2_sf(mid, dof) > alpha:
            lo = mid
        else:
            hi = mid
    return hi


def chi2_statistic(observed: Iterable[float], expected: Iterable[float]) -> float:
    """Pearson's sum of (O - E)^2 / E."""
    return sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))


def suit_pattern_law(suit_sizes: list[int], hand: int) -> dict[tuple[int, ...], float]:
    """The exact probability of each suit-length pattern (lengths sorted, longest first)
    of a ``hand``-card hand drawn from a deck with ``suit_sizes`` cards per suit."""
    total = math.comb(sum(suit_sizes), hand)
    law: dict[tuple[int, ...], float] = {}
    for lengths in product(*(range(min(s, hand) + 1) for s in suit_sizes)):
        if sum(lengths) != hand:
            continue
        ways = math.prod(math.comb(s, k) for s, k in zip(suit_sizes, lengths, strict=True))
        key = tuple(sorted(lengths, reverse=True))
        law[key] = law.get(key, 0.0) + ways / total
    return law


def pooled(
    law: dict[tuple[int, ...], float], n: int, min_expected: float = 5.0
) -> tuple[dict[tuple[int, ...], tuple[int, ...]], dict[tuple[int, ...], float]]:
    """Pool the patterns expected fewer than ``min_expected`` times in ``n`` draws with
    the least likely pattern that reaches it. Returns ``(category_of, law_of_category)``:
    each pattern's category, and each category's probability."""
    ordered = sorted(law, key=law.__getitem__, reverse=True)
    kept = [k for k in ordered if law[k] * n >= min_expected]
    catch_all = kept[-1]
    category_of = {k: (k if k in kept else catch_all) for k in law}
    cat_law: dict[tuple[int, ...], float] = {}
    for k, p in law.items():
        cat_law[category_of[k]] = cat_law.get(category_of[k], 0.0) + p
    return category_of, cat_law
