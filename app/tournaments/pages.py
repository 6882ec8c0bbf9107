"""HTML pages of the championships (filled in below)."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter(include_in_schema=False)
