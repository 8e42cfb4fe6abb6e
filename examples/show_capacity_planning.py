"""Recalculates examples/capacity-planning.fods in a private headless Calc with the add-in, prints its key
tables as Calc computed them, and exports the workbook to PDF.

One soffice, driven through Python-UNO: load hidden, calculateAll(), read the key tables (the workbook's
named ranges, each cell as Calc displays it), store as PDF. Exits non-zero if any cell of the workbook
holds an error value, if the roofline chart or array formula is missing, if the Planner's answer is not
ROOFLINE_PLAN's through the C ABI (the Python package over the libroofline inside the .oxt) or breaks the
arithmetic of its own columns, if the Models sheet's lists are not the C ABI's (exactly, with blank rows
below them), if a drop-down of catalog ids does not show the C ABI's list or stops an id that is not in
it, if a drop-down of formats lacks one its formulas take or one of them gives an error value, or if the
PDF lacks a page per sheet.

usage: /usr/bin/python3 examples/show_capacity_planning.py WORKDIR OXT WORKBOOK PDF_OUT
e.g.   /usr/bin/python3 examples/show_capacity_planning.py /tmp/cp-show build/calc-addin/roofline.oxt \\
           examples/capacity-planning.fods /tmp/capacity-planning.pdf
"""
import json
import math
import re
import shutil
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "calc-addin" / "tests"))
from calc import Calc, load_roofline  # noqa: E402

# (sheet, title, named range, whether its first row is a header); every cell must compute without error.
PLANNER_SHOWN = 10  # rows of the Planner's table printed
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
    ("Planner", "Inputs", "Planner_Inputs", False),
    ("Planner", "The answer", "Planner_Answer", False),
    ("Planner", f"The cheapest {PLANNER_SHOWN} configurations (ROOFLINE_PLAN array formula)", "Planner_Table", True),
    ("Models", "Inputs", "Models_Inputs", False),
    ("Models", "Every model of the catalog on the chosen GPU", "Models_Table", True),
    ("Models", "The catalog's GPUs", "Models_GPUs", True),
    ("Calibrate", "The profile fitted on the measured rows (ROOFLINE_CALIBRATE)", "Calibrate_Answer", False),
    ("Calibrate", "What the fit changes: the rows' median error", "Calibrate_Errors", True),
    ("Calibrate", "Each measured row, fitted and left out (ROOFLINE_CALIBRATE_ROWS array formula)", "Calibrate_Rows", True),
    ("Tails", "Inputs", "Tails_Inputs", False),
    ("Tails", "Percentiles at each load (ROOFLINE_SIMULATE, ms)", "Tails_Table", True),
    ("Fleet", "The answer", "Fleet_Answer", False),
    ("Fleet", "Each workload's plan and the totals (ROOFLINE_FLEET array formula)", "Fleet_Table", True),
]
SHEETS = ["Article", "Plan", "Roofline", "Planner", "Models", "Calibrate", "Tails", "Fleet"]

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
        if key == "Planner_Table":  # the machine names of ROOFLINE_PLAN's own header row, then the ranked rows
            rows = [r[:17] for r in rows[:1 + PLANNER_SHOWN] if any(r)]
        if key == "Fleet_Table":  # the machine names, the workloads and the total; not the empty rows below
            rows = [[r[0], r[1], r[2], r[3], r[5], r[10], r[11], r[12], r[13], r[14], r[15], r[16], r[17], r[18]]
                    for r in rows if any(r)]
        if key == "Planner_Answer":
            print(f"\n{rows[0][0]}: {rows[0][1]}\n{rows[1][0]}\n{rows[2][0]}: {rows[2][1] or '(none published)'}")
            continue
        if key in ("Models_Table", "Models_GPUs"):  # the catalog's rows, not the blank ones below them
            rows = [rows[0]] + [r for r in rows[1:] if r[0]]
        if key == "Models_Table":
            rows = [r[:11] for r in rows]  # without the reasons, which follow
        if title:
            print(f"\n{title}")
        print(table_text(rows, header))
        if key == "Models_Table":
            for r in names.getByName(key).ReferredCells.DataArray[1:]:
                if r[11]:
                    print(f"  {r[0]}: {r[11]}")

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

    problems += error_cells(doc)
    problems += check_planner(doc)
    problems += check_scenarios(doc)
    problems += check_models(doc)
    problems += check_lists(doc)
    problems += check_format_lists(doc)
    problems += check_calibrate(doc)
    problems += check_tails(doc)
    problems += check_fleet(doc)

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


# ---- The Calibrate sheet against the C ABI ----

