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

    def test_columns_by_the_header_names_and_a_dataframe(self):
        """A header row names the columns (any order, other columns ignored): a list whose first row is the names,
        or a DataFrame, whose column names the package puts first (duck-typed here: pandas is optional)."""
        fitted = roofline.calibrate(ROWS)
        order = ("value", "notes", "metric", "context", "batch", "gpu", "model")
        index = [HEADER.index(c) if c in HEADER else None for c in order]
        shuffled = [tuple(r[i] if i is not None else "lab" for i in index) for r in ROWS]
        self.assertEqual(roofline.calibrate([order] + shuffled), fitted)

        class Frame:  # what _table_text reads of a pandas DataFrame: columns and itertuples(index=False)
            columns = list(order)

            def itertuples(self, index=True):
                return iter(shuffled)

        self.assertEqual(roofline.calibrate(Frame()), fitted)
        with self.assertRaises(roofline.ArgumentError) as e:
            roofline.calibrate([("model", "gpu", "batch", "context", "ms")] + [r[:2] + r[5:7] + r[8:] for r in ROWS])
        self.assertIn("the header has no column 'metric', 'value'", str(e.exception))

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
