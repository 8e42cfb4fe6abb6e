"""The capacity planner's formulas in a real headless Calc.

ROOFLINE_PLAN as an array formula: its dimensions (a header row of the 17 agreed column names (16 before 0.13, 13 before 0.6:
columns are only appended), then one
row per configuration: the cells one row below and one column right of it show #N/A, as Calc shows for
any array smaller than its range), every cell equal to the C ABI's for the same call (typed, and from cell
references), and the arithmetic its columns must keep (worked by hand below). The planner's other
formulas against hand-worked values. And the kinds of failure: a bad argument (negative load) shows
Err:502, a target no configuration can meet (a TPOT below the fastest possible step) #N/A, an unknown
model #VALUE!, each the C ABI's status for the same call, and ROOFLINE_WHY gives the C ABI's reason,
which names the argument.

usage: test_calc_planner.py WORKDIR OXT LIBROOFLINE     (run with /usr/bin/python3: it needs Python-UNO)
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from calc import Calc, Checks, close, load_roofline  # noqa: E402

check = Checks()

# The column names agreed for ROOFLINE_PLAN (issue 11), in order.
HEADER = ("gpu", "tp", "weights", "batch", "replicas", "prefill_tp", "prefill_replicas", "gpus", "ttft_ms",
          "tpot_ms", "output_tok_s_per_gpu", "usd_per_hour", "usd_per_mtok", "ep", "dp_attention", "pp",
          "capacity_tok_s_per_gpu", "checkpoint", "engine_tp", "usd_per_month", "usd_per_mtok_blended", "kw",
          "j_per_token", "tok_s_per_mw", "prefill_gpu", "usd_per_mtok_input",
          "usd_per_mtok_output", "servers", "usd_per_gpu_hour")

# The example: Llama-3.1-70B, 100 requests/s, 2,000-token prompts, 300-token answers, TTFT 500 ms,
# TPOT 50 ms.
EXAMPLE = ["llama-3.1-70b", 100, 2000, 300, 500, 50]
# Narrowed: one GPU, one format, disaggregated, a price of our own, a fifth of each replica spare, 2 replicas at least.
NARROW = EXAMPLE + ["h100-sxm", "fp8", "bf16", "typical", 1, "h100-sxm=2.49", 0.9, "best", 0.8, 2]

# The add-in's mapping of C ABI statuses (docs/calc-addin.md, "When a formula fails"): text shown and Calc's error code.
SHOWN = {
    "ROOFLINE_ERROR_ARGUMENT": ("Err:502", 502),
    "ROOFLINE_ERROR_UNKNOWN_ID": ("#VALUE!", 519),
    "ROOFLINE_ERROR_NO_SOLUTION": ("#N/A", 32767),
}

# (formula, arguments, the C ABI status, the argument at fault)
FAILING = [
    ("ROOFLINE_PLAN", ["llama-3.1-70b", -100, 2000, 300, 500, 50], "ROOFLINE_ERROR_ARGUMENT", "rps"),
    ("ROOFLINE_PLAN", ["llama-3.1-70b", 100, 2000, 300, 500, 0.01], "ROOFLINE_ERROR_NO_SOLUTION", "tpot_ms"),
    ("ROOFLINE_PLAN", ["llama3.1-70b", 100, 2000, 300, 500, 50], "ROOFLINE_ERROR_UNKNOWN_ID", "model"),
    ("ROOFLINE_PLAN", EXAMPLE + ["h100-sxm", "", "bf16", "typical", 2], "ROOFLINE_ERROR_ARGUMENT", "disaggregated"),
    ("ROOFLINE_PLAN", EXAMPLE + ["", "", "bf16", "typical", 0, "h100-sxm=2,49"], "ROOFLINE_ERROR_ARGUMENT", "prices"),
    ("ROOFLINE_PLAN", EXAMPLE + ["h100-smx"], "ROOFLINE_ERROR_UNKNOWN_ID", "gpu"),
    ("ROOFLINE_SLO_BATCH", ["llama-3.1-70b", "h100-sxm", 4096, 0.01, "fp8", "bf16", 4], "ROOFLINE_ERROR_NO_SOLUTION",
     "tpot_ms"),
    ("ROOFLINE_SLO_BATCH", ["llama-3.1-70b", "h100-sxm", -4096, 50, "fp8", "bf16", 4], "ROOFLINE_ERROR_ARGUMENT", "ctx"),
    ("ROOFLINE_REPLICA_RPS", ["llama-3.1-70b", "h100-sxm", 2000, 300, 500, 0.01, "fp8", "bf16", 4],
     "ROOFLINE_ERROR_NO_SOLUTION", "tpot_ms"),
    ("ROOFLINE_REPLICA_RPS", ["llama-3.1-70b", "h100-sxm", 2000, 300, -500, 50, "fp8", "bf16", 4],
     "ROOFLINE_ERROR_ARGUMENT", "ttft_ms"),
    ("ROOFLINE_E2E_MS", ["llama-3.1-70b", "h100-sxm", 2000, 300, -32, "fp8", "bf16", 4], "ROOFLINE_ERROR_ARGUMENT",
     "batch"),
    ("ROOFLINE_E2E_MS", ["llama-3.1-70c", "h100-sxm", 2000, 300, 32, "fp8", "bf16", 4], "ROOFLINE_ERROR_UNKNOWN_ID",
     "model"),
    ("ROOFLINE_COST_PER_MTOK", [-2.49, 8, 1000], "ROOFLINE_ERROR_ARGUMENT", "usd_per_gpu_hour"),
    ("ROOFLINE_SPEC_TOKENS", [1.5, 4], "ROOFLINE_ERROR_ARGUMENT", "acceptance"),
    ("ROOFLINE_SPEC_STEP_MS", ["llama-3.1-70b", "llama-3.1-8c", "h100-sxm", 32, 4096, 4, 0.7],
     "ROOFLINE_ERROR_UNKNOWN_ID", "draft_model"),
]


def typed(value):
    return f'"{value}"' if isinstance(value, str) else repr(value)


def call_text(name, args):
    return f"{name}({'; '.join(typed(a) for a in args)})"


def new_sheet(ctx):
    import uno  # noqa: PLC0415, F401
    from com.sun.star.beans import PropertyValue  # noqa: PLC0415
    desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
    doc = desktop.loadComponentFromURL("private:factory/scalc", "_blank", 0, (PropertyValue(Name="Hidden", Value=True),))
    return doc, doc.Sheets.getByIndex(0)


def col(index):
    """The column letters of a 0-based index: A ... Z, then AA, AB ..."""
    return (chr(64 + index // 26) if index >= 26 else "") + chr(65 + index % 26)


def same(got, want):
    if isinstance(want, str):
        return got == want
    return isinstance(got, float) and close(got, want, 1e-12)


def check_array(sheet, top, rows, expected, what):
    """The array at `top` (a row number; column A) holds `expected`, and the cells just outside it #N/A."""
    cells = sheet.getCellRangeByName(f"A{top}:{col(len(HEADER))}{top + rows}")
    data = cells.DataArray
    n = len(expected)
    differ = [(r, c) for r in range(n) for c in range(len(HEADER)) if not same(data[r][c], expected[r][c])]
    check(not differ, f"{what}: all {n} x {len(HEADER)} cells equal the C ABI's"
          + (f"; first difference at row {differ[0][0]}: {data[differ[0][0]]} against {expected[differ[0][0]]}"
             if differ else ""))
    right = [cells.getCellByPosition(len(HEADER), r) for r in range(n)]
    below = [cells.getCellByPosition(c, n) for c in range(len(HEADER))] if n <= rows else []
    outside = right + below
    check(all(c.getError() == 32767 for c in outside),
          f"{what}: the array is {n} x {len(HEADER)}: the column right of it and the row below it show #N/A "
          f"({sum(c.getError() == 32767 for c in outside)} of {len(outside)})")