CAL_TOP, CAL_ROWS = 13, 40  # the measured rows' range (make_capacity_planning.py)


def check_tails(doc):
    """The Tails sheet: each load's percentiles are ROOFLINE_SIMULATE's through the C ABI (the same seed, the same
    numbers), p50 <= p90 <= p99, the p99 TTFT grows from the lightest load to the heaviest; its chart is there."""
    problems = []
    sheet = doc.Sheets.getByName("Tails")
    inputs = [sheet.getCellByPosition(1, r) for r in range(4, 16)]
    args = [c.getString() if c.getType().value == "TEXT" else c.getValue() for c in inputs]
    model, gpu, weights, tp, prompt, output, arrival, cv, requests, ttft, tpot, profile = args
    capacity = ROOFLINE.call("ROOFLINE_REPLICA_RPS", model, gpu, prompt, output, 1e6, 1e6, weights, "", tp, profile)
    if not _close(sheet.getCellRangeByName("B18").getValue(), capacity):
        problems.append(f"Tails: B18 is {sheet.getCellRangeByName('B18').getValue()}, the C ABI's capacity {capacity}")
    rows = sheet.getCellRangeByName("A23:I33").DataArray
    p99 = []
    for share, rps, *cells in rows:
        want = ROOFLINE.call("ROOFLINE_SIMULATE", model, gpu, rps, prompt, output, weights, "", tp, profile, 1, 1, 1,
                             arrival, cv, requests, 1, "fixed", 0, ttft, tpot)
        by = {r[0]: r[1:] for r in want[1:]}
        expect = [by["ttft_ms"][1], by["ttft_ms"][2], by["ttft_ms"][3], by["tpot_ms"][1], by["tpot_ms"][3],
                  by["goodput_rps"][0], by["mean_batch"][0]]
        if not all(isinstance(g, float) and _close(g, e) for g, e in zip(cells, expect)):
            problems.append(f"Tails at {share:.0%}: Calc {cells}, the C ABI {expect}")
        if not cells[0] <= cells[1] <= cells[2]:
            problems.append(f"Tails at {share:.0%}: TTFT p50, p90, p99 not ordered: {cells[:3]}")
        p99.append(cells[2] if isinstance(cells[2], float) else float("nan"))
    if p99 and not p99[-1] > p99[0]:
        problems.append(f"Tails: the p99 TTFT at the heaviest load ({p99[-1]}) is not above the lightest's ({p99[0]})")
    print(f"\nThe Tails sheet against ROOFLINE_SIMULATE through the C ABI: {len(rows)} loads, every cell the C ABI's: "
          f"{'yes' if not problems else 'NO'}; p99 TTFT {p99[0]:.0f} ms at {rows[0][0]:.0%} to {p99[-1]:.0f} ms at "
          f"{rows[-1][0]:.0%} of the capacity")
    if sheet.Charts.Count != 1:
        problems.append("the Tails chart is missing")
    return problems


def check_calibrate(doc):
    """The Calibrate sheet's profile is ROOFLINE_CALIBRATE's through the C ABI for the rows the sheet holds, its
    median errors are those of typical (STEP_MS, TTFT_MS) and of the fit (ROOFLINE_CALIBRATE_ROWS), and its array is
    ROOFLINE_CALIBRATE_ROWS's."""
    problems = []
    sheet = doc.Sheets.getByName("Calibrate")
    rows = [[None if v == "" else v for v in r]
            for r in sheet.getCellRangeByName(f"A{CAL_TOP}:I{CAL_TOP + CAL_ROWS - 1}").DataArray]
    profile = ROOFLINE.calibrate(rows)
    shown = sheet.getCellRangeByName("A6").getString()
    if shown != profile:
        problems.append(f"Calibrate.A6 shows {shown!r}, the C ABI fits {profile!r}")
    # The median errors: typical's per row by the C ABI, the fit's and leave-one-out's from ROOFLINE_CALIBRATE_ROWS.
    table = ROOFLINE.calibrate_rows(rows)
    typical = []
    for r in rows:
        if r[0] is None:
            continue
        model, gpu, w, kv, tp, batch, ctx, metric, value = r
        try:
            ms = (ROOFLINE.step_ms(model, gpu, batch, ctx, w or "", kv or "", tp or 1, "typical") if metric == "step_ms"
                  else ROOFLINE.ttft_ms(model, gpu, ctx, batch, w or "", tp or 1, "typical"))
        except ROOFLINE.ArgumentError as e:
            # A row measured beyond the model's window (Llama 3 8B's shapes at 16,384 tokens): the formulas refuse that
            # context, the sheet's IFERROR shows "", and the median is over the other rows, as here.
            if e.argument not in ("ctx", "prompt_tokens") or "window" not in str(e):
                raise
            continue
        typical.append(abs(ms / value - 1) * 100)
    for ref, want in (("B9", statistics.median(typical)), ("C9", statistics.median(abs(t[7]) for t in table[1:])),
                      ("D9", statistics.median(abs(t[8]) for t in table[1:]))):
        got = sheet.getCellRangeByName(ref).getValue()
        if not _close(got, want):
            problems.append(f"Calibrate.{ref} shows {got}, the C ABI's median error is {want}")
    got = sheet.getCellRangeByName(f"K{CAL_TOP - 1}:S{CAL_TOP - 1 + len(table) - 1}").DataArray
    for want_row, got_row in zip(table, got):
        for w, g in zip(want_row, got_row):
            if (isinstance(w, str) and w != g) or (not isinstance(w, str) and not _close(w, g)):
                problems.append(f"Calibrate's ROOFLINE_CALIBRATE_ROWS shows {got_row}, the C ABI {want_row}")
                break
    print(f"\nCalibrate: {len(table) - 1} measured rows fitted; A6 is the C ABI's profile: {shown == profile}")
    return problems


