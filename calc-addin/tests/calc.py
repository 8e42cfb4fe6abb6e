"""A private, headless LibreOffice Calc for the add-in's tests (run with /usr/bin/python3).

Nothing on the system is touched: each Calc has its own profile and its own shared-extension cache
under a folder of the build tree, so tests can run side by side, as root too. Workbooks are computed
by `soffice --headless --convert-to`, which recalculates them on load.
"""
import contextlib
import csv
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SOFFICE = shutil.which("soffice") or "/usr/bin/soffice"
UNOPKG = shutil.which("unopkg") or "/usr/bin/unopkg"

# Another LibreOffice than the installed one (e.g. the one scripts/libreoffice-backports unpacks): its
# program folder. Python-UNO must then be that office's own (uno.py and pyuno.so in that folder): a
# client reads the office's objects with its own type library, and an older one loses the bridge.
OFFICE_PROGRAM = os.environ.get("ROOFLINE_OFFICE_PROGRAM")
if OFFICE_PROGRAM:
    SOFFICE, UNOPKG = os.path.join(OFFICE_PROGRAM, "soffice"), os.path.join(OFFICE_PROGRAM, "unopkg")
    sys.path.insert(0, OFFICE_PROGRAM)
    os.environ["URE_BOOTSTRAP"] = "vnd.sun.star.pathname:" + os.path.join(OFFICE_PROGRAM, "fundamentalrc")

# Import a CSV with formula evaluation on: each cell computes as if typed.
CSV_IN = "CSV:44,34,76,1,,0,false,false,false,false,false,-1,true"
# Export values at full precision ("save cell contents as shown" off), first sheet.
CSV_OUT = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false"

RECALC_ALWAYS = """<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="ODFRecalcMode" oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
"""


