"""A workbook can only compute: no formula takes a path, and while Calc computes a workbook that calls
every formula (valid calls, bad calls, and every text argument given a path or a URL), strace finds no
file, network or process system call made from the add-in's code (a stack frame in libroofline_calc.so
or libroofline.so) but the reading of the user's own catalog folder (~/.config/libroofline), which the
add-in does once when the office creates it, read-only. A control run checks that strace does attribute
such calls to their code.

usage: test_calc_hostile.py WORKDIR OXT LIBROOFLINE ROOFLINE_CLI
"""
import csv
import os
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from calc import (Checks, CSV_IN, CSV_OUT, SOFFICE, Calc, inline_array, load_roofline,  # noqa: E402
                  split_arguments, typed_inline_array)

OURS = re.compile(r"/libroofline(_calc)?\.so")
SYSCALLS = "trace=%file,%network,%process"
HOSTILE_TEXTS = ["/etc/passwd", "file:///etc/passwd", "http://127.0.0.1:9/", "|/bin/sh", "../../x"]

check = Checks(show_passing=True)


def traced(cmd, trace, env):
    """Runs cmd under strace with a stack for every file, network and process system call."""
    subprocess.run(["strace", "-f", "-k", "-qq", "-e", SYSCALLS, "-o", str(trace), *cmd], check=True,
                   env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   timeout=900)
    calls, current = [], None
    for line in trace.read_text(errors="replace").splitlines():
        if line.startswith(" > "):
            if current:
                current[1].append(line)
        else:
            current = (line, [])
            calls.append(current)
    return calls


def main(workdir, oxt, library, cli):
    roofline = load_roofline(library)
    table = roofline.formula_table()

    # 1. No formula takes a path: every argument is a number or a short identifier.
    suspicious = [f"{f['name']}.{a['name']}" for f in table for a in f["args"]
                  if re.fullmatch(r"(.*_)?(path|file|filename|dir|directory|folder|url|uri|host|command)", a["name"], re.I)]
    check(not suspicious, f"no argument takes a path, a file, a URL or a host ({suspicious or 'none'})")

    # 2. A workbook that calls every formula.
    formulas, hostile, explains = [], [], []
    for f in table:
        # A formula with a REST argument (ROOFLINE_WHY) explains any call in words instead of failing.
        explaining = any(a["type"] == roofline.REST for a in f["args"])
        # The example as typed (an inline array in the grammar of Calc's CSV import).
        inner = [typed_inline_array(inline_array(a)) if a.startswith("{") else a for a in split_arguments(f["example"])]
        example = f"{f['name']}({'; '.join(inner)})"
        formulas.append("=INDEX(" + example + "; 1; 1)" if f["result_type"] == roofline.ARRAY else "=" + example)
        # The same call with each argument replaced by text: a path, a URL, a command.
        for i in range(len(f["args"])):
            for text in HOSTILE_TEXTS:
                args = inner + [""] * (len(f["args"]) - len(inner))
                args[i] = '"' + text + '"'
                hostile.append(f"={f['name']}({'; '.join(args)})")
                explains.append(explaining)
    calc = Calc(workdir, oxt)
    own = calc.dir / ".config" / "libroofline"  # the user's catalog folder (HOME is the work folder)
    (own / "catalog").mkdir(parents=True)
    (own / "catalog" / "lab.json").write_text('{"gpus": [{"id": "lab-gpu", "tflops": {"bf16": 10}, "hbm_tbs": 1, "hbm_gb": 8}]}')
    src = calc.dir / "every-formula.csv"
    with open(src, "w", newline="", encoding="utf-8") as out:
        csv.writer(out).writerows([x] for x in formulas + hostile)
    env = dict(os.environ, HOME=str(calc.dir), SAL_USE_VCLPLUGIN="svp")
    outdir = calc.dir / "out"
    calls = traced([SOFFICE, "--headless", "--norestore", *calc.env_args, f"--infilter={CSV_IN}",
                    "--convert-to", CSV_OUT, "--outdir", str(outdir), str(src)], calc.dir / "soffice.trace", env)
    shown = [r[0] if r else "" for r in csv.reader(open(next(outdir.glob("*.csv")), encoding="utf-8"))]
    examples, refused = shown[:len(formulas)], shown[len(formulas):len(formulas) + len(hostile)]
    check(len(examples) == len(table) and not any(s.startswith(("Err:", "#")) for s in examples),
          f"Calc computed every formula's example under strace: {examples}")
    check(len(refused) == len(hostile) and all(s.startswith(("Err:", "#")) for s, e in zip(refused, explains) if not e),
          f"every call with a path, URL or command as an argument shows an error value "
          f"({explains.count(False)} calls)")
    reasons = [s for s, e in zip(refused, explains) if e]
    check(all(s and not s.startswith(("Err:", "#")) for s in reasons),
          f"ROOFLINE_WHY explains each such call in words ({len(reasons)} calls): {sorted(set(reasons))[:3]}...")
    loaded = [c for c in calls if "libroofline_calc.so" in c[0] and "openat" in c[0] and "ENOENT" not in c[0]]
    check(bool(loaded), "the add-in was loaded in the traced office")
    ours = [c for c in calls if any(OURS.search(frame) for frame in c[1])]
    catalog_reads = [c for c in ours if str(own) in c[0] and "O_WRONLY" not in c[0] and "O_RDWR" not in c[0]
                     and "O_CREAT" not in c[0]]
    # fstat of a descriptor already open (the catalog folder, as it is listed) opens nothing new.
    on_open_fd = [c for c in ours if '""' in c[0] and "AT_EMPTY_PATH" in c[0]]
    others = [c for c in ours if c not in catalog_reads and c not in on_open_fd]
    check(not others, f"no file, network or process system call from the add-in's code among {len(calls)} traced, "
          f"but {len(catalog_reads)} read-only ones in its catalog folder"
          + "".join(f"\n    {c[0]}" for c in others[:10]))
    check(any("lab.json" in c[0] for c in catalog_reads), "the add-in read the user's catalog folder")

    # 3. Control: strace attributes a file opened by roofline's own code (the CLI writing its SVG).
    svg = calc.dir / "control.svg"
    control = traced([cli, "plot", "--params-b", "8", "--batch", "64", "--ctx", "4096", "--bw", "3.35",
                      "--svg", str(svg)], calc.dir / "control.trace", dict(os.environ))
    opened = [c for c in control if "control.svg" in c[0]]
    check(bool(opened) and any("/roofline(" in f or "write_svg" in f for f in opened[0][1]),
          "control: strace's stacks name the code that opened a file")

    return check.exit_code()


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:5]))
