"""Tests of the roofline command: it prints what the C ABI computes (read here through the Python
package), the article's figures (seed-cases.json), JSON for programs, distinct exit codes, errors that
name the option, and an SVG chart."""
import json
import os
import subprocess
import tempfile
import unittest
import xml.etree.ElementTree as ET
from pathlib import Path

import roofline

CLI = os.environ["ROOFLINE_CLI"]
SEED = json.loads(Path(os.environ["ROOFLINE_SEED_CASES"]).read_text(encoding="utf-8"))["cases"]


def run(*args):
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=60)


def seed(formula):
    return next(c["exact"] for c in SEED if c["formula"] == formula)


class Decode(unittest.TestCase):
    def test_json_step_is_the_articles(self):
        r = run("decode", "--params-b", "8", "--batch", "64", "--ctx", "4096", "--bw", "3.35", "--json")
        self.assertEqual(r.returncode, 0, r.stderr)
        out = json.loads(r.stdout)
        self.assertAlmostEqual(out["step_ms"], seed("ROOFLINE_DECODE_MS(8; 64; 4096; 3.35)"), delta=1e-6)
        self.assertAlmostEqual(out["tokens_per_s"], seed("ROOFLINE_DECODE_TOKS(8; 64; 4096; 3.35)"), delta=1e-3)
        self.assertIsNone(out["critical_batch"])
        self.assertEqual(out["kv_gb"], roofline.kv_gb(64, 4096))
        self.assertEqual(out["ai_flop_per_byte"], roofline.decode_ai(8, 64, 4096))

    def test_defaults_come_from_the_formula_table(self):
        r = run("decode", "--help")
        self.assertEqual(r.returncode, 0)
        self.assertIn("--tflops", r.stdout)
        self.assertIn(str(int(roofline.decode_ms.__signature__.parameters["tflops"].default)), r.stdout)
        r = run("decode", "--params-b", "8", "--batch", "64", "--ctx", "0", "--bw-tbs", "3.35", "--tflops", "100",
                "--json")
        self.assertEqual(json.loads(r.stdout)["step_ms"], roofline.decode_ms(8, 64, 0, 3.35, 100))
        self.assertEqual(json.loads(r.stdout)["critical_batch"], roofline.critical_batch(8, 0, 100, 3.35))

    def test_human_table(self):
        r = run("decode", "--params-b", "8", "--batch", "1", "--ctx", "0", "--bw", "3.35")
        self.assertEqual(r.returncode, 0)
        self.assertIn("step time", r.stdout)
        self.assertIn("critical batch", r.stdout)


class Tables(unittest.TestCase):
    def test_both_tables(self):
        r = run("tables")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("Decode without KV", r.stdout)
        self.assertIn("Decode with 4096 tokens of KV", r.stdout)
        self.assertIn(f"{seed('ROOFLINE_DECODE_TOKS(8; 64; 0; 3.35)'):.0f} tok/s", r.stdout)
        self.assertIn(f"{seed('ROOFLINE_DECODE_TOKS(8; 64; 4096; 3.35)'):.0f} tok/s", r.stdout)
        self.assertIn(f"batch of {seed('ROOFLINE_CRITICAL_BATCH(8; 0; 989; 3.35)')} sequences", r.stdout)

    def test_json(self):
        tables = json.loads(run("tables", "--json").stdout)
        self.assertEqual([t["ctx"] for t in tables], [0, 4096])
        self.assertEqual(tables[1]["rows"][1]["step_ms"], roofline.decode_ms(8, 64, 4096, 3.35))


