#!/usr/bin/env bash
# The Debian packages (cmake/Packaging.cmake), built, installed on this machine with apt, used, and
# purged: nothing may be left behind.
#
#   1. in the build tree: cpack -G DEB (the README's "Install" commands: README_* below)
#   2. apt-get install ./build/*.deb, without a prompt
#   3. pkg-config --modversion roofline; the C example built with find_package(roofline) and run
#      against /usr's libroofline.so.0; roofline --version; /usr/bin/python3 -c "import roofline"
#      from outside the source tree, ROOFLINE_LIBRARY and PYTHONPATH unset; a headless Calc of an
#      unprivileged user (root: nobody) with a never-started profile computes
#      =ROOFLINE_DECODE_MS(8;64;4096;3.35) with the bundled extension
#   4. apt-get purge: no file that `dpkg -L` listed remains; a fresh profile and the profile started
#      in 3 no longer have the formulas (LibreOffice synchronised its bundled extensions)
#
# It installs into the system: as root, or with passwordless sudo; otherwise it is skipped (exit 77).
# The packages stay installed only between 2 and 4 (a trap purges them on any failure), and it
# refuses to start when any of them is installed already.
#
# usage: test_debs.sh SOURCE_DIR BUILD_DIR VERSION
set -euo pipefail
src=$(cd "$1" && pwd) build_dir=$(cd "$2" && pwd) version=$3
packages=(libroofline0 libroofline-dev roofline python3-roofline libreoffice-roofline)

