#!/usr/bin/env bash
# Builds the OpenTelemetry Collector that test/run/otlp.test.ts sends runs to (scripts/setup/otelcol/builder.yaml: the
# OTLP receiver, the file exporter, a bearer-token authenticator), from the Go module proxy, once: the binary is
# kept in ${BENCH_CACHE:-~/.cache/bench}/otelcol/<release>/ and a later run finds it there. Prints its path.
set -euo pipefail
cd "$(dirname "$0")"

RELEASE=v0.161.0
cache="${BENCH_CACHE:-$HOME/.cache/bench}/otelcol/${RELEASE}"
binary="$cache/otelcol-bench"
if [ -x "$binary" ] && "$binary" --version >/dev/null 2>&1; then
  echo "$binary"
  exit 0
fi
command -v go >/dev/null || { echo "build-otelcol: no Go toolchain (scripts/setup/setup-system.sh installs one)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start=$(date +%s)
echo "build-otelcol: building the collector ${RELEASE} with $(go version) (a few minutes, once)" >&2
sed "s|^dist:|dist:\n  output_path: $work/out|" otelcol/builder.yaml >"$work/builder.yaml"
GOFLAGS=-buildvcs=false go run "go.opentelemetry.io/collector/cmd/builder@${RELEASE}" --config "$work/builder.yaml" >&2
mkdir -p "$cache"
mv "$work/out/otelcol-bench" "$binary.tmp" && mv "$binary.tmp" "$binary"
echo "build-otelcol: built in $(($(date +%s) - start)) s, $(du -h "$binary" | cut -f1) at $binary" >&2
echo "$binary"