class Errors(unittest.TestCase):
    def test_bad_value_names_the_option(self):
        r = run("decode", "--params-b", "8", "--batch", "0.5", "--ctx", "4096", "--bw", "3.35")
        self.assertEqual(r.returncode, 3)
        self.assertIn("--batch", r.stderr)
        r = run("prefill", "--params-b", "-8", "--tokens", "2000", "--tflops", "989", "--json")
        self.assertEqual(r.returncode, 3)
        self.assertIn("--params-b", r.stderr)

    def test_every_option_every_bad_value(self):
        """Table-driven: each option of decode, prefill and memory given NaN, infinity, a negative, zero
        and a fraction: exit code 3 and a message naming the option, or, where the value is valid for
        the library, the same answer as the library."""
        commands = {
            "decode": ("ROOFLINE_DECODE_MS", {"params_b": 8, "batch": 64, "ctx": 4096, "bw_tbs": 3.35}),
            "prefill": ("ROOFLINE_PREFILL_MS", {"params_b": 8, "tokens": 2000, "tflops": 989}),
            "memory": ("ROOFLINE_MAX_BATCH", {"mem_gb": 80, "params_b": 8, "ctx": 4096}),
        }
        table = {f["name"]: f for f in roofline.formula_table()}
        for command, (formula, required) in commands.items():
            for arg in table[formula]["args"]:
                for bad in ("nan", "inf", "-1", "0", "0.5"):
                    with self.subTest(command=command, option=arg["name"], value=bad):
                        values = dict(required)
                        values[arg["name"]] = bad
                        argv = [command]
                        for name, value in values.items():
                            argv += ["--" + name.replace("_", "-"), str(value)]
                        r = run(*argv, "--json")
                        try:
                            args = [float(values.get(a["name"], a["default"])) for a in table[formula]["args"]]
                            roofline.call(formula, *args)
                            refused = None
                        except roofline.RooflineError as e:
                            refused = e
                        if isinstance(refused, roofline.ArgumentError):
                            self.assertEqual(r.returncode, 3, r.stderr)
                            self.assertIn("--" + refused.argument.replace("_", "-"), r.stderr)
                        elif refused is not None:
                            self.assertEqual(r.returncode, 4, r.stderr)
                        else:
                            self.assertEqual(r.returncode, 0, r.stderr)

    def test_usage_errors(self):
        self.assertEqual(run("decode", "--params-b", "8").returncode, 2)
        self.assertEqual(run("decode", "--params-b", "eight", "--batch", "1", "--ctx", "0", "--bw", "1").returncode, 2)
        self.assertEqual(run("no-such-command").returncode, 2)
        self.assertEqual(run().returncode, 2)
        self.assertEqual(run("--help").returncode, 0)

    def test_no_solution(self):
        r = run("memory", "--mem-gb", "8", "--params-b", "8", "--ctx", "4096")
        self.assertEqual(r.returncode, 4)
        self.assertIn("--mem-gb", r.stderr)


