# Tapet: the web app. Configure with DATABASE_URL, REDIS_URL, TAPET_SECRET_KEY, TAPET_WORKERS
# (README.md "Production"); docker-compose.yml runs it with PostgreSQL and Redis.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    UV_PYTHON_DOWNLOADS=never \
    UV_LINK_MODE=copy \
    PATH="/app/.venv/bin:$PATH" \
    TAPET_WORKERS=1 \
    NUMBA_CPU_NAME=generic

RUN pip install --no-cache-dir uv

WORKDIR /app
COPY pyproject.toml uv.lock README.md ./
RUN uv sync --frozen --no-dev --no-install-project
COPY . .
RUN uv sync --frozen --no-dev
# Compile the double-dummy search now, not at the first solve of each container (numba
# caches it beside its module, for a generic CPU of the architecture: NUMBA_CPU_NAME above,
# so that the cache serves any machine the image runs on).
RUN python -c "from app.bots import solver; print(solver.warm())"

# The SQLite default and the generated secret key live in /data when no URL/key is given.
RUN useradd --create-home tapet && mkdir -p /data && chown tapet /data
USER tapet
WORKDIR /data
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
    CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/api/games', timeout=3)"
# `tapet serve` migrates (a no-op once `tapet migrate` ran), then forks the workers.
CMD ["sh", "-c", "exec tapet serve --host 0.0.0.0 --port 8000 --workers \"${TAPET_WORKERS}\""]
