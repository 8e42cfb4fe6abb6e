"""Sweeps: sequences and numpy arrays for the arguments of a formula, broadcast as numpy broadcasts, give
arrays whose elements are the scalar calls' results (and the article's numbers, computed here by hand);
shapes that do not broadcast and bad elements raise ArgumentError naming the argument and the index;
numpy stays optional."""
import os
import subprocess
import sys
import unittest

import roofline

try:
    import numpy as np
except ImportError:  # the package works without numpy; its numpy tests are then skipped
    np = None


def by_hand_decode_ms(batch, ctx, kv_kib=128):
    """ROOFLINE_DECODE_MS(8; batch; ctx; 3.35) of the article: memory bound, (16e9 B of weights + batch x ctx
    x kv KiB) / 3.35e12 B/s, in ms."""
    return (16e9 + batch * ctx * kv_kib * 1024) / 3.35e12 * 1e3


class Lists(unittest.TestCase):
    def test_a_list_gives_a_list_of_the_scalar_results(self):
        batches = [1, 8, 64]
        got = roofline.decode_ms(8, batches, 4096, 3.35)
        self.assertIsInstance(got, list)
        self.assertEqual(got, [roofline.decode_ms(8, b, 4096, 3.35) for b in batches])
        for b, ms in zip(batches, got):
            self.assertAlmostEqual(ms, by_hand_decode_ms(b, 4096), delta=1e-12 * ms)
        self.assertAlmostEqual(got[2], 15.0328, delta=1e-4)  # the article's figure

    def test_nested_lists_broadcast_like_numpy(self):
        # batch as a column (2 x 1), ctx as a row (2): a 2 x 2 grid, batch down, ctx across.
        got = roofline.decode_ms(8, [[1], [64]], (0, 4096), 3.35)
        self.assertEqual(got, [[roofline.decode_ms(8, b, c, 3.35) for c in (0, 4096)] for b in (1, 64)])
        self.assertAlmostEqual(got[1][1], by_hand_decode_ms(64, 4096), delta=1e-9)
        self.assertAlmostEqual(got[0][0], 16e9 / 3.35e9, delta=1e-12)

    def test_keywords_optional_arguments_and_ranges(self):
        got = roofline.decode_ms(8, range(1, 4), 4096, 3.35, kv_kib_per_token=[64, 128, 256])
        self.assertEqual(got, [roofline.decode_ms(8, b, 4096, 3.35, kv_kib_per_token=k)
                               for b, k in zip((1, 2, 3), (64, 128, 256))])
        self.assertAlmostEqual(got[0], by_hand_decode_ms(1, 4096, 64), delta=1e-12)

    def test_text_arguments_sweep_too(self):
        gpus = ["h100-sxm", "a100-sxm-80gb", "l40s"]
        got = roofline.step_ms("llama-3-8b", gpus, 32, [1024, 2048, 4096], profile="typical")
        self.assertEqual(got, [roofline.step_ms("llama-3-8b", g, 32, c, profile="typical")
                               for g, c in zip(gpus, (1024, 2048, 4096))])

    def test_call_by_name_and_empty_sweeps(self):
        self.assertEqual(roofline.call("roofline_balance", [989, 495], 3.35),
                         [roofline.balance(989, 3.35), roofline.balance(495, 3.35)])
        self.assertEqual(roofline.decode_ms(8, [], 4096, 3.35), [])
        self.assertEqual(roofline.decode_ms(8, [1], 4096, 3.35), [roofline.decode_ms(8, 1, 4096, 3.35)])