# ---- The Planner and the Models sheet against the C ABI ----

ROOFLINE = None  # the Python package over the .oxt's own libroofline (main() loads it)
PLAN_TOP = 37    # the Planner's row of ROOFLINE_PLAN's header row (make_capacity_planning.py)
PLAN_INPUTS = 23  # the Planner's inputs, rows 5 ... 27
PLAN_FIXED = {13: "best", 16: 0}  # ROOFLINE_PLAN's arguments the Planner sets itself: rows, percentile
ANSWER = {"count": "B30", "summary": "A31", "checkpoint": "B32", "power": "B33"}
MODELS_TOP = 15  # the Models sheet's header row


def error_cells(doc):
    """Every cell of every sheet whose formula gives an error value (none may)."""
    from com.sun.star.sheet.FormulaResult import ERROR  # noqa: PLC0415
    problems = []
    for name in doc.Sheets.ElementNames:
        found = doc.Sheets.getByName(name).queryFormulaCells(ERROR)
        if found.Count:
            problems.append(f"sheet {name}: error values in {found.getRangeAddressesAsString()}")
    names = list(doc.Sheets.ElementNames)
    if names != SHEETS:
        problems.append(f"the sheets are {names}, not {SHEETS}")
    return problems


def _close(a, b, rel=1e-9):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def check_planner(doc):
    """The Planner's first configuration is ROOFLINE_PLAN's through the C ABI for the same inputs, and
    its columns keep their own arithmetic: GPUs = tp x replicas (+ prefill pool), output tokens/s per
    GPU = load x output tokens / GPUs, USD per hour = GPUs x the catalog's price, USD per million output
    tokens = USD per hour / (output tokens/s x 3600) x 1e6; both targets are met; cheapest first."""
    problems = []
    sheet = doc.Sheets.getByName("Planner")
    inputs = [sheet.getCellByPosition(1, r) for r in range(4, 4 + PLAN_INPUTS)]
    args = [c.getString() if c.getType().value == "TEXT" else ("" if c.getType().value == "EMPTY" else c.getValue())
            for c in inputs]
    for place, value in sorted(PLAN_FIXED.items()):
        args.insert(place, value)
    expected = ROOFLINE.call("ROOFLINE_PLAN", *args)
    area = doc.NamedRanges.getByName("Planner_Table").ReferredCells.RangeAddress
    height = area.EndRow - area.StartRow  # configurations the sheet has room for
    table = sheet.getCellRangeByName(f"A{PLAN_TOP}:P{PLAN_TOP + height}").DataArray
    shown = [r for r in table if r[0] != ""]
    count = sheet.getCellRangeByName(ANSWER["count"]).getValue()
    print(f"\nThe Planner against ROOFLINE_PLAN through the C ABI (Python package, {len(expected) - 1} "
          f"configurations for {args[:6]})")
    # The sheet shows the plan's first 16 columns (its 17th, the capacity, is the curve's business beside it).
    if tuple(table[0]) != tuple(expected[0][:len(table[0])]):
        problems.append(f"Planner: the header row is {table[0]}, ROOFLINE_PLAN's {expected[0]}")
    if count != len(expected) - 1 or len(shown) - 1 != min(height, len(expected) - 1):
        problems.append(f"Planner: {count:g} configurations counted, {len(shown) - 1} shown; the C ABI has "
                        f"{len(expected) - 1}")
    if len(shown) < 2 or len(expected) < 2:
        return problems + ["Planner: no configuration for the issue's example"]
    for i in (1, min(len(shown), len(expected)) - 1):  # the first and the last row shown
        for head, got, want in zip(expected[0], shown[i], expected[i]):
            same = got == want if isinstance(want, str) else isinstance(got, float) and _close(got, want)
            if not same:
                problems.append(f"Planner row {i}, {head}: Calc {got!r}, the C ABI {want!r}")
    row = dict(zip(expected[0], shown[1]))
    rps, output, ttft, tpot = args[1], args[3], args[4], args[5]
    price = ROOFLINE.call("ROOFLINE_GPU", row["gpu"], "usd_per_gpu_hour")
    checks = [
        ("GPUs = tp x replicas + prefill_tp x prefill_replicas", row["gpus"],
         row["tp"] * row["replicas"] + row["prefill_tp"] * row["prefill_replicas"]),
        ("output tok/s per GPU = load x output tokens / GPUs", row["output_tok_s_per_gpu"], rps * output / row["gpus"]),
        ("USD per hour = whole servers' GPUs x the catalog's price", row["usd_per_hour"],
         math.ceil(row["gpus"] / ROOFLINE.call("ROOFLINE_GPU", row["gpu"], "server_gpus"))
         * ROOFLINE.call("ROOFLINE_GPU", row["gpu"], "server_gpus") * price),
        ("USD per million output tokens = USD per hour / (load x output x 3600) x 1e6", row["usd_per_mtok"],
         row["usd_per_hour"] / (rps * output * 3600) * 1e6),
    ]
    for what, got, want in checks:
        ok = _close(got, want, 1e-9)
        print(f"  {'ok' if ok else 'DIFFERS'}  {what}: {got:.6g} (by hand {want:.6g})")
        if not ok:
            problems.append(f"Planner first row: {what}: {got} against {want}")
    if not (row["ttft_ms"] <= ttft and row["tpot_ms"] <= tpot):
        problems.append(f"Planner first row misses a target: TTFT {row['ttft_ms']} ms, TPOT {row['tpot_ms']} ms")
    costs = [r[12] for r in shown[1:] if isinstance(r[12], float)]
    if costs != sorted(costs):
        problems.append("Planner: the configurations are not cheapest first")
    front = [r for r in sheet.getCellRangeByName(f"Q{PLAN_TOP + 1}:Q{PLAN_TOP + height}").DataArray if r[0] == "yes"]
    if not front:
        problems.append("Planner: the Pareto front is empty")
    summary = sheet.getCellRangeByName(ANSWER["summary"]).getString()
    if not summary.startswith("Cheapest: ") or row["gpu"] not in summary or f"{row['usd_per_hour']:,.2f}" not in summary:
        problems.append(f"Planner: the one-line answer does not name the first row: {summary!r}")
    print(f"  Pareto front: {len(front)} configurations; the first row matches the C ABI: "
          f"{'yes' if not problems else 'NO'}")
    charts = sheet.Charts
    if charts.Count == 0:
        problems.append("the Planner's chart is missing")
    else:
        chart = charts.getByName(charts.ElementNames[0]).EmbeddedObject
        series = chart.getFirstDiagram().getCoordinateSystems()[0].getChartTypes()[0].getDataSeries()
        print(f"  Chart: {chart.Diagram.DiagramType}, {len(series)} series, title \"{chart.Title.String}\"")
        if chart.Diagram.DiagramType != "com.sun.star.chart.XYDiagram" or len(series) != 2:
            problems.append("the Planner's chart is not an XY chart of the configurations and the front")
    array = sheet.getCellRangeByName(f"A{PLAN_TOP}:M{PLAN_TOP + height}").getArrayFormula()
    if "ROOFLINE_PLAN" not in array.upper():
        problems.append("the Planner's table is not the ROOFLINE_PLAN array formula")
    # The curve beside (0.13): the cheapest row's GPU and weights over every layout, every cell the C ABI's.
    # The row's published checkpoint where it has one (the sheet's B22), else its one format.
    checkpoint = dict(zip(expected[0], expected[1]))["checkpoint"]
    shown_checkpoint = sheet.getCellRangeByName(ANSWER["checkpoint"]).getString()
    if shown_checkpoint != (checkpoint or "none published in these formats"):
        problems.append(f"Planner: {ANSWER['checkpoint']} shows the checkpoint {shown_checkpoint!r}, the C "
                        f"ABI's first row {checkpoint!r}")
    # Its power (since 0.14): the C ABI's first row's kW and J per output token, as the sheet rounds them.
    first = dict(zip(expected[0], expected[1]))
    power = sheet.getCellRangeByName(ANSWER["power"]).getString()
    want = f"{first['kw']:,.1f} kW, {first['j_per_token']:.2f} J per output token"
    print(f"  Its power: {power}")
    if power != want:
        problems.append(f"Planner: {ANSWER['power']} shows {power!r}, the C ABI's first row {want!r}")
    curve = ROOFLINE.call("ROOFLINE_CURVE", args[0], row["gpu"], args[2], args[3], checkpoint or row["weights"],
                          args[8], 0, args[9])
    cells = doc.NamedRanges.getByName("Planner_Curve").ReferredCells
    data = [r for r in cells.DataArray if r[0] != ""]
    differ = [(i, j) for i in range(min(len(data), len(curve))) for j in range(len(curve[0]))
              if not (data[i][j] == curve[i][j] if isinstance(curve[i][j], str) else _close(data[i][j], curve[i][j]))]
    print(f"  Curve: {len(curve) - 1} points of {row['gpu']} in {row['weights']} (ROOFLINE_CURVE), every cell the C "
          f"ABI's: {'yes' if len(data) == len(curve) and not differ else 'NO'}")
    if len(data) != len(curve) or differ:
        problems.append(f"Planner: the curve has {len(data) - 1} points, the C ABI {len(curve) - 1}; differences at {differ[:3]}")
    titles = [charts.getByName(n).EmbeddedObject.Title.String for n in charts.ElementNames]
    if not any(t.startswith("Output tok/s per GPU against tok/s per user") for t in titles):
        problems.append(f"the Planner's curve chart is missing (charts: {titles})")
    return problems


