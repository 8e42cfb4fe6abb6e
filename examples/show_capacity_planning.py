"""Recalculates examples/capacity-planning.fods in a private headless Calc with the add-in, prints its key
tables as Calc computed them, and exports the workbook to PDF.

One soffice, driven through Python-UNO: load hidden, calculateAll(), read the key tables (the workbook's
named ranges, each cell as Calc displays it), store as PDF. Exits non-zero if a key cell holds an error
value, if the roofline chart or array formula is missing, or if no PDF was written.

usage: /usr/bin/python3 examples/show_capacity_planning.py WORKDIR OXT WORKBOOK PDF_OUT
e.g.   /usr/bin/python3 examples/show_capacity_planning.py /tmp/cp-show build/calc-addin/roofline.oxt \\
           examples/capacity-planning.fods /tmp/capacity-planning.pdf
"""
import json
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

# The article's figures beside what the workbook computes: (what, sheet, cell, seed case id). The
# figures themselves come from tests/data/seed-cases.json: "printed" is what the article shows, and the
# workbook must equal "exact" within the case's tolerance. A case whose exact value is ISERROR's 1 is
# shown by the workbook as its IFERROR text.
ARTICLE = [
    ("weight read, ms", "Article", "B18", "decode_weights_ms"),
    ("compute batch 1, ms", "Article", "D18", "decode_compute_ms_b1"),
    ("compute batch 64, ms", "Article", "D19", "decode_b64_compute_ms"),
    ("step bound batch 64 (no KV), ms", "Article", "E19", "decode_b64_ms"),
    ("throughput batch 1, tok/s", "Article", "G18", "decode_b1_toks"),
    ("throughput batch 64, tok/s", "Article", "G19", "decode_b64_toks"),
    ("critical batch (no KV)", "Article", "B20", "critical_batch_no_kv"),
    ("KV batch 64 x 4096, GB", "Article", "J27", "kv_64_users_gb"),
    ("step bound batch 64 x 4096, ms", "Article", "E27", "decode_b64_ctx4096_ms"),
    ("throughput batch 64 x 4096, tok/s", "Article", "G27", "decode_b64_ctx4096_toks"),
    ("critical batch with KV", "Article", "B28", "critical_batch_ctx4096"),
    ("prefill 2000 tokens, ms", "Article", "D33", "prefill_8b_2000"),
]
SEED_CASES = Path(__file__).resolve().parent.parent / "tests" / "data" / "seed-cases.json"
NEVER = "never (KV bound)"


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
    charts = roofline.Charts
    if charts.Count == 0:
        problems.append("the roofline chart is missing")
    else:
        name = "RooflineChart" if charts.hasByName("RooflineChart") else charts.ElementNames[0]
        chart = charts.getByName(name).EmbeddedObject
        series = chart.getFirstDiagram().getCoordinateSystems()[0].getChartTypes()[0].getDataSeries()
        log = chart.Diagram.XAxis.Logarithmic and chart.Diagram.YAxis.Logarithmic
        print(f"\nChart {name}: {chart.Diagram.DiagramType}, {len(series)} series, "
              f"{'log-log' if log else 'NOT log-log'}, title \"{chart.Title.String}\"")
        if len(series) != 2 or not log:
            problems.append("the chart is not a log-log chart of the roof and the points")

    print("\nThe article's figures (tests/data/seed-cases.json) and the workbook's")
    cases = {c["id"]: c for c in json.loads(SEED_CASES.read_text(encoding="utf-8"))["cases"]}
    rows = [["what", "article", "exact", "workbook", ""]]
    for what, sheet, ref, case_id in ARTICLE:
        case = cases[case_id]
        cell = doc.Sheets.getByName(sheet).getCellRangeByName(ref)
        if case["formula"].startswith("ISERROR("):
            got = cell.getString()
            ok = got == NEVER
            exact, shown = NEVER, got
        else:
            got, exact = cell.getValue(), case["exact"]
            ok = cell.getType().value != "TEXT" and abs(got - exact) <= max(case["rel_tol"], 1e-9) * abs(exact)
            shown = f"{got:,.0f}" if abs(got) >= 1000 else f"{got:.4g}"
            exact = f"{exact:,.0f}" if abs(exact) >= 1000 else f"{exact:.4g}"
        if not ok:
            problems.append(f"{what}: the workbook shows {shown}, the seed case {case_id} is {exact}")
        rows.append([what, str(case["printed"]), str(exact), shown, "ok" if ok else "DIFFERS"])
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
