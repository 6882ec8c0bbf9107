"""The card room: rooms, seats, the lobby's list, the move store and its log, the runner
that deals and plays for bots and clocks, and the sockets' fan-out. Knows no championship:
it asks app/core/hooks.py."""
