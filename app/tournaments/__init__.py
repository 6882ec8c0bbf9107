"""Championships: clubs, teams, formats, pairing, rounds, results (online and on paper),
standings. Builds on rooms (never the reverse); hooks into them at start-up (wiring)."""
