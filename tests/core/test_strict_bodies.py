"""Every JSON body refuses unknown fields (docs/security.md "Bad input"): each route's body
model and every model nested in it say ``extra="forbid"`` (issue 20: tournament and club
bodies took ``{"zzz": 1}`` with a 201)."""

from __future__ import annotations

from typing import Any

import httpx

from app.core.settings import Settings
from app.main import create_app
from tests.tournaments.conftest import account


def _refs(node: Any) -> set[str]:
    """The component schema names ``node`` refers to, anywhere inside it."""
    if isinstance(node, dict):
        found = {node["$ref"].rsplit("/", 1)[-1]} if "$ref" in node else set()
        for value in node.values():
            found |= _refs(value)
        return found
    if isinstance(node, list):
        return set().union(*(_refs(v) for v in node)) if node else set()
    return set()


def test_every_body_model_refuses_unknown_fields(settings: Settings) -> None:
    spec = create_app(settings).openapi()
    schemas = spec["components"]["schemas"]
    todo: set[str] = set()
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            todo |= {
                (name, f"{method.upper()} {path}")
                for name in _refs(operation.get("requestBody", {}))
            }
    loose, seen = [], set()
    while todo:
        name, where = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        schema = schemas[name]
        if "properties" in schema and schema.get("additionalProperties") is not False:
            loose.append(f"{where}: {name}")
        todo |= {(ref, where) for ref in _refs(schema)}
    assert seen, "no request body found in the OpenAPI"
    assert not loose, "\n".join(sorted(loose))


async def test_club_and_tournament_bodies_refuse_unknown_fields(client: httpx.AsyncClient) -> None:
    org = await account(client, "organitzador")
    club = await client.post("/api/clubs", json={"name": "Penya", "zzz": 1}, headers=org)
    assert club.status_code == 422, club.text
    body = {"name": "Lliga", "game": "bolot", "zzz": 1}
    assert (await client.post("/api/tournaments", json=body, headers=org)).status_code == 422
    assert (await client.get("/api/clubs")).json() == []