class Calc:
    """A headless Calc with its own profile; with the add-in when `oxt` is given."""

    def __init__(self, workdir, oxt=None, timeout=240, ui_locale=None):
        self.dir = Path(workdir).resolve()
        self.timeout = timeout
        # The user interface's language follows the process locale: "zh-CN" needs its language pack.
        self.locale_env = {}
        if ui_locale:
            posix = ui_locale.replace("-", "_") + ".UTF-8"
            self.locale_env = {"LC_ALL": posix, "LANG": posix, "LANGUAGE": ui_locale.replace("-", "_")}
        shutil.rmtree(self.dir, ignore_errors=True)
        self.dir.mkdir(parents=True)
        # HOME inside the work folder: soffice writes nothing anywhere else.
        self.home = self.dir
        self.user = None
        self.env_args = [
            f"-env:UserInstallation=file://{self.dir}/profile",
            f"-env:UNO_SHARED_PACKAGES_CACHE=file://{self.dir}/shared",
        ]
        # Which LibreOffice this test runs on, in its log.
        self.version = self.run([SOFFICE, "--version"]).stdout.strip()
        print(f"{self.version} ({SOFFICE})", flush=True)
        # Start the profile once, or a later start undoes the extension's registration.
        self.run([SOFFICE, "--headless", "--norestore", "--terminate_after_init", *self.env_args])
        self._recalculate_on_load()
        if oxt:
            # Absolute: soffice and unopkg run in this Calc's folder, not the caller's.
            oxt = Path(oxt).resolve()
            self.run([UNOPKG, "add", "--shared", "-s", "-f", *self.env_args, str(oxt)])
            listed = self.run([UNOPKG, "list", "--shared", *self.env_args]).stdout
            if "org.libroofline.calc-addin" not in listed:
                raise RuntimeError("the add-in is not registered:\n" + listed)

    @classmethod
    def of_profile(cls, workdir, env_args, home, user=None, timeout=240):
        """A headless Calc on a profile that something else set up (scripts/install-addin, say):
        `env_args` name it (none: LibreOffice's default profile under `home`); nothing is reset or
        installed. `user` (a pwd entry) runs it as that user; `workdir` must be theirs."""
        self = cls.__new__(cls)
        self.dir, self.home, self.user = Path(workdir).resolve(), Path(home), user
        self.env_args, self.timeout, self.locale_env = list(env_args), timeout, {}
        return self

    def _env(self):
        return dict(os.environ, HOME=str(self.home), SAL_USE_VCLPLUGIN="svp", **self.locale_env)

    def _user_args(self):
        """Popen arguments that run a process as self.user (none: as this process)."""
        if self.user is None:
            return {}
        return {"user": self.user.pw_uid, "group": self.user.pw_gid, "extra_groups": []}

    def _mkdir(self, path):
        """A folder the office's user can write to."""
        Path(path).mkdir(parents=True, exist_ok=True)
        if self.user is not None:
            os.chown(path, self.user.pw_uid, self.user.pw_gid)

    def run(self, cmd, **kw):
        """Runs soffice or unopkg in this Calc's environment; its CompletedProcess (fails on an error)."""
        # Its own process group: on a timeout the whole office goes, not only the soffice launcher.
        # In this Calc's folder: soffice changes back into the folder it was started from, which another
        # user may not reach.
        kw.setdefault("cwd", self.dir)
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=self._env(),
                                stdin=subprocess.DEVNULL, start_new_session=True, **self._user_args(), **kw)
        try:
            out, err = proc.communicate(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            raise RuntimeError(f"{cmd[0]} did not finish within {self.timeout} s: {' '.join(cmd)}") from None
        if proc.returncode != 0:
            raise RuntimeError(f"{cmd[0]} failed ({proc.returncode}):\n{out}\n{err}")
        return subprocess.CompletedProcess(cmd, proc.returncode, out, err)

    @contextlib.contextmanager
    def uno(self):
        """A running soffice of this Calc, reached through Python-UNO (/usr/bin/python3 only):
        yields its component context. The office is terminated afterwards."""
        import uno  # noqa: PLC0415 (only /usr/bin/python3 has it)
        from com.sun.star.connection import NoConnectException  # noqa: PLC0415
        pipe = f"roofline_{os.getpid()}_{id(self)}"
        proc = subprocess.Popen([SOFFICE, "--headless", "--norestore", "--nologo", "--nodefault",
                                 *self.env_args, f"--accept=pipe,name={pipe};urp;StarOffice.ComponentContext"],
                                env=self._env(), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True, **self._user_args())
        try:
            local = uno.getComponentContext()
            resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
            deadline = time.time() + self.timeout
            while True:
                try:
                    ctx = resolver.resolve(f"uno:pipe,name={pipe};urp;StarOffice.ComponentContext")
                    break
                except NoConnectException:
                    if time.time() > deadline or proc.poll() is not None:
                        raise RuntimeError("soffice did not answer on its pipe")
                    time.sleep(0.3)
            yield ctx
            try:
                ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx).terminate()
            except Exception:  # noqa: BLE001 (the bridge closes as the office goes)
                pass
            proc.wait(timeout=60)
        finally:
            _kill_group(proc)

    def _recalculate_on_load(self):
        """Recalculate every workbook on load, so that cached values never stand in for results."""
        xcu = self.dir / "profile" / "user" / "registrymodifications.xcu"
        text = xcu.read_text(encoding="utf-8")
        xcu.write_text(text.replace("</oor:items>", RECALC_ALWAYS + "</oor:items>"), encoding="utf-8")

    def convert(self, src, to, outdir, infilter=None):
        """Opens `src` in this Calc (recalculating it) and saves it as `to` ("csv", "ods", "xlsx", "pdf")."""
        # Absolute: soffice runs in this Calc's folder, not the caller's.
        outdir, src = Path(outdir).resolve(), Path(src).resolve()
        self._mkdir(outdir)
        cmd = [SOFFICE, "--headless", "--norestore", *self.env_args]
        if infilter:
            cmd.append(f"--infilter={infilter}")
        cmd += ["--convert-to", CSV_OUT if to == "csv" else to, "--outdir", str(outdir), str(src)]
        self.run(cmd)
        stem = Path(src).stem
        out = sorted(outdir.glob(f"{stem}*.{to}"))
        if not out:
            raise RuntimeError(f"soffice wrote no {to} for {src}")
        return out[0]

    def sheet_values(self, src):
        """The first sheet of a workbook as computed by Calc: a list of rows of displayed texts."""
        with tempfile.TemporaryDirectory(dir=self.dir) as tmp:
            self._mkdir(tmp)
            out = self.convert(src, "csv", tmp)
            with open(out, newline="", encoding="utf-8") as f:
                return list(csv.reader(f))

    def compute(self, formulas):
        """Types each formula (e.g. "=ROOFLINE_BALANCE(989; 3.35)") into a cell of column A, as a
        user would, and returns what each cell shows: a number, a text, or an error such as Err:502."""
        with tempfile.TemporaryDirectory(dir=self.dir) as tmp:
            self._mkdir(tmp)
            src = Path(tmp) / "typed.csv"
            with open(src, "w", newline="", encoding="utf-8") as f:
                w = csv.writer(f)
                for formula in formulas:
                    w.writerow([formula])
            out = self.convert(src, "csv", Path(tmp) / "out", infilter=CSV_IN)
            with open(out, newline="", encoding="utf-8") as f:
                rows = list(csv.reader(f))
        cells = [r[0] if r else "" for r in rows]
        cells += [""] * (len(formulas) - len(cells))
        return [parse_cell(c) for c in cells]

    def compute_grid(self, rows):
        """Types rows of cells (numbers, texts, formulas; None for an empty cell) into a sheet from A1, as a user
        would, and returns what every cell shows, row by row (parse_cell: a number, a text or an error)."""
        with tempfile.TemporaryDirectory(dir=self.dir) as tmp:
            self._mkdir(tmp)
            src = Path(tmp) / "typed.csv"
            with open(src, "w", newline="", encoding="utf-8") as f:
                csv.writer(f).writerows([["" if c is None else c for c in row] for row in rows])
            out = self.convert(src, "csv", Path(tmp) / "out", infilter=CSV_IN)
            with open(out, newline="", encoding="utf-8") as f:
                shown = list(csv.reader(f))
        shown += [[]] * (len(rows) - len(shown))
        return [[parse_cell(c) for c in r] + [""] * (len(row) - len(r)) for r, row in zip(shown, rows)]


