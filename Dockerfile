# The arena command in a container: the referee daemon, players, or any other subcommand.
#
#   docker build -t arena .
#   docker run --rm arena version
#
# docker-compose.yml runs a NATS server, the referee daemon and built-in players from it.

# Build stage. SQLite (mattn/go-sqlite3) needs cgo, so the binary is linked dynamically
# against glibc; the final stage is the same Debian release so that the libraries match.
# The Go version follows go.mod (cmd/arena/compose_test.go checks that they agree).
FROM golang:1.26-bookworm AS build
WORKDIR /src

# Modules get their own layer, downloaded again only when go.mod or go.sum change.
COPY go.mod go.sum ./
RUN go mod download && go mod verify

COPY . .
# The build cache mount keeps compiled packages (SQLite takes a minute) between builds.
RUN --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=1 go build -trimpath -ldflags "-s -w" -o /out/arena ./cmd/arena

# Final stage: glibc for the cgo SQLite driver, CA certificates for TLS NATS URLs, and a
# user without privileges that owns /data, where the referee keeps its database.
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --user-group --uid 10001 --home-dir /data --no-create-home \
        --shell /usr/sbin/nologin arena \
    && mkdir /data \
    && chown arena:arena /data
COPY --from=build /out/arena /usr/local/bin/arena
USER arena
WORKDIR /data
ENTRYPOINT ["arena"]
CMD ["help"]
