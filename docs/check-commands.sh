#!/usr/bin/env bash
# Runs every command that README.md and docs/*.md show in their code blocks, as written,
# and fails if one no longer works; .ci/run calls it. Needs Go and gcc; python3, node, npm
# and nats-server for the blocks that use them (a block needing a program that is not
# installed, such as docker, is skipped and listed).
#
#   bash docs/check-commands.sh [--timeout 30s] [--long 15s] [--keep] [--list] [FILE.md ...]
#
# The commands run in a scratch copy of the repository, block by block, with one arena
# binary for arena, ./arena and go run ./cmd/arena, and free ports for fixed ones. How a
# command passes, fails or is skipped: internal/cmd/doccommands/main.go. --list shows the
# commands found and what would be done with each, without running them. The last line of
# the output is "N passed, M failed"; the exit status is non-zero when any command failed.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/doccommands" ./internal/cmd/doccommands
"$bin/doccommands" "$@"
