"""The Python component in an .oxt that lacks its library (a Mac's .oxt built without libroofline.dylib is
the case in the field; here: roofline-python-test.oxt without libroofline.so.<major>): no crash, every
formula shows #VALUE!, the Function Wizard still lists the formulas and its description says which file
is missing and what to do, and the office keeps computing its own formulas.

usage: test_python_no_library.py WORKDIR PYTHON_OXT
"""
import shutil
import sys
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from calc import Calc, Checks, Error  # noqa: E402

check = Checks()


def without_library(oxt, out):
    with zipfile.ZipFile(oxt) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        dropped = [i.filename for i in src.infolist() if i.filename.startswith("libroofline.so.")]
        for item in src.infolist():
            if item.filename not in dropped:
                dst.writestr(item, src.read(item))
    return dropped


def main(workdir, oxt):
    workdir = Path(workdir).resolve()
    shutil.rmtree(workdir, ignore_errors=True)
    workdir.mkdir(parents=True)
    bare = workdir / "roofline-no-library.oxt"
    dropped = without_library(oxt, bare)
    check(len(dropped) == 1, f"the library is left out of the copy: {dropped}")
    calc = Calc(workdir / "office", bare)
    got = calc.compute(["=ROOFLINE_BALANCE(989; 3.35)", '=ROOFLINE_STEP_MS("llama-3-8b"; "h100-sxm"; 64; 4096)',
                        "=1+1"])
    check(got[0] == "#VALUE!" and isinstance(got[0], Error), f"=ROOFLINE_BALANCE(989; 3.35) shows #VALUE!: {got[0]!r}")
    check(got[1] == "#VALUE!", f"=ROOFLINE_STEP_MS(...) shows #VALUE!: {got[1]!r}")
    check(got[2] == 2.0, f"the office keeps computing: =1+1 shows {got[2]!r}")
    with calc.uno() as ctx:
        smgr = ctx.ServiceManager
        functions = smgr.createInstanceWithContext("com.sun.star.sheet.FunctionDescriptions", ctx)
        names = {}
        for i in range(functions.getCount()):
            props = {p.Name: p.Value for p in functions.getByIndex(i)}
            if props.get("Name", "").startswith("ROOFLINE_"):
                names[props["Name"]] = props.get("Description", "")
        check(len(names) > 30, f"the Function Wizard lists the formulas: {len(names)}")
        said = names.get("ROOFLINE_BALANCE", "")
        check(f"has no {dropped[0]}" in said if dropped else False,
              f"ROOFLINE_BALANCE's description says which file is missing: {said!r}")
    return check.exit_code()


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
