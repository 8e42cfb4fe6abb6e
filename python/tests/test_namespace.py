"""The package's namespace is its API: what dir() and `from roofline import *` show is __all__, and
__all__ is the documented functions, classes and constants plus one function per formula; the
modules the package works with (ctypes, os, pathlib, inspect) stay private."""
import unittest

import roofline

API = {"RooflineError", "ArgumentError", "NoSolutionError", "formulas", "formula_table", "call",
       "library_version", "import_hf_config", "add_catalog", "load_user_catalog", "NUMBER", "TEXT", "ARRAY", "REST",
       "TABLE"}


class Namespace(unittest.TestCase):
    def test_all_is_the_api_and_the_formula_functions(self):
        self.assertEqual(len(roofline.__all__), len(set(roofline.__all__)))
        self.assertEqual(set(roofline.__all__), API | set(roofline.formulas()))

    def test_public_names_are_exactly_all(self):
        public = {name for name in dir(roofline) if not name.startswith("_")}
        self.assertEqual(public, set(roofline.__all__))

    def test_star_import_gives_exactly_all(self):
        namespace = {}
        exec("from roofline import *", namespace)  # noqa: S102 (a fixed statement)
        namespace.pop("__builtins__")
        self.assertEqual(set(namespace), set(roofline.__all__))

    def test_standard_library_modules_are_not_exposed(self):
        for name in ("ctypes", "os", "Path", "inspect", "json"):
            with self.subTest(name):
                self.assertFalse(hasattr(roofline, name))


if __name__ == "__main__":
    unittest.main()
