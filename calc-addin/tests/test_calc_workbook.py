"""Workbooks keep working: a committed workbook saved by Calc computes; a workbook opened and saved
on a machine without the add-in loses nothing and computes again once the add-in is installed; and
what survives export to .xlsx and .xls.

usage: test_calc_workbook.py WORKDIR OXT WORKBOOK.ods
"""
import re
import sys
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from calc import Checks, Calc  # noqa: E402

PROGRAMMATIC = "ORG.LIBROOFLINE.ROOFLINEADDIN.ROOFLINE_"

check = Checks(show_passing=True)


def agreement(calc, workbook, what):
    rows = [r for r in calc.sheet_values(workbook)[1:] if any(r)]
    # A boolean may come back as 1 where a format did not survive the round trip.
    bad = [r for r in rows if len(r) < 4 or r[3] not in ("TRUE", "1")]
    check(rows and not bad, f"{what}: {len(rows) - len(bad)} of {len(rows)} rows agree with plain arithmetic"
          + (f"; disagree: {bad}" if bad else ""))


def main(workdir, oxt, workbook):
    work = Path(workdir)
    with_addin = Calc(work / "with", oxt)
    without = Calc(work / "without")

    # 1. The committed workbook, saved by Calc, computes.
    agreement(with_addin, workbook, "committed workbook")

    # 2. Opened and saved where the add-in is missing: the calls are kept by programmatic name.
    # (ISERROR of a missing function is TRUE: that row is no error.)
    shown = [r for r in without.sheet_values(workbook)[1:] if any(r) and not r[0].startswith("no critical batch")]
    check(shown and all(r[1].startswith(("Err:", "#")) for r in shown),
          f"without the add-in every add-in cell shows an error value ({shown[0][1] if shown else 'no rows'})")
    resaved = without.convert(workbook, "ods", work / "resaved")
    content = zipfile.ZipFile(resaved).read("content.xml").decode("utf-8")
    # Calc writes the unknown names in lower case; they are case-insensitive on load.
    check(content.upper().count(PROGRAMMATIC) >= 12, f"saved without the add-in, the calls are still stored as {PROGRAMMATIC}*")
    agreement(with_addin, resaved, "that workbook, once the add-in is installed")

    # 3. Export to .xlsx: the calls are written by name, and Calc with the add-in reads them back.
    xlsx = with_addin.convert(workbook, "xlsx", work / "xlsx")
    sheet = zipfile.ZipFile(xlsx).read("xl/worksheets/sheet1.xml").decode("utf-8")
    # LibreOffice 7.4 writes the programmatic name; 25.2 writes the compatibility name, as in .xls (and
    # 7.4 reads that back as #NAME?: an .xlsx saved by 25.2 does not compute in 7.4).
    stored = PROGRAMMATIC if PROGRAMMATIC in sheet else "ROOFLINE_" if re.search(r"[>(,; ]ROOFLINE_\w+\(", sheet) else None
    check(stored, f".xlsx stores the calls by programmatic or compatibility name: {stored}*")
    agreement(with_addin, xlsx, ".xlsx reloaded in Calc with the add-in")

    # 4. Export to .xls: the compatibility names (ROOFLINE_*) are written, and Calc reads them back.
    xls = with_addin.convert(workbook, "xls", work / "xls")
    check(b"ROOFLINE_DECODE_MS" in xls.read_bytes(), ".xls stores the compatibility name ROOFLINE_DECODE_MS")
    agreement(with_addin, xls, ".xls reloaded in Calc with the add-in")

    return check.exit_code()


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