class Errors(unittest.TestCase):
    def test_shapes_that_do_not_broadcast_name_the_argument(self):
        with self.assertRaises(roofline.ArgumentError) as e:
            roofline.decode_ms(8, [1, 2], [0, 1, 2], 3.35)
        self.assertEqual(e.exception.argument, "ctx")
        self.assertIn("argument 'ctx'", str(e.exception))
        self.assertIn("(3,)", str(e.exception))
        self.assertIsNone(e.exception.index)

    def test_a_bad_element_names_the_argument_and_the_index(self):
        with self.assertRaises(roofline.ArgumentError) as e:
            roofline.decode_ms(8, [1, 0.5, 64], 4096, 3.35)
        self.assertEqual((e.exception.argument, e.exception.index), ("batch", 1))
        self.assertEqual(str(e.exception),
                         "ROOFLINE_DECODE_MS: argument 'batch': must be a whole number >= 1 (got 0.5) (at index 1)")
        with self.assertRaises(roofline.ArgumentError) as e:  # two axes: the index is a tuple
            roofline.decode_ms(8, [[1], [2]], [0, -1], 3.35)
        self.assertEqual((e.exception.argument, e.exception.index), ("ctx", (0, 1)))
        for bad in (None, "64", True):  # not a number: refused before the library, as precisely
            with self.subTest(bad=bad):
                with self.assertRaises(roofline.ArgumentError) as e:
                    roofline.decode_ms(8, [1, 2, bad], 4096, 3.35)
                self.assertEqual((e.exception.argument, e.exception.index), ("batch", 2))
                self.assertIn("argument 'batch'", str(e.exception))
        with self.assertRaises(roofline.ArgumentError) as e:  # a number where a text belongs
            roofline.step_ms("llama-3-8b", ["h100-sxm", 5], 1, 0)
        self.assertEqual((e.exception.argument, e.exception.index), ("gpu", 1))
        with self.assertRaises(roofline.ArgumentError) as e:  # an unknown id in a text column
            roofline.step_ms("llama-3-8b", ["h100-sxm", "h100-sxn"], 1, 0)
        self.assertEqual((e.exception.argument, e.exception.index, e.exception.status),
                         ("gpu", 1, "ROOFLINE_ERROR_UNKNOWN_ID"))

    def test_no_answer_in_a_sweep(self):
        # ROOFLINE_CRITICAL_BATCH has an answer without KV (ctx 0), none at 4096 tokens of KV per sequence.
        with self.assertRaises(roofline.NoSolutionError) as e:
            roofline.critical_batch(8, [0, 4096], 989, 3.35)
        self.assertEqual((e.exception.index, e.exception.status), (1, "ROOFLINE_ERROR_NO_SOLUTION"))

    def test_ragged_sequences_and_non_number_formulas_are_refused(self):
        with self.assertRaises(roofline.ArgumentError) as e:
            roofline.decode_ms(8, [[1, 2], [3]], 4096, 3.35)
        self.assertEqual(e.exception.argument, "batch")
        with self.assertRaises(roofline.ArgumentError) as e:
            roofline.roof(989, [3.35, 2.0])
        self.assertEqual(e.exception.argument, "tbs")
        self.assertIn("ROOFLINE_ROOF", str(e.exception))
        with self.assertRaises(roofline.ArgumentError):
            roofline.bound([0, 1e12], 14e9, 989, 3.35)

    def test_an_older_library_without_call_many_gives_the_same(self):
        """With a libroofline older than roofline_call_many(), a sweep calls it once per element."""
        saved = roofline._CALL_MANY
        try:
            fast = roofline.decode_ms(8, [[1], [64]], [0, 4096], 3.35)
            roofline._CALL_MANY = None
            self.assertEqual(roofline.decode_ms(8, [[1], [64]], [0, 4096], 3.35), fast)
            with self.assertRaises(roofline.ArgumentError) as e:
                roofline.decode_ms(8, [1, 0.5], 4096, 3.35)
            self.assertEqual((e.exception.argument, e.exception.index), ("batch", 1))
        finally:
            roofline._CALL_MANY = saved


