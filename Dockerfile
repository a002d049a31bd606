# The product as one small image: the server binary and the built web app.
#
#   docker build -t paydesk .
#   docker run -p 8080:8080 -v paydesk-data:/srv/paydesk/data paydesk
#
# With no DATABASE_URL it keeps SQLite and its server key in /srv/paydesk/data
# (mount a volume there). Several nodes on one PostgreSQL need one SECRET_KEY:
# see docker-compose.yml. Migrations, mail and page words and the app's route
# table are compiled into the binary, so nothing else is copied.
#
# CI builds this file with podman (`.ci/image`): it supplies the first two
# stages from its own build, and the runtime's base through RUNTIME_IMAGE.

# What the image runs on (stage 3).
ARG RUNTIME_IMAGE=debian:bookworm-slim

# 1. The web app.
FROM node:20-bookworm-slim AS web
WORKDIR /src/web
COPY web/package.json web/package-lock.json ./
RUN npm ci --no-audit --no-fund --loglevel=error
COPY web/ ./
# The app imports its words from the shared locales folder beside web/.
COPY locales/ /src/locales/
RUN npm run build

# 2. The server, in release mode. The caches keep crates and build output
# between image builds; the binary is copied out of the cached folder.
FROM rust:1.95-bookworm AS server
WORKDIR /src
COPY . .
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --release --locked -p backend \
    && cp target/release/backend /usr/local/bin/backend

# 3. What runs: Debian slim with CA roots (webhook deliveries over https) and
# curl for the health check, as an unprivileged user.
FROM ${RUNTIME_IMAGE}
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates curl \
    && apt-get clean \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --home-dir /srv/paydesk --create-home paydesk
WORKDIR /srv/paydesk
COPY --from=server /usr/local/bin/backend /usr/local/bin/backend
COPY --from=web /src/web/dist /srv/paydesk/web/dist
RUN mkdir -p data && chown paydesk:paydesk data
USER paydesk
ENV BIND=0.0.0.0:8080 \
    WEB_DIR=/srv/paydesk/web/dist \
    RUST_LOG=info,sqlx=warn
EXPOSE 8080
VOLUME ["/srv/paydesk/data"]
# Ready means the database answers and every migration is applied.
HEALTHCHECK --interval=5s --timeout=3s --start-period=20s --retries=3 \
    CMD curl -fsS http://127.0.0.1:8080/readyz >/dev/null || exit 1
ENTRYPOINT ["/usr/local/bin/backend"]
CMD ["serve"]
