"""A workbook calibrates its own profile: ROOFLINE_CALIBRATE(A1:I16) fits the measured rows of a range (a header
row, then model, gpu, weight_dtype, kv_dtype, tp, batch, context, metric, value) and shows the profile as a text;
STEP_MS and ROOFLINE_PLAN take that cell as their profile. Calc passes the range to the add-in, the add-in passes
it to the C ABI as one text, and the cell shows exactly what the C ABI (here through Python) computes for the same
rows. ROOFLINE_CALIBRATE_ROWS shows each row's prediction; too few rows show #N/A and ROOFLINE_WHY says why; a bad
row shows an error value and ROOFLINE_WHY names its row and column.

usage: test_calc_calibrate.py WORKDIR OXT LIBROOFLINE
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from calc import Calc, Checks, Error, load_roofline, shows  # noqa: E402

# The lab whose engine made the "measurements": a profile text (docs/formulas.md, Profiles as text).
LAB = ("fit(lab; n=0; mdape=0.0%; loo=0.0%): bw=0.7, mfu=0.55, link=0.8, step_ms=0.5, allreduce_us=12, "
       "ep_imbalance=1.11, overlap_ep=0")
HEADER = ["model", "gpu", "weight_dtype", "kv_dtype", "tp", "batch", "context", "metric", "value"]


def measured_rows(roofline):
    """Decode steps and prefills of Llama 3.1 8B on H100s at tp 1, 2 and 4, as the lab's engine would measure
    them; at tp 1 the formats and tp are left empty (their defaults)."""
    rows = []
    for tp in (1, 2, 4):
        for batch in (1, 16, 128):
            ms = roofline.step_ms("llama-3.1-8b", "h100-sxm", batch, 2048, "bf16", "bf16", tp, LAB)
            rows.append(["llama-3.1-8b", "h100-sxm", "bf16", None if tp == 1 else "bf16", None if tp == 1 else tp,
                         batch, 2048, "step_ms", ms])
        for prompt in (512, 4096):
            rows.append(["llama-3.1-8b", "h100-sxm", "bf16", "bf16", tp, 1, prompt, "ttft_ms",
                         roofline.ttft_ms("llama-3.1-8b", "h100-sxm", prompt, 1, "bf16", tp, LAB)])
    return rows


def main(workdir, oxt, library):
    roofline = load_roofline(library)
    check = Checks()
    rows = measured_rows(roofline)
    # The C ABI's answers for the same rows (None: the empty cell, as Calc passes it).
    fitted = roofline.calibrate([HEADER] + rows)
    check(fitted.startswith("fit(typical; n=15; "), f"C ABI: {fitted}")
    per_row = roofline.calibrate_rows([HEADER] + rows)
    few = [HEADER] + rows[:2]
    why_few = roofline.why("ROOFLINE_CALIBRATE", few)
    check("2 measured rows" in why_few, f"C ABI: too few rows: {why_few!r}")
    bad = rows[:3] + [["llama-9b"] + rows[0][1:]]
    why_bad = roofline.why("ROOFLINE_CALIBRATE", bad)
    check("row 4, model: " in why_bad and "'measurements'" in why_bad, f"C ABI: a bad row: {why_bad!r}")
    step = roofline.step_ms("llama-3.1-8b", "h100-sxm", 16, 4096, "bf16", "", 1, fitted)
    plan = roofline.call("ROOFLINE_PLAN", "llama-3.1-8b", 10, 1000, 200, 800, 40, "h100-sxm", "", "", fitted)
    check(plan[0][9] == "tpot_ms", "C ABI: the plan's column 10 is tpot_ms")
    rebased = roofline.calibrate([HEADER] + rows, LAB)

    # The sheet: A1:I16 the measured rows under a header; A18:I21 three good rows and a bad one; the formulas in K.
    grid = [HEADER] + rows + [[None] * 9] + bad
    formulas = [
        ("=ROOFLINE_CALIBRATE(A1:I16)", fitted),
        ('=ROOFLINE_STEP_MS("llama-3.1-8b"; "h100-sxm"; 16; 4096; "bf16"; ; 1; K1)', step),
        ('=INDEX(ROOFLINE_PLAN("llama-3.1-8b"; 10; 1000; 200; 800; 40; "h100-sxm"; ; ; K1); 2; 10)', plan[1][9]),
        ("=INDEX(ROOFLINE_CALIBRATE_ROWS(A1:I16); 2; 6)", per_row[1][5]),
        ("=INDEX(ROOFLINE_CALIBRATE_ROWS(A1:I16); 16; 1)", per_row[15][0]),
        ("=ROWS(ROOFLINE_CALIBRATE_ROWS(A1:I16))", len(per_row)),
        ('=ROOFLINE_CALIBRATE(A1:I16; "' + LAB.replace('"', '""') + '")', rebased),
        ("=ROOFLINE_CALIBRATE(A1:I3)", Error("#N/A")),
        ('=ROOFLINE_WHY("ROOFLINE_CALIBRATE"; A1:I3)', why_few),
        ("=ROOFLINE_CALIBRATE(A18:I21)", Error("#VALUE!")),
        ('=ROOFLINE_WHY("ROOFLINE_CALIBRATE"; A18:I21)', why_bad),
        ('=ROOFLINE_CALIBRATE(A1:H16)', Error("Err:502")),  # eight columns
        ('=ROOFLINE_CALIBRATE(A1:I16; "fast")', Error("#VALUE!")),
    ]
    for i, (formula, _) in enumerate(formulas):
        while len(grid) <= i:
            grid.append([None] * 9)
        grid[i] = grid[i] + [None, formula]
    shown = Calc(workdir, oxt).compute_grid(grid)
    for i, (formula, want) in enumerate(formulas):
        got = shown[i][10]
        ok = got == want if isinstance(want, Error) else shows(got, want, 1e-9)
        check(ok, f"{formula[:80]} -> {str(got)[:100]!r} (C ABI: {str(want)[:100]})")
    return check.exit_code()


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
