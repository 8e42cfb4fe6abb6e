"""Tests of the capacity planner from Python: roofline.plan() gives the rows of ROOFLINE_PLAN with their
header, roofline.e2e_ms() and the other Planner functions agree with hand computations from the documented
model (docs/serving-model.md), and bad input raises with the argument named."""
import math
import unittest

import roofline

HEADER = ("gpu", "tp", "weights", "batch", "replicas", "prefill_tp", "prefill_replicas", "gpus", "ttft_ms", "tpot_ms",
          "output_tok_s_per_gpu", "usd_per_hour", "usd_per_mtok", "ep", "dp_attention", "pp",
          "capacity_tok_s_per_gpu", "checkpoint", "engine_tp", "usd_per_month", "usd_per_mtok_blended", "kw", "j_per_token",
          "tok_s_per_mw", "prefill_gpu", "usd_per_mtok_input", "usd_per_mtok_output", "servers",
          "usd_per_gpu_hour")

# Issue 11's example: Llama 3.1 70B, 100 requests/s, 2000-token prompts, 300-token answers, TTFT 500 ms, TPOT 50 ms.
EXAMPLE = ("llama-3.1-70b", 100, 2000, 300, 500, 50)


class Plan(unittest.TestCase):
    def test_rows_with_their_header_cheapest_first(self):
        rows = roofline.plan(*EXAMPLE)
        self.assertEqual(rows[0], HEADER)
        self.assertGreater(len(rows), 10)
        col = {name: i for i, name in enumerate(HEADER)}
        priced = [r for r in rows[1:] if r[col["usd_per_mtok"]] != ""]
        self.assertEqual([r[col["usd_per_mtok"]] for r in priced], sorted(r[col["usd_per_mtok"]] for r in priced))
        self.assertEqual(rows[1:len(priced) + 1], priced)  # rows without a price come last
        for r in rows[1:]:
            with self.subTest(row=r):
                self.assertEqual(len(r), 29)
                self.assertEqual(r[col["engine_tp"]] * r[col["pp"]], r[col["tp"]])
                if r[col["usd_per_hour"]] != "":
                    # A month of 730 hours; all the load's tokens, 2000 prompt and 300 output tokens a request.
                    self.assertAlmostEqual(r[col["usd_per_month"]], 730 * r[col["usd_per_hour"]])
                    self.assertAlmostEqual(r[col["usd_per_mtok_blended"]],
                                           r[col["usd_per_hour"]] / (100 * 2300 * 3600) * 1e6)
                else:
                    self.assertEqual((r[col["usd_per_month"]], r[col["usd_per_mtok_blended"]]), ("", ""))
                # By default (weight_dtype "published") each row is a published checkpoint, named.
                self.assertNotEqual(r[col["checkpoint"]], "")
                self.assertEqual(r[col["gpus"]], r[col["tp"]] * r[col["replicas"]])  # colocated: no prefill pool
                self.assertEqual((r[col["prefill_tp"]], r[col["prefill_replicas"]]), (0, 0))
                self.assertLessEqual(r[col["ttft_ms"]], 500)
                self.assertLessEqual(r[col["tpot_ms"]], 50)
                self.assertAlmostEqual(r[col["output_tok_s_per_gpu"]], 100 * 300 / r[col["gpus"]])
                # The capacity: whole replicas of a replica's requests/s at both targets, never below the load.
                replica = roofline.replica_rps("llama-3.1-70b", r[col["gpu"]], 2000, 300, 500, 50, r[col["checkpoint"]],
                                               "", r[col["tp"]], ep=r[col["ep"]], dp_attention=r[col["dp_attention"]],
                                               pp=r[col["pp"]])
                self.assertAlmostEqual(r[col["capacity_tok_s_per_gpu"]],
                                       r[col["replicas"]] * replica * 300 / r[col["gpus"]])
                self.assertGreaterEqual(r[col["capacity_tok_s_per_gpu"]], r[col["output_tok_s_per_gpu"]] * (1 - 1e-12))
                if r[col["usd_per_hour"]] != "":
                    usd = roofline.gpu(r[col["gpu"]], "usd_per_gpu_hour")
                    # Whole servers rented (the default since 0.14): the GPUs rounded up to them.
                    paid = r[col["servers"]] * roofline.gpu(r[col["gpu"]], "server_gpus")
                    self.assertGreaterEqual(paid, r[col["gpus"]])
                    self.assertAlmostEqual(r[col["usd_per_hour"]], usd * paid)
                    self.assertAlmostEqual(r[col["usd_per_mtok"]], roofline.cost_per_mtok(usd, paid, 100 * 300))

    def test_disaggregated_pools_and_price_overrides(self):
        rows = roofline.plan(*EXAMPLE, gpu="h100-sxm", weight_dtype="fp8", disaggregated=1)
        for r in rows[1:]:
            gpu, tp, _, _, replicas, prefill_tp, prefill_replicas, gpus = r[:8]
            self.assertEqual(gpu, "h100-sxm")
            self.assertGreaterEqual(prefill_tp, 1)
            self.assertEqual(gpus, tp * replicas + prefill_tp * prefill_replicas)
        catalog = roofline.plan(*EXAMPLE, gpu="h100-sxm", weight_dtype="fp8")
        cheap = roofline.plan(*EXAMPLE, gpu="h100-sxm", weight_dtype="fp8", prices="h100-sxm=1.00")
        self.assertEqual([r[:11] for r in cheap], [r[:11] for r in catalog])
        col = {name: i for i, name in enumerate(HEADER)}
        for r in cheap[1:]:
            # USD per hour = the GPUs rented x 1 USD: whole servers of 8 (the default since 0.14), not only those used.
            paid = r[col["servers"]] * roofline.gpu("h100-sxm", "server_gpus")
            self.assertGreaterEqual(paid, r[col["gpus"]])
            self.assertAlmostEqual(r[col["usd_per_hour"]], paid * 1.00)

    def test_headroom_and_min_replicas(self):
        col = {name: i for i, name in enumerate(HEADER)}
        full = roofline.plan(*EXAMPLE, gpu="h100-sxm", weight_dtype="fp8", rows="all")
        spare = roofline.plan(*EXAMPLE, gpu="h100-sxm", weight_dtype="fp8", rows="all", headroom=0.8, min_replicas=2)
        self.assertEqual(roofline.plan(*EXAMPLE, gpu="h100-sxm", weight_dtype="fp8", rows="all", headroom=1,
                                       min_replicas=1), full)
        self.assertEqual(len(spare), len(full))
        for r in spare[1:]:
            with self.subTest(row=r):
                replica = roofline.replica_rps("llama-3.1-70b", "h100-sxm", 2000, 300, 500, 50, "fp8", "", r[col["tp"]],
                                               pp=r[col["pp"]])
                self.assertEqual(r[col["replicas"]], max(2, math.ceil(100 / (0.8 * replica))))
                self.assertGreaterEqual(r[col["capacity_tok_s_per_gpu"]] * 0.8, r[col["output_tok_s_per_gpu"]] * (1 - 1e-12))
        for name, bad in (("headroom", 0), ("headroom", 1.2), ("min_replicas", 0), ("min_replicas", 2.5)):
            with self.subTest(argument=name, value=bad):
                with self.assertRaises(roofline.ArgumentError) as e:
                    roofline.plan(*EXAMPLE, **{name: bad})
                self.assertEqual(e.exception.argument, name)

    def test_bad_input(self):
        with self.assertRaises(roofline.ArgumentError) as e:
            roofline.plan("llama-3.1-70b", -1, 2000, 300, 500, 50)
        self.assertEqual(e.exception.argument, "rps")
        self.assertIn("'rps'", str(e.exception))
        with self.assertRaises(roofline.NoSolutionError) as e:
            roofline.plan("llama-3.1-70b", 100, 2000, 300, 500, 0.001)  # below the fastest possible step
        self.assertEqual(e.exception.argument, "tpot_ms")
        with self.assertRaises(roofline.ArgumentError) as e:
            roofline.plan("llama3.1-70b", 100, 2000, 300, 500, 50)
        self.assertEqual(e.exception.argument, "model")
        self.assertEqual(e.exception.status, "ROOFLINE_ERROR_UNKNOWN_ID")
        self.assertIn("did you mean 'llama-3.1-70b'?", str(e.exception))
        for prices in ("h100-sxm=-1", "h100-sxm=cheap", "h100-sxn=2", "h100-sxm"):
            with self.subTest(prices=prices):
                with self.assertRaises(roofline.ArgumentError) as e:
                    roofline.plan(*EXAMPLE, prices=prices)
                self.assertEqual(e.exception.argument, "prices")
        with self.assertRaises(roofline.ArgumentError) as e:
            roofline.plan(*EXAMPLE, disaggregated=0.5)
        self.assertEqual(e.exception.argument, "disaggregated")