def main(workdir, oxt, library):
    roofline = load_roofline(library)
    expected = roofline.call("ROOFLINE_PLAN", *EXAMPLE)
    narrow = roofline.call("ROOFLINE_PLAN", *NARROW)
    n = len(expected) - 1

    # ---- What the C ABI gives, by hand: the checks the spreadsheet's answer inherits. ----
    check(tuple(expected[0]) == HEADER, f"C ABI: ROOFLINE_PLAN's header row is the agreed one: {expected[0]}")
    check(n >= 2, f"C ABI: the issue's example has {n} configurations")
    load_tokens_per_s = 100 * 300  # requests/s x output tokens
    priced = [r for r in expected[1:] if r[11] != ""]
    check(priced and all(close(r[12], r[11] / (load_tokens_per_s * 3600) * 1e6, 1e-9) for r in priced),
          f"C ABI: USD per million output tokens = USD per hour / (100 x 300 tokens/s x 3600) x 1e6 in all "
          f"{len(priced)} priced rows")
    check(all(r[7] == r[1] * r[4] and r[5] == 0 and r[6] == 0 for r in expected[1:]),
          "C ABI: colocated, GPUs = tp x replicas and no prefill pool in every row")
    check(all(close(r[10], load_tokens_per_s / r[7], 1e-9) for r in expected[1:]),
          "C ABI: output tokens/s per GPU = 30,000 / GPUs in every row")
    check(all(r[8] <= 500 and r[9] <= 50 for r in expected[1:]), "C ABI: every row meets TTFT 500 ms and TPOT 50 ms")
    costs = [r[12] for r in priced]
    check(costs == sorted(costs) and expected[1][12] != "", "C ABI: cheapest first")
    check(all(r[0] == "h100-sxm" and r[2] == "fp8" for r in narrow[1:]) and len(narrow) > 1,
          f"C ABI: narrowed to h100-sxm, fp8: {len(narrow) - 1} rows, all of them h100-sxm fp8")
    # Whole servers rented (the default since 0.14): each pool's H100 SXM GPUs rounded up to HGX servers of 8.
    check(all(r[5] >= 1 and r[6] >= 1 and r[7] == r[1] * r[4] + r[5] * r[6] and r[27] * 8 >= r[7]
              and close(r[11], 2.49 * 8 * r[27], 1e-12)
              for r in narrow[1:]),
          "C ABI: disaggregated rows have a prefill pool, GPUs = decode + prefill, USD per hour = 2.49 x the GPUs of "
          "the whole servers rented "
          "(the price override)")
    check(all(r[4] >= 2 and r[6] >= 2 and 0.8 * r[16] >= r[10] * (1 - 1e-12) for r in narrow[1:]),
          "C ABI: headroom 0.8 and min_replicas 2: two replicas in each pool at least, the load at most 0.8 of the "
          "capacity")

    # ---- ROOFLINE_PLAN as an array formula in Calc ----
    calc = Calc(workdir, oxt)
    with calc.uno() as ctx:
        doc, sheet = new_sheet(ctx)
        # Inputs in cells for the call by reference (column AZ, right of the plan's 29 columns), the example's.
        for i, v in enumerate(NARROW):
            cell = sheet.getCellByPosition(51, i)
            if isinstance(v, str):
                cell.setString(v)
            else:
                cell.setValue(v)
        rows = n + 5
        sheet.getCellRangeByName(f"A1:{col(len(HEADER))}{rows + 1}").setArrayFormula("=" + call_text("ROOFLINE_PLAN", EXAMPLE))
        top2 = rows + 4
        rows2 = len(narrow) + 2
        refs = ";".join(f"$AZ${i + 1}" for i in range(len(NARROW)))
        sheet.getCellRangeByName(f"A{top2}:{col(len(HEADER))}{top2 + rows2}").setArrayFormula(f"=ROOFLINE_PLAN({refs})")
        # Its size as Calc sees it, and one cell through INDEX.
        probe = top2 + rows2 + 3
        sheet.getCellRangeByName(f"A{probe}").setFormula(f"=ROWS({call_text('ROOFLINE_PLAN', EXAMPLE)})")
        sheet.getCellRangeByName(f"B{probe}").setFormula(f"=COLUMNS({call_text('ROOFLINE_PLAN', EXAMPLE)})")
        sheet.getCellRangeByName(f"C{probe}").setFormula(f"=INDEX({call_text('ROOFLINE_PLAN', EXAMPLE)}; 2; 13)")
        # The planner's primitives, against values worked by hand.
        hand = [
            ("=ROOFLINE_COST_PER_MTOK(2.49; 8; 1000)", 2.49 * 8 / (1000 * 3600) * 1e6,
             "USD 2.49 x 8 GPUs per hour over 1,000 tokens/s x 3,600 s, per million"),
            ("=ROOFLINE_SPEC_TOKENS(0.8; 4)", (1 - 0.8 ** 5) / (1 - 0.8), "(1 - 0.8^5) / (1 - 0.8) = 3.3616"),
            ("=ROOFLINE_SPEC_TOKENS(1; 4)", 5.0, "every draft accepted: draft_len + 1"),
        ]
        same_as_c = [
            ("ROOFLINE_E2E_MS", ["llama-3.1-70b", "h100-sxm", 2000, 300, 32, "fp8", "bf16", 4]),
            ("ROOFLINE_SLO_BATCH", ["llama-3.1-8b", "h100-sxm", 4096, 20]),
            ("ROOFLINE_REPLICA_RPS", ["llama-3.1-70b", "h100-sxm", 2000, 300, 500, 50, "fp8", "bf16", 4]),
            ("ROOFLINE_SPEC_STEP_MS", ["llama-3.1-70b", "llama-3.1-8b", "h100-sxm", 32, 4096, 4, 0.7, "fp8", "bf16", 4]),
        ]
        first_free = probe + 2
        formulas = [f for f, _, _ in hand] + ["=" + call_text(name, args) for name, args in same_as_c]
        for name, args, _, _ in FAILING:
            formulas += ["=" + call_text(name, args), f'=ROOFLINE_WHY("{name}"; {"; ".join(typed(a) for a in args)})']
        for i, f in enumerate(formulas):
            sheet.getCellRangeByName(f"A{first_free + i}").setFormula(f)
        doc.calculateAll()

        check_array(sheet, 1, rows, expected, "=ROOFLINE_PLAN(the issue's example) over a larger range")
        check_array(sheet, top2, rows2, narrow, "=ROOFLINE_PLAN(one GPU, fp8, disaggregated, a price) from cells")
        header = tuple(sheet.getCellRangeByName(f"A1:{col(len(HEADER) - 1)}1").DataArray[0])
        check(header == HEADER, f"Calc: the array's first row is the header: {header}")
        size = (sheet.getCellRangeByName(f"A{probe}").getValue(), sheet.getCellRangeByName(f"B{probe}").getValue())
        check(size == (n + 1, len(HEADER)), f"Calc: ROWS and COLUMNS of ROOFLINE_PLAN(...) are {size}: {n + 1} x {len(HEADER)}")
        cheapest = sheet.getCellRangeByName(f"C{probe}").getValue()
        check(close(cheapest, expected[1][12], 1e-12),
              f"Calc: INDEX(ROOFLINE_PLAN(...); 2; 13), the cheapest USD per million output tokens: {cheapest}")

        row = first_free
        for formula, want, how in hand:
            cell = sheet.getCellRangeByName(f"A{row}")
            check(cell.getError() == 0 and close(cell.getValue(), want, 1e-12),
                  f"Calc: {formula} = {cell.getString()}, by hand {want:.6g} ({how})")
            row += 1
        for name, args in same_as_c:
            cell = sheet.getCellRangeByName(f"A{row}")
            want = roofline.call(name, *args)
            check(cell.getError() == 0 and close(cell.getValue(), want, 1e-12),
                  f"Calc: ={call_text(name, args)} = {cell.getString()}, the C ABI {want:.10g}")
            row += 1

        kinds = set()
        for name, args, status, argument in FAILING:
            try:
                roofline.call(name, *args)
                got_status, got_argument = "ROOFLINE_OK", ""
            except roofline.RooflineError as e:
                got_status, got_argument = e.status, e.argument
            check((got_status, got_argument) == (status, argument),
                  f"C ABI: {call_text(name, args)} gives {got_status} naming '{got_argument}'")
            cell = sheet.getCellRangeByName(f"A{row}")
            shown = (cell.getString(), cell.getError())
            check(shown == SHOWN[status], f"Calc: ={call_text(name, args)} shows {shown[0]} ({shown[1]}), "
                                          f"{status} shows {SHOWN[status][0]}")
            kinds.add(shown)
            why = sheet.getCellRangeByName(f"A{row + 1}")
            reason = roofline.call("ROOFLINE_WHY", name, *args)
            check(why.getError() == 0 and why.getString() == reason and f"'{argument}'" in reason,
                  f"Calc: ROOFLINE_WHY gives the C ABI's reason, naming '{argument}': {why.getString()!r}")
            row += 2
        check(len(kinds) == 3, f"three kinds of failure, three error values: {sorted(kinds)}")
        doc.close(True)

        # Issue 18: DeepSeek-R1 and gpt-oss-120b on Blackwell and MI355X: the array shows expert parallelism with
        # data-parallel attention and FP4 formats, every cell the C ABI's.
        doc, sheet = new_sheet(ctx)
        top = 1
        for model in ("deepseek-r1", "gpt-oss-120b"):
            args = [model, 200, 2000, 500, 2000, 40, "b200, gb200, mi355x"]
            want = roofline.call("ROOFLINE_PLAN", *args)
            rows = len(want) + 2
            sheet.getCellRangeByName(f"A{top}:{col(len(HEADER))}{top + rows}").setArrayFormula(
                "=" + call_text("ROOFLINE_PLAN", args))
            doc.calculateAll()
            check_array(sheet, top, rows, want, f"=ROOFLINE_PLAN({model} on b200, gb200, mi355x)")
            body = want[1:]
            # DeepSeek-R1 needs several GPUs, and its best rows spread the experts; gpt-oss-120b fits on one GPU,
            # where 0.9's profiles put its cheapest rows (their per-layer costs), so it need not show one.
            if model == "deepseek-r1":
                check(any(r[13] > 1 and r[14] > 1 for r in body),
                      f"{model}: a row in expert parallelism with data-parallel attention (ep, dp_attention > 1)")
            fp4 = {r[0] for r in body if r[2] in ("nvfp4", "mxfp4")}
            check({"b200", "mi355x"} <= fp4 and any(r[0] == "mi355x" and r[2] == "mxfp4" for r in body),
                  f"{model}: FP4 rows on b200 and on mi355x (MXFP4 there): {sorted(fp4)}")
            top += rows + 2
        doc.close(True)

        # ROOFLINE_CURVE (0.13): the throughput-against-interactivity front as an array formula, every cell the C ABI's.
        doc, sheet = new_sheet(ctx)
        for what, args in (("the front over every layout", ["llama-3.1-70b", "h100-sxm", 2000, 300, "fp8"]),
                           ("one layout (tp 4)", ["llama-3.1-70b", "h100-sxm", 2000, 300, "fp8", "", 4])):
            want = roofline.call("ROOFLINE_CURVE", *args)
            width = len(want[0])
            sheet.getCellRangeByName(f"A1:{col(width - 1)}{len(want)}").setArrayFormula(
                "=" + call_text("ROOFLINE_CURVE", args))
            doc.calculateAll()
            data = sheet.getCellRangeByName(f"A1:{col(width - 1)}{len(want)}").DataArray
            differ = [(r, c) for r in range(len(want)) for c in range(width) if not same(data[r][c], want[r][c])]
            check(len(want) > 3 and not differ,
                  f"Calc: =ROOFLINE_CURVE(...), {what}: all {len(want)} x {width} cells equal the C ABI's"
                  + (f"; first difference at {differ[0]}" if differ else ""))
            tpot = [r[0] for r in want[1:]]
            per_gpu = [r[2] for r in want[1:]]
            check(tpot == sorted(tpot) and (what.startswith("one") or per_gpu == sorted(per_gpu)),
                  f"C ABI: the curve, {what}: fastest first; on the front each slower row sustains more per GPU")
            sheet.getCellRangeByName(f"A1:{col(width - 1)}{len(want)}").clearContents(1 | 2 | 4 | 16)
        doc.close(True)

        # ROOFLINE_SIMULATE (0.14): the same seed gives the same numbers in Calc as through the C ABI, cell by cell;
        # another seed others; bursts raise the p99 time to first token.
        doc, sheet = new_sheet(ctx)
        base = ["llama-3.1-8b", "h100-sxm", 12, 1000, 200, "", "", 1, "typical", 1, 1, 1]
        cases = (("Poisson, seed 1", base + ["poisson", 1, 500, 1]), ("Poisson, seed 2", base + ["poisson", 1, 500, 2]),
                 ("gamma cv 4, seed 1", base + ["gamma", 4, 500, 1]))
        p99 = {}
        for what, args in cases:
            want = roofline.call("ROOFLINE_SIMULATE", *args)
            width = len(want[0])
            area = f"A1:{col(width - 1)}{len(want)}"
            sheet.getCellRangeByName(area).setArrayFormula("=" + call_text("ROOFLINE_SIMULATE", args))
            doc.calculateAll()
            data = sheet.getCellRangeByName(area).DataArray
            differ = [(r, c) for r in range(len(want)) for c in range(width) if not same(data[r][c], want[r][c])]
            check(len(want) == 15 and not differ,
                  f"Calc: =ROOFLINE_SIMULATE(...), {what}: all {len(want)} x {width} cells equal the C ABI's"
                  + (f"; first difference at {differ[0]}" if differ else ""))
            p99[what] = data[1][4]
            sheet.getCellRangeByName(area).clearContents(1 | 2 | 4 | 16)
        check(p99["Poisson, seed 1"] != p99["Poisson, seed 2"] and p99["gamma cv 4, seed 1"] > 2 * p99["Poisson, seed 1"],
              f"Calc: the p99 TTFT by seed and burstiness: {p99}")
        doc.close(True)
    return check.exit_code()


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:4]))
