#!/usr/bin/env python3
"""ctest: every formula's example gives on Windows (roofline.dll under Wine) what it gives on Linux.

usage: compare_examples.py LINUX_PRINT_EXAMPLES WINE_RUN WINDOWS_PRINT_EXAMPLES_EXE

Runs tests/windows/print_examples.c both ways and compares line by line: the same formulas, examples, cells, texts
and errors, and numbers equal within a relative 1e-12 (mingw's pow() differs from glibc's in the last digit).
"""
import math
import subprocess
import sys

REL_TOL = 1e-12


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({p.returncode}):\n{p.stderr.decode(errors='replace')}")
    return p.stdout.decode("utf-8").replace("\r\n", "\n").splitlines()


def main():
    linux_exe, wine_run, windows_exe = sys.argv[1:4]
    linux = run([linux_exe])
    windows = run([wine_run, windows_exe])
    if len(linux) < 2 or not linux[0].startswith("libroofline "):
        sys.exit(f"unexpected output of {linux_exe}: {linux[:2]}")
    print(f"Linux: {linux[0]}\nWindows: {windows[0] if windows else '(nothing)'}")
    if len(linux) != len(windows):
        print(f"{len(linux)} lines on Linux, {len(windows)} on Windows")
    differ = exact = near = 0
    worst = 0.0
    for i in range(max(len(linux), len(windows))):
        a = linux[i] if i < len(linux) else "(no line)"
        b = windows[i] if i < len(windows) else "(no line)"
        if a == b:
            exact += 1
            continue
        ta, tb = a.rsplit(" ", 1), b.rsplit(" ", 1)
        if (len(ta) == 2 and len(tb) == 2 and ta[0] == tb[0] and ta[0].endswith(" number")):
            x, y = float(ta[1]), float(tb[1])
            if math.isclose(x, y, rel_tol=REL_TOL, abs_tol=0.0) or (math.isnan(x) and math.isnan(y)):
                near += 1
                worst = max(worst, abs(x - y) / max(abs(x), abs(y)))
                continue
        differ += 1
        if differ <= 20:
            print(f"line {i + 1} differs:\n  Linux:   {a}\n  Windows: {b}")
    examples = sum(1 for line in linux[1:] if "[" not in line and " error " not in line)
    print(f"{examples} examples, {len(linux)} lines: {exact} equal, {near} within a relative {REL_TOL:g} "
          f"(largest {worst:.2g}), {differ} different")
    return 1 if differ or len(linux) != len(windows) else 0


if __name__ == "__main__":
    sys.exit(main())
