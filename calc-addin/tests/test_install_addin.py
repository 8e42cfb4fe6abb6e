"""scripts/install-addin installs the add-in into a profile LibreOffice never started, as an unprivileged
user (root drops to `nobody`), and for every user (--shared, as root, into a private shared folder):
afterwards `unopkg list` shows it registered (enabled) and a headless Calc of that user computes the
C ABI's values. As root without --shared it refuses, saying why.

usage: test_install_addin.py WORKDIR OXT INSTALL_SCRIPT LIBROOFLINE
"""
import atexit
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from calc import UNOPKG, Calc, Checks, load_roofline, shows  # noqa: E402

check = Checks()
ID = "org.libroofline.calc-addin"


def unprivileged_user():
    """The user the installs run as: `nobody` when this runs as root, else this user."""
    return pwd.getpwnam("nobody") if os.geteuid() == 0 else None


def fresh_home(path, user):
    """An empty HOME for `user`: no LibreOffice profile in it."""
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    if user is not None:
        os.chown(path, user.pw_uid, user.pw_gid)
    return path


def run_script(script, args, home, user):
    """Runs the install script with a clean environment; (exit status, what it printed)."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "LANG": "C.UTF-8"}
    ids = {} if user is None else {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}
    proc = subprocess.run([str(script), *args], env=env, cwd=home, capture_output=True, text=True, timeout=900,
                          stdin=subprocess.DEVNULL, **ids)
    print(f"$ {Path(script).name} {' '.join(args)}\n{proc.stdout}{proc.stderr}")
    return proc.returncode, proc.stdout + proc.stderr


def registration_lines(listing):
    return [line.strip() for line in listing.splitlines() if "is registered:" in line]


def check_enabled(calc, scope, what):
    """`unopkg list` of this Calc's user shows the extension, and it and all its parts registered."""
    listing = calc.run([UNOPKG, "list", *scope, *calc.env_args]).stdout
    lines = registration_lines(listing)
    check(f"Identifier: {ID}" in listing, f"{what}: unopkg list shows {ID}")
    check(len(lines) >= 3 and all(line == "is registered: yes" for line in lines),
          f"{what}: the extension and its parts are registered, i.e. enabled: {lines}")


def check_computes(calc, roofline, what):
    """Formulas typed into that user's headless Calc show the C ABI's values."""
    cases = [("=ROOFLINE_DECODE_MS(8; 64; 4096; 3.35)", roofline.call("ROOFLINE_DECODE_MS", 8, 64, 4096, 3.35)),
             ("=ROOFLINE_BALANCE(989; 3.35)", roofline.call("ROOFLINE_BALANCE", 989, 3.35)),
             ('=ROOFLINE_GPU("h100-sxm"; "hbm_tbs")', roofline.call("ROOFLINE_GPU", "h100-sxm", "hbm_tbs"))]
    for (formula, expected), got in zip(cases, calc.compute([c[0] for c in cases])):
        check(shows(got, expected, 1e-7), f"{what}: {formula} shows {got!r} (C ABI: {expected})")


def main(workdir, oxt, script, library):
    roofline = load_roofline(library)
    workdir, oxt, script = Path(workdir).resolve(), Path(oxt).resolve(), Path(script).resolve()
    shutil.rmtree(workdir, ignore_errors=True)
    user = unprivileged_user()
    if user is not None:
        # The unprivileged user must reach the script, the .oxt and its HOME, wherever the checkout lies
        # (a clone in `mktemp -d` is 0700): all of them go into a folder of their own under /tmp.
        workdir = Path(tempfile.mkdtemp(prefix="roofline-install-addin-"))
        workdir.chmod(0o755)
        atexit.register(shutil.rmtree, workdir, True)
        oxt, script = Path(shutil.copy(oxt, workdir)), Path(shutil.copy(script, workdir))
    who = "nobody" if user else "this user"

    # ---- For one user, into the default profile of a HOME LibreOffice has never seen ----
    home = fresh_home(workdir / "user-home", user)
    profile = home / ".config" / "libreoffice" / "4"
    status, said = run_script(script, [str(oxt)], home, user)
    check(status == 0, f"as {who}: install-addin succeeds (exit status {status})")
    check("starting the profile" in said and "registered and enabled" in said and "computes" in said,
          f"as {who}: it says that it started the never-started profile, that the extension is enabled, "
          "and what a headless Calc computed")
    buildid = profile / "user" / "extensions" / "buildid"
    check(buildid.is_file(), f"as {who}: the profile was started ({buildid} exists)")
    if user is not None:
        check(profile.is_dir() and profile.stat().st_uid == user.pw_uid, f"the profile belongs to {who}, not root")
    calc = Calc.of_profile(fresh_home(workdir / "user-scratch", user), [], home, user)
    check_enabled(calc, [], f"as {who}, after install-addin")
    check_computes(calc, roofline, f"as {who}, in their own Calc")

    status, said = run_script(script, [str(oxt)], home, user)
    check(status == 0 and "was started before" in said,
          f"as {who}, installed again: succeeds without restarting the profile (exit status {status})")
    check_computes(calc, roofline, f"as {who}, after installing again")

    # Plain `unopkg add`, stdin closed, into a profile that was started: no license to accept, no prompt.
    calc.run([UNOPKG, "remove", ID])
    try:
        calc.run([UNOPKG, "add", str(oxt)])
        failure = ""
    except RuntimeError as e:
        failure = str(e)
    check(not failure, f"as {who}: plain `unopkg add roofline.oxt` asks nothing {failure}")
    check_computes(calc, roofline, f"as {who}, after a plain unopkg add")

    if user is None:
        print("not root: the --shared install and the refusal as root are root's to test")
        return check.exit_code()

    # ---- As root ----
    status, said = run_script(script, [str(oxt)], workdir, None)
    check(status == 2 and "--shared" in said, f"as root without --shared: refused with a pointer to --shared ({status})")

    # For every user: into a private shared folder (the system's own is left alone), then a new user
    # whose profile was never started computes with it.
    shared = workdir / "shared"
    status, said = run_script(script, ["--shared", "--shared-cache", str(shared), str(oxt)], workdir, None)
    check(status == 0 and "registered and enabled" in said and "computes" in said,
          f"as root, --shared: installs, says the extension is enabled and what Calc computed ({status})")
    shared_env = [f"-env:UNO_SHARED_PACKAGES_CACHE=file://{shared}"]
    new_home = fresh_home(workdir / "new-user-home", user)
    new_user = Calc.of_profile(fresh_home(workdir / "new-user-scratch", user), shared_env, new_home, user)
    check_computes(new_user, roofline, f"a new user ({who}) after a --shared install")
    check_enabled(new_user, ["--shared"], f"a new user ({who}) after a --shared install")
    return check.exit_code()


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:5]))
