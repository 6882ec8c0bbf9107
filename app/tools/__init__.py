"""The ``tapet`` command: serve, migrate, bench, arena, load."""
