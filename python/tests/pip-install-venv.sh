#!/usr/bin/env bash
# ctest "python: pip install ./python into a fresh venv, offline": runs the README's pip commands, word for
# word, in a temporary folder outside the source tree whose ./python is the checkout's python/, with
# ROOFLINE_LIBRARY naming the build's library; then checks that the venv's package computes the seed
# case ROOFLINE_DECODE_MS(8; 64; 4096; 3.35) within its tolerance (tests/data/seed-cases.json), that
# `import roofline` is the venv's copy, that its version is the library's, and runs the package tests
# against it.
#
# Usage: pip-install-venv.sh SOURCE_DIR LIBRARY [PYTHON3]
#
# Why --system-site-packages: Debian 12's `python3 -m venv` puts pip 23.0 and setuptools 66 into the venv
# (ensurepip) but not `wheel`, and setuptools before 70.1 needs it to build a wheel ("invalid command
# 'bdist_wheel'"); the venv sees Debian's python3-wheel (and python3-numpy, for sweeps) instead of
# downloading them.
set -euo pipefail
src=$(cd "$1" && pwd)
ROOFLINE_LIBRARY=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
python3=${3:-/usr/bin/python3}
export ROOFLINE_LIBRARY
# Nothing from elsewhere: no PYTHONPATH to the source tree, no index, no extra wheel folder.
unset PYTHONPATH PIP_FIND_LINKS PIP_INDEX_URL PIP_EXTRA_INDEX_URL
export PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1

work=$(mktemp -d "${TMPDIR:-/tmp}/roofline-pip.XXXXXX")
trap 'rm -rf "$work"' EXIT
ln -s "$src/python" "$work/python"
cd "$work"
# `python3` of the README is Debian's, whatever comes first on this PATH.
mkdir bin && ln -s "$python3" bin/python3 && PATH=$work/bin:$PATH

echo "== the README's commands, in $work"
set -x
python3 -m venv --system-site-packages .venv
.venv/bin/pip install --no-index --no-build-isolation ./python
.venv/bin/python -c "import roofline; print(roofline.decode_ms(8, 64, 4096, 3.35))" >printed.txt
{ set +x; } 2>/dev/null
cat printed.txt

echo "== checks"
.venv/bin/python - "$src/tests/data/seed-cases.json" "$src/c-api/include/roofline.h" <<'EOF'
import json, re, sys, sysconfig
from pathlib import Path
from importlib import metadata

import roofline

seed_cases, header = Path(sys.argv[1]), Path(sys.argv[2])
case = next(c for c in json.loads(seed_cases.read_text(encoding="utf-8"))["cases"]
            if c["formula"] == "ROOFLINE_DECODE_MS(8; 64; 4096; 3.35)")
printed = float(Path("printed.txt").read_text())
assert abs(printed - case["exact"]) <= case["rel_tol"] * abs(case["exact"]), (printed, case)
print(f"decode_ms(8, 64, 4096, 3.35) printed {printed}: seed case {case['id']} is {case['exact']} "
      f"(rel_tol {case['rel_tol']})")

site = Path(sysconfig.get_paths()["purelib"]).resolve()
where = Path(roofline.__file__).resolve()
assert Path(sys.prefix).resolve() == Path(".venv").resolve(), sys.prefix
assert where == site / "roofline" / "__init__.py", f"import roofline is {where}, not the venv's {site}"
print(f"import roofline is {where}")

version = re.search(r'^#define ROOFLINE_VERSION_STRING "([^"]+)"$', header.read_text(encoding="utf-8"), re.M)[1]
assert metadata.version("roofline") == version == roofline.library_version(), (metadata.version("roofline"), version)
print(f"pip's roofline {metadata.version('roofline')} is the library's version")
EOF

echo "== the package tests, against the venv's package"
ROOFLINE_SEED_CASES=$src/tests/data/seed-cases.json .venv/bin/python -m unittest discover -s "$src/python/tests"
echo "pip-install-venv: ok"
