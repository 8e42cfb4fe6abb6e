"""The libraries inside the .oxt name no folder of the machine that built them: every RUNPATH or RPATH
entry of every ELF file in the package is $ORIGIN or a folder below it, and each library the package
carries for another (libroofline.so.<major> for libroofline_calc.so) is found through $ORIGIN. And (since 0.12)
they carry no debug information: it is kept apart, in debug/<name>.debug beside the .oxt, which each names
(.gnu_debuglink).

usage: test_oxt_runpath.py OXT READELF
"""
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from calc import Checks  # noqa: E402

check = Checks()

ELF_MAGIC = b"\x7fELF"


def dynamic_section(readelf, path):
    """(tag, value) pairs of the file's dynamic section, e.g. ("RUNPATH", "$ORIGIN")."""
    out = subprocess.run([readelf, "-d", "-W", str(path)], check=True, capture_output=True, text=True).stdout
    return re.findall(r"\((\w+)\)\s+[^\[]*\[([^\]]*)\]", out)


def origin_based(entry):
    return entry in ("$ORIGIN", "${ORIGIN}") or entry.startswith(("$ORIGIN/", "${ORIGIN}/"))


def sections(readelf, path):
    """The names of the file's sections."""
    out = subprocess.run([readelf, "-S", "-W", str(path)], check=True, capture_output=True, text=True).stdout
    return set(re.findall(r"\]\s+(\.\S+)", out))


def main(oxt, readelf):
    debug = Path(oxt).parent / "debug"
    with tempfile.TemporaryDirectory() as tmp, zipfile.ZipFile(oxt) as package:
        elves = {}
        for name in package.namelist():
            data = package.read(name)
            if data.startswith(ELF_MAGIC):
                path = Path(tmp) / name
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
                elves[name] = dynamic_section(readelf, path)
                names = sections(readelf, path)
                check(not any(n.startswith(".debug_") for n in names),
                      f"{name}: stripped, no .debug_* section ({sorted(n for n in names if n.startswith('.debug'))})")
                check(".gnu_debuglink" in names and (debug / f"{Path(name).name}.debug").is_file(),
                      f"{name}: names its debug information, {debug / (Path(name).name + '.debug')}")
        check("libroofline_calc.so" in elves, f"the package carries libroofline_calc.so (ELF files: {sorted(elves)})")
        check(any(re.fullmatch(r"libroofline\.so\.\d+", n) for n in elves),
              f"the package carries libroofline.so.<major> (ELF files: {sorted(elves)})")
        for name, tags in sorted(elves.items()):
            paths = [(tag, entry) for tag, value in tags if tag in ("RUNPATH", "RPATH") for entry in value.split(":")]
            for tag, entry in paths:
                check(origin_based(entry), f"{name}: {tag} entry {entry!r} is $ORIGIN-based")
            folder = str(Path(name).parent)
            for tag, needed in tags:
                if tag != "NEEDED" or str(Path(folder) / needed) not in {str(Path(n)) for n in elves}:
                    continue
                # A library of the package needed by another: reachable through $ORIGIN alone.
                check(("RUNPATH", "$ORIGIN") in paths or ("RPATH", "$ORIGIN") in paths,
                      f"{name} finds {needed}, packaged beside it, through $ORIGIN (its paths: {paths})")
    return check.exit_code()


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