# Other inputs of the Planner: each must recalculate without an error value anywhere, and say its answer.
SCENARIOS = [
    ("a TPOT target of 1 ms, which nothing meets", {"B10": 1.0}, "No configuration: "),
    ("disaggregated, on h100-sxm only, at a price of our own", {"B11": "h100-sxm", "B15": 1.0, "B16": "h100-sxm=2.49"},
     "Cheapest: "),
    ("the bound profile, fp8 weights only", {"B12": "fp8", "B14": "bound"}, "Cheapest: "),
    ("disaggregated, prefill on b200 and decode on h200, electricity at 0.12 USD/kWh and a PUE of 1.3",
     {"B11": "h200", "B15": 1.0, "B20": 0.12, "B21": 1.3, "B23": "b200"}, "Cheapest: "),
    ("a power budget of 1 kW, which no plan meets", {"B22": 1.0}, "No configuration: "),
    ("owned B200 servers over 4 years, electricity at 0.10 USD/kWh", {"B11": "b200", "B20": 0.1, "B26": "owned",
                                                                       "B27": 4.0}, "Cheapest: "),
    ("the reserved basis, a 1:4 input token price, single GPUs rented", {"B24": 0.25, "B25": "gpus",
                                                                         "B26": "reserved"}, "Cheapest: "),
    ("a model id that is in no catalog (typed: the drop-down lets it in)", {"B5": "my-own-model"},
     "No configuration: "),
]


