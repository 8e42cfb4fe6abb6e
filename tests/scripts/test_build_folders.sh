#!/usr/bin/env bash
# A build/ made by the plain CMake commands of docs/install.md ("Building") (Unix Makefiles) and one made by the presets (Ninja)
# both work with what scripts/run and scripts/test do to them (scripts/lib.sh: roofline_build,
# roofline_configure with more -D, ctest --preset), and the plain commands work on a preset's build/.
# It runs the real scripts/lib.sh and CMakePresets.json on a one-test project in a scratch folder, so
# that it takes seconds, not a second build of libroofline.
#
#   tests/scripts/test_build_folders.sh SOURCE_DIR
set -euo pipefail
src=$(cd "$1" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

make_tree() {
  rm -rf "$tmp/tree"
  mkdir -p "$tmp/tree/scripts"
  cp "$src/CMakePresets.json" "$tmp/tree/"
  cp "$src/scripts/lib.sh" "$tmp/tree/scripts/"
  # The cache variables that the presets and scripts/test set, read so that CMake does not warn.
  cat > "$tmp/tree/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.21)
project(folders C)
enable_testing()
foreach(v ROOFLINE_BUILD_ADDIN ROOFLINE_BUILD_WINDOWS ROOFLINE_CALC_TESTS ROOFLINE_SANITIZE ROOFLINE_FUZZ
          ROOFLINE_BUILD_TESTS ROOFLINE_BUILD_EXAMPLES ROOFLINE_LO_BACKPORTS_PROGRAM)
  set(_unused "${${v}}")
endforeach()
file(WRITE ${CMAKE_BINARY_DIR}/main.c "int main(void) { return 0; }\n")
add_executable(hello ${CMAKE_BINARY_DIR}/main.c)
add_test(NAME hello COMMAND hello)
CM
}

generator() { sed -n 's/^CMAKE_GENERATOR:INTERNAL=//p' "$1/CMakeCache.txt"; }
fail() { echo "FAIL: $*"; exit 1; }

# 1. The plain commands (docs/install.md) first, then what scripts/run and scripts/test do.
make_tree
(
  cd "$tmp/tree"
  cmake -S . -B build >/dev/null && cmake --build build >/dev/null
  [ "$(generator build)" = "Unix Makefiles" ] || fail "the plain commands made $(generator build)"
  source scripts/lib.sh
  roofline_build >/dev/null || fail "roofline_build on a build/ of the plain commands"
  roofline_configure default -DROOFLINE_LO_BACKPORTS_PROGRAM=/nowhere || fail "roofline_configure -D on it"
  ctest --preset default >/dev/null || fail "ctest --preset default on it"
  [ "$(generator build)" = "Unix Makefiles" ] || fail "the generator changed to $(generator build)"
  grep -q '^CMAKE_BUILD_TYPE:STRING=RelWithDebInfo' build/CMakeCache.txt || fail "the preset's cache variables were not set"
)
echo "ok: a build/ of 'cmake -S . -B build' works with scripts/lib.sh's roofline_build and ctest --preset (kept Unix Makefiles)"

# 2. The presets first (Ninja, as scripts/test makes build/), then the plain commands (docs/install.md).
make_tree
(
  cd "$tmp/tree"
  source scripts/lib.sh
  roofline_build >/dev/null || fail "roofline_build on a new build/"
  [ "$(generator build)" = Ninja ] || fail "the preset made $(generator build)"
  cmake -S . -B build >/dev/null && cmake --build build >/dev/null || fail "the plain commands on a preset's build/"
  ctest --test-dir build >/dev/null || fail "ctest --test-dir build on it"
  roofline_build >/dev/null || fail "roofline_build again"
)
echo "ok: a build/ of the presets works with the plain commands, and with roofline_build again"

# 3. Other presets' folders, as CMakePresets.json names them.
(
  cd "$src"
  source scripts/lib.sh
  [ "$(roofline_binary_dir default)" = build ] || fail "default's folder is $(roofline_binary_dir default)"
  [ "$(roofline_binary_dir tsan)" = build-tsan ] || fail "tsan's folder is $(roofline_binary_dir tsan)"
  [ "$(roofline_binary_dir asan-ubsan)" = build-asan ] || fail "asan-ubsan's folder is $(roofline_binary_dir asan-ubsan)"
)
echo "ok: roofline_binary_dir reads the presets' folders"
