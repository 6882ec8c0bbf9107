"""``docker-compose.yml`` stays true to what the app needs (issue 10, "Stack").

No Docker daemon runs here, so these tests read the file itself: the services the
production set-up needs, their health checks, the one-shot migration before the
workers, the volume that keeps PostgreSQL's data, and an environment the app's
settings accept. (``docker-compose config`` 1.29 also accepts the file; see
docs/scaling.md.)
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from app.core.settings import Settings

pytestmark = pytest.mark.slow  # the full suite only (.ci/run; pytest -m '')

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    """The parsed compose file."""
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def _env(service: dict[str, Any]) -> dict[str, str]:
    """A service's environment with ``${VAR:-default}`` resolved to its default, and
    ``${VAR:?message}`` (a value the operator must give) to a stand-in long enough."""
    env = service.get("environment") or {}
    if isinstance(env, list):
        env = dict(item.split("=", 1) for item in env)

    def resolve(value: str) -> str:
        value = re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", value)
        return re.sub(r"\$\{[A-Z_]+:\?[^}]*\}", "operator-given-secret-0123456789", value)

    return {k: resolve(str(v)) for k, v in env.items()}


def test_the_stack_has_the_app_postgresql_and_redis_each_with_a_health_check(
    compose: dict[str, Any],
) -> None:
    services = compose["services"]
    assert {"app", "postgres", "redis", "migrate"} <= set(services)
    for name in ("app", "postgres", "redis"):
        assert services[name]["healthcheck"]["test"], name


def test_postgresql_keeps_its_data_in_a_named_volume(compose: dict[str, Any]) -> None:
    mounts = [str(v) for v in compose["services"]["postgres"]["volumes"]]
    data = [m for m in mounts if m.endswith(":/var/lib/postgresql/data")]
    assert data, mounts
    assert data[0].split(":")[0] in compose["volumes"]


def test_migrations_run_once_before_the_workers_start(compose: dict[str, Any]) -> None:
    services = compose["services"]
    migrate = services["migrate"]
    assert migrate["command"] == ["tapet", "migrate"]
    assert migrate.get("restart") == "no"
    assert migrate["depends_on"]["postgres"]["condition"] == "service_healthy"
    needs = services["app"]["depends_on"]
    assert needs["migrate"]["condition"] == "service_completed_successfully"
    assert needs["postgres"]["condition"] == "service_healthy"
    assert needs["redis"]["condition"] == "service_healthy"


def test_the_app_runs_several_workers_sharing_postgresql_and_redis(compose: dict[str, Any]) -> None:
    env = _env(compose["services"]["app"])
    assert int(env["TAPET_WORKERS"]) >= 2
    settings = Settings(**{k: v for k, v in env.items() if not k.startswith("TAPET_WORKERS")})
    assert settings.database_url is not None and settings.database_url.startswith(
        "postgresql+asyncpg://"
    )
    assert "@postgres:5432/" in settings.database_url
    assert settings.redis_url == "redis://redis:6379/0"
    # The secret must come from the operator, never a constant in the file.
    assert "${TAPET_SECRET_KEY:?" in str(
        compose["services"]["app"]["environment"]["TAPET_SECRET_KEY"]
    )
    assert len(settings.secret()) >= 16


def test_the_image_serves_the_workers_the_compose_file_asks_for() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "tapet serve --host 0.0.0.0 --port 8000 --workers" in dockerfile
    assert "TAPET_WORKERS" in dockerfile