class Curve(unittest.TestCase):
    def test_rows_are_replicas_at_full_load(self):
        rows = roofline.curve("llama-3.1-70b", "h100-sxm", 2000, 300, "fp8", tp=4)
        self.assertEqual(rows[0], ("tpot_ms", "tok_s_per_user", "capacity_tok_s_per_gpu", "batch", "ttft_ms", "rps", "tp",
                                   "ep", "dp_attention", "pp"))
        self.assertEqual([r[3] for r in rows[1:7]], [1, 2, 3, 4, 6, 8])
        for tpot, per_user, per_gpu, batch, ttft, rps, tp, ep, dp, pp in rows[1:]:
            with self.subTest(batch=batch):
                self.assertAlmostEqual(per_user, 1000 / tpot)
                self.assertAlmostEqual(per_gpu, rps * 300 / 4)
                e2e = roofline.e2e_ms("llama-3.1-70b", "h100-sxm", 2000, 300, batch, "fp8", "", 4)
                self.assertAlmostEqual(e2e, ttft + 299 * tpot, delta=1e-9 * e2e)
        front = roofline.curve("llama-3.1-70b", "h100-sxm", 2000, 300, "fp8")
        per_gpu = [r[2] for r in front[1:]]
        self.assertEqual(per_gpu, sorted(per_gpu))
        self.assertGreaterEqual(max(per_gpu), max(r[2] for r in rows[1:]))
        with self.assertRaises(roofline.ArgumentError) as e:
            roofline.curve("llama-3.1-70b", "h100-sxm", 2000, 300, "fp8", ep=2)
        self.assertEqual(e.exception.argument, "ep")


