#!/usr/bin/env bash
# The outside load tools scripts/measure/outside-cost.mjs measures beside bench's engines, built from their registries
# into bench's cache (~/.cache/bench/tools/bin), never onto the system: vegeta from the Go module proxy, oha from
# crates.io. Each that cannot be built here is skipped with a line saying why; the others are still built.
#
#   bash scripts/measure/build-outside-tools.sh
set -uo pipefail
VEGETA_VERSION=v12.13.0
OHA_VERSION=1.16.0
tools="${XDG_CACHE_HOME:-$HOME/.cache}/bench/tools"
mkdir -p "$tools/bin"

if [ -x "$tools/bin/vegeta" ]; then
  echo "vegeta: already built ($("$tools/bin/vegeta" -version 2>/dev/null | head -1))"
elif ! command -v go >/dev/null; then
  echo 'vegeta: skipped: no go on PATH (apt-get install golang, or Go from go.dev)'
elif GOBIN="$tools/bin" GOFLAGS=-mod=mod go install "github.com/tsenart/vegeta/v12@$VEGETA_VERSION" 2>"$tools/vegeta-build.log"; then
  echo "vegeta: built $VEGETA_VERSION"
else
  echo "vegeta: skipped: go install failed ($(tail -1 "$tools/vegeta-build.log"))"
fi

if [ -x "$tools/bin/oha" ]; then
  echo "oha: already built ($("$tools/bin/oha" --version 2>/dev/null | head -1))"
elif ! command -v cargo >/dev/null; then
  echo 'oha: skipped: no cargo on PATH (rustup, or apt-get install cargo)'
elif cargo install --locked --root "$tools" --version "$OHA_VERSION" oha >"$tools/oha-build.log" 2>&1; then
  echo "oha: built $OHA_VERSION"
else
  echo "oha: skipped: cargo install failed ($(tail -1 "$tools/oha-build.log"))"
fi
