#!/usr/bin/env bash
# Builds wire's native core under AddressSanitizer and UndefinedBehaviorSanitizer (gcc's) and runs the tests that
# drive it (the framing cases and the wire engine's on its native core: the js cores run no C) on that build: a read
# or write out of bounds, a use after free or undefined behaviour stops the run with the sanitizer's report. Node is
# not built with ASan, so its runtime is preloaded; leaks are not checked (V8 keeps its heap to the end).
#   bash scripts/check/native-sanitizers.sh [test files...]      builds the sanitized core, then runs the tests on it
#   bash scripts/check/native-sanitizers.sh --build FILE         only builds it, into FILE
#   bash scripts/check/native-sanitizers.sh --core FILE [files]  only runs the tests, on a core built with --build
set -euo pipefail
cd "$(dirname "$0")/../.."
build() {
  BENCH_NATIVE_OUT="$1" BENCH_NATIVE_CFLAGS="-g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all" \
    node packages/engines/scripts/build-native.mjs
  [ -f "$1" ] || { echo "native-sanitizers: the sanitized core was not built" >&2; exit 1; }
}
case "${1:-}" in
  --build)
    build "$2"
    exit 0
    ;;
  --core)
    core=$2
    shift 2
    ;;
  *)
    work=$(mktemp -d "${TMPDIR:-/tmp}/bench-sanitized-XXXXXX")
    trap 'rm -rf "$work"' EXIT
    core="$work/wire-loop.node"
    build "$core"
    ;;
esac
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(test/engines/framing.test.ts test/engines/wire-native.test.ts)
LD_PRELOAD="$(gcc -print-file-name=libasan.so)" ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 BENCH_WIRE_NATIVE="$core" \
  npx vitest run "${files[@]}"