class Latency(unittest.TestCase):
    def test_e2e_is_ttft_plus_the_decode_steps(self):
        # bound: the prefill alone, then 299 iterations, each at least the decode step at the prompt's context.
        e2e = roofline.e2e_ms("llama-3.1-8b", "h100-sxm", 2000, 300, 16, profile="bound")
        ttft = roofline.ttft_ms("llama-3.1-8b", "h100-sxm", 2000, profile="bound")
        step = roofline.step_ms("llama-3.1-8b", "h100-sxm", 16, 2000, profile="bound")
        self.assertGreaterEqual(e2e, ttft + 299 * step)
        self.assertLess(e2e, ttft + 299 * 2 * step)
        # bound is never more optimistic than typical (the default profile of the Planner).
        self.assertLessEqual(e2e, roofline.e2e_ms("llama-3.1-8b", "h100-sxm", 2000, 300, 16))
        self.assertGreaterEqual(roofline.replica_rps("llama-3.1-8b", "h100-sxm", 2000, 300, 500, 50, profile="bound"),
                                roofline.replica_rps("llama-3.1-8b", "h100-sxm", 2000, 300, 500, 50))

    def test_primitives_by_hand(self):
        self.assertAlmostEqual(roofline.cost_per_mtok(2, 8, 1000), 16 / 3.6e6 * 1e6)
        self.assertTrue(math.isclose(roofline.spec_tokens(0.8, 4), 1 + 0.8 + 0.64 + 0.512 + 0.4096))

    def test_bad_input(self):
        with self.assertRaises(roofline.NoSolutionError) as e:
            roofline.slo_batch("llama-3.1-8b", "h100-sxm", 4096, 0.001)
        self.assertEqual(e.exception.argument, "tpot_ms")
        with self.assertRaises(roofline.ArgumentError) as e:
            roofline.e2e_ms("llama-70", "h100-sxm", 2000, 300, 16)
        self.assertEqual(e.exception.argument, "model")
        with self.assertRaises(roofline.ArgumentError) as e:
            roofline.spec_tokens(1.5, 4)
        self.assertEqual(e.exception.argument, "acceptance")
        with self.assertRaises(roofline.ArgumentError) as e:
            roofline.spec_step_ms("llama-3.1-70b", "no-such-draft", "h100-sxm", 8, 2048, 4, 0.7)
        self.assertEqual(e.exception.argument, "draft_model")


