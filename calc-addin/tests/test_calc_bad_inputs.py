"""Bad input through a real Calc: for every formula, every argument takes each value of a table of bad
(and borderline) inputs. Whatever the C ABI refuses must show an error value in its cell; whatever it
accepts must show the C ABI's own result. Calc must survive it all and still compute afterwards.

usage: test_calc_bad_inputs.py WORKDIR OXT LIBROOFLINE
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from calc import (Calc, Checks, Error, call_or_none, inline_array, load_roofline, shows,  # noqa: E402
                  split_arguments, typed_inline_array)

# What a user might type into an argument: (as typed, as the C ABI gets it; None: not a number).
INPUTS = [
    ("-1", -1.0), ("0", 0.0), ("0.5", 0.5), ("1E+300", 1e300), ("-1E+300", -1e300), ("1E-300", 1e-300),
    ('"x"', None), ('""', None), ("1/0", None), ("NA()", None), ("SQRT(-1)", None),
]


# What a user might type into a text argument: (as typed, as the C ABI gets it; None: not a text).
# Calc hands a number typed into a required text argument over as its text; an optional one (an
# `any`) gets the number, which the add-in refuses, as the C ABI refuses the text "1" for it.
TEXT_INPUTS = [('"x"', "x"), ('""', ""), ('"/etc/passwd"', "/etc/passwd"), ('"LLAMA-3-8B"', "LLAMA-3-8B"),
               ("1", "1"), ("1/0", None)]

# What a user might type into a REST argument (ROOFLINE_WHY's arguments): numbers and texts alike.
REST_INPUTS = [i for i in INPUTS if i[1] is not None] + [i for i in TEXT_INPUTS if i[0] != "1"]


def example_args(formula):
    """The valid arguments of the formula's example call (numbers, texts and inline arrays, as rows), then the
    defaults of the rest."""
    inner = split_arguments(formula["example"])
    given = [inline_array(a) if a.startswith("{") else a[1:-1] if a.startswith('"') else float(a) for a in inner]
    return given + [a["default"] for a in formula["args"][len(given):]]


def as_typed_value(value):
    """A value as a user types it into a formula."""
    if isinstance(value, list):
        return typed_inline_array(value)
    return '"' + value + '"' if isinstance(value, str) else repr(value)


def typed_call(name, typed_args, array):
    call = f"{name}({'; '.join(typed_args)})"
    return f"=INDEX({call}; 1; 1)" if array else "=" + call


def expected_value(result, array):
    if result is None:
        return None
    return result[0][0] if array else result


def main(workdir, oxt, library):
    roofline = load_roofline(library)
    cases = []  # (label, typed formula, expected: None for an error, else the C ABI's value)
    for f in roofline.formula_table():
        array = f["result_type"] == roofline.ARRAY
        base = example_args(f)
        typed_base = [as_typed_value(v) for v in base]
        cases.append((f"{f['name']} valid", typed_call(f["name"], typed_base, array),
                      expected_value(call_or_none(roofline, f["name"], base), array)))
        for i, arg in enumerate(f["args"]):
            inputs = {roofline.TEXT: TEXT_INPUTS, roofline.REST: REST_INPUTS}.get(arg["type"], INPUTS)
            for as_typed, value in inputs:
                args = list(base)
                typed_args = list(typed_base)
                typed_args[i] = as_typed
                expected = None
                if value is not None:
                    args[i] = value
                    expected = expected_value(call_or_none(roofline, f["name"], args), array)
                cases.append((f"{f['name']} {arg['name']}={as_typed}", typed_call(f["name"], typed_args, array),
                              expected))
        # Wrong number of arguments (a REST argument takes any number: the C ABI says what one more gives).
        takes_rest = any(a["type"] == roofline.REST for a in f["args"])
        cases.append((f"{f['name']} one argument too many", typed_call(f["name"], typed_base + ["1"], array),
                       expected_value(call_or_none(roofline, f["name"], base + [1.0]), array) if takes_rest else None))
        required = [a for a in f["args"] if not a["optional"]]
        if required:
            cases.append((f"{f['name']} a required argument missing",
                          typed_call(f["name"], typed_base[: len(required) - 1], array), None))
    # Calc survived the table and still computes.
    sentinel = ("still computing after the bad inputs", "=ROOFLINE_BALANCE(989; 3.35)",
                roofline.balance(989, 3.35))
    cases.append(sentinel)

    calc = Calc(workdir, oxt)
    shown = calc.compute([c[1] for c in cases])
    check = Checks(show_passing=False)
    errors = 0
    for (label, typed, expected), got in zip(cases, shown):
        # CSV shows numbers in scientific notation with 8 significant digits.
        ok = check(shows(got, expected, 1e-7),
                   f"{label}: {typed} shows {got!r}, expected {'an error value' if expected is None else expected}")
        errors += ok and expected is None
    print(f"{len(cases)} calls, {errors} of them error values as expected")

    # A workbook of 10,000 bad calls: Calc computes it, every cell shows an error value, and it survives.
    bad = [typed for _, typed, expected in cases[:-1] if expected is None]
    many = [bad[i % len(bad)] for i in range(10000)] + [sentinel[1]]
    shown = calc.compute(many)
    errors = sum(isinstance(s, Error) for s in shown[:-1])
    check(errors == 10000 and shows(shown[-1], sentinel[2], 1e-9),
          f"a workbook of 10,000 bad calls: {errors} error values, then {shown[-1]!r}")
    return check.exit_code()


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