def check_scenarios(doc):
    """Changes the Planner's inputs as a user would, recalculates, and puts them back."""
    from com.sun.star.sheet.FormulaResult import ERROR  # noqa: PLC0415
    problems = []
    sheet = doc.Sheets.getByName("Planner")
    print("\nThe Planner with other inputs")
    for what, inputs, starts in SCENARIOS:
        saved = {ref: sheet.getCellRangeByName(ref).getFormula() for ref in inputs}
        for ref, value in inputs.items():
            cell = sheet.getCellRangeByName(ref)
            if isinstance(value, str):
                cell.setString(value)
            else:
                cell.setValue(value)
        doc.calculateAll()
        answer = sheet.getCellRangeByName(ANSWER["summary"]).getString()
        found = sheet.queryFormulaCells(ERROR)
        count = sheet.getCellRangeByName(ANSWER["count"]).getValue()
        print(f"  {what}: {count:g} configurations; {answer}")
        if found.Count:
            problems.append(f"Planner with {what}: error values in {found.getRangeAddressesAsString()}")
        if not answer.startswith(starts):
            problems.append(f"Planner with {what}: the answer should start {starts!r}: {answer!r}")
        for ref, formula in saved.items():
            sheet.getCellRangeByName(ref).setFormula(formula)
    doc.calculateAll()
    return problems


