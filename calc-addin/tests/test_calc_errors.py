"""What a failing formula shows in a real Calc, and how ROOFLINE_WHY tells the reason.

Three kinds of failure show three different error values (the mapping docs/calc-addin.md documents): a bad
argument Err:502, a name the catalog does not know #VALUE!, a valid question without an answer #N/A.
Each case's kind is the C ABI's own status for the same call. =ROOFLINE_WHY(formula; arguments...)
shows the C ABI's reason for the same call ("ok" when it succeeds), typed with numbers, texts, cell
references and empty arguments.

usage: test_calc_errors.py WORKDIR OXT LIBROOFLINE
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from calc import Calc, Checks, load_roofline  # noqa: E402

check = Checks()

# The add-in's mapping, C ABI status -> what the cell shows (its text, and Calc's error code).
SHOWN = {
    "ROOFLINE_ERROR_ARGUMENT": ("Err:502", 502),
    "ROOFLINE_ERROR_UNKNOWN_ID": ("#VALUE!", 519),
    "ROOFLINE_ERROR_NO_SOLUTION": ("#N/A", 32767),
    "ROOFLINE_ERROR_RANGE": ("#N/A", 32767),
}

# (formula, arguments, the C ABI status the call must give)
FAILING = [
    ("ROOFLINE_DECODE_MS", [8, -1, 4096, 3.35], "ROOFLINE_ERROR_ARGUMENT"),
    ("ROOFLINE_STEP_MS", ["llama-3-8b", "h100-sxm", 0.5, 4096], "ROOFLINE_ERROR_ARGUMENT"),
    ("ROOFLINE_FIT_BATCH", ["llama-3-8b", "h100-sxm", 4096, "bf16", "bf16", 1, 1.5], "ROOFLINE_ERROR_ARGUMENT"),
    ("ROOFLINE_STEP_MS", ["llama3-70b", "h100-sxm", 64, 4096], "ROOFLINE_ERROR_UNKNOWN_ID"),
    ("ROOFLINE_GPU", ["h100-smx", "hbm_tbs"], "ROOFLINE_ERROR_UNKNOWN_ID"),
    ("ROOFLINE_GPU", ["h100-sxm", "hbm_tb"], "ROOFLINE_ERROR_UNKNOWN_ID"),
    ("ROOFLINE_STEP_MS", ["llama-3-8b", "h100-sxm", 64, 4096, "bf17"], "ROOFLINE_ERROR_UNKNOWN_ID"),
    ("ROOFLINE_STEP_MS", ["llama-3-8b", "h100-sxm", 64, 4096, "bf16", "bf16", 1, "fast"], "ROOFLINE_ERROR_UNKNOWN_ID"),
    ("ROOFLINE_FIT_BATCH", ["llama-3-70b", "h100-sxm", 4096], "ROOFLINE_ERROR_NO_SOLUTION"),
    ("ROOFLINE_DECODE_MS", [1e300, 1e300, 1e300, 1e-300], "ROOFLINE_ERROR_RANGE"),
]


def typed(value):
    return f'"{value}"' if isinstance(value, str) else repr(value)


def call_text(name, args):
    return f"{name}({'; '.join(typed(a) for a in args)})"


def status_of(roofline, name, args):
    """The C ABI's status for the call: "ROOFLINE_OK" or the error's status name."""
    try:
        roofline.call(name, *args)
        return "ROOFLINE_OK"
    except roofline.RooflineError as e:
        return e.status


def why(roofline, name, args):
    return roofline.call("ROOFLINE_WHY", name, *args)


def sheet_of(ctx):
    from com.sun.star.beans import PropertyValue  # noqa: PLC0415 (Python-UNO)
    desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
    hidden = PropertyValue()
    hidden.Name, hidden.Value = "Hidden", True
    doc = desktop.loadComponentFromURL("private:factory/scalc", "_blank", 0, (hidden,))
    return doc, doc.Sheets.getByIndex(0)


def main(workdir, oxt, library):
    roofline = load_roofline(library)

    # (formula typed into column A, what the check expects, what it is about)
    rows = []
    for name, args, status in FAILING:
        check(status_of(roofline, name, args) == status, f"C ABI: {call_text(name, args)} gives {status}")
        rows.append(("=" + call_text(name, args), ("error", *SHOWN[status]), f"{status} shows {SHOWN[status][0]}"))
        reason = why(roofline, name, args)
        rows.append((f'=ROOFLINE_WHY("{name}"; {"; ".join(typed(a) for a in args)})', ("text", reason),
                     "ROOFLINE_WHY gives the C ABI's reason"))
    # Calc's own checks, before the add-in is called.
    rows.append(('=ROOFLINE_DECODE_MS("x"; 64; 4096; 3.35)', ("error", "#VALUE!", 519),
                 "a text where a required number belongs: Calc's own #VALUE!"))
    rows.append(('=ROOFLINE_DECODE_MS(8; 64; 4096; 3.35; "x")', ("error", "#VALUE!", 519),
                 "a text where an optional number belongs: #VALUE! too"))
    rows.append(("=ROOFLINE_DECODE_MS(8; 64; 4096)", ("error", "Err:504", 504),
                 "a required argument missing: Calc's own Err:504"))

    # ROOFLINE_WHY: the examples, and the ways a user types arguments.
    fit = ["llama-3-70b", "h100-sxm", 4096]
    fit_reason = why(roofline, "ROOFLINE_FIT_BATCH", fit)
    check("do not fit" in fit_reason, f"C ABI: the weights-do-not-fit reason: {fit_reason!r}")
    typo_reason = why(roofline, "ROOFLINE_STEP_MS", ["llama3-70b", "h100-sxm", 64, 4096])
    check("did you mean 'llama-3-70b'" in typo_reason, f"C ABI: a typo'd model gets a suggestion: {typo_reason!r}")
    ok = why(roofline, "ROOFLINE_DECODE_MS", [8, 64, 4096, 3.35])
    check(ok == "ok", f"C ABI: a good call is 'ok': {ok!r}")
    rows += [
        ('=ROOFLINE_WHY("ROOFLINE_FIT_BATCH";"llama-3-70b";"h100-sxm";4096)', ("text", fit_reason),
         "the issue's example: the weights do not fit"),
        ('=ROOFLINE_WHY("ROOFLINE_DECODE_MS"; 8; 64; 4096; 3.35)', ("text", "ok"), "a good call: ok"),
        ('=ROOFLINE_WHY("ROOFLINE_STEP_MS"; C1; C2; C3; C4)', ("text", typo_reason),
         "arguments from cell references"),
        ('=ROOFLINE_WHY("roofline_decode_ms"; 8; 64; 4096; 3.35; ; 64)',
         ("text", why(roofline, "ROOFLINE_DECODE_MS", [8, 64, 4096, 3.35, 989, 64])),
         "an empty argument takes the formula's default, as in the formula itself"),
        ('=ROOFLINE_WHY("ROOFLINE_FIT_BATCH"; "llama-3-70b"; "h100-sxm"; 4096; ; ; 2)',
         ("text", why(roofline, "ROOFLINE_FIT_BATCH", ["llama-3-70b", "h100-sxm", 4096, "bf16", "bf16", 2])),
         "empty text arguments take their defaults"),
        ('=ROOFLINE_WHY("ROOFLINE_DECODE_MS"; 8; ; 4096; 3.35)',
         ("text", why(roofline, "ROOFLINE_DECODE_MS", [8, float("nan"), 4096, 3.35])),
         "an empty required argument is no number, and the reason names it"),
        ('=ROOFLINE_WHY("ROOFLINE_FIT_BACH"; "llama-3-70b"; "h100-sxm"; 4096)',
         ("text", why(roofline, "ROOFLINE_FIT_BACH", fit)), "a misspelt formula name"),
        ('=ROOFLINE_WHY("ROOFLINE_DECODE_MS"; 8; 64)',
         ("text", why(roofline, "ROOFLINE_DECODE_MS", [8, 64])), "too few arguments"),
    ]

    # An optional text argument that names an empty cell (Calc passes it as the number 0) is left out;
    # another number there is the wrong type.
    step = roofline.call("ROOFLINE_STEP_MS", "llama-3-8b", "h100-sxm", 64, 4096)
    rows += [
        ('=ROOFLINE_STEP_MS("llama-3-8b"; "h100-sxm"; 64; 4096; D1; D2)', ("number", step),
         "empty cells for the optional texts weight_dtype and kv_dtype take their defaults"),
        ('=ROOFLINE_STEP_MS("llama-3-8b"; "h100-sxm"; 64; 4096; 8)', ("error", "#VALUE!", 519),
         "a number where an optional text belongs: #VALUE!"),
    ]

    calc = Calc(workdir, oxt)
    with calc.uno() as ctx:
        doc, sheet = sheet_of(ctx)
        for i, value in enumerate(["llama3-70b", "h100-sxm", 64, 4096]):
            cell = sheet.getCellByPosition(2, i)
            if isinstance(value, str):
                cell.setString(value)
            else:
                cell.setValue(value)
        for i, (formula, _, _) in enumerate(rows):
            sheet.getCellByPosition(0, i).setFormula(formula)
        doc.calculateAll()
        for i, (formula, expected, what) in enumerate(rows):
            cell = sheet.getCellByPosition(0, i)
            shown, code = cell.getString(), cell.getError()
            if expected[0] == "number":
                value = cell.getValue()
                check(code == 0 and abs(value - expected[1]) <= 1e-12 * abs(expected[1]),
                      f"{formula}: {what}: shows {shown!r} (error {code}), expected {expected[1]!r}")
            elif expected[0] == "error":
                check((shown, code) == expected[1:], f"{formula}: {what}: shows {shown!r} (error {code})")
            else:
                check(code == 0 and shown == expected[1],
                      f"{formula}: {what}: shows {shown!r} (error {code}), expected {expected[1]!r}")
        doc.close(True)

    kinds = {SHOWN[status] for _, _, status in FAILING}
    check(len(kinds) == 3, f"three kinds of failure, three error values: {sorted(kinds)}")
    return check.exit_code()


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
