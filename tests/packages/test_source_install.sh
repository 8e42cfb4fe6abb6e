#!/usr/bin/env bash
# The source route of the README's "Install" section, into a temporary prefix instead of /usr/local:
# `cmake --install` puts the Python package where the prefix's Python looks (lib/python3.<minor>/
# dist-packages) and share/roofline/install-addin beside share/roofline/roofline.oxt; that installed
# script, run with no .oxt named, installs that .oxt into a never-started profile of an unprivileged
# user (root: nobody) and a headless Calc computes with it.
# usage: test_source_install.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/roofline-source.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
fail() { echo "FAIL $*"; exit 1; }

cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log"
minor=$(/usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
pkg=$tmp/prefix/lib/python$minor/dist-packages
[ -f "$pkg/roofline/__init__.py" ] || fail "no Python package in $pkg: $(find "$tmp/prefix" -name '__init__.py')"
# 8e9 parameters x 2 bytes + 64 x 4096 tokens x 128 KiB of KV at 3.35 TB/s, in ms
expected=$(awk 'BEGIN { printf "%.9f", (8e9 * 2 + 64 * 4096 * 128 * 1024) / 3.35e12 * 1e3 }')
got=$(cd "$tmp" && env -u ROOFLINE_LIBRARY PYTHONPATH="$pkg" LD_LIBRARY_PATH="$tmp/prefix/lib" /usr/bin/python3 -c \
  "import roofline; assert roofline.__file__.startswith('$pkg'), roofline.__file__; print('%.9f' % roofline.decode_ms(8, 64, 4096, 3.35))")
[ "$got" = "$expected" ] || fail "the installed Python package computes $got, expected $expected"
echo "ok   the Python package installed into lib/python$minor/dist-packages computes $got"

script=$tmp/prefix/share/roofline/install-addin
[ -x "$script" ] && [ -f "$tmp/prefix/share/roofline/roofline.oxt" ] || fail "no share/roofline/install-addin and roofline.oxt"
mkdir "$tmp/home"
as_user=()
if [ "$(id -u)" -eq 0 ]; then
  chown nobody "$tmp/home"
  as_user=(runuser -u nobody --)
fi
# From a folder that user reaches: soffice changes back into the folder it was started from.
cd "$tmp/home"
"${as_user[@]}" env -i PATH=/usr/bin:/bin HOME="$tmp/home" LANG=C.UTF-8 "$script" --profile "$tmp/home/profile" \
  >"$tmp/addin.log" 2>&1 || { cat "$tmp/addin.log"; fail "install-addin"; }
cat "$tmp/addin.log"
grep -q "unopkg add .* $tmp/prefix/share/roofline/roofline.oxt" "$tmp/addin.log" || fail "it did not install the .oxt beside it"
shown=$(sed -n 's/.*computes =ROOFLINE_DECODE_MS(8;64;4096;3.35) = \([0-9.]*\) (ms)$/\1/p' "$tmp/addin.log")
awk -v g="$shown" -v e="$expected" 'BEGIN { exit !(g != "" && g - e < 1e-9 * e && e - g < 1e-9 * e) }' ||
  fail "a headless Calc shows '$shown', expected $expected"
echo "ok   <prefix>/share/roofline/install-addin installed the .oxt beside it; a headless Calc computes $shown"