class Simulate(unittest.TestCase):
    """roofline.simulate: ROOFLINE_SIMULATE through the C ABI, rows by name, the same seed the same numbers."""

    def table(self, *args, **kwargs):
        rows = roofline.simulate(*args, **kwargs)
        self.assertEqual(rows[0], ("metric", "mean", "p50", "p90", "p99"))
        return {row[0]: dict(zip(rows[0][1:], row[1:])) for row in rows[1:]}

    def test_percentiles_seed_and_bursts(self):
        base = ("llama-3.1-8b", "h100-sxm", 15, 1000, 200)
        a = self.table(*base, requests=1500)
        self.assertEqual(a, self.table(*base, requests=1500))
        self.assertNotEqual(a["ttft_ms"]["p99"], self.table(*base, requests=1500, seed=2)["ttft_ms"]["p99"])
        for metric in ("ttft_ms", "tpot_ms", "itl_ms", "e2e_ms"):
            q = a[metric]
            self.assertTrue(0 < q["p50"] <= q["p90"] <= q["p99"], metric)
        self.assertEqual(a["requests"]["mean"], 1500)
        self.assertEqual(a["mean_batch"]["p99"], "")  # one value, in the mean column
        # Throughput: 200 output tokens a request over the run's duration.
        self.assertAlmostEqual(a["throughput_tok_s"]["mean"], 1500 * 200 / a["duration_s"]["mean"])
        burst = self.table(*base, requests=1500, arrival="gamma", cv=4)
        self.assertGreater(burst["ttft_ms"]["p99"], 2 * a["ttft_ms"]["p99"])
        # A shared prefix lowers the time to first token; its hit rate is the share of prompt tokens found cached.
        cached = self.table(*base, requests=1500, prefix_tokens=750, prefix_share=1)
        self.assertAlmostEqual(cached["prefix_hit_rate"]["mean"], 0.75 * 1499 / 1500)
        self.assertLess(cached["ttft_ms"]["mean"], a["ttft_ms"]["mean"])

    def test_percentile_targets(self):
        # A replica's rate at p99: the simulation at that rate meets both targets at p99; means allow more.
        mean = roofline.replica_rps("llama-3.1-70b", "h100-sxm", 2000, 300, 500, 50, "fp8", "", 4)
        p99 = roofline.replica_rps("llama-3.1-70b", "h100-sxm", 2000, 300, 500, 50, "fp8", "", 4, percentile=99)
        self.assertLess(p99, mean)
        at = self.table("llama-3.1-70b", "h100-sxm", p99, 2000, 300, "fp8", "", 4)
        self.assertLessEqual(at["ttft_ms"]["p99"], 500)
        self.assertLessEqual(at["tpot_ms"]["p99"], 50)
        rows = roofline.plan("llama-3.1-70b", 100, 2000, 300, 500, 50, gpu="b200", weight_dtype="fp8", percentile=99)
        col = {name: i for i, name in enumerate(rows[0])}
        for r in rows[1:]:
            self.assertLessEqual(r[col["ttft_ms"]], 500)
            self.assertLessEqual(r[col["tpot_ms"]], 50)
        with self.assertRaises(roofline.ArgumentError) as e:
            roofline.plan("llama-3.1-70b", 100, 2000, 300, 500, 50, gpu="b200", percentile=30)
        self.assertEqual(e.exception.argument, "percentile")
        # The curve at p99: the same loads, each row's latencies a simulation's at its load.
        means = roofline.curve("llama-3.1-70b", "h100-sxm", 2000, 300, "fp8", "", 4)
        tails = roofline.curve("llama-3.1-70b", "h100-sxm", 2000, 300, "fp8", "", 4, percentile=99)
        col = {name: i for i, name in enumerate(means[0])}
        self.assertEqual(len(tails), len(means))
        for m, t in zip(means[1:], tails[1:]):
            self.assertEqual(t[col["rps"]], m[col["rps"]])
            self.assertGreater(t[col["tpot_ms"]], m[col["tpot_ms"]])
            at = self.table("llama-3.1-70b", "h100-sxm", m[col["rps"]], 2000, 300, "fp8", "", 4)
            self.assertEqual(t[col["tpot_ms"]], at["tpot_ms"]["p99"])
        # The batch at p99: a closed loop of that many users meets the TPOT target there.
        b = roofline.slo_batch("llama-3.1-8b", "h100-sxm", 4096, 15, percentile=99, prompt_tokens=2048)
        self.assertGreaterEqual(b, 2)
        self.assertEqual(b, int(b))

    def test_concurrency(self):
        # At most 4 in flight: a closed loop with a rate far above the replica's; its batch at most 4.
        a = self.table("llama-3.1-8b", "h100-sxm", 1000, 1000, 200, requests=200, concurrency=4)
        self.assertLessEqual(a["mean_batch"]["mean"], 4)
        self.assertLessEqual(a["max_queue"]["mean"], 4)
        open_loop = self.table("llama-3.1-8b", "h100-sxm", 1000, 1000, 200, requests=200)
        self.assertGreater(open_loop["max_queue"]["mean"], 4)
        with self.assertRaises(roofline.ArgumentError) as e:
            roofline.simulate("llama-3.1-8b", "h100-sxm", 1000, 1000, 200, concurrency=2.5)
        self.assertEqual(e.exception.argument, "concurrency")

    def test_bad_input(self):
        with self.assertRaises(roofline.ArgumentError) as e:
            roofline.simulate("llama-3.1-8b", "h100-sxm", 15, 1000, 200, arrival="burst")
        self.assertEqual(e.exception.argument, "arrival")
        with self.assertRaises(roofline.ArgumentError) as e:
            roofline.simulate("llama-3.1-8b", "h100-sxm", 15, 1000, 200, requests=2e6)
        self.assertEqual(e.exception.argument, "requests")
        with self.assertRaises(roofline.ArgumentError) as e:
            roofline.simulate("llama-3.1-8b", "h100-sxm", 15, 1000, 200, prefix_share=1.5)
        self.assertEqual(e.exception.argument, "prefix_share")
        with self.assertRaises(roofline.ArgumentError) as e:
            roofline.simulate("llama-3.1-8b", "h100-sxm", 15, 1000, 200, turns=2.5)
        self.assertEqual(e.exception.argument, "turns")
        with self.assertRaises(roofline.NoSolutionError) as e:
            roofline.simulate("llama-3.1-8b", "h100-sxm", 15, 120000, 200, mem_util=0.3, requests=3)
        self.assertEqual(e.exception.argument, "prompt_tokens")
        # Beyond the model's window of 131,072 tokens: refused, naming the argument (since 0.14).
        with self.assertRaises(roofline.ArgumentError) as e:
            roofline.simulate("llama-3.1-8b", "h100-sxm", 15, 3000000, 200, requests=3)
        self.assertEqual(e.exception.argument, "prompt_tokens")
        self.assertIn("131072", str(e.exception))



