"""The Function Wizard shows every formula of the table, with its arguments, optional ones marked,
in English and, under a Chinese user interface, in Chinese; each argument's text is exactly its
description and, for an optional one, its default as the library writes it
(roofline_arg_default_string); and array formulas fill their range.

usage: test_calc_wizard.py WORKDIR OXT LIBROOFLINE     (run with /usr/bin/python3: it needs Python-UNO)
"""
import ctypes
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from calc import Checks, Calc, close, load_roofline  # noqa: E402

check = Checks(show_passing=False)


def wizard(ctx):
    """Name -> (description, category, [(argument, description, optional)]) as Calc describes it."""
    descs = ctx.ServiceManager.createInstanceWithContext("com.sun.star.sheet.FunctionDescriptions", ctx)
    out = {}
    for i in range(descs.getCount()):
        p = {v.Name: v.Value for v in descs.getByIndex(i)}
        if p["Name"].startswith("ROOFLINE_"):
            out[p["Name"]] = (p["Description"], p["Category"],
                              [(a.Name, a.Description, bool(a.IsOptional)) for a in (p["Arguments"] or ())])
    return out


# How the Wizard marks an optional argument, around the library's roofline_arg_default_string.
OPTIONAL = {"en": " Optional, default: {}.", "zh": " 可省略，默认值：{}。"}


def default_strings(roofline):
    """Formula name -> roofline_arg_default_string() of each of its arguments: the library's one text."""
    lib = roofline._lib
    lib.roofline_arg_default_string.restype = ctypes.c_char_p
    lib.roofline_arg_default_string.argtypes = [ctypes.c_void_p]
    out = {}
    for i in range(lib.roofline_formula_count()):
        f = lib.roofline_formula_at(i).contents
        out[f.name.decode()] = [lib.roofline_arg_default_string(ctypes.cast(f.args[j], ctypes.c_void_p)).decode()
                                for j in range(f.arg_count)]
    return out


def check_wizard(shown, formulas, defaults, lang):
    check(len(shown) == len(formulas), f"[{lang}] the wizard lists {len(shown)} of {len(formulas)} formulas")
    for f in formulas:
        name = f["name"]
        if name not in shown:
            check(False, f"[{lang}] {name} is in the Function Wizard")
            continue
        description, category, args = shown[name]
        check(description == f[f"description_{lang}"], f"[{lang}] {name}: description {description!r}")
        check(category == ADD_IN, f"[{lang}] {name}: category {category} (Add-In is {ADD_IN})")
        check([a[0] for a in args] == [a["name"] for a in f["args"]], f"[{lang}] {name}: argument names {args}")
        check([a[2] for a in args] == [a["optional"] for a in f["args"]], f"[{lang}] {name}: optional flags")
        for a, spec, default in zip(args, f["args"], defaults[name]):
            want = spec[f"description_{lang}"] + (OPTIONAL[lang].format(default) if default else "")
            check(bool(default) == (spec["optional"] and spec["type"] != REST),
                  f"{name}.{a[0]}: a default {default!r} exactly where the argument is optional and not REST")
            check(a[1] == want, f"[{lang}] {name}.{a[0]}: the wizard shows {a[1]!r}, expected {want!r}")


ADD_IN = 11  # com.sun.star.sheet.FunctionCategory.ADDIN
REST = 3  # ROOFLINE_TYPE_REST: any number of further arguments (Calc's varargs)


def main(workdir, oxt, library):
    roofline = load_roofline(library)
    formulas = roofline.formula_table()
    defaults = default_strings(roofline)
    # The example: kv_dtype's default is shown by its value, never empty.
    check(defaults["ROOFLINE_STEP_MS"][5] == "bf16", f"ROOFLINE_STEP_MS's kv_dtype default: {defaults['ROOFLINE_STEP_MS'][5]!r}")

    english = Calc(Path(workdir) / "en", oxt)
    with english.uno() as ctx:
        check_wizard(wizard(ctx), formulas, defaults, "en")

        # An array formula fills its range with the C ABI's roof.
        desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
        import uno  # noqa: PLC0415
        from com.sun.star.beans import PropertyValue  # noqa: PLC0415
        hidden = PropertyValue()
        hidden.Name, hidden.Value = "Hidden", True
        doc = desktop.loadComponentFromURL("private:factory/scalc", "_blank", 0, (hidden,))
        cells = doc.Sheets.getByIndex(0).getCellRangeByName("A1:B6")
        cells.setArrayFormula("=ROOFLINE_ROOF(989; 3.35; 0.1; 10000; 6)")
        doc.calculateAll()
        got = [list(r) for r in cells.getDataArray()]
        want = roofline.roof(989, 3.35, 0.1, 10000, 6)
        check(all(close(g, w, 1e-12) for gr, wr in zip(got, want) for g, w in zip(gr, wr)) and len(got) == 6,
              f"array formula ROOFLINE_ROOF fills A1:B6: {got}")
        formula = cells.getArrayFormula()
        check("ROOFLINE_ROOF(" in formula.upper(), f"the array formula reads back: {formula}")
        doc.close(True)
        del uno

    chinese = Calc(Path(workdir) / "zh", oxt, ui_locale="zh-CN")
    with chinese.uno() as ctx:
        check_wizard(wizard(ctx), formulas, defaults, "zh")

    return check.exit_code()


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