if [ "$(id -u)" -eq 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
  SUDO="sudo -n"
else
  echo "SKIPPED: installs Debian packages into the system: needs root or passwordless sudo"
  exit 77
fi
for tool in apt-get dpkg-deb dpkg-shlibdeps; do
  command -v "$tool" >/dev/null || { echo "FAIL: no $tool (Debian: apt-get install dpkg-dev)"; exit 1; }
done

pass=0
ok() { echo "ok   $*"; pass=$((pass + 1)); }
fail() { echo "FAIL $*"; exit 1; }
installed() { dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null | grep -q "ok installed"; }

for p in "${packages[@]}"; do
  if dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -qv "not-installed"; then
    fail "$p is installed already (dpkg-query -W $p): purge it first (apt-get purge ${packages[*]})"
  fi
done

# The README's commands (section "Install", Debian packages), run word for word below from a folder
# whose build/ is this build tree; tests/docs/check_readme.cmake checks that the README shows these lines.
README_BUILD_DEBS='(cd build && cpack -G DEB)'
README_INSTALL_DEBS='sudo apt-get install -y ./build/*.deb'

# A work folder outside the build tree (a link to the build tree inside it would make a loop that
# cpack's dependency scan follows forever); nobody must be able to enter it for the Calc checks.
work=$(mktemp -d "${TMPDIR:-/tmp}/roofline-debs.XXXXXX")
chmod 755 "$work"
# The README's commands run word for word from a folder whose build/ is this build tree.
ln -s "$build_dir" "$work/build"
export DEBIAN_FRONTEND=noninteractive

purge() {
  local present=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -qv "not-installed" && present+=("$p")
  done
  if [ ${#present[@]} -gt 0 ]; then
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get purge -y -q "${present[@]}" >"$work/purge.log" 2>&1 ||
      { cat "$work/purge.log"; return 1; }
  fi
}
trap 'status=$?; if [ $status -ne 0 ]; then echo "purging after a failure"; purge || true; fi; rm -rf "$work"; exit $status' EXIT

# ---- 1. Build the packages ----
cd "$work"
rm -f build/*.deb
eval "$README_BUILD_DEBS" >"$work/cpack.log" 2>&1 || { cat "$work/cpack.log"; fail "$README_BUILD_DEBS"; }
arch=$(dpkg --print-architecture)
for p in "${packages[@]}"; do
  a=$arch; [ "$p" = python3-roofline ] && a=all
  deb=build/${p}_${version}-1_${a}.deb
  [ -f "$deb" ] || fail "cpack wrote no $deb: $(ls build/*.deb)"
  [ "$(dpkg-deb -f "$deb" Package)" = "$p" ] && [ "$(dpkg-deb -f "$deb" Version)" = "$version-1" ] &&
    [ "$(dpkg-deb -f "$deb" Architecture)" = "$a" ] || fail "$deb: wrong Package, Version or Architecture"
  for field in Maintainer Description Section Depends; do
    [ -n "$(dpkg-deb -f "$deb" $field)" ] || fail "$deb has no $field"
  done
  echo "     $deb: Depends: $(dpkg-deb -f "$deb" Depends)"
done
ok "cpack -G DEB wrote the five packages of version $version-1 with their control fields"
dpkg-deb -f build/libroofline-dev_"$version"-1_"$arch".deb Depends | grep -qx "libroofline0 (= $version-1)" ||
  fail "libroofline-dev depends on exactly its libroofline0"
dpkg-deb -f build/roofline_"$version"-1_"$arch".deb Depends | grep -q "libroofline0 (= $version-1)" ||
  fail "roofline depends on its libroofline0"
dpkg-deb -f build/libreoffice-roofline_"$version"-1_"$arch".deb Depends | grep -q "libreoffice-calc (>= " ||
  fail "libreoffice-roofline depends on libreoffice-calc"
dpkg-deb -c build/libreoffice-roofline_"$version"-1_"$arch".deb | grep -q "libroofline.so" &&
  fail "libreoffice-roofline carries a copy of libroofline.so"
dpkg-deb -I build/libroofline0_"$version"-1_"$arch".deb shlibs | grep -q "^libroofline 0 libroofline0" ||
  fail "libroofline0 has no shlibs file"
ok "dependencies: -dev and the CLI on their libroofline0, the add-in on libreoffice-calc; the add-in links the system's library"

# ---- 2. Install ----
# (as root without sudo; else with sudo -n, which never asks for a password)
eval "${SUDO:+$SUDO }${README_INSTALL_DEBS#sudo }" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log"; fail "$README_INSTALL_DEBS"; }
for p in "${packages[@]}"; do installed "$p" || fail "$p is not installed after apt-get install"; done
ok "apt-get install -y ./build/*.deb installed the five packages"
: >"$work/files"
for p in "${packages[@]}"; do
  dpkg -L "$p" | while read -r f; do [ -d "$f" ] || echo "$f"; done >>"$work/files"
done
for f in /usr/include/roofline.h /usr/bin/roofline /usr/lib/python3/dist-packages/roofline/__init__.py \
         /usr/lib/libreoffice/share/extensions/roofline/description.xml \
         /usr/lib/libreoffice/share/extensions/roofline/META-INF/manifest.xml; do
  grep -qx "$f" "$work/files" || fail "no package installed $f"
done
ok "the packages installed $(wc -l <"$work/files") files, among them roofline.h, /usr/bin/roofline, the Python package and the extension"

# ---- 3. Use them (outside the source tree, with the environment of a new shell) ----
clean_env=(env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME="$work" LANG=C.UTF-8)
got=$("${clean_env[@]}" pkg-config --modversion roofline)
[ "$got" = "$version" ] || fail "pkg-config --modversion roofline: '$got', not $version"
ok "pkg-config --modversion roofline: $got"

"${clean_env[@]}" cmake -S "$src/examples/c" -B "$work/example" >"$work/example.log" 2>&1 &&
  "${clean_env[@]}" cmake --build "$work/example" >>"$work/example.log" 2>&1 || { cat "$work/example.log"; fail "find_package(roofline) build"; }
grep -q "roofline_DIR:PATH=/usr/lib/.*cmake/roofline" "$work/example/CMakeCache.txt" || fail "find_package did not find /usr's package"
loaded=$(ldd "$work/example/batching-tables" | awk '$1 == "libroofline.so.0" { print $3 }')
# (/lib is /usr/lib on a merged /usr: the file's real path is the package's)
dpkg -S "$(readlink -f "$loaded")" 2>/dev/null | grep -q "^libroofline0:" ||
  fail "the example does not use libroofline0's library: $(ldd "$work/example/batching-tables")"
"$work/example/batching-tables" | grep -q "Compute bound from a batch of" || fail "the example's output"
ok "examples/c built with find_package(roofline) from /usr, runs against /usr's libroofline.so.0"

got=$("${clean_env[@]}" roofline --version)
[ "$(command -v roofline)" = /usr/bin/roofline ] || [ -x /usr/bin/roofline ] || fail "no /usr/bin/roofline"
[[ "$got" == *"$version"* ]] || fail "roofline --version: '$got' does not name $version"
ok "roofline --version: $got"

# 8e9 parameters x 2 bytes + 64 sequences x 4096 tokens x 128 KiB of KV, read at 3.35 TB/s, in ms.
expected=$(awk 'BEGIN { printf "%.12f", (8e9 * 2 + 64 * 4096 * 128 * 1024) / 3.35e12 * 1e3 }')
out=$(cd "$work" && "${clean_env[@]}" /usr/bin/python3 -c "import roofline; print(roofline.__file__); print(roofline.decode_ms(8,64,4096,3.35))")
file=$(sed -n 1p <<<"$out") got=$(sed -n 2p <<<"$out")
[ "$file" = /usr/lib/python3/dist-packages/roofline/__init__.py ] || fail "python3 imported $file, not the installed package"
awk -v g="$got" -v e="$expected" 'BEGIN { exit !(g - e < 1e-9 * e && e - g < 1e-9 * e) }' ||
  fail "python3: roofline.decode_ms(8,64,4096,3.35) = $got, expected $expected"
ok "/usr/bin/python3 -c \"import roofline; print(roofline.decode_ms(8,64,4096,3.35))\": $got ($file)"

/usr/bin/python3 "$src/tests/packages/check_calc.py" present "$work/calc-1" "$work/profiles/first" "$expected" ||
  fail "a headless Calc with a never-started profile"
ok "a headless Calc with a never-started profile computes =ROOFLINE_DECODE_MS(8;64;4096;3.35) = $expected"

# ---- 4. Purge: nothing left behind ----
purge || fail "apt-get purge"
for p in "${packages[@]}"; do
  ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -qv "not-installed" || fail "$p is still known to dpkg after purge"
done
left=$(while read -r f; do [ -e "$f" ] || [ -L "$f" ] && echo "$f"; done <"$work/files" || true)
[ -z "$left" ] || fail "files left behind after apt-get purge: $left"
for d in /usr/lib/libreoffice/share/extensions/roofline /usr/lib/python3/dist-packages/roofline \
         /usr/lib/cmake/roofline /usr/lib/*/cmake/roofline; do
  [ ! -e "$d" ] || fail "$d is left behind after apt-get purge: $(find "$d")"
done
ok "apt-get purge -y removed every file the packages had installed ($(wc -l <"$work/files")), and their folders"
/usr/bin/python3 "$src/tests/packages/check_calc.py" absent "$work/calc-2" "$work/profiles/first" "$expected" ||
  fail "the profile started while the extension was installed still has it"
/usr/bin/python3 "$src/tests/packages/check_calc.py" absent "$work/calc-3" "$work/profiles/fresh" "$expected" ||
  fail "a new profile has the formulas after the purge"
ok "after the purge, the profile started before and a new one show #NAME? and list no bundled add-in"
echo "$pass passed, 0 failed"
