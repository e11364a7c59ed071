#!/usr/bin/env bash
# Fuzzes wire's HTTP/1.1 framer (packages/engines/native/http-framer.c) with libFuzzer, under AddressSanitizer and
# UndefinedBehaviorSanitizer, from the committed seed corpus (native/fuzz/corpus/, test/support/http-answers.ts's
# cases); inputs it finds go to a temp dir, not the corpus. Needs clang and its fuzzing runtime (scripts/setup/setup-system.sh).
#   bash scripts/check/fuzz-framer.sh [seconds=60] [max executions]
# Prints the executions, the coverage reached (libFuzzer's cov: edges, ft: features; then llvm-cov's lines and branches
# of http-framer.c over the seeds and every input found) and exits 1 on a finding, whose input it leaves in the work dir
# it names.
set -euo pipefail
cd "$(dirname "$0")/../../packages/engines/native"
seconds=${1:-60}
runs=${2:--1}
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-fuzz-XXXXXX")
clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Wall -Wextra -Werror \
  fuzz/framer-fuzz.c http-framer.c -o "$work/framer-fuzz"
mkdir -p "$work/found"
status=0
# inputs of at most 4 KiB: framing's states are all reached within them (the 64 KiB bounds are in the seeds)
"$work/framer-fuzz" -max_total_time="$seconds" -runs="$runs" -max_len=4096 -print_final_stats=1 \
  -artifact_prefix="$work/" "$work/found" fuzz/corpus >"$work/log" 2>&1 || status=$?
grep -E '^#[0-9]+[[:space:]]+DONE|^stat::number_of_executed_units|^stat::average_exec_per_sec' "$work/log" || true
if [ "$status" -ne 0 ]; then
  grep -E 'ERROR|SUMMARY|==[0-9]+==' "$work/log" | head -20 >&2 || true
  echo "fuzz-framer: a finding (exit $status): its input and the log are in $work" >&2
  exit 1
fi
# the framer's source lines and branches that the seeds and the inputs found reach
clang -g -O0 -fprofile-instr-generate -fcoverage-mapping -fsanitize=fuzzer fuzz/framer-fuzz.c http-framer.c -o "$work/framer-cov"
LLVM_PROFILE_FILE="$work/cov.profraw" "$work/framer-cov" -runs=0 "$work/found" fuzz/corpus >/dev/null 2>&1
llvm-profdata merge -sparse "$work/cov.profraw" -o "$work/cov.profdata"
llvm-cov report "$work/framer-cov" -instr-profile="$work/cov.profdata" http-framer.c | tail -1 |
  awk '{ printf "coverage of http-framer.c: regions %s, functions %s, lines %s, branches %s\n", $4, $7, $10, $13 }'
rm -rf "$work"
