"""Recalculates examples/capacity-planning.fods in a private headless Calc with the add-in, prints its key
tables as Calc computed them, and exports the workbook to PDF.

One soffice, driven through Python-UNO: load hidden, calculateAll(), read the key tables (the workbook's
named ranges, each cell as Calc displays it), store as PDF. Exits non-zero if a key cell holds an error
value, if the roofline chart or array formula is missing, or if no PDF was written.

usage: /usr/bin/python3 examples/show_capacity_planning.py WORKDIR OXT WORKBOOK PDF_OUT
e.g.   /usr/bin/python3 examples/show_capacity_planning.py /tmp/cp-show build/calc-addin/roofline.oxt \\
           examples/capacity-planning.fods /tmp/capacity-planning.pdf
"""
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "calc-addin" / "tests"))
from calc import Calc  # noqa: E402

# (sheet, title, named range, whether its first row is a header); every cell must compute without error.
TABLES = [
    ("Article", "Inputs", "Article_Inputs", False),
    ("Article", "Table 1: decode without KV cache", "Article_Table1", True),
    ("Article", "", "Article_Table1_Critical", False),
    ("Article", "Table 2: decode with KV cache", "Article_Table2", True),
    ("Article", "", "Article_Table2_Critical", False),
    ("Article", "Prefill", "Article_Prefill", True),
    ("Plan", "Inputs", "Plan_Inputs", False),
    ("Plan", "Outputs", "Plan_Outputs", False),
    ("Plan", "What-if: system tokens/s (rows: batch, columns: context tokens)", "Plan_Grid_System", True),
    ("Plan", "What-if: tokens/s per user", "Plan_Grid_User", True),
    ("Roofline", "Workloads on the roofline", "Roofline_Points", True),
    ("Roofline", "The roof, ROOFLINE_ROOF array formula (every 7th of its rows)", "Roofline_Roof", True),
]

# The article's figures beside what the workbook computes: (what, sheet, cell, article, relative tolerance).
ARTICLE = [
    ("weight read, ms", "Article", "B18", 4.8, 0.01),
    ("compute batch 1, ms", "Article", "D18", 0.016, 0.02),
    ("compute batch 64, ms", "Article", "D19", 1.0, 0.04),
    ("step bound batch 64 (no KV), ms", "Article", "E19", 4.8, 0.01),
    ("throughput batch 1, tok/s", "Article", "G18", 209, 0.01),
    ("throughput batch 64, tok/s", "Article", "G19", 13400, 0.01),
    ("critical batch (no KV)", "Article", "B20", 296, 0.005),
    ("weights, GB", "Article", "I27", 16, 0.01),
    ("KV batch 64 x 4096, GB", "Article", "J27", 34, 0.02),
    ("memory used, GB", "Article", "K27", 50, 0.01),
    ("step bound batch 64 x 4096, ms", "Article", "E27", 15, 0.01),
    ("throughput batch 64 x 4096, tok/s", "Article", "G27", 4257, 0.001),
    ("critical batch with KV", "Article", "B28", "never (KV bound)", None),
    ("prefill 2000 tokens, ms", "Article", "D33", 32, 0.02),
    ("prefill bound", "Article", "E33", "compute", None),
]


