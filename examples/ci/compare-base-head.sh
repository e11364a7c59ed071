#!/usr/bin/env bash
# Compares an app's base (e.g. main) with its head (e.g. a pull request) in one bench run: the app's command
# target from its bench.config is started from both checkouts, the two interleaved round by round in a random
# order, rounds added until the comparison is decided (--repeat auto), then `bench compare --base --head`
# writes the markdown verdict (to $GITHUB_STEP_SUMMARY too, under GitHub Actions) and gates on --fail-if.
#
# Usage: compare-base-head.sh BASE_DIR HEAD_DIR
# Exit: 0 no regression beyond the limit; 1 a decided regression (or a run that failed); 2 bad input;
#       3 undecided within the caps (raise BENCH_MAX_TIME / BENCH_MAX_ROUNDS, or BENCH_ALLOW_UNDECIDED=1).
# Settings (environment):
#   BENCH                 the bench command (default: HEAD_DIR/node_modules/.bin/bench)
#   BENCH_TARGET          the command target of the app's bench.config to run from both checkouts (default: app)
#   BENCH_SCENARIOS       scenarios, comma-separated (default: the config's)
#   BENCH_FAIL_IF         the gate (default: rps<-5%)
#   BENCH_NOISE           noise threshold (default: 5%; measure yours with `bench noise`)
#   BENCH_MAX_TIME        seconds of rounds at most (default: 600)
#   BENCH_MAX_ROUNDS      rounds at most (default: 20)
#   BENCH_DURATION        measured seconds per cell (default: the config's)
#   BENCH_CPUS            pinning, e.g. server=0,client=1 (default: none)
#   BENCH_RUN_ARGS        more `bench run` flags, e.g. "-w 0.5 -c 10,50", or "--profile" (the verdict then names the
#                         function the CPU per request moved to)
#   BENCH_ALLOW_UNDECIDED 1 lets an undecided gate pass
#   BENCH_OUT             folder for results.json, comparison.md and comparison.html (default: ./bench-compare)
set -euo pipefail

if [ "$#" -ne 2 ]; then
  echo "usage: $0 BASE_DIR HEAD_DIR" >&2
  exit 2
fi
base=$(cd "$1" && pwd)
head=$(cd "$2" && pwd)
out=${BENCH_OUT:-bench-compare}
mkdir -p "$out"
out=$(cd "$out" && pwd)
target=${BENCH_TARGET:-app}
read -r -a bench <<<"${BENCH:-$head/node_modules/.bin/bench}"

config=''
for name in bench.config.ts bench.config.mts bench.config.mjs bench.config.js bench.config.json; do
  if [ -f "$head/$name" ]; then config=$name && break; fi
done
if [ -z "$config" ]; then
  echo "compare-base-head: no bench.config.* in $head" >&2
  exit 2
fi

# The head's own config (its scenarios and defaults), with its target twice: from the base checkout and from the head.
generated="$head/.bench-compare.config.ts"
cat >"$generated" <<CONFIG
// Written by compare-base-head.sh; safe to delete.
import path from 'node:path';
import app from './$config';

const entry = (app.targets ?? []).find((t) => typeof t === 'object' && t.name === '$target' && 'command' in t);
if (!entry || typeof entry !== 'object' || !('command' in entry)) throw new Error('bench.config has no command target "$target" (set BENCH_TARGET)');
const from = (dir: string, name: string) => ({ ...entry, name, cwd: path.resolve(dir, entry.cwd ?? '.') });

export default {
  scenarios: app.scenarios,
  targets: [from('$base', '$target-base'), from('$head', '$target-head')],
  reporters: [['json', { out: '$out/results.json' }]],
  defaults: { ...app.defaults, repeat: 'auto', compare: ['$target-base:$target-head'] },
};
CONFIG

args=(run --config "$generated" --max-rounds "${BENCH_MAX_ROUNDS:-20}" --max-time "${BENCH_MAX_TIME:-600}" --noise "${BENCH_NOISE:-5%}")
if [ -n "${BENCH_SCENARIOS:-}" ]; then args+=("$BENCH_SCENARIOS"); fi
if [ -n "${BENCH_DURATION:-}" ]; then args+=(-d "$BENCH_DURATION"); fi
if [ -n "${BENCH_CPUS:-}" ]; then args+=(--cpus "$BENCH_CPUS"); fi
if [ -n "${BENCH_RUN_ARGS:-}" ]; then
  read -r -a more <<<"$BENCH_RUN_ARGS"
  args+=("${more[@]}")
fi
"${bench[@]}" "${args[@]}"

# the same comparison as a page: charts, and with BENCH_RUN_ARGS=--profile base, head and differential flame graphs
"${bench[@]}" compare "$out/results.json" --base "$target-base" --head "$target-head" --noise "${BENCH_NOISE:-5%}" \
  --format html --out "$out/comparison.html"

gate=(compare "$out/results.json" --base "$target-base" --head "$target-head" --fail-if "${BENCH_FAIL_IF:-rps<-5%}"
  --noise "${BENCH_NOISE:-5%}" --out "$out/comparison.md")
if [ "${BENCH_ALLOW_UNDECIDED:-}" = 1 ]; then gate+=(--allow-undecided); fi
status=0
"${bench[@]}" "${gate[@]}" || status=$?

cat "$out/comparison.md"
if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$out/comparison.md" ]; then
  { echo "## bench: $target, base against head"; echo; cat "$out/comparison.md"; } >>"$GITHUB_STEP_SUMMARY"
fi
exit "$status"