def _kill_group(proc):
    """Ends a process started in its own session, and everything it started (soffice.bin)."""
    try:
        os.killpg(proc.pid, 9)
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()


class Checks:
    """Counts what a test script checks and ends it with the closing line CI reads."""

    def __init__(self, show_passing=True):
        self.passed = self.failed = 0
        self.show_passing = show_passing

    def __call__(self, ok, what):
        ok = bool(ok)
        if not ok or self.show_passing:
            print(f"{'ok  ' if ok else 'FAIL'} {what}")
        self.passed, self.failed = self.passed + ok, self.failed + (not ok)
        return ok

    def exit_code(self):
        print(f"{self.passed} passed, {self.failed} failed")
        return 1 if self.failed or not self.passed else 0


def split_arguments(call):
    """The arguments of a formula call as typed, "NAME(1; "a"; {"x"; 1 | "y"; 2})" -> ['1', '"a"', '{"x"; 1 | "y"; 2}']:
    split at the ';' outside quotes and braces (an inline array's cells are separated by ';' too)."""
    inner = call[call.index("(") + 1:call.rindex(")")]
    parts, depth, quoted, current = [], 0, False, ""
    for ch in inner:
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in "{}":
            depth += 1 if ch == "{" else -1
        if ch == ";" and not quoted and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    parts.append(current.strip())
    return [p for p in parts if p]


def inline_array(typed):
    """An inline array as typed, '{"x"; 1 | "y"; 2}', as rows of values: [["x", 1.0], ["y", 2.0]]."""
    rows = []
    for row in typed.strip()[1:-1].split("|"):
        rows.append([c.strip()[1:-1] if c.strip().startswith('"') else float(c) for c in row.split(";")])
    return rows


def typed_inline_array(rows):
    """Rows of values as an inline array in the grammar Calc's CSV import reads formulas in (en-US: cells by ',',
    rows by ';')."""
    return "{" + ";".join(",".join(f'"{c}"' if isinstance(c, str) else repr(c) for c in r) for r in rows) + "}"


class Error(str):
    """What a cell shows instead of a value: Err:502, #VALUE!, #NAME?, ..."""


def parse_cell(text):
    if text.startswith("Err:") or text.startswith("#"):
        return Error(text)
    if text == "TRUE":
        return 1.0
    if text == "FALSE":
        return 0.0
    try:
        return float(text)
    except ValueError:
        return text


def close(a, b, rel):
    return abs(a - b) <= rel * abs(b)


def shows(got, expected, rel):
    """Whether a cell shows what is expected: an error value for None, the same text for a str, else a
    number within `rel` of it."""
    if expected is None:
        return isinstance(got, Error)
    if isinstance(expected, str):
        return got == expected
    return isinstance(got, float) and not isinstance(got, Error) and close(got, expected, rel)


# ---- The C ABI, through the Python package: what the spreadsheet must agree with. ----

def load_roofline(library):
    """The Python package `roofline` (python/roofline), bound to this libroofline.so."""
    os.environ["ROOFLINE_LIBRARY"] = str(library)
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python"))
    import roofline  # noqa: PLC0415
    return roofline


def call_or_none(roofline, name, args):
    """The formula's result through the C ABI, or None where the library refuses the input."""
    try:
        return roofline.call(name, *args)
    except roofline.RooflineError:
        return None
