#!/usr/bin/env bash
# The main job (docs/architecture.md, "Testing") as a user runs it: `scripts/run` (after its build step: --no-build, on the build/
# that scripts/test made) from a folder that is not the checkout, with an old PDF removed first. Checks
# its exit status, every section it promises, the Planner's answer and the capacity plan, the two SVGs,
# and build/capacity-planning.pdf with one page per sheet of examples/capacity-planning.fods.
#
#   tests/scripts/test_main_job.sh SOURCE_DIR
set -uo pipefail
src=$(cd "$1" && pwd)
here=$(mktemp -d)
trap 'rm -rf "$here"' EXIT
pdf=$src/build/capacity-planning.pdf
rm -f "$pdf" "$src/build/roofline.svg" "$src/build/roofline-operators.svg"

cd "$here"
bash "$src/scripts/run" --no-build >"$here/out" 2>&1
rc=$?
failures=0
check() {  # check WHAT COMMAND...: counts a failure when COMMAND fails
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; failures=$((failures + 1)); fi
}
has() { grep -qF -- "$1" "$here/out"; }

check "scripts/run exits 0 (it exited $rc)" test "$rc" = 0
for section in \
    "== roofline tables" \
    "Decode without KV" \
    "Decode with 4096 tokens of KV per sequence" \
    "== roofline decode --params-b 8 --batch 64 --ctx 4096 --bw 3.35" \
    "== wrote build/roofline.svg" \
    "== examples/capacity-planning.fods, recalculated in a headless Calc with the add-in" \
    "The article's figures (tests/data/seed-cases.json) and the workbook's" \
    "The Planner against ROOFLINE_PLAN through the C ABI" \
    "The Models sheet against the C ABI" \
    "wrote $pdf" \
    "== roofline plan --model llama-3.1-70b --rps 100 --prompt 2000 --output 300 --ttft-ms 500 --tpot-ms 50" \
    "Capacity plan: llama-3.1-70b at 100 requests/s" \
    "== roofline step --model llama-3-70b --gpu h100-sxm --batch 32 --ctx 8192 --tp 4 --profile typical" \
    "system throughput" \
    "== wrote build/roofline-operators.svg" \
    "== accuracy against published measurements" \
    "bound above a measurement: 0 of"; do
  check "prints '$section'" has "$section"
done
# Every sheet of the workbook is printed, and the PDF has a page for each.
mapfile -t sheets < <(grep -o '<table:table table:name="[^"]*"' "$src/examples/capacity-planning.fods" \
                      | sed 's/.*name="//; s/"$//' | grep -v '^local-table$')
check "the workbook has sheets (${sheets[*]})" test "${#sheets[@]}" -ge 5
for s in "${sheets[@]}"; do check "prints sheet $s" has "=== Sheet $s "; done
check "the Planner's answer: a cheapest configuration" grep -q '^Cheapest: [0-9]* × ' "$here/out"
check "the capacity plan has rows" grep -qE '^ +1  [a-z0-9-]+ +(bf16|fp8|int8|int4|nvfp4|mxfp4)' "$here/out"
check "no PROBLEMS reported" bash -c "! grep -q '^PROBLEMS' '$here/out'"
check "build/roofline.svg written" grep -q '<svg' "$src/build/roofline.svg"
check "build/roofline-operators.svg written" grep -q '<svg' "$src/build/roofline-operators.svg"
check "build/capacity-planning.pdf written" test -s "$pdf"
if [ -s "$pdf" ]; then
  pages=$(python3 -c 'import re, sys; print(len(re.findall(rb"/Type\s*/Page\b(?!s)", open(sys.argv[1], "rb").read())))' "$pdf")
  check "the PDF has one page per sheet ($pages pages, ${#sheets[@]} sheets)" test "$pages" = "${#sheets[@]}"
fi
if [ "$failures" != 0 ]; then
  echo "---- scripts/run --no-build printed:"
  cat "$here/out"
  exit 1
fi