class PricedApart(unittest.TestCase):
    def test_input_and_output_prices_pay_the_hour(self):
        rows = roofline.plan("llama-3.1-8b", 30, 40000, 1000, 5000, 50, gpu="h100-sxm", input_ratio=0.25)
        col = {name: i for i, name in enumerate(rows[0])}
        for r in rows[1:]:
            with self.subTest(row=r):
                inp, out = r[col["usd_per_mtok_input"]], r[col["usd_per_mtok_output"]]
                self.assertAlmostEqual(inp, 0.25 * out)
                self.assertAlmostEqual(3600 * 30 * (40000 * inp + 1000 * out) / 1e6, r[col["usd_per_hour"]])

class PriceBasis(unittest.TestCase):
    def test_owned_is_the_server_over_the_years_and_the_electricity(self):
        rows = roofline.plan("llama-3.1-8b", 20, 1000, 200, 1000, 50, gpu="b200", price_basis="owned", years=4,
                             usd_per_kwh=0.1)
        col = {name: i for i, name in enumerate(rows[0])}
        server = roofline.gpu("b200", "usd_per_server")
        per_gpu = server / roofline.gpu("b200", "server_gpus") / (4 * 8760)
        for r in rows[1:]:
            with self.subTest(row=r):
                paid = r[col["servers"]] * roofline.gpu("b200", "server_gpus")
                self.assertAlmostEqual(r[col["usd_per_gpu_hour"]], per_gpu)
                self.assertAlmostEqual(r[col["usd_per_hour"]], per_gpu * paid + 0.1 * r[col["kw"]])

    def test_reserved_and_errors(self):
        rows = roofline.plan("llama-3.1-8b", 20, 1000, 200, 1000, 50, gpu="h100-sxm", price_basis="reserved")
        col = {name: i for i, name in enumerate(rows[0])}
        for r in rows[1:]:
            self.assertAlmostEqual(r[col["usd_per_gpu_hour"]], roofline.gpu("h100-sxm", "usd_per_gpu_hour_reserved"))
        with self.assertRaises(roofline.ArgumentError) as e:
            roofline.plan("llama-3.1-8b", 20, 1000, 200, 1000, 50, gpu="h100-sxm", price_basis="owned")
        self.assertEqual(e.exception.argument, "usd_per_kwh")

