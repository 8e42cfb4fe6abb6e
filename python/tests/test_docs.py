"""The examples of the module's docstring and of python/README.md (the package's readme) run, and print
what they show."""
import doctest
import unittest
from pathlib import Path

import roofline

try:
    import numpy
except ImportError:
    numpy = None

README = Path(__file__).resolve().parents[1] / "README.md"


class Examples(unittest.TestCase):
    def test_module_docstring(self):
        result = doctest.testmod(roofline, optionflags=doctest.ELLIPSIS)
        self.assertGreater(result.attempted, 3)
        self.assertEqual(result.failed, 0)

    @unittest.skipIf(numpy is None, "numpy is not installed (Debian: python3-numpy)")
    def test_readme(self):
        result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
        self.assertGreater(result.attempted, 5)
        self.assertEqual(result.failed, 0)


if __name__ == "__main__":
    unittest.main()
