"""The Python component's pure parts, without an office: which bundled libroofline it picks for each
platform, the clear error when that file is absent, the formula table it reads from the C ABI, and how it
writes a range of cells for a TABLE argument.

usage: test_python_component.py ROOFLINE_ADDIN_PY LIBROOFLINE MAJOR
"""
import importlib.util
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from calc import Checks  # noqa: E402

check = Checks()


def load(path):
    spec = importlib.util.spec_from_file_location("roofline_addin", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def picks(m, platform, machine):
    try:
        return m.library_file(platform, machine)
    except m.NotBuilt as e:
        return e


def main(component, library, major):
    m = load(component)
    check(m.LIBRARY_MAJOR == major, f"the component was configured with the library's major version {major}: {m.LIBRARY_MAJOR!r}")
    # (sys.platform, the process's machine) -> the file, as LibreOffice's Python reports them.
    for platform, machine, want in [("linux", "x86_64", f"libroofline.so.{major}"),
                                    ("win32", "AMD64", "roofline.dll"),
                                    ("win32", "x86_64", "roofline.dll"),
                                    ("darwin", "arm64", "libroofline.dylib"),
                                    ("darwin", "x86_64", "libroofline.dylib")]:
        got = picks(m, platform, machine)
        check(got == want, f"{platform} on {machine}: {want} ({got!r})")
    for platform, machine, says in [("win32", "ARM64", "not built for Windows on ARM"),
                                    ("win32", "x86", "not built for Windows on x86"),
                                    ("linux", "aarch64", "not built for Linux on aarch64"),
                                    ("darwin", "ppc", "not built for macOS on ppc"),
                                    ("freebsd14", "amd64", "not built for freebsd14")]:
        got = picks(m, platform, machine)
        check(isinstance(got, m.NotBuilt) and says in str(got), f"{platform} on {machine}: NotBuilt, {says!r} ({got!r})")

    with tempfile.TemporaryDirectory() as folder:
        # A Mac whose .oxt has no dylib: a message that says what is missing and what to do.
        try:
            m.library_path(folder, "darwin", "arm64")
            got = None
        except m.NotBuilt as e:
            got = str(e)
        check(got and "no libroofline.dylib" in got and "Build it on a Mac" in got and "darwin on arm64" in got,
              f"a Mac without libroofline.dylib: a clear error: {got!r}")
        try:
            m.library_path(folder, "win32", "AMD64")
            got = None
        except m.NotBuilt as e:
            got = str(e)
        check(got and "no roofline.dll" in got, f"a Windows .oxt without roofline.dll: {got!r}")
        shutil.copy(library, os.path.join(folder, f"libroofline.so.{major}"))
        path = m.library_path(folder, "linux", "x86_64")
        check(path == os.path.join(folder, f"libroofline.so.{major}"), f"the bundled library is found: {path}")

        # The table from the C ABI: what the component makes its methods and Wizard texts of.
        lib = m.Library(path)
        check(len(lib.formulas) > 30 and "ROOFLINE_DECODE_MS" in lib.formulas,
              f"the formula table read through ctypes: {len(lib.formulas)} formulas")
        decode = lib.find("roofline_decode_ms")
        check(decode and [a.name for a in decode.args][:4] == ["params_b", "batch", "ctx", "bw_tbs"],
              f"ROOFLINE_DECODE_MS's arguments: {[a.name for a in decode.args] if decode else None}")
        tflops = decode.args[4]
        check(tflops.optional and tflops.default_number == 989 and tflops.default_shown == "989",
              f"tflops: optional, default 989, shown '989' ({tflops.default_number}, {tflops.default_shown!r})")
        step = lib.find("ROOFLINE_STEP_MS")
        kv = next(a for a in step.args if a.name == "kv_dtype")
        check(kv.default_text == b"bf16" and kv.default_shown == "bf16", f"kv_dtype's default: {kv.default_text!r}")
        check(all(a.description_en and a.description_zh for f in lib.formulas.values() for a in f.args),
              "every argument has an English and a Chinese description")

    # A TABLE argument (a range of cells): one text, rows by '\n', cells by '\t', numbers as repr(float).
    text = m._table_text(((1.0, "h100-sxm", None), (0.1, "b", 3)))
    check(text == "1.0\th100-sxm\t\n0.1\tb\t3.0", f"a range as a TABLE text: {text!r}")
    check(m._table_text(2.5) == "2.5" and m._table_text("x") == "x", "one cell is a one-cell table")
    check(float(m._table_text(((1 / 3,),))) == 1 / 3, "a number keeps every digit (repr: shortest round trip)")
    for bad in ("a\tb", "a\nb"):
        try:
            m._table_text(((1.0, 2.0), (3.0, bad)))
            refused = None
        except m._TableError as e:
            refused = e.args
        check(refused == (2, 2, "holds a tab or a line break"), f"a cell holding {bad!r} is refused, at row 2, cell 2: {refused}")
    check(m._table_text(None) == "" and m._table_text(()) == "", "an empty cell or range is an empty text")
    return check.exit_code()


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
