"""Tests of the Python package: the functions mirror the formula table, compute through the C ABI
what the article says (seed-cases.json), and raise with the library's message on bad input."""
import inspect
import json
import math
import os
import re
import unittest
from pathlib import Path

import roofline

SEED_CASES = Path(os.environ.get("ROOFLINE_SEED_CASES",
                                 Path(__file__).resolve().parents[2] / "tests" / "data" / "seed-cases.json"))


def evaluate(formula):
    """A seed case's spreadsheet formula, evaluated with this package's functions."""
    if formula.startswith("ISERROR(") and formula.endswith(")"):
        try:
            evaluate(formula[len("ISERROR("):-1])
        except roofline.RooflineError:
            return 1
        return 0
    expr = re.sub(r"ROOFLINE_(\w+)\(", lambda m: f"roofline.{m.group(1).lower()}(", formula)
    expr = expr.replace(";", ",").replace("^", "**")
    return eval(expr, {"roofline": roofline, "__builtins__": {}})  # noqa: S307 (the committed test data)


def valid_arg(formula, arg):
    """A valid value for an argument: its default, a catalog id, 80 GB of memory, an acceptance of 0.5, latency
    targets of 500 ms, or 8."""
    if arg["optional"]:
        return arg["default"]
    if arg["type"] == roofline.TABLE and formula["name"] == "ROOFLINE_FLEET":  # two workloads of Llama 3 8B
        return [("llama-3-8b", 5, 1000, 200, 1000, 50), ("llama-3-8b", 2, 4000, 500, 2000, 40)]
    if arg["type"] == roofline.TABLE:  # three measured decode steps of Llama 3 8B on one H200 (h200-graph.csv)
        return [("llama-3-8b", "h200", "bf16", "bf16", 1, b, c, "step_ms", ms)
                for b, c, ms in ((1, 1024, 6.0155), (1, 4096, 7.1348), (8, 4096, 7.4356))]
    if arg["type"] == roofline.TEXT:
        return {"model": "llama-3-8b", "draft_model": "llama-3-8b", "gpu": "h100-sxm"}.get(
            arg["name"], "hbm_tbs" if formula["name"] == "ROOFLINE_GPU" else "layers")
    return {"mem_gb": 80.0, "acceptance": 0.5, "ttft_ms": 500.0, "tpot_ms": 500.0}.get(arg["name"], 8.0)


class SeedCases(unittest.TestCase):
    def test_every_seed_case(self):
        cases = json.loads(SEED_CASES.read_text(encoding="utf-8"))["cases"]
        self.assertGreater(len(cases), 0)
        for case in cases:
            with self.subTest(case["id"]):
                got = evaluate(case["formula"])
                if isinstance(case["exact"], str):
                    self.assertEqual(got, case["exact"])
                else:
                    self.assertLessEqual(abs(got - case["exact"]), case["rel_tol"] * abs(case["exact"]))