FLEET_CSV = Path(__file__).resolve().parent / "fleet.csv"  # the CLI's and the Python tests' fleet too


def check_fleet(doc):
    """The Fleet sheet's workloads are examples/fleet.csv's (the fleet the CLI and Python tests plan), its array is
    ROOFLINE_FLEET's through the C ABI for the same inputs cell for cell, and its total row adds up: GPUs, servers,
    USD per hour and kW summed over the workloads. Then with the owned basis, a recalculated total."""
    problems = []
    sheet = doc.Sheets.getByName("Fleet")
    inputs = doc.NamedRanges.getByName("Fleet_Inputs").ReferredCells.DataArray
    csv = [line.split(",") for line in FLEET_CSV.read_text(encoding="utf-8").splitlines() if line][1:]
    filled = [r for r in inputs if any(v != "" for v in r)]
    want = [(m, float(a), float(b), float(c), float(d), float(e), g) for m, a, b, c, d, e, g in csv]
    if [tuple(r) for r in filled] != want:
        problems.append(f"Fleet: the workloads {filled} are not examples/fleet.csv's {want}")
    options = [c[0] for c in sheet.getCellRangeByName(f"B16:B26").DataArray]
    expected = ROOFLINE.call("ROOFLINE_FLEET", [list(r) for r in inputs], *options)
    table = [r for r in doc.NamedRanges.getByName("Fleet_Table").ReferredCells.DataArray if any(v != "" for v in r)]
    if len(table) != len(expected):
        problems.append(f"Fleet: {len(table)} rows, the C ABI {len(expected)}")
    for got, row in zip(table, expected):
        for head, g, w in zip(expected[0], got, row):
            if not (g == w if isinstance(w, str) else isinstance(g, float) and _close(g, w)):
                problems.append(f"Fleet {row[0]}, {head}: Calc {g!r}, the C ABI {w!r}")
    col = {name: i for i, name in enumerate(expected[0])}
    total, workloads = expected[-1], expected[1:-1]
    print(f"\nThe Fleet against ROOFLINE_FLEET through the C ABI: {len(workloads)} workloads, total "
          f"{total[col['gpus']]:g} GPUs in {total[col['servers']]:g} servers, {total[col['usd_per_hour']]} USD/hour")
    for name in ("gpus", "servers", "usd_per_hour", "kw"):
        if not _close(total[col[name]], sum(r[col[name]] for r in workloads)):
            problems.append(f"Fleet: the total's {name} {total[col[name]]} is not the workloads' sum")
    # Owned servers at 0.08 USD/kWh: the answer names the basis; put back.
    basis, kwh = sheet.getCellRangeByName("B22"), sheet.getCellRangeByName("B24")
    saved = basis.getFormula(), kwh.getFormula()
    basis.setString("owned")
    kwh.setValue(0.08)
    doc.calculateAll()
    answer = sheet.getCellRangeByName("A29").getString()
    print(f"  owned, 0.08 USD/kWh: {answer}")
    if not answer.startswith("Total: ") or "(owned)" not in answer:
        problems.append(f"Fleet with owned servers: {answer!r}")
    basis.setFormula(saved[0])
    kwh.setFormula(saved[1])
    doc.calculateAll()
    return problems


