"""The .oxt says which platforms it runs on, carries what each needs, and LibreOffice holds it to that.

1. Its description.xml (<platform value=...>, a comma-separated list) names exactly the platforms its
   manifest's components entries declare (`platform=`), the build's PLATFORM among them (CMake computes it
   from CMAKE_SYSTEM_NAME and CMAKE_SYSTEM_PROCESSOR); each components entry has a type library entry for
   the same platforms. The build's platform runs the C++ component (roofline.components) when the .oxt
   has it, else the Python one (the test variant); its ELF libraries are built for that platform's CPU.
2. Every other platform runs the Python component (roofline_addin.py, in the .oxt) with the library that
   the component itself picks for it (its library_file()): Windows x86-64 roofline.dll (PE, x86-64, in
   the .oxt); macOS libroofline.dylib (Mach-O when present; the place only otherwise: built on a Mac).
3. Unless WORKDIR is --no-office: a copy of the .oxt that declares another platform (windows_x86_64, or
   linux_aarch64 on Windows builds) is refused by `unopkg add` into a private profile with
   LibreOffice's message "The extension '...' does not work on this computer" (exit status 0 in 7.4)
   and is not installed; the real .oxt is accepted there, and a formula computes with the component of
   this platform: the C++ one's library is loaded in the office and no Python (when the .oxt has it).

usage: test_oxt_platform.py WORKDIR|--no-office OXT PLATFORM
"""
import importlib.util
import re
import shutil
import struct
import sys
import tempfile
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from calc import UNOPKG, Calc, Checks  # noqa: E402

check = Checks()
# ELF e_machine -> LibreOffice's CPU name (desktop/source/deployment/misc/dp_platform.cxx).
ELF_CPU = {62: "x86_64", 3: "x86", 183: "aarch64", 40: "arm_eabi", 21: "powerpc64", 20: "powerpc", 22: "s390x"}


def declared(oxt):
    """(description.xml's platforms, the manifest's entries as (kind, platforms, path))."""
    with zipfile.ZipFile(oxt) as z:
        description = z.read("description.xml").decode()
        manifest = z.read("META-INF/manifest.xml").decode()
    d = re.search(r'<platform\s+value="([^"]*)"', description)
    entries = []
    for e in re.finditer(r'<manifest:file-entry\s+manifest:media-type="([^"]*)"\s+manifest:full-path="([^"]*)"', manifest):
        kind, *params = e.group(1).split(";")
        platform = next((p.split("=", 1)[1] for p in params if p.startswith("platform=")), "")
        entries.append((kind.rsplit(".", 1)[-1], [p.strip().lower() for p in platform.split(",") if p.strip()], e.group(2)))
    return ([p.strip().lower() for p in d.group(1).split(",")] if d else None), entries


# LibreOffice's platform -> (sys.platform, the process's machine) of a Python there.
PYTHON_PLATFORM = {"windows_x86_64": ("win32", "AMD64"), "macosx_x86_64": ("darwin", "x86_64"),
                   "macosx_aarch64": ("darwin", "arm64"), "linux_x86_64": ("linux", "x86_64"),
                   "linux_aarch64": ("linux", "aarch64")}


