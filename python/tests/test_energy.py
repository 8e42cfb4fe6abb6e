"""Tests of the energy formulas from Python (issue #34): roofline.energy_j and roofline.prefill_energy_j agree
with the power model computed by hand from the step's time and the catalog's board and idle power, and refuse a
bad argument by name."""
import unittest

import roofline


class Energy(unittest.TestCase):
    def test_within_idle_and_board_power_and_falling_with_the_batch(self):
        board = roofline.gpu("h200", "power_w")
        idle = roofline.gpu("h200", "idle_w")
        previous = float("inf")
        for batch in (1, 8, 64, 256):
            j = roofline.energy_j("llama-3.1-8b", "h200", batch, 4096, profile="typical")
            ms = roofline.step_ms("llama-3.1-8b", "h200", batch, 4096, profile="typical")
            watts = j * batch / (ms / 1000)
            self.assertLessEqual(watts, board * (1 + 1e-12))
            self.assertGreater(watts, idle)
            self.assertLess(j, previous)
            previous = j

    def test_vectorised_over_gpus_like_every_formula(self):
        joules = roofline.energy_j("llama-3.1-8b", ["h100-sxm", "b200"], 32, 2048)
        self.assertEqual(len(joules), 2)
        self.assertTrue(all(j > 0 for j in joules))

    def test_prefill_per_prompt_token(self):
        j = roofline.prefill_energy_j("llama-3.1-8b", "h100-sxm", 4096, 2, profile="bound")
        ms = roofline.ttft_ms("llama-3.1-8b", "h100-sxm", 4096, 2, profile="bound")
        self.assertLessEqual(j * 2 * 4096 / (ms / 1000), 700 * (1 + 1e-12))

    def test_bad_input_names_the_argument(self):
        with self.assertRaises(roofline.RooflineError) as e:
            roofline.energy_j("llama-3.1-8b", "h100-sxm", 0, 1024)
        self.assertIn("batch", str(e.exception))


if __name__ == "__main__":
    unittest.main()


class PlanPower(unittest.TestCase):
    def test_pue_and_electricity_as_computed_by_hand(self):
        args = ("llama-3.1-70b", 20, 2000, 300, 500, 50)
        kw = dict(gpu="h100-sxm", weight_dtype="fp8", rows="all")
        base = roofline.plan(*args, **kw)
        priced = roofline.plan(*args, **kw, usd_per_kwh=0.1, pue=1.5)
        col = {name: i for i, name in enumerate(base[0])}
        self.assertEqual(len(base), len(priced))
        key = lambda r: tuple(r[col[k]] for k in ("gpu", "tp", "weights", "ep", "dp_attention", "pp", "batch"))
        by_key = {key(r): r for r in priced[1:]}  # electricity may reorder the rows, cheapest first
        for a in base[1:]:
            b = by_key[key(a)]
            self.assertAlmostEqual(b[col["kw"]], 1.5 * a[col["kw"]])
            self.assertAlmostEqual(b[col["usd_per_hour"]], a[col["usd_per_hour"]] + 0.1 * b[col["kw"]])
            self.assertAlmostEqual(a[col["j_per_token"]], a[col["kw"]] * 1000 / (20 * 300))

    def test_a_power_budget_below_every_plan_names_max_kw(self):
        with self.assertRaises(roofline.RooflineError) as e:
            roofline.plan("llama-3.1-70b", 20, 2000, 300, 500, 50, gpu="h100-sxm", max_kw=0.5)
        self.assertIn("max_kw", str(e.exception))
