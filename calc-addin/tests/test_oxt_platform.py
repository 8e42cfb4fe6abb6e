"""The .oxt says which platform it runs on, and LibreOffice holds it to that.

1. Its description.xml (<platform value=...>) and its manifest (the components entry's
   `platform=`) both declare PLATFORM, the build's (CMake computes it from CMAKE_SYSTEM_NAME and
   CMAKE_SYSTEM_PROCESSOR), and that platform's CPU is the one its ELF libraries are built for.
2. Unless WORKDIR is --no-office: a copy of the .oxt that declares another platform (windows_x86_64, or
   linux_aarch64 on Windows builds) is refused by `unopkg add` into a private profile with
   LibreOffice's message "The extension '...' does not work on this computer" (exit status 0 in 7.4)
   and is not installed; the real .oxt is accepted there.

usage: test_oxt_platform.py WORKDIR|--no-office OXT PLATFORM
"""
import re
import shutil
import struct
import sys
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from calc import UNOPKG, Calc, Checks  # noqa: E402

check = Checks()
# ELF e_machine -> LibreOffice's CPU name (desktop/source/deployment/misc/dp_platform.cxx).
ELF_CPU = {62: "x86_64", 3: "x86", 183: "aarch64", 40: "arm_eabi", 21: "powerpc64", 20: "powerpc", 22: "s390x"}


def declared(oxt):
    """(description.xml's platform, the manifest's platform of the components entry)."""
    with zipfile.ZipFile(oxt) as z:
        description = z.read("description.xml").decode()
        manifest = z.read("META-INF/manifest.xml").decode()
    d = re.search(r'<platform\s+value="([^"]*)"', description)
    m = re.search(r'media-type="application/vnd\.sun\.star\.uno-components;platform=([^"]*)"', manifest)
    return (d.group(1) if d else None), (m.group(1) if m else None)


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
    """A copy of the .oxt whose description.xml and manifest declare `platform`."""
    with zipfile.ZipFile(oxt) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            data = src.read(item)
            if item.filename == "description.xml":
                data = re.sub(rb'(<platform\s+value=")[^"]*"', rb'\g<1>' + platform.encode() + b'"', data)
            elif item.filename == "META-INF/manifest.xml":
                data = re.sub(rb'(uno-components;platform=)[^"]*"', rb'\g<1>' + platform.encode() + b'"', data)
            dst.writestr(item, data)
    return out


def main(workdir, oxt, platform):
    d, m = declared(oxt)
    print(f"{oxt}: description.xml <platform value=\"{d}\"/>, manifest platform={m}; the build's: {platform}")
    check(d is not None and d.lower() == platform.lower(), f"description.xml declares the build's platform {platform} ({d})")
    check(m is not None and m.lower() == platform.lower(), f"the manifest's components entry declares {platform} ({m})")
    cpus = elf_cpus(oxt)
    cpu = platform.split("_", 1)[1].lower()
    check(cpus and all(c == cpu for c in cpus.values()), f"its libraries are built for {cpu}: {cpus}")
    if workdir == "--no-office":
        return check.exit_code()

    workdir = Path(workdir).resolve()
    shutil.rmtree(workdir, ignore_errors=True)
    calc = Calc(workdir / "office")
    other = "linux_aarch64" if platform.lower().startswith("windows") else "windows_x86_64"
    wrong = with_platform(oxt, other, workdir / f"roofline-{other}.oxt")
    check(declared(wrong) == (other, other), f"the variant declares {other} in both files")
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
    return check.exit_code()


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
