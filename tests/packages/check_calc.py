"""The Calc side of the Debian package test (tests/packages/test_debs.sh): the system's LibreOffice, as
an unprivileged user (root drops to `nobody`), with the system's own extension folders (no private
shared cache) and the profile PROFILE (a folder: -env:UserInstallation).

  present: `unopkg list --bundled` shows the add-in, and =ROOFLINE_DECODE_MS(8;64;4096;3.35) typed
           into a cell shows EXPECTED_MS (within 1e-9)
  absent:  `unopkg list --bundled` does not show it, and that formula shows #NAME?

usage: check_calc.py present|absent WORKDIR PROFILE EXPECTED_MS
"""
import os
import pwd
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "calc-addin" / "tests"))
from calc import UNOPKG, Calc, Checks, Error, shows  # noqa: E402

ID = "org.libroofline.calc-addin"
FORMULA = "=ROOFLINE_DECODE_MS(8;64;4096;3.35)"


def main(mode, workdir, profile, expected):
    check = Checks()
    user = pwd.getpwnam("nobody") if os.geteuid() == 0 else None
    who = "nobody" if user else "this user"
    workdir, profile = Path(workdir).resolve(), Path(profile).resolve()
    started = (profile / "user" / "extensions" / "buildid").exists()
    print(f"as {who}, the profile {profile} ({'started before' if started else 'never started'})")
    home = workdir / "home"
    for folder in (workdir, home, profile.parent):
        folder.mkdir(parents=True, exist_ok=True)
        if user is not None:
            os.chown(folder, user.pw_uid, user.pw_gid)
    calc = Calc.of_profile(workdir, [f"-env:UserInstallation=file://{profile}"], home, user)
    shown = calc.compute([FORMULA])[0]
    listing = calc.run([UNOPKG, "list", "--bundled", *calc.env_args]).stdout
    if mode == "present":
        check(f"Identifier: {ID}" in listing, f"as {who}: unopkg list --bundled shows {ID}")
        check(shows(shown, expected, 1e-9), f"as {who}: {FORMULA} shows {shown!r} (expected {expected})")
    else:
        check(ID not in listing, f"as {who}: unopkg list --bundled no longer shows {ID}")
        check(isinstance(shown, Error) and shown == "#NAME?", f"as {who}: {FORMULA} shows {shown!r} (expected #NAME?)")
    return check.exit_code()


if __name__ == "__main__":
    if len(sys.argv) != 5 or sys.argv[1] not in ("present", "absent"):
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])))