def check_models(doc):
    """The Models sheet lists the C ABI's ROOFLINE_MODELS() and ROOFLINE_GPUS(), exactly and in their
    order, and every cell of the rows below them is blank (the array formulas span more rows than the
    catalog has, for the models and GPUs a user adds). Each model is on the fewest GPUs in tensor
    parallel whose memory holds the batch (ROOFLINE_FIT_BATCH), with the C ABI's STEP_MS and TTFT_MS."""
    problems = []
    sheet = doc.Sheets.getByName("Models")
    gpu, batch, ctx, prompt, w, kv, profile = [c[0] for c in sheet.getCellRangeByName("B5:B11").DataArray]
    ids = _column(ROOFLINE.call("ROOFLINE_MODELS"))
    gpus = _column(ROOFLINE.call("ROOFLINE_GPUS"))
    table = doc.NamedRanges.getByName("Models_Table").ReferredCells.DataArray[1:]
    gpu_table = doc.NamedRanges.getByName("Models_GPUs").ReferredCells.DataArray[1:]
    for what, want, rows in (("models", ids, table), ("GPUs", gpus, gpu_table)):
        listed = [r[0] for r in rows[:len(want)]]
        if len(want) > len(rows):
            problems.append(f"Models: the catalog has {len(want)} {what}, the sheet has room for {len(rows)}: "
                            "raise LIST_ROWS in examples/make_capacity_planning.py")
        elif listed != want:
            problems.append(f"Models: the sheet lists the {what} {listed}, the C ABI {want}")
        junk = [(i, r) for i, r in enumerate(rows) if i >= len(want) and any(v != "" for v in r)]
        if junk:
            i, r = junk[0]
            problems.append(f"Models: {len(junk)} rows below the {len(want)} {what} are not blank, the first "
                            f"(sheet row {MODELS_TOP + 1 + i}): {r}")
    rows = table[:len(ids)]
    checked = 0
    for r in rows:
        model = r[0]
        tp = None
        for t in (1, 2, 4, 8):
            try:
                if ROOFLINE.call("ROOFLINE_FIT_BATCH", model, gpu, ctx, w, kv, t) >= batch:
                    tp = t
                    break
            except ROOFLINE.RooflineError:
                pass
        if tp is None:
            if isinstance(r[6], float) or not r[11]:
                problems.append(f"Models {model}: runs on {r[6]!r} GPUs, the C ABI finds no tp that fits {batch:g}")
            continue
        step = ROOFLINE.call("ROOFLINE_STEP_MS", model, gpu, batch, ctx, w, kv, tp, profile)
        ttft = ROOFLINE.call("ROOFLINE_TTFT_MS", model, gpu, prompt, 1, w, tp, profile)
        if r[6] != tp or not _close(r[7], step) or not _close(r[10], ttft):
            problems.append(f"Models {model}: tp {r[6]}, step {r[7]}, TTFT {r[10]}; the C ABI: tp {tp}, step {step}, "
                            f"TTFT {ttft}")
        checked += 1
    print(f"\nThe Models sheet against the C ABI: {len(ids)} models and {len(gpus)} GPUs listed (room for "
          f"{len(table)}, the rest blank), {checked} models checked for tp, STEP_MS and TTFT_MS, "
          f"{len(ids) - checked} that do not fit; {'all agree' if not problems else 'DIFFERENCES'}")
    return problems


# The drop-downs of catalog ids: (sheet, cell, the C ABI's list). Each shows the whole list and takes
# an id that is not in it: a model or GPU of the user's own catalog, a Hugging Face config's id.
LISTS = [("Planner", "B5", "ROOFLINE_MODELS"), ("Planner", "B11", "ROOFLINE_GPUS"), ("Models", "B5", "ROOFLINE_GPUS")]


def check_lists(doc):
    """Each drop-down of LISTS is a list validation whose source is exactly the C ABI's list (as long as
    ROWS(ROOFLINE_MODELS()), say, with the same ids), and that lets any other id in without a dialog
    that stops it: no error message at all, or an INFO one, whose default button is OK. (A STOP alert
    refuses the id; a WARNING's default button, the Enter key, cancels the entry.) The sources are
    evaluated in a scratch sheet, removed afterwards."""
    problems = []
    print("\nThe drop-down lists of catalog ids")
    sheets = doc.Sheets
    sheets.insertNewByName("Scratch", sheets.Count)
    scratch = sheets.getByName("Scratch")
    try:
        for sheet_name, ref, function in LISTS:
            rule = sheets.getByName(sheet_name).getCellRangeByName(ref).Validation
            kind, source = rule.Type.value, rule.getFormula1()
            stops = rule.ShowErrorMessage and rule.ErrorAlertStyle.value != "INFO"
            want = _column(ROOFLINE.call(function))
            cell = scratch.getCellRangeByName("A1")
            cell.setFormula(f"=ROWS({source})")
            n_formula = f"=ROWS({function}())"
            scratch.getCellRangeByName("B1").setFormula(n_formula)
            doc.calculateAll()
            height = None if cell.getError() else int(cell.getValue())
            n_calc = scratch.getCellRangeByName("B1").getValue()
            shown = []
            if height:
                cells = scratch.getCellRangeByName(f"C1:C{height}")
                cells.setArrayFormula(f"={source}")
                doc.calculateAll()
                shown = [r[0] for r in cells.DataArray]
                cells.setArrayFormula("")
            print(f"  {sheet_name}.{ref}: {kind} from {source}: {height} ids ({n_formula[1:]}: {n_calc:g}, the C ABI "
                  f"{len(want)}); an id not in the list: "
                  f"{'stopped' if stops else 'taken' + (' after a note' if rule.ShowErrorMessage else ' silently')}")
            if kind != "LIST":
                problems.append(f"{sheet_name}.{ref}: its validation is {kind}, not a drop-down LIST")
            if stops:
                problems.append(f"{sheet_name}.{ref}: an id not in the list brings a {rule.ErrorAlertStyle.value} "
                                "dialog that stops it: ShowErrorMessage must be false (or the style INFO)")
            if height != len(want) or n_calc != len(want) or shown != want:
                problems.append(f"{sheet_name}.{ref}: the drop-down shows {shown} ({source}), the C ABI's "
                                f"{function} is {want}")
    finally:
        sheets.removeByName("Scratch")
    return problems


