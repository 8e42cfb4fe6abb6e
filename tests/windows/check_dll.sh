#!/usr/bin/env bash
# ctest: roofline.dll exports exactly the functions that libroofline.so exports (the C ABI, all roofline_*)
# and imports only KERNEL32.dll and msvcrt.dll (libgcc, libstdc++ and winpthreads are linked in: nothing
# to ship beside it).
# usage: check_dll.sh OBJDUMP ROOFLINE.DLL NM LIBROOFLINE.SO
set -uo pipefail
objdump=$1 dll=$2 nm=$3 so=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$objdump" -p "$dll" >"$tmp/dump" || { echo "objdump -p failed on $dll"; exit 1; }
# The export table's names: the lines "[   n] name" after "[Ordinal/Name Pointer] Table".
sed -n '/^\[Ordinal\/Name Pointer\] Table/,/^$/p' "$tmp/dump" | sed -n 's/^[[:space:]]*\[ *[0-9]*\] \(.*\)$/\1/p' |
  sort >"$tmp/dll-exports"
grep 'DLL Name:' "$tmp/dump" | sed 's/.*DLL Name: //' | sort -u >"$tmp/dll-imports"
"$nm" -D --defined-only "$so" | awk '{print $NF}' | sed 's/@.*//' | sort -u >"$tmp/so-exports"

status=0
echo "roofline.dll imports: $(tr '\n' ' ' <"$tmp/dll-imports")"
if [ "$(cat "$tmp/dll-imports")" != "$(printf 'KERNEL32.dll\nmsvcrt.dll')" ]; then
  echo "FAIL: roofline.dll must import KERNEL32.dll and msvcrt.dll only"
  status=1
fi
echo "roofline.dll exports $(wc -l <"$tmp/dll-exports") functions, libroofline.so $(wc -l <"$tmp/so-exports")"
if [ ! -s "$tmp/so-exports" ] || ! diff -u --label libroofline.so --label roofline.dll "$tmp/so-exports" "$tmp/dll-exports"; then
  echo "FAIL: roofline.dll must export exactly what libroofline.so exports"
  status=1
fi
if grep -qv '^roofline_' "$tmp/dll-exports"; then
  echo "FAIL: roofline.dll exports symbols outside the C ABI"
  status=1
fi
[ $status -eq 0 ] && echo "OK"
exit $status