class Functions(unittest.TestCase):
    def test_one_function_per_formula_with_its_signature(self):
        names = roofline.formulas()
        self.assertIn("decode_ms", names)
        for name in names:
            fn = getattr(roofline, name)
            self.assertIn(f"ROOFLINE_{name.upper()}", fn.__doc__)
            self.assertIn("Args:", fn.__doc__)
        sig = inspect.signature(roofline.decode_ms)
        self.assertEqual(list(sig.parameters)[:4], ["params_b", "batch", "ctx", "bw_tbs"])
        self.assertEqual(sig.parameters["params_b"].default, inspect.Parameter.empty)

    def test_defaults_and_keywords_agree(self):
        d = inspect.signature(roofline.decode_ms).parameters
        explicit = roofline.decode_ms(8, 64, 4096, 3.35, d["tflops"].default, d["kv_kib_per_token"].default,
                                      d["bytes_per_param"].default)
        self.assertEqual(roofline.decode_ms(8, 64, 4096, 3.35), explicit)
        self.assertEqual(roofline.decode_ms(params_b=8, batch=64, ctx=4096, bw_tbs=3.35), explicit)
        self.assertLess(roofline.decode_ms(8, 64, 4096, 3.35, kv_kib_per_token=64), explicit)

    def test_formula_table_and_call_by_name(self):
        table = roofline.formula_table()
        self.assertEqual([f["function"] for f in table], roofline.formulas())
        decode = next(f for f in table if f["name"] == "ROOFLINE_DECODE_MS")
        self.assertEqual(decode["c_name"], "roofline_decode_ms")
        self.assertEqual([a["name"] for a in decode["args"]][:2], ["params_b", "batch"])
        self.assertEqual(decode["args"][4]["default"],
                         inspect.signature(roofline.decode_ms).parameters["tflops"].default)
        self.assertEqual(roofline.call("roofline_decode_ms", 8, 64, 4096, 3.35), roofline.decode_ms(8, 64, 4096, 3.35))

    def test_text_and_array_results(self):
        self.assertEqual(roofline.bound(0, 14e9, 989, 2), "memory")
        roof = roofline.roof(989, 3.35, 1, 1000, 4)
        self.assertEqual(len(roof), 4)
        self.assertEqual(roof[-1], (1000.0, 989.0))
        self.assertTrue(math.isclose(roof[1][1], roofline.attainable_tflops(roof[1][0], 989, 3.35)))


class Catalog(unittest.TestCase):
    def test_model_aware_formulas(self):
        self.assertIn("llama-3-8b", [row[0] for row in roofline.models()])
        self.assertEqual(roofline.model("llama-3-8b", "kv_kib_per_token"),
                         inspect.signature(roofline.decode_ms).parameters["kv_kib_per_token"].default)
        bound = roofline.step_ms("llama-3-8b", "h100-sxm", 64, 4096)
        self.assertGreater(roofline.step_ms("llama-3-8b", "h100-sxm", 64, 4096, profile="typical"), bound)
        rows = roofline.step_breakdown("llama-3-8b", "h100-sxm", 64, 4096)
        self.assertEqual(rows[0], ("operator", "FLOP", "bytes", "ms", "bound"))
        self.assertAlmostEqual(sum(r[3] for r in rows[1:]), bound)

    def test_import_a_hugging_face_config(self):
        import tempfile
        config = {"model_type": "llama", "hidden_size": 2048, "intermediate_size": 8192, "num_hidden_layers": 16,
                  "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256,
                  "tie_word_embeddings": True}
        roofline.import_hf_config("tiny-llama", config)
        self.assertEqual(roofline.model("tiny-llama", "layers"), 16)
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(dict(config, num_hidden_layers=24), f)
        roofline.import_hf_config("tiny-llama-24", f.name)
        os.unlink(f.name)
        self.assertGreater(roofline.step_ms("tiny-llama-24", "l4", 1, 0), roofline.step_ms("tiny-llama", "l4", 1, 0))
        with self.assertRaises(roofline.ArgumentError) as e:
            roofline.import_hf_config("broken", '{"hidden_size": 1}')
        self.assertIn("num_hidden_layers", str(e.exception))
        self.assertEqual(roofline.add_catalog({"gpus": [{"id": "tiny-gpu", "tflops": {"bf16": 10}, "hbm_tbs": 0.1,
                                                         "hbm_gb": 8}]}), 1)
        self.assertEqual(roofline.gpu("tiny-gpu", "hbm_gb"), 8)
        # The checkpoint's formats: config.json's quantization_config, or an hf_quant_config.json beside it.
        roofline.import_hf_config("tiny-fp8", dict(config, quantization_config={"quant_method": "fp8"}))
        roofline.import_hf_config("tiny-nvfp4", config, {"quantization": {"quant_algo": "NVFP4"}})
        # (the embedding and lm_head stay in 16 bits: between the 16-bit model and one wholly in that format)
        for model, fmt in (("tiny-fp8", "fp8"), ("tiny-nvfp4", "nvfp4")):
            native = roofline.step_ms(model, "l4", 1, 0)
            self.assertLess(roofline.step_ms("tiny-llama", "l4", 1, 0, fmt), native)
            self.assertLess(native, roofline.step_ms("tiny-llama", "l4", 1, 0, "bf16"))
        self.assertLess(roofline.step_ms("tiny-nvfp4", "l4", 1, 0), roofline.step_ms("tiny-fp8", "l4", 1, 0))