class Fleet(unittest.TestCase):
    ROWS = [("model", "rps", "prompt_tokens", "output_tokens", "ttft_ms", "tpot_ms", "gpu"),
            ("llama-3.1-70b", 100, 2000, 300, 500, 50, ""),
            ("llama-3.1-8b", 20, 1000, 200, 1000, 50, "h100-sxm")]

    def test_the_cheapest_of_each_and_the_totals(self):
        rows = roofline.fleet(self.ROWS, price_basis="reserved")
        col = {name: i for i, name in enumerate(rows[0])}
        self.assertEqual([r[col["model"]] for r in rows[1:]], ["llama-3.1-70b", "llama-3.1-8b", "total"])
        self.assertEqual(rows[2][col["gpu"]], "h100-sxm")
        plan = roofline.plan("llama-3.1-8b", 20, 1000, 200, 1000, 50, gpu="h100-sxm", price_basis="reserved")
        first = dict(zip(plan[0], plan[1]))
        self.assertEqual(rows[2][col["gpus"]], first["gpus"])
        self.assertAlmostEqual(rows[2][col["usd_per_hour"]], first["usd_per_hour"])
        total = rows[-1]
        self.assertEqual(total[col["gpus"]], rows[1][col["gpus"]] + rows[2][col["gpus"]])
        # The 70B's cheapest reserved row may have no price (a GPU without a reserved example): the total then has none.
        if rows[1][col["usd_per_hour"]] == "":
            self.assertEqual(total[col["usd_per_hour"]], "")
        else:
            self.assertAlmostEqual(total[col["usd_per_hour"]], rows[1][col["usd_per_hour"]] + rows[2][col["usd_per_hour"]])

    def test_errors_name_the_row(self):
        with self.assertRaises(roofline.ArgumentError) as e:
            roofline.fleet([("llama-3.1-8b", 5, 1000, 200, 1000, 50), ("llama-9b", 5, 1000, 200, 1000, 50)])
        self.assertEqual(e.exception.argument, "workloads")
        self.assertIn("row 2, model", str(e.exception))

if __name__ == "__main__":
    unittest.main()
