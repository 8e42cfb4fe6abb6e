#!/usr/bin/env bash
# ctest: libroofline.so against the committed ABI baseline of its major version. An incompatible
# change (a function removed, a signature or a struct changed) fails; additions pass with a note.
# usage: check_abi.sh LIBROOFLINE SOURCE_DIR
set -uo pipefail
lib=$1 src=$2
major=$(sed -n 's/^#define ROOFLINE_VERSION_MAJOR \([0-9]*\)$/\1/p' "$src/c-api/include/roofline.h")
baseline=$src/c-api/abi/libroofline.so.$major.abi
if [ ! -f "$baseline" ]; then
  echo "no ABI baseline $baseline for major version $major: run scripts/update-abi"
  exit 1
fi
abidiff --headers-dir2 "$src/c-api/include" "$baseline" "$lib"
rc=$?
if (( rc & 1 || rc & 2 )); then echo "abidiff failed to compare (exit $rc)"; exit 1; fi
if (( rc & 8 )); then
  echo "INCOMPATIBLE ABI change against $baseline: bump ROOFLINE_VERSION_MAJOR (the SONAME) and run scripts/update-abi"
  exit 1
fi
if (( rc & 4 )); then echo "compatible ABI change (e.g. added functions): refresh the baseline with scripts/update-abi"; fi
echo "ABI compatible with $baseline"
