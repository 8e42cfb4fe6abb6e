"""Every case of seed-cases.json, typed into a real headless Calc with the add-in installed.

usage: test_calc_seed_cases.py WORKDIR OXT SEED_CASES_JSON
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from calc import Calc, Checks, shows  # noqa: E402


def main(workdir, oxt, seed_cases):
    cases = json.loads(Path(seed_cases).read_text(encoding="utf-8"))["cases"]
    calc = Calc(workdir, oxt)
    shown = calc.compute(["=" + c["formula"] for c in cases])
    check = Checks()
    for case, got in zip(cases, shown):
        exact, tol = case["exact"], case["rel_tol"]
        check(shows(got, exact, tol), f"{case['id']}: ={case['formula']} -> {got!r} (exact {exact}, rel_tol {tol})")
    return check.exit_code()


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
