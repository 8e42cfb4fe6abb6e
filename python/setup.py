"""The package's version is the library's: ROOFLINE_VERSION_STRING in c-api/include/roofline.h (the one
place for it), or, when building from an sdist (no header beside it), the version its PKG-INFO records.
It also names the one package. Everything else is in pyproject.toml."""
import re
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent


def version():
    header = HERE.parent / "c-api" / "include" / "roofline.h"
    if header.is_file():
        found = re.search(r'^#define ROOFLINE_VERSION_STRING "([^"]+)"$', header.read_text(encoding="utf-8"), re.M)
        if found:
            return found.group(1)
    pkg_info = HERE / "PKG-INFO"
    if pkg_info.is_file():
        found = re.search(r"^Version: (\S+)$", pkg_info.read_text(encoding="utf-8"), re.M)
        if found:
            return found.group(1)
    raise RuntimeError(f"roofline: no version: neither {header} nor {pkg_info} says it")


setup(version=version(), packages=["roofline"])
