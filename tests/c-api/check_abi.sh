#!/usr/bin/env bash
# ctest: libroofline.so against the committed ABI baseline of its major version, by the growth rules
# of roofline.h ("HOW THE ABI GROWS"). Passes: added functions, and fields appended at the end of the
# structs the library hands out by pointer (roofline_formula_info, roofline_arg_info). Fails: a function
# removed, a signature changed, a caller-allocated struct (roofline_value) changed, a field inserted
# before others or changed. abidiff alone counts only removals as incompatible, so its report is read
# here, line by line, against what the rules allow.
# usage: check_abi.sh LIBROOFLINE SOURCE_DIR [BASELINE]
set -uo pipefail
lib=$1 src=$2
major=$(sed -n 's/^#define ROOFLINE_VERSION_MAJOR \([0-9]*\)$/\1/p' "$src/c-api/include/roofline.h")
baseline=${3:-$src/c-api/abi/libroofline.so.$major.abi}
if [ ! -f "$baseline" ]; then
  echo "no ABI baseline $baseline for major version $major: run scripts/update-abi"
  exit 1
fi
report=$(abidiff --headers-dir2 "$src/c-api/include" "$baseline" "$lib")
rc=$?
echo "$report"
if (( rc & 1 || rc & 2 )); then echo "abidiff failed to compare (exit $rc)"; exit 1; fi
if (( rc & 8 )); then
  echo "INCOMPATIBLE ABI change against $baseline: bump ROOFLINE_VERSION_MAJOR (the SONAME) and run scripts/update-abi"
  exit 1
fi
if (( rc & 4 )); then
  # Every line of the report must be one the rules allow; the first that is not is the reason.
  verdict=$(awk '
    function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
    function refuse(why) { print why ": " $0; exit 1 }
    {
      line = trim($0)
      if (line == "") next
      if (line ~ /^Functions changes summary:/) { if (line !~ / 0 Removed,/) refuse("a function was removed"); next }
      if (line ~ /^Variables changes summary:/) { if (line !~ / 0 Removed, 0 Changed,/) refuse("a variable changed"); next }
      if (line ~ /^[0-9]+ (Added|Removed) functions?( symbols not referenced by debug info)?:$/) next
      if (line ~ /^\[A\] /) next
      if (line ~ /^[0-9]+ functions? with some indirect sub-type changes?:$/) next
      if (line ~ /^\[C\] .* has some indirect sub-type changes:$/) { grows = 0; next }
      if (line ~ /^return type changed:$/ || line ~ /^parameter [0-9]+ of type .* has sub-type changes:$/) next
      if (line ~ /^in pointed to type .*:$/ || line ~ /^in unqualified underlying type .*:$/) next
      if (line ~ /^underlying type .struct roofline_(formula|arg)_info. .* changed:$/) { grows = 1; next }
      if (grows && line ~ /^type size changed from [0-9]+ to [0-9]+ \(in bits\)$/) { old_size = $5 + 0; next }
      if (grows && line ~ /^[0-9]+ data member insertions?:$/) next
      if (grows && line ~ /, at offset [0-9]+ \(in bits\)/) {
        match(line, /at offset [0-9]+/); offset = substr(line, RSTART + 10, RLENGTH - 10) + 0
        if (offset < old_size) refuse("a field inserted before the end of a struct")
        next
      }
      if (grows && line ~ /^no data member changes? \([0-9]+ filtered\);?$/) next
      refuse("not an addition the rules allow")
    }' <<<"$report")
  if [ $? -ne 0 ]; then
    echo "INCOMPATIBLE ABI change against $baseline ($verdict): released signatures and caller-allocated structs"
    echo "never change, and the library's structs grow only at their end (roofline.h, HOW THE ABI GROWS)"
    exit 1
  fi
  echo "compatible ABI change (added functions, fields appended): refresh the baseline with scripts/update-abi"
fi
echo "ABI compatible with $baseline"