def component_module(oxt, folder):
    """The .oxt's roofline_addin.py, imported (without an office: its library_file() only)."""
    path = Path(folder) / "roofline_addin.py"
    with zipfile.ZipFile(oxt) as z:
        path.write_bytes(z.read("roofline_addin.py"))
    spec = importlib.util.spec_from_file_location("roofline_addin_of_oxt", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def binary_kind(data):
    """'ELF', 'PE x86_64', 'Mach-O' or what else a library file starts with."""
    if data[:4] == b"\x7fELF":
        return "ELF"
    if data[:2] == b"MZ":
        pe = struct.unpack("<I", data[0x3C:0x40])[0]
        if data[pe:pe + 4] == b"PE\0\0":
            machine = struct.unpack("<H", data[pe + 4:pe + 6])[0]
            return {0x8664: "PE x86_64", 0xAA64: "PE aarch64", 0x14C: "PE x86"}.get(machine, f"PE {machine:#x}")
    if data[:4] in (b"\xcf\xfa\xed\xfe", b"\xca\xfe\xba\xbe"):  # 64-bit Mach-O, universal (fat)
        return "Mach-O"
    return repr(data[:4])


def check_layout(oxt, platform):
    platforms, entries = declared(oxt)
    platform = platform.lower()
    components = {path: plats for kind, plats, path in entries if kind == "uno-components"}
    typelibs = [plats for kind, plats, path in entries if kind == "uno-typelibrary"]
    declared_by_components = sorted({p for plats in components.values() for p in plats})
    print(f"{oxt}: description.xml platforms {platforms}; components {components}; the build's: {platform}")
    check(platforms is not None and platform in platforms, f"description.xml declares the build's platform {platform} ({platforms})")
    check(platforms is not None and sorted(platforms) == declared_by_components,
          f"description.xml names exactly the components entries' platforms ({declared_by_components})")
    check(all(plats in typelibs for plats in components.values()),
          f"each components entry has a type library for the same platforms ({typelibs})")
    native = [path for path, plats in components.items() if platform in plats]
    check(len(native) == 1, f"one components entry for {platform}: {native}")
    with zipfile.ZipFile(oxt) as z:
        names = set(z.namelist())
        missing = [path for kind, plats, path in entries if path not in names]
        check(not missing, f"every file the manifest names is in the .oxt (missing: {missing})")
        python_platforms = sorted({p for path, plats in components.items() if path != "roofline.components" for p in plats})
        if python_platforms:
            check("roofline_addin.py" in names, f"the Python component is in the .oxt for {python_platforms}")
            with tempfile.TemporaryDirectory() as tmp:
                m = component_module(oxt, tmp)
                for p in python_platforms:
                    file = m.library_file(*PYTHON_PLATFORM[p])
                    if p.startswith("macosx") and file not in names:
                        print(f"note {p}: {file} is not in this .oxt (built on a Mac only; the component says so)")
                        continue
                    kind = binary_kind(z.read(file)) if file in names else None
                    want = {"windows": "PE x86_64", "macosx": "Mach-O", "linux": "ELF"}[p.split("_")[0]]
                    check(kind == want, f"{p}: the Python component loads {file}, in the .oxt, {want} ({kind})")
        if platform in components.get("roofline.components", []):
            check("libroofline_calc.so" in names, f"{platform} runs the C++ component, libroofline_calc.so")
    return native[0] if native else None


def elf_cpus(oxt):
    """The CPU name of every ELF library in the .oxt."""
    cpus = {}
    with zipfile.ZipFile(oxt) as z:
        for name in z.namelist():
            head = z.read(name)[:20]
            if head[:4] == b"\x7fELF":
                machine = struct.unpack("<H" if head[5] == 1 else ">H", head[18:20])[0]
                cpus[name] = ELF_CPU.get(machine, f"e_machine {machine}")
    return cpus


def with_platform(oxt, platform, out):
    """A copy of the .oxt whose description.xml and manifest declare `platform` only."""
    with zipfile.ZipFile(oxt) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            data = src.read(item)
            if item.filename == "description.xml":
                data = re.sub(rb'(<platform\s+value=")[^"]*"', rb'\g<1>' + platform.encode() + b'"', data)
            elif item.filename == "META-INF/manifest.xml":
                data = re.sub(rb'(;platform=)[^"]*"', rb'\g<1>' + platform.encode() + b'"', data)
            dst.writestr(item, data)
    return out


def office_libraries(calc):
    """The shared libraries mapped by the soffice.bin of this Calc's profile (found by its command line)."""
    profile = calc.env_args[0].encode()
    for proc in Path("/proc").iterdir():
        try:
            cmdline = (proc / "cmdline").read_bytes().split(b"\0")
            if cmdline[0].endswith(b"soffice.bin") and profile in cmdline:
                return {Path(line.split()[-1]).name for line in (proc / "maps").read_text().splitlines()
                        if len(line.split()) >= 6}
        except (OSError, IndexError):
            continue
    return set()


def main(workdir, oxt, platform):
    native = check_layout(oxt, platform)
    cpus = elf_cpus(oxt)
    cpu = platform.split("_", 1)[1].lower()
    check(cpus and all(c == cpu for c in cpus.values()), f"its ELF libraries are built for {cpu}: {cpus}")
    if workdir == "--no-office":
        return check.exit_code()

    workdir = Path(workdir).resolve()
    shutil.rmtree(workdir, ignore_errors=True)
    calc = Calc(workdir / "office")
    other = "linux_aarch64" if platform.lower().startswith("windows") else "windows_x86_64"
    wrong = with_platform(oxt, other, workdir / f"roofline-{other}.oxt")
    platforms, entries = declared(wrong)
    check(platforms == [other] and all(plats == [other] for kind, plats, path in entries if plats),
          f"the variant declares {other} only: {platforms}, {entries}")
    # LibreOffice 7.4 prints its refusal and exits with status 0: the message and the listing tell.
    try:
        done = calc.run([UNOPKG, "add", "--shared", "-s", "-f", *calc.env_args, str(wrong)])
        said = done.stdout + done.stderr
    except RuntimeError as e:
        said = str(e)
    print(f"unopkg add of the {other} variant says: {said.strip()}")
    check(re.search(r"The extension '[^']+' does not work on this computer", said),
          "unopkg refuses it with LibreOffice's message \"The extension '...' does not work on this computer\"")
    listed = calc.run([UNOPKG, "list", "--shared", *calc.env_args]).stdout
    check("org.libroofline.calc-addin" not in listed, "the refused extension is not installed")
    calc.run([UNOPKG, "add", "--shared", "-s", "-f", *calc.env_args, str(oxt)])
    listed = calc.run([UNOPKG, "list", "--shared", *calc.env_args]).stdout
    check("org.libroofline.calc-addin" in listed, f"the real .oxt ({platform}) is accepted in the same profile")

    # Which component computes here: the one of this platform's entry, and only that one.
    with calc.uno() as ctx:
        desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
        from com.sun.star.beans import PropertyValue  # noqa: PLC0415
        hidden = PropertyValue()
        hidden.Name, hidden.Value = "Hidden", True
        doc = desktop.loadComponentFromURL("private:factory/scalc", "_blank", 0, (hidden,))
        cell = doc.Sheets.getByIndex(0).getCellRangeByName("A1")
        cell.setFormula("=ROOFLINE_BALANCE(989; 3.35)")
        doc.calculateAll()
        value = cell.getValue()
        loaded = office_libraries(calc)
        doc.close(True)
    check(abs(value - 989 / 3.35) < 1e-9, f"=ROOFLINE_BALANCE(989; 3.35) computes: {value}")
    soname = next((n for n in loaded if n.startswith("libroofline.so.")), None)
    check(soname, f"the office loaded the bundled libroofline ({soname})")
    if native == "roofline.components":
        check("libroofline_calc.so" in loaded and "libpyuno.so" not in loaded and "roofline-python.rdb" not in loaded,
              "the C++ component computes: libroofline_calc.so is loaded, Python-UNO (libpyuno.so) and the "
              f"Python component's roofline-python.rdb are not (the other platforms' entries are left alone): {sorted(n for n in loaded if 'roofline' in n or 'pyuno' in n)}")
    else:
        check("libpyuno.so" in loaded and "libroofline_calc.so" not in loaded and "roofline-python.rdb" in loaded,
              "the Python component computes: Python-UNO (libpyuno.so) and its roofline-python.rdb are loaded, "
              "libroofline_calc.so is not: "
              f"{sorted(n for n in loaded if 'roofline' in n or 'pyuno' in n)}")
    return check.exit_code()


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