class ModelAware(unittest.TestCase):
    def test_step_json_is_the_librarys(self):
        r = run("step", "--model", "llama-3-70b", "--gpu", "h100-sxm", "--batch", "32", "--ctx", "8192", "--tp", "4",
                "--profile", "typical", "--json")
        self.assertEqual(r.returncode, 0, r.stderr)
        out = json.loads(r.stdout)
        self.assertEqual(out["step_ms"], roofline.step_ms("llama-3-70b", "h100-sxm", 32, 8192, tp=4, profile="typical"))
        self.assertAlmostEqual(sum(o["ms"] for o in out["operators"]), out["step_ms"])
        self.assertIn("allreduce", [o["operator"] for o in out["operators"]])

    def test_ttft_fit_catalog(self):
        r = run("ttft", "--model", "llama-3-8b", "--gpu", "h100-sxm", "--prompt-tokens", "2000", "--json")
        self.assertEqual(json.loads(r.stdout)["ttft_ms"], roofline.ttft_ms("llama-3-8b", "h100-sxm", 2000))
        r = run("fit", "--model", "llama-3-8b", "--gpu", "rtx-4090", "--ctx", "8192", "--json")
        self.assertEqual(json.loads(r.stdout)["fit_batch"], roofline.fit_batch("llama-3-8b", "rtx-4090", 8192))
        gpus = json.loads(run("catalog", "gpus", "--json").stdout)
        self.assertEqual([g["id"] for g in gpus], [row[0] for row in roofline.gpus()])
        self.assertIn("llama-3-8b", run("catalog", "models").stdout)

    def test_unknown_ids_and_dtypes_name_the_option(self):
        r = run("step", "--model", "no-such-model", "--gpu", "h100-sxm", "--batch", "1", "--ctx", "0")
        self.assertEqual(r.returncode, 3)
        self.assertIn("--model", r.stderr)
        r = run("step", "--model", "llama-3-8b", "--gpu", "h100-sxm", "--batch", "1", "--ctx", "0", "--weight-dtype", "fp4")
        self.assertEqual(r.returncode, 3)
        self.assertIn("--weight-dtype", r.stderr)

    def test_hf_config_and_catalog_files(self):
        with tempfile.TemporaryDirectory() as tmp:
            config = Path(tmp) / "config.json"
            config.write_text(json.dumps({"model_type": "llama", "hidden_size": 2048, "intermediate_size": 8192,
                                          "num_hidden_layers": 16, "num_attention_heads": 32, "vocab_size": 32000}))
            r = run("--hf-config", f"mini={config}", "step", "--model", "mini", "--gpu", "l4", "--batch", "1",
                    "--ctx", "0", "--json")
            self.assertEqual(r.returncode, 0, r.stderr)
            cat = Path(tmp) / "gpus.json"
            cat.write_text(json.dumps({"gpus": [{"id": "lab-gpu", "tflops": {"bf16": 50}, "hbm_tbs": 0.5, "hbm_gb": 16}]}))
            r = run("--catalog", str(cat), "catalog", "gpus")
            self.assertIn("lab-gpu", r.stdout)
            self.assertEqual(run("--hf-config", "mini", "catalog", "gpus").returncode, 2)

    def test_plot_operators(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "ops.svg"
            r = run("plot", "--model", "llama-3-8b", "--gpu", "h100-sxm", "--batch", "64", "--ctx", "4096", "--svg", str(path))
            self.assertEqual(r.returncode, 0, r.stderr)
            texts = " ".join(t.text or "" for t in ET.parse(path).getroot().iter("{http://www.w3.org/2000/svg}text"))
            self.assertIn("decode b64 ctx4096: attention", texts)
            self.assertIn("prefill 2000 tok: mlp", texts)


class Formula(unittest.TestCase):
    def test_any_formula_by_name(self):
        r = run("formula", "ROOFLINE_BALANCE", "989", "3.35", "--json")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(json.loads(r.stdout)["result"], roofline.balance(989, 3.35))
        r = run("formula", "roofline_bound", "0", "14e9", "989", "2")
        self.assertEqual(r.stdout.strip(), roofline.bound(0, 14e9, 989, 2))
        self.assertEqual(run("formula", "ROOFLINE_NOPE").returncode, 3)
        self.assertEqual(run("formula", "ROOFLINE_BALANCE", "989", "fast").returncode, 2)

    def test_formulas_lists_the_table(self):
        listed = json.loads(run("formulas", "--json").stdout)
        self.assertEqual([f["name"].lower() for f in listed], ["roofline_" + n for n in roofline.formulas()])


class Plot(unittest.TestCase):
    def test_svg(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "roof.svg"
            r = run("plot", "--params-b", "8", "--batch", "64", "--ctx", "4096", "--bw", "3.35", "--svg", str(path))
            self.assertEqual(r.returncode, 0, r.stderr)
            svg = ET.parse(path).getroot()
            ns = "{http://www.w3.org/2000/svg}"
            self.assertEqual(len(svg.findall(f"{ns}circle")), 3)
            self.assertEqual(len(svg.findall(f"{ns}polyline")), 1)
            texts = " ".join(t.text or "" for t in svg.iter(f"{ns}text"))
            self.assertIn("prefill", texts)
            self.assertIn("balance point", texts)
        r = run("plot", "--params-b", "8", "--batch", "64", "--ctx", "4096", "--bw", "3.35", "--svg", "/nonexistent/x.svg")
        self.assertEqual(r.returncode, 5)


if __name__ == "__main__":
    unittest.main()
