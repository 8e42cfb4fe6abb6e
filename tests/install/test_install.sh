#!/usr/bin/env bash
# Installs libroofline into a temporary prefix, then builds the C example against it both ways:
# with CMake's find_package(roofline) and with pkg-config. Both programs must run and agree.
# usage: test_install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
test -f "$tmp/prefix/include/roofline.h"

# find_package(roofline CONFIG)
cmake -S "$src/examples/c" -B "$tmp/cmake-build" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/cmake-build" >/dev/null
"$tmp/cmake-build/batching-tables" >"$tmp/cmake.out"

# pkg-config
pcdir=$(dirname "$(find "$tmp/prefix" -name roofline.pc | head -n1)")
cp "$src/examples/c/batching-tables.c" "$src/examples/c/Makefile" "$tmp/"
PKG_CONFIG_PATH="$pcdir" make -s -C "$tmp" batching-tables
"$tmp/batching-tables" >"$tmp/pkg-config.out"

# The installed library, not the build tree's, was used by both.
ldd "$tmp/batching-tables" >"$tmp/ldd.out"
grep -q "$tmp/prefix" "$tmp/ldd.out"
diff "$tmp/cmake.out" "$tmp/pkg-config.out"
grep -q "Compute bound from a batch of" "$tmp/cmake.out"
echo "installed into a temporary prefix; the C example built with find_package and with pkg-config; both ran"
