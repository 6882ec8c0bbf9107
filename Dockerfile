# Tapet: the web app. Configure with DATABASE_URL, REDIS_URL, TAPET_SECRET_KEY.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    UV_PYTHON_DOWNLOADS=never \
    UV_LINK_MODE=copy

RUN pip install --no-cache-dir uv

WORKDIR /app
COPY pyproject.toml uv.lock README.md ./
RUN uv sync --frozen --no-dev --no-install-project
COPY . .
RUN uv sync --frozen --no-dev

# The SQLite default and the generated secret key live in /data when no URL/key is given.
RUN useradd --create-home tapet && mkdir -p /data && chown tapet /data
USER tapet
WORKDIR /data
EXPOSE 8000
CMD ["uv", "run", "--no-sync", "--project", "/app", "tapet", "serve", "--host", "0.0.0.0", "--port", "8000"]