def table_text(rows, header):
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
    lines = []
    for i, r in enumerate(rows):
        cells = [v.ljust(w) if c == 0 else v.rjust(w) for c, (v, w) in enumerate(zip(r, widths))]
        lines.append("  " + "  ".join(cells).rstrip())
        if header and i == 0:
            lines.append("  " + "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def read_range(cells):
    """Displayed texts of a cell range, and the cells holding error values."""
    addr = cells.RangeAddress
    rows, errors = [], []
    for r in range(addr.EndRow - addr.StartRow + 1):
        row = []
        for c in range(addr.EndColumn - addr.StartColumn + 1):
            cell = cells.getCellByPosition(c, r)
            row.append(cell.getString())
            if cell.getError():
                errors.append(f"{cell.AbsoluteName}: {cell.getString() or 'error'} ({cell.getFormula()})")
        rows.append(row)
    return rows, errors


def show(doc, pdf_tmp):
    import uno  # noqa: PLC0415
    from com.sun.star.beans import PropertyValue  # noqa: PLC0415
    problems = []
    doc.calculateAll()
    names = doc.NamedRanges
    current = None
    for sheet, title, key, header in TABLES:
        if sheet != current:
            current = sheet
            print(f"\n=== Sheet {sheet} " + "=" * max(0, 70 - len(sheet)))
        if not names.hasByName(key):
            problems.append(f"named range {key} is missing")
            continue
        rows, errors = read_range(names.getByName(key).ReferredCells)
        problems += [f"{key} {e}" for e in errors]
        if key == "Roofline_Roof":
            body = rows[1:]
            numeric = [r for r in body if all(_number(v) is not None for v in r)]
            if len(body) != 50 or len(numeric) != 50:
                problems.append(f"the roof has {len(numeric)} numeric rows of {len(body)}, not 50")
            rows = [rows[0]] + body[::7] + ([body[-1]] if (len(body) - 1) % 7 else [])
        if title:
            print(f"\n{title}")
        print(table_text(rows, header))

    roofline = doc.Sheets.getByName("Roofline")
    roof = roofline.getCellRangeByName("J3:K52")
    if "ROOFLINE_ROOF" not in roof.getArrayFormula().upper():
        problems.append("Roofline.J3:K52 is not the ROOFLINE_ROOF array formula")
    if not roofline.Charts.hasByName("RooflineChart"):
        problems.append("the roofline chart is missing")
    else:
        chart = roofline.Charts.getByName("RooflineChart").EmbeddedObject
        series = chart.getFirstDiagram().getCoordinateSystems()[0].getChartTypes()[0].getDataSeries()
        log = chart.Diagram.XAxis.Logarithmic and chart.Diagram.YAxis.Logarithmic
        print(f"\nChart: {chart.Diagram.DiagramType}, {len(series)} series, "
              f"{'log-log' if log else 'NOT log-log'}, title \"{chart.Title.String}\"")
        if len(series) != 2 or not log:
            problems.append("the chart is not a log-log chart of the roof and the points")

    print("\nThe article's figures and the workbook's")
    rows = [["what", "article", "workbook", ""]]
    for what, sheet, ref, want, rel in ARTICLE:
        cell = doc.Sheets.getByName(sheet).getCellRangeByName(ref)
        got = cell.getString() if rel is None or cell.getType().value == "TEXT" else cell.getValue()
        if rel is None or isinstance(got, str):
            ok = got == want
            shown = got
        else:
            ok = abs(got - want) <= rel * abs(want)
            shown = f"{got:.4g}"
        rows.append([what, str(want), shown, "ok" if ok else "DIFFERS"])
    print(table_text(rows, True))

    store = (PropertyValue(Name="FilterName", Value="calc_pdf_Export"),)
    doc.storeToURL(uno.systemPathToFileUrl(str(pdf_tmp)), store)
    return problems


def _number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def main(workdir, oxt, workbook, pdf_out):
    import uno  # noqa: PLC0415, F401 (its import hook makes com.sun.star importable)
    from com.sun.star.beans import PropertyValue  # noqa: PLC0415
    workbook, pdf_out = Path(workbook).resolve(), Path(pdf_out).resolve()
    calc = Calc(workdir, oxt)
    pdf_tmp = calc.dir / (workbook.stem + ".pdf")
    with calc.uno() as ctx:
        desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
        try:
            doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(str(workbook)), "_blank", 0,
                                               (PropertyValue(Name="Hidden", Value=True),))
            if doc is None:
                raise RuntimeError(f"Calc could not open {workbook}")
            try:
                problems = show(doc, pdf_tmp)
            finally:
                doc.close(True)
        except Exception:
            desktop.terminate()  # or the office outlives the harness, which only ends its launcher
            raise
    if pdf_tmp.is_file() and pdf_tmp.stat().st_size > 0 and pdf_tmp.read_bytes()[:5] == b"%PDF-":
        pdf_out.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(pdf_tmp), pdf_out)
        print(f"\nwrote {pdf_out}")
    else:
        problems.append("no PDF was written")
    if problems:
        print("\nPROBLEMS:\n  " + "\n  ".join(problems))
        return 1
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:5]))
