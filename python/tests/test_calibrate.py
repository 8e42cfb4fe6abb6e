"""roofline.calibrate(rows): ROOFLINE_CALIBRATE with a list of rows for its table argument (the package writes it as
the one text the C ABI takes: cells by tabs, rows by line breaks); the same text as the rows written by hand, a
profile text that every profile argument takes, and errors that name the argument."""
import unittest

import roofline

HEADER = ("model", "gpu", "weight_dtype", "kv_dtype", "tp", "batch", "context", "metric", "value")
# Three decode steps of Llama 3 8B on one H200 (tests/data/calibration/h200-graph.csv).
ROWS = [("llama-3-8b", "h200", "bf16", "bf16", 1, 1, 1024, "step_ms", 6.0155),
        ("llama-3-8b", "h200", "bf16", "bf16", 1, 1, 4096, "step_ms", 7.1348),
        ("llama-3-8b", "h200", "bf16", "bf16", 1, 8, 4096, "step_ms", 7.4356)]


class Calibrate(unittest.TestCase):
    def test_rows_as_the_c_abi_takes_them(self):
        fitted = roofline.calibrate([HEADER] + ROWS)
        self.assertTrue(fitted.startswith("fit(typical; n=3; "), fitted)
        by_hand = "\n".join("\t".join(str(c) for c in row) for row in [HEADER] + ROWS)
        self.assertEqual(roofline.calibrate(by_hand), fitted)
        self.assertEqual(roofline.call("ROOFLINE_CALIBRATE", ROWS), fitted)  # no header: the same rows
        # Empty cells: None or "" take STEP_MS's defaults (bf16 KV cache, tp 1).
        empty = [(m, g, w, None, "", b, c, metric, v) for m, g, w, _, _, b, c, metric, v in ROWS]
        self.assertEqual(roofline.calibrate(empty), fitted)
        step = roofline.step_ms("llama-3-8b", "h200", 8, 4096, "bf16", "bf16", 1, fitted)
        self.assertAlmostEqual(step, 7.4356, delta=0.05 * 7.4356)
        per_row = roofline.calibrate_rows(ROWS)
        self.assertEqual(per_row[0][:2], ("row", "model"))
        self.assertEqual(per_row[3][5], step)

    def test_errors_name_the_argument(self):
        with self.assertRaises(roofline.NoSolutionError) as e:
            roofline.calibrate(ROWS[:2])
        self.assertEqual(e.exception.argument, "measurements")
        self.assertIn("2 measured rows", str(e.exception))
        with self.assertRaises(roofline.ArgumentError) as e:
            roofline.calibrate([("llama-3-8b\t", "h200")])
        self.assertEqual(e.exception.argument, "measurements")
        self.assertIn("tab", str(e.exception))
        with self.assertRaises(roofline.ArgumentError) as e:
            roofline.calibrate([ROWS[0][:8] + (True,)])
        self.assertIn("row 1, cell 9", str(e.exception))
        bad = list(ROWS) + [("llama-9b",) + ROWS[0][1:]]
        reason = roofline.why("ROOFLINE_CALIBRATE", bad)
        self.assertIn("row 4, model: ", reason)


if __name__ == "__main__":
    unittest.main()
