"""ctest "docs: the README's four answers ...": the README's sections "One question, four ways" and "The capacity
planner" show what the built hosts print (no figure in them goes stale: the plan's rows and its count of further
configurations are the build's). In those sections:

- every ```console block is run: each line "$ roofline ..." or "$ ./decode-step" is a command (the built CLI,
  the built examples/c/decode-step), the lines after it up to the next "$ " its exact output;
- every ```pycon block runs as a doctest against the built library;
- every ```c block is examples/c/decode-step.c, word for word;
- every "`=ROOFLINE_...(...)` shows `V`" is that formula through the library, shown as Calc shows it with as
  many decimals as V has (halves away from zero).

Usage: check_readme_answers.py README CLI DECODE_STEP LIBRARY PYTHON_DIR EXAMPLE_C
"""
import decimal
import doctest
import os
import re
import subprocess
import sys
import tempfile

# Each section and the kinds of answer it must show.
SECTIONS = [("## One question, four ways", ("roofline", "./decode-step", "pycon", "c", "calc")),
            ("## The capacity planner", ("roofline", "pycon"))]


def fail(message):
    print(f"check_readme_answers: {message}", file=sys.stderr)
    sys.exit(1)


def blocks(text):
    """(language, body) of each fenced block."""
    return re.findall(r"^```(\w*)\n(.*?)^```$", text, flags=re.S | re.M)


def calc_shows(value, decimals):
    q = decimal.Decimal(1).scaleb(-decimals)
    return str(decimal.Decimal(repr(value)).quantize(q, rounding=decimal.ROUND_HALF_UP))


def calc_arguments(text):
    args = []
    for a in (x.strip() for x in text.split(";")):
        args.append(a[1:-1] if a.startswith('"') else float(a))
    return args


def section_of(text, name):
    start = text.find("\n" + name + "\n")
    if start == -1:
        fail(f"README.md has no section \"{name}\"")
    end = text.find("\n## ", start + 1)
    return text[start:end if end != -1 else len(text)]


def check_section(name, section, wanted, cli, decode_step, example_c, env, readme, roofline):
    """Runs the section's blocks and Calc values; fails unless each kind of answer in `wanted` is there."""
    seen = {k: 0 for k in ("roofline", "./decode-step", "pycon", "c", "calc")}
    with tempfile.TemporaryDirectory() as home:
        env = dict(env, HOME=home, XDG_CONFIG_HOME=home)  # no user folder of this machine
        for language, body in blocks(section):
            if language == "console":
                for command, output in re.findall(r"^\$ (.*)\n((?:(?!\$ ).*\n)*)", body, flags=re.M):
                    program, *rest = command.split(" ", 1)
                    binary = {"roofline": cli, "./decode-step": decode_step}.get(program)
                    if binary is None:
                        fail(f"a console block runs '{program}', which this check does not know")
                    args = rest[0].split() if rest else []
                    r = subprocess.run([binary, *args], capture_output=True, text=True, env=env)
                    if r.returncode != 0 or r.stdout != output:
                        fail(f"'{command}' printed (exit {r.returncode}):\n{r.stdout}{r.stderr}"
                             f"but README.md shows:\n{output}")
                    seen[program] += 1
            elif language == "pycon":
                test = doctest.DocTestParser().get_doctest(body, {}, "README.md", readme, 0)
                runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
                runner.run(test)
                if runner.failures:
                    fail(f"the README's Python block fails ({runner.failures} of {runner.tries} examples)")
                seen["pycon"] += 1
            elif language == "c":
                if body != open(example_c, encoding="utf-8").read():
                    fail(f"the README's C block is not {example_c}, word for word")
                seen["c"] += 1
    for formula, arguments, shown in re.findall(r"`=(ROOFLINE_[A-Z_]+)\((.*?)\)` shows `([0-9.,]+)`", section):
        value = roofline.call(formula, *calc_arguments(arguments))
        decimals = len(shown.split(".")[1]) if "." in shown else 0
        if calc_shows(value, decimals) != shown.replace(",", ""):
            fail(f"={formula}({arguments}) is {value}, shown as {calc_shows(value, decimals)}, "
                 f"but README.md says `{shown}`")
        seen["calc"] += 1
    missing = [k for k in wanted if seen[k] == 0]
    if missing:
        fail(f"the section \"{name}\" has no answer of: {', '.join(missing)}")
    return seen


def main():
    readme, cli, decode_step, library, python_dir, example_c = sys.argv[1:7]
    text = open(readme, encoding="utf-8").read()
    env = dict(os.environ, ROOFLINE_LIBRARY=library, ROOFLINE_NO_USER_CATALOG="1")
    env["PYTHONPATH"] = python_dir + os.pathsep + env.get("PYTHONPATH", "")
    sys.path.insert(0, python_dir)
    os.environ.update(ROOFLINE_LIBRARY=library, ROOFLINE_NO_USER_CATALOG="1")
    import roofline  # noqa: E402 (the built library, by ROOFLINE_LIBRARY)

    for name, wanted in SECTIONS:
        seen = check_section(name, section_of(text, name), wanted, cli, decode_step, example_c, env, readme, roofline)
        print(f"the README's \"{name}\" is what the built hosts give:", seen)


if __name__ == "__main__":
    main()