@unittest.skipIf(np is None, "numpy is not installed (Debian: python3-numpy)")
class Numpy(unittest.TestCase):
    def test_numpy_arrays_give_numpy_arrays(self):
        batch = np.array([1, 8, 64])  # integers too
        got = roofline.decode_ms(8, batch, 4096, 3.35)
        self.assertIsInstance(got, np.ndarray)
        self.assertEqual((got.shape, got.dtype), ((3,), np.float64))
        self.assertEqual(got.tolist(), roofline.decode_ms(8, [1, 8, 64], 4096, 3.35))
        np.testing.assert_allclose(got, by_hand_decode_ms(batch, 4096), rtol=1e-12)

    def test_numpy_scalars_are_single_values(self):
        got = roofline.decode_ms(np.float32(8), np.int64(64), 4096, 3.35)
        self.assertIsInstance(got, float)
        self.assertEqual(got, roofline.decode_ms(8, 64, 4096, 3.35))

    def test_grids_broadcast(self):
        batch, ctx = np.array([1.0, 8, 64])[:, None], np.array([0.0, 1024, 4096])
        got = roofline.step_ms("llama-3-8b", "h100-sxm", batch, ctx)
        self.assertEqual(got.shape, (3, 3))
        for i, b in enumerate((1, 8, 64)):
            for j, c in enumerate((0, 1024, 4096)):
                self.assertEqual(got[i, j], roofline.step_ms("llama-3-8b", "h100-sxm", b, c))
        # A list beside a numpy array: numpy's result, a strided view and a numpy scalar as input.
        grid = np.arange(1.0, 7.0).reshape(2, 3)
        mixed = roofline.decode_ms(np.float64(8), grid[:, ::2], [0, 4096], 3.35)
        np.testing.assert_allclose(mixed, by_hand_decode_ms(grid[:, ::2], np.array([0, 4096])), rtol=1e-12)

    def test_numpy_errors_name_the_argument_and_the_index(self):
        with self.assertRaises(roofline.ArgumentError) as e:
            roofline.decode_ms(8, np.array([[1, 2], [3, np.nan]]), 4096, 3.35)
        self.assertEqual((e.exception.argument, e.exception.index), ("batch", (1, 1)))
        with self.assertRaises(roofline.ArgumentError) as e:
            roofline.decode_ms(8, np.ones(2), np.ones(3), 3.35)
        self.assertEqual(e.exception.argument, "ctx")
        with self.assertRaises(roofline.ArgumentError) as e:
            roofline.decode_ms(8, np.array([True, False]), 4096, 3.35)
        self.assertEqual((e.exception.argument, e.exception.index), ("batch", 0))
        self.assertEqual(roofline.decode_ms(8, np.array([], dtype=float), 4096, 3.35).shape, (0,))

    def test_texts_from_numpy(self):
        gpus = np.array(["h100-sxm", "h200"])
        got = roofline.step_ms("llama-3-8b", gpus, np.array([1, 64]), 4096)
        self.assertEqual(got.tolist(), [roofline.step_ms("llama-3-8b", "h100-sxm", 1, 4096),
                                        roofline.step_ms("llama-3-8b", "h200", 64, 4096)])


class NumpyStaysOptional(unittest.TestCase):
    def run_python(self, code):
        return subprocess.run([sys.executable, "-c", code], env=os.environ.copy(), capture_output=True, text=True,
                              check=False)

    def test_without_numpy(self):
        """numpy is imported only for numpy arguments, and the package works where numpy cannot be imported."""
        code = ("import sys\n"
                "import roofline\n"
                "assert roofline.decode_ms(8, [1, 64], 4096, 3.35)[1] == roofline.decode_ms(8, 64, 4096, 3.35)\n"
                "assert sys.modules.get('numpy') is None, 'numpy imported for lists'\n")
        run = self.run_python(code)
        self.assertEqual(run.returncode, 0, run.stderr)
        run = self.run_python("import sys\nsys.modules['numpy'] = None  # numpy cannot be imported\n" + code)
        self.assertEqual(run.returncode, 0, run.stderr)


if __name__ == "__main__":
    unittest.main()
