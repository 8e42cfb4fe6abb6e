#!/usr/bin/env bash
# scripts/run's build step shows its progress (issue #43: it printed nothing for 13 minutes): each stage, the build's
# own [done/total] every tenth of the way, its time; a failing build says so with the log's last lines and stops the
# job, whatever errexit and pipefail the caller has. Runs lib.sh's build_with_progress on a stand-in build.
set -uo pipefail
src=$1
here=$(mktemp -d)
trap 'rm -rf "$here"' EXIT
cd "$here"
fails=0
check() { local what=$1; shift; if "$@"; then echo "ok - $what"; else echo "FAIL - $what"; fails=$((fails + 1)); fi; }

out=$(bash -c 'set -euo pipefail; source "$1/scripts/lib.sh"
  roofline_build() { echo "-- Configuring done"; for i in $(seq 1 40); do echo "[$i/40] Building CXX object x$i.o"; done; }
  build_with_progress; echo "the job goes on"' _ "$src" 2>&1)
rc=$?
check "a build that succeeds: exit 0 ($rc)" test "$rc" = 0
check "it names the stage and its log" grep -q "^== building .*log: build/run-build.log" <<<"$out"
check "it shows ten steps of progress, 10% to 100%" test "$(grep -c '^ *[0-9]*0% (' <<<"$out")" = 10
check "the progress counts ninja's steps" grep -q "100% (40 of 40 steps)" <<<"$out"
check "it says how long it took" grep -q "^== built in [0-9]* s" <<<"$out"
check "the compiler's lines are not printed" test "$(grep -c 'Building CXX' <<<"$out")" = 0
check "the whole output is in the log" test "$(grep -c 'Building CXX' build/run-build.log)" = 40
check "the job goes on after it" grep -q "the job goes on" <<<"$out"

out=$(bash -c 'set -euo pipefail; source "$1/scripts/lib.sh"
  roofline_build() { echo "[1/4] Building CXX object a.o"; echo "a.cpp:1: error: boom"; false; echo "[4/4] never"; }
  build_with_progress; echo "the job goes on"' _ "$src" 2>&1)
rc=$?
check "a build that fails: exit 1 ($rc)" test "$rc" = 1
check "it says the build failed and where the log is" grep -q "the build failed; its last lines (the whole log: build/run-build.log)" <<<"$out"
check "it shows the failure" grep -q "a.cpp:1: error: boom" <<<"$out"
check "the job stops" test "$(grep -c 'the job goes on' <<<"$out")" = 0
check "nothing after the failing command ran" test "$(grep -c 'never' <<<"$out")" = 0

out=$(bash -c 'source "$1/scripts/lib.sh"
  roofline_build() { echo "[ 25%] Building"; echo "[ 60%] Building"; echo "[100%] Linking"; }
  build_with_progress' _ "$src" 2>&1)
check "make's [ NN%] counter too" grep -q "60% (make)" <<<"$out"

echo "$fails failed"
test "$fails" = 0
