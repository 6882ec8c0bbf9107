"""Tapet, an online card room. The layers and where each kind of change goes: CONTRIBUTING.md."""