# The drop-downs of formats: (sheet, cell, the formats listed). Each lists every format the formulas it
# feeds take (ROOFLINE_STEP_MS and the others of the Models sheet take "native" for the weights;
# ROOFLINE_PLAN refuses it, and a KV cache has no checkpoint format), and each of them computes there.
FORMATS = ["bf16", "fp16", "fp8", "int8", "int4", "nvfp4", "mxfp4", "fp8_block"]
FORMAT_LISTS = [("Models", "B9", ["native"] + FORMATS), ("Models", "B10", FORMATS),
                ("Planner", "B12", ["published", "all", "native"] + FORMATS), ("Planner", "B13", FORMATS)]


def check_format_lists(doc):
    """Each drop-down of FORMAT_LISTS lists exactly its formats; each format, chosen, recalculates its sheet
    without an error value anywhere (and the Planner still gives an answer)."""
    from com.sun.star.sheet.FormulaResult import ERROR  # noqa: PLC0415
    problems = []
    print("\nThe drop-down lists of formats")
    for sheet_name, ref, want in FORMAT_LISTS:
        sheet = doc.Sheets.getByName(sheet_name)
        cell = sheet.getCellRangeByName(ref)
        rule = cell.Validation
        shown = re.findall(r'"([^"]*)"', rule.getFormula1())
        saved = cell.getFormula()
        failed = []
        for fmt in shown:
            cell.setString(fmt)
            doc.calculateAll()
            found = sheet.queryFormulaCells(ERROR)
            answer = sheet.getCellRangeByName(ANSWER["summary"]).getString() if sheet_name == "Planner" else ""
            if found.Count:
                failed.append(f"{fmt} (error values in {found.getRangeAddressesAsString()})")
            elif sheet_name == "Planner" and not answer.startswith(("Cheapest: ", "No configuration: ")):
                failed.append(f"{fmt} (the answer {answer!r})")
        cell.setFormula(saved)
        doc.calculateAll()
        print(f"  {sheet_name}.{ref}: {rule.Type.value} of {', '.join(shown)}; "
              f"{'each computes' if not failed else 'FAILS: ' + '; '.join(failed)}")
        if rule.Type.value != "LIST" or shown != want:
            problems.append(f"{sheet_name}.{ref}: the drop-down lists {shown}, not {want}")
        problems += [f"{sheet_name}.{ref} = {f}" for f in failed]
    return problems


def _column(result):
    """A one-column array result of the Python package as a list."""
    return [r[0] if isinstance(r, tuple) else r for r in (result if isinstance(result, list) else [result])]


def load_library(oxt, folder):
    """The Python package over the libroofline.so.<major> that travels inside the .oxt: the library Calc runs."""
    import zipfile  # noqa: PLC0415
    with zipfile.ZipFile(oxt) as z:
        name = next(n for n in z.namelist() if n.startswith("libroofline.so."))
        z.extract(name, folder)
    return load_roofline(Path(folder) / name)


def _number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def main(workdir, oxt, workbook, pdf_out):
    import uno  # noqa: PLC0415, F401 (its import hook makes com.sun.star importable)
    from com.sun.star.beans import PropertyValue  # noqa: PLC0415
    # Absolute where they enter: the harness runs soffice and unopkg in its own folder.
    oxt, workbook, pdf_out = Path(oxt).resolve(), Path(workbook).resolve(), Path(pdf_out).resolve()
    calc = Calc(workdir, oxt)
    # A copy in the work folder: an office that opens a file writes its lock file beside it, and another office
    # (a test running at the same time) then cannot open the same file.
    copy = calc.dir / workbook.name
    shutil.copyfile(workbook, copy)
    workbook = copy
    global ROOFLINE  # noqa: PLW0603
    ROOFLINE = load_library(oxt, calc.dir / "lib")
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
        pages = len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf_out.read_bytes()))
        print(f"\nwrote {pdf_out} ({pages} pages: one per sheet, {', '.join(SHEETS)})")
        if pages != len(SHEETS):
            problems.append(f"the PDF has {pages} pages, not one per sheet ({len(SHEETS)})")
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