class Errors(unittest.TestCase):
    def test_bad_input_raises_and_names_the_argument(self):
        for bad in (float("nan"), float("inf"), -1, 0, 0.5):
            with self.subTest(bad=bad):
                with self.assertRaises(roofline.ArgumentError) as e:
                    roofline.decode_ms(8, bad, 4096, 3.35)
                self.assertEqual(e.exception.argument, "batch")
                self.assertIn("'batch'", str(e.exception))
                self.assertEqual(e.exception.status, "ROOFLINE_ERROR_ARGUMENT")
                self.assertIsInstance(e.exception, ValueError)

    def test_every_function_every_bad_value(self):
        """Table-driven: every argument of every function, given NaN, +-infinity, text, None."""
        for f in roofline.formula_table():
            fn = getattr(roofline, f["function"])
            valid = [valid_arg(f, a) for a in f["args"]]
            self.assertIsNotNone(fn(*valid))
            if f["args"] and f["args"][-1]["type"] == roofline.REST:
                continue  # ROOFLINE_WHY explains bad values instead of refusing them: test_why
            for i, arg in enumerate(f["args"]):
                for bad in (float("nan"), float("inf"), float("-inf"), "", "x", None):
                    if bad == "" and arg["type"] == roofline.TEXT and arg["optional"]:
                        self.assertEqual(fn(*valid[:i], "", *valid[i + 1:]),
                                         fn(*valid[:i], arg["default"], *valid[i + 1:]))
                        continue  # an empty optional text means its default (test_empty_text_is_default)
                    with self.subTest(formula=f["name"], argument=arg["name"], value=bad):
                        args = list(valid)
                        args[i] = bad
                        # An empty table has no rows: no answer (too few rows), not a bad argument.
                        empty_table = bad == "" and arg["type"] == roofline.TABLE
                        with self.assertRaises(roofline.NoSolutionError if empty_table else roofline.ArgumentError) as e:
                            fn(*args)
                        if bad is not None:  # None is refused in Python, before the library
                            self.assertEqual(e.exception.argument, arg["name"])
                            self.assertIn(arg["name"], str(e.exception))

    def test_why(self):
        self.assertEqual(roofline.why("ROOFLINE_FIT_BATCH", "llama-3-70b", "h100-sxm", 4096),
                         "the weights (141 GB per GPU) do not fit in 0.9 of the 85.52 GB of a 'h100-sxm'")
        self.assertEqual(roofline.why("ROOFLINE_FIT_BATCH", "llama-3-8b", "h100-sxm", 4096), "ok")
        self.assertEqual(roofline.why("ROOFLINE_DECODE_MS", 8, -1, 0, 3.35),
                         "argument 'batch': must be a whole number >= 1 (got -1)")

    def test_no_solution(self):
        with self.assertRaises(roofline.NoSolutionError) as e:
            roofline.critical_batch(8, 4096, 989, 3.35)
        self.assertEqual(e.exception.status, "ROOFLINE_ERROR_NO_SOLUTION")

    def test_wrong_types_and_arity(self):
        with self.assertRaises(roofline.ArgumentError):
            roofline.balance(989, "fast")
        with self.assertRaises(roofline.ArgumentError):
            roofline.balance(989, None)
        with self.assertRaises(TypeError):
            roofline.balance(989)

    def test_version(self):
        self.assertRegex(roofline.library_version(), r"^\d+\.\d+\.\d+$")


if __name__ == "__main__":
    unittest.main()
