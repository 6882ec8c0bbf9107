"""Fixtures of the chat tests: the organiser of tests/tournaments."""

from tests.tournaments.conftest import org  # noqa: F401  (a fixture: a registered organiser)
