"""Fairness of the shuffle (``app.rules.new_deck``: Fisher-Yates with secrets.SystemRandom).

Two families of chi-square tests (docs/fairness.md gives the reasoning and the numbers):

* card positions: over N decks, how often each card lands in each position. The
  32 x 32 (48 x 48) table against N/n per cell, as a whole and card by card;
* suit lengths: the pattern (e.g. 3-1-1-0) of the eldest hand as the engine deals it
  (``apply(state, {"type": "deal", ...})``, then ``observe``), against the exact
  multivariate hypergeometric law.

Every threshold is the chi-square critical value at ALPHA = 1e-6 (Bonferroni-split
where one test makes several comparisons), so a fair shuffle fails a run with a
probability of about a millionth per test. The seeded runs are deterministic (a fixed
``random.Random``); the system-RNG runs use the real ``secrets.SystemRandom``, bounded.
"""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from app import rules
from tests.records.stats import (
    chi2_critical,
    chi2_sf,
    chi2_statistic,
    pooled,
    suit_pattern_law,
)

ALPHA = 1e-6
SEEDED_DECKS = 40_000
SEEDED_HANDS = 10_000
SYSTEM_DECKS = 10_000
SYSTEM_HANDS = 5_000


def test_the_chi_square_helpers_agree_with_known_values() -> None:
    assert chi2_sf(3.841458820694124, 1) == pytest.approx(0.05, rel=1e-9)
    assert chi2_sf(7.0, 2) == pytest.approx(math.exp(-3.5), rel=1e-12)
    assert chi2_sf(18.307038053275146, 10) == pytest.approx(0.05, rel=1e-9)
    assert chi2_sf(0.5, 30) == pytest.approx(1.0)
    assert chi2_critical(0.05, 1) == pytest.approx(3.841458820694124, rel=1e-9)
    assert chi2_critical(ALPHA, 961) == pytest.approx(1184.0, abs=0.5)  # docs/fairness.md table
    law = suit_pattern_law([8, 8, 8, 8], 8)
    assert sum(law.values()) == pytest.approx(1.0)
    assert law[(8, 0, 0, 0)] == pytest.approx(4 / math.comb(32, 8))


def position_statistics(decks: list[list[str]], cards: list[str]) -> tuple[float, float]:
    """(p-value of the whole table, smallest per-card p-value x n) for card positions."""
    n = len(cards)
    index = {c: i for i, c in enumerate(cards)}
    counts = [[0] * n for _ in range(n)]
    for deck in decks:
        for pos, card in enumerate(deck):
            counts[index[card]][pos] += 1
    expected = len(decks) / n
    rows = [chi2_statistic(row, [expected] * n) for row in counts]
    # The whole table: rows and columns both sum to N, so the centred counts live in an
    # (n-1)^2-dimensional space where their covariance is n/(n-1) times the identity
    # (uniform permutations are invariant under both symmetric groups): X (n-1)/n ~ chi2((n-1)^2).
    whole = chi2_sf(sum(rows) * (n - 1) / n, (n - 1) ** 2)
    per_card = min(chi2_sf(x, n - 1) for x in rows) * n  # Bonferroni over the n cards
    return whole, per_card


def suit_pattern_statistic(game: str, hands: list[list[str]]) -> tuple[float, int]:
    """(p-value, degrees of freedom) of the eldest hands' suit patterns."""
    deck = rules.GAMES[game].deck
    sizes = sorted(Counter(c[-1] for c in deck).values())
    law = suit_pattern_law(sizes, len(hands[0]))
    category_of, cat_law = pooled(law, len(hands))
    observed = Counter(_category(h, len(sizes), category_of) for h in hands)
    cats = sorted(cat_law)
    x = chi2_statistic([observed[c] for c in cats], [cat_law[c] * len(hands) for c in cats])
    return chi2_sf(x, len(cats) - 1), len(cats) - 1


def _category(hand: list[str], suits: int, category_of: dict) -> tuple[int, ...]:
    lengths = sorted(Counter(c[-1] for c in hand).values(), reverse=True)
    return category_of[tuple(lengths + [0] * (suits - len(lengths)))]


def eldest_hands(game: str, count: int, rng: random.Random | None) -> list[list[str]]:
    """The eldest hand right after ``count`` deals, as the engine hands the cards out."""
    hands = []
    for _ in range(count):
        state = rules.new_game(game, None, 0)
        state = rules.apply(state, {"type": "deal", "deck": rules.new_deck(game, rng)})
        eldest = rules.observe(state, None)["eldest"]
        hands.append(rules.observe(state, eldest)["hand"])
    return hands


@pytest.mark.parametrize("game", ["bolot", "belote", "botifarra"])
def test_seeded_card_positions_are_uniform(game: str) -> None:
    rng = random.Random(f"tapet-positions-{game}")
    cards = rules.GAMES[game].deck
    decks = [rules.new_deck(game, rng) for _ in range(SEEDED_DECKS)]
    whole, per_card = position_statistics(decks, cards)
    assert whole > ALPHA and per_card > ALPHA, (whole, per_card)


@pytest.mark.parametrize("game", sorted(rules.GAMES))
def test_seeded_suit_lengths_follow_the_hypergeometric_law(game: str) -> None:
    hands = eldest_hands(game, SEEDED_HANDS, random.Random(f"tapet-suits-{game}"))
    p, dof = suit_pattern_statistic(game, hands)
    assert dof >= 2 and p > ALPHA, p


@pytest.mark.parametrize("game", ["bolot", "botifarra"])
def test_system_rng_card_positions_are_uniform(game: str) -> None:
    cards = rules.GAMES[game].deck
    decks = [rules.new_deck(game) for _ in range(SYSTEM_DECKS)]
    whole, per_card = position_statistics(decks, cards)
    assert whole > ALPHA and per_card > ALPHA, (whole, per_card)


@pytest.mark.parametrize("game", ["bolot", "botifarra"])
def test_system_rng_suit_lengths_follow_the_hypergeometric_law(game: str) -> None:
    hands = eldest_hands(game, SYSTEM_HANDS, None)
    p, _dof = suit_pattern_statistic(game, hands)
    assert p > ALPHA, p


def test_the_tests_catch_a_biased_shuffle() -> None:
    """A classic mistake (swap with any position, not only the ones not yet fixed) is
    caught by the position test at this size: the tests have teeth."""
    rng = random.Random("tapet-biased")
    cards = rules.GAMES["bolot"].deck

    def naive(deck: list[str]) -> list[str]:
        deck = list(deck)
        for i in range(len(deck)):
            j = rng.randrange(len(deck))
            deck[i], deck[j] = deck[j], deck[i]
        return deck

    decks = [naive(cards) for _ in range(SEEDED_DECKS)]
    whole, _ = position_statistics(decks, cards)
    assert whole < ALPHA


def test_the_default_shuffle_is_the_system_rng(monkeypatch: pytest.MonkeyPatch) -> None:
    import secrets

    made: list[object] = []

    class Spy(random.SystemRandom):
        def __init__(self) -> None:
            super().__init__()
            made.append(self)

    monkeypatch.setattr(secrets, "SystemRandom", Spy)
    deck = rules.new_deck("bolot")
    assert made and sorted(deck) == sorted(rules.GAMES["bolot"].deck)
