"""What a cell costs in Calc with each component of the add-in: the C++ one (roofline.oxt on Linux) and
the Python one (roofline-python-test.oxt: the component of Windows and macOS, here loading the Linux
libroofline.so). Prints microseconds per cell; asserts nothing (a benchmark, not a test).

For each .oxt: a headless Calc with its own profile (calc-addin/tests/calc.py), a sheet of CELLS cells of
one formula, recalculated in full (calculateAll) REPEATS times; the fastest repetition divided by CELLS.
The same sheet of a built-in formula of as many arguments (=MAX(...)) is Calc's own cost of a cell.

usage: /usr/bin/python3 bench/calc_cell_cost.py WORKDIR CPP_OXT PYTHON_OXT [CELLS [REPEATS]]
       (ROOFLINE_OFFICE_PROGRAM=<program folder> for another LibreOffice, e.g. scripts/libreoffice-backports')
"""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "calc-addin" / "tests"))
from calc import Calc  # noqa: E402

FORMULAS = [
    ("built-in MAX, 4 numbers (Calc alone)", "=MAX({r}; 64; 4096; 3.35)"),
    ("ROOFLINE_DECODE_MS, 4 numbers", "=ROOFLINE_DECODE_MS(8; {r}; 4096; 3.35)"),
    ("ROOFLINE_STEP_MS, 2 texts + 2 numbers", '=ROOFLINE_STEP_MS("llama-3-8b"; "h100-sxm"; {r}; 4096)'),
    ("ROOFLINE_DECODE_MS, a bad batch: Err:502", "=ROOFLINE_DECODE_MS(8; -{r}; 4096; 3.35)"),
    ("ROOFLINE_FIT_BATCH, no answer: #N/A", '=ROOFLINE_FIT_BATCH("llama-3-70b"; "h100-sxm"; 4000 + {r})'),
]


def measure(ctx, formula, cells, repeats):
    desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
    from com.sun.star.beans import PropertyValue  # noqa: PLC0415
    hidden = PropertyValue()
    hidden.Name, hidden.Value = "Hidden", True
    doc = desktop.loadComponentFromURL("private:factory/scalc", "_blank", 0, (hidden,))
    try:
        rng = doc.Sheets.getByIndex(0).getCellRangeByName(f"A1:A{cells}")
        # Each cell its own batch (1 .. 64): no two cells are the same call.
        rng.setFormulaArray(tuple((formula.format(r=1 + i % 64),) for i in range(cells)))
        doc.calculateAll()  # the first: loads the component and its library
        first = rng.getDataArray()[0][0]
        best = float("inf")
        for _ in range(repeats):
            start = time.perf_counter()
            doc.calculateAll()
            best = min(best, time.perf_counter() - start)
        return best / cells * 1e6, first
    finally:
        doc.close(True)


def main(workdir, cpp_oxt, python_oxt, cells="2000", repeats="5"):
    cells, repeats = int(cells), int(repeats)
    results = {}
    for label, oxt in (("C++ component", cpp_oxt), ("Python component", python_oxt)):
        calc = Calc(Path(workdir) / label.split()[0].lower().replace("+", "p"), oxt)
        with calc.uno() as ctx:
            for name, formula in FORMULAS:
                us, first = measure(ctx, formula, cells, repeats)
                results[(label, name)] = us
                print(f"{label:17} {name:40} {us:8.2f} us per cell (first cell {first!r})", flush=True)
    print(f"\n{cells} cells, fastest of {repeats} full recalculations, {calc.version}")
    for name, _ in FORMULAS[1:]:
        cpp, py = results[("C++ component", name)], results[("Python component", name)]
        print(f"{name:40} C++ {cpp:7.2f} us, Python {py:7.2f} us per cell ({py / cpp:.1f}x)")
    return 0


if __name__ == "__main__":
    if not 4 <= len(sys.argv) <= 6:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
