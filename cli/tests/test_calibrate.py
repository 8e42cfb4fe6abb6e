"""`roofline calibrate FILE...`: a profile fitted (ROOFLINE_CALIBRATE, through the C ABI) on the rows that real
output files of vLLM, SGLang and llama.cpp give (tests/data/tool-outputs, each with its SOURCE.txt), or a CSV in the
formula's column order; the printed profile and each row's predictions are what the C ABI computes for those rows
(read here through the Python package); --save writes it as a named profile that every host then takes."""
import json
import os
import subprocess
import tempfile
import unittest
from pathlib import Path

import roofline

CLI = os.environ["ROOFLINE_CLI"]
DATA = Path(__file__).resolve().parents[2] / "tests" / "data" / "tool-outputs"
EMPTY_CONFIG_HOME = tempfile.TemporaryDirectory()
HEADER = ["model", "gpu", "weight_dtype", "kv_dtype", "tp", "batch", "context", "metric", "value"]
LAB = ("fit(lab; n=0; mdape=0.0%; loo=0.0%): bw=0.7, mfu=0.55, link=0.8, step_ms=0.5, allreduce_us=12, "
       "ep_imbalance=1.11, overlap_ep=0")


def run(*args, config_home=None):
    env = dict(os.environ, XDG_CONFIG_HOME=str(config_home or EMPTY_CONFIG_HOME.name))
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=300, env=env)


def lab_rows():
    """Decode steps and prefills that the lab's engine (the profile LAB) would measure."""
    rows = []
    for tp in (1, 2, 4):
        for batch in (1, 16, 128):
            rows.append(["llama-3.1-8b", "h100-sxm", "bf16", "bf16", tp, batch, 2048, "step_ms",
                         roofline.step_ms("llama-3.1-8b", "h100-sxm", batch, 2048, "bf16", "bf16", tp, LAB)])
        for prompt in (512, 4096):
            rows.append(["llama-3.1-8b", "h100-sxm", "bf16", "bf16", tp, 1, prompt, "ttft_ms",
                         roofline.ttft_ms("llama-3.1-8b", "h100-sxm", prompt, 1, "bf16", tp, LAB)])
    return rows


def write_csv(folder, rows, header=True):
    path = Path(folder) / "measured.csv"
    lines = ([",".join(HEADER)] if header else []) + [",".join(repr(c) if isinstance(c, float) else str(c) for c in r)
                                                     for r in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


class Calibrate(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def calibrate(self, *args, config_home=None):
        r = run("calibrate", *args, "--json", config_home=config_home)
        self.assertEqual(r.returncode, 0, r.stderr)
        return json.loads(r.stdout)

    def test_csv_gives_the_c_abis_fit_and_predictions(self):
        rows = lab_rows()
        out = self.calibrate(write_csv(self.tmp.name, rows))
        self.assertEqual(out["profile"], roofline.calibrate([HEADER] + rows))
        self.assertTrue(out["profile"].startswith("fit(typical; n=15; "), out["profile"])
        self.assertEqual(len(out["rows"]), 15)
        first = out["rows"][0]
        self.assertEqual(first["source"], "measured.csv:2")  # line 1 is the header
        self.assertEqual(first["predicted_ms"],
                         roofline.step_ms("llama-3.1-8b", "h100-sxm", 1, 2048, "bf16", "bf16", 1, out["profile"]))
        self.assertAlmostEqual(first["measured_ms"], rows[0][8], delta=1e-12 * rows[0][8])
        # The text output: the profile first, then a line per row with its source.
        r = run("calibrate", write_csv(self.tmp.name, rows))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.splitlines()[0], out["profile"])
        self.assertIn("measured.csv:16", r.stdout)

    def test_csv_columns_by_header_name(self):
        """A real measurement file: its columns in another order, more of them, named by a header (issue #32)."""
        rows = lab_rows()
        order = ["value", "engine", "metric", "context", "batch", "tp", "kv_dtype", "weight_dtype", "gpu", "model"]
        path = Path(self.tmp.name) / "bench.csv"
        lines = [",".join(order)]
        for r in rows:
            by = dict(zip(HEADER, r), engine="lab")
            lines.append(",".join(repr(by[c]) if isinstance(by[c], float) else str(by[c]) for c in order))
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        out = self.calibrate(str(path))
        self.assertEqual(out["profile"], roofline.calibrate([HEADER] + rows))
        self.assertEqual(out["rows"][0]["source"], "bench.csv:2")
        # After it, a file in the formula's order without a header, and a JSON result: each read in its own columns.
        plain = write_csv(self.tmp.name, rows[:3], header=False)
        both = self.calibrate(str(path), plain)
        self.assertEqual(both["profile"], roofline.calibrate([HEADER] + rows + rows[:3]))
        # A header that names some columns but not those the fit needs is an error naming them, and the file.
        (Path(self.tmp.name) / "short.csv").write_text("model,gpu,batch,context,ms\nllama-3.1-8b,h100-sxm,1,1024,7.9\n")
        r = run("calibrate", str(Path(self.tmp.name) / "short.csv"))
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("short.csv:1: the header has no column 'metric', 'value'", r.stderr)

    def test_vllm_bench_serve_json(self):
        files = sorted(str(p) for p in (DATA / "vllm-bench-serve-json").glob("*.json"))
        # Two runs give two rows: too few for a fit (no answer, exit 4), saying so.
        r = run("calibrate", *files, "--gpu", "h200", "--tp", "2")
        self.assertEqual(r.returncode, 4, r.stdout + r.stderr)
        self.assertIn("2 measured rows", r.stderr)
        # With measurements of another engine beside them: every row fitted, the files' TPOT as measured.
        out = self.calibrate(*files, write_csv(self.tmp.name, lab_rows()[:3]), "--gpu", "h200", "--tp", "2")
        served = [row for row in out["rows"] if row["source"].endswith(".json")]
        self.assertEqual(len(served), 2)
        run_1p3d = json.loads(Path(files[0]).read_text())
        self.assertEqual(served[0]["model"], "gpt-oss-120b")  # the file's model_id, openai/gpt-oss-120b
        self.assertEqual(served[0]["measured_ms"], run_1p3d["median_tpot_ms"])
        # One decode step of max_concurrency sequences at the mean prompt + half the mean output.
        ctx = round(run_1p3d["total_input_tokens"] / run_1p3d["completed"] +
                    run_1p3d["total_output_tokens"] / run_1p3d["completed"] / 2)
        self.assertEqual(served[0]["predicted_ms"], roofline.step_ms("gpt-oss-120b", "h200", run_1p3d["max_concurrency"],
                                                                     ctx, "", "", 2, out["profile"]))

    def test_sglang_bench_serving_jsonl(self):
        path = str(DATA / "sglang-bench-serving-jsonl" / "datacrunch-h200-llama_3_3_70b_online_output.jsonl")
        r = run("calibrate", path, "--gpu", "h200", "--tp", "4")
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)  # the file does not say its model
        self.assertIn("--model", r.stderr)
        out = self.calibrate(path, "--model", "llama-3.3-70b", "--gpu", "h200", "--tp", "4")
        lines = [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
        self.assertEqual(len(out["rows"]), len(lines))
        self.assertEqual([row["source"] for row in out["rows"]][:2], [f"{Path(path).name}:1", f"{Path(path).name}:2"])
        self.assertEqual(out["rows"][0]["measured_ms"], lines[0]["median_itl_ms"])  # the old schema: no TPOT
        self.assertTrue(out["profile"].startswith(f"fit(typical; n={len(lines)}; "), out["profile"])

    def test_llama_bench_json(self):
        path = str(DATA / "llama-bench-json" / "llama.cpp-README-rtx4080-qwen2.5-7b-q4km.json")
        # gpu_info says "NVIDIA GeForce RTX 4080", a GPU the catalog lacks: the error asks for --gpu.
        r = run("calibrate", path, "--model", "qwen2.5-7b")
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("RTX 4080", r.stderr)
        self.assertIn("--gpu", r.stderr)
        out = self.calibrate(path, write_csv(self.tmp.name, lab_rows()[:3]), "--model", "qwen2.5-7b", "--gpu", "rtx-4090",
                             "--base", "llama.cpp")
        bench = [row for row in out["rows"] if ".json" in row["source"]]
        runs = json.loads(Path(path).read_text())
        self.assertEqual([row["metric"] for row in bench], ["ttft_ms", "step_ms"])  # pp512, tg128
        self.assertAlmostEqual(bench[0]["measured_ms"], 1000 * 512 / runs[0]["avg_ts"], delta=1e-9)
        self.assertAlmostEqual(bench[1]["measured_ms"], 1000 / runs[1]["avg_ts"], delta=1e-12)
        # Q4_K - Medium weights, f16 cache, one sequence at 64 tokens of context (the middle of tg128).
        self.assertEqual(bench[1]["predicted_ms"],
                         roofline.step_ms("qwen2.5-7b", "rtx-4090", 1, 64, "q4_k_m", "fp16", 1, out["profile"]))
        self.assertTrue(out["profile"].startswith("fit(llama.cpp; n=5; "), out["profile"])

    def test_vllm_bench_latency_pairs(self):
        files = sorted(str(p) for p in (DATA / "vllm-bench-latency-json").glob("*.json"))
        r = run("calibrate", files[0], "--model", "llama-3.1-8b", "--gpu", "mi300x")
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("another output length", r.stderr)
        out = self.calibrate(*files, write_csv(self.tmp.name, lab_rows()[:3]), "--model", "llama-3.1-8b", "--gpu",
                             "mi300x", "--weight-dtype", "fp16", "--kv-dtype", "fp16")
        pair = [row for row in out["rows"] if " to out1024" in row["source"]]
        self.assertEqual(len(pair), 1)
        runs = {("out1024" in f): json.loads(Path(f).read_text()) for f in files}
        step = (runs[True]["percentiles"]["50"] - runs[False]["percentiles"]["50"]) * 1000 / (1024 - 128)
        self.assertAlmostEqual(pair[0]["measured_ms"], step, delta=1e-12 * step)
        # Batch 8 (bs8), context 128 + (128 + 1024) / 2 = 704.
        self.assertEqual(pair[0]["predicted_ms"],
                         roofline.step_ms("llama-3.1-8b", "mi300x", 8, 704, "fp16", "fp16", 1, out["profile"]))

    def test_save_writes_a_named_profile_every_host_takes(self):
        config_home = Path(self.tmp.name) / "config"
        rows = lab_rows()
        out = self.calibrate(write_csv(self.tmp.name, rows), "--save", "lab-vllm", config_home=config_home)
        saved = config_home / "libroofline" / "catalog" / "profile-lab-vllm.json"
        self.assertEqual(out["saved"]["file"], str(saved))
        entry = json.loads(saved.read_text())["profiles"][0]
        self.assertEqual(entry["id"], "lab-vllm")
        self.assertEqual(entry["profile"], out["profile"])
        self.assertIn("measured.csv", entry["source"])
        # The CLI, in a later run, by its name.
        r = run("formula", "ROOFLINE_STEP_MS", "llama-3.1-8b", "h100-sxm", "16", "2048", "bf16", "", "1", "lab-vllm",
                config_home=config_home)
        self.assertEqual(r.returncode, 0, r.stderr)
        want = roofline.step_ms("llama-3.1-8b", "h100-sxm", 16, 2048, "bf16", "", 1, out["profile"])
        self.assertAlmostEqual(float(r.stdout), want, delta=1e-9 * want)
        # Python, from the same folder.
        roofline.load_user_catalog(str(config_home / "libroofline"))
        self.assertEqual(roofline.step_ms("llama-3.1-8b", "h100-sxm", 16, 2048, "bf16", "", 1, "lab-vllm"), want)
        # A name that is a built-in profile's is refused, naming --save.
        r = run("calibrate", write_csv(self.tmp.name, rows), "--save", "typical", config_home=config_home)
        self.assertEqual(r.returncode, 3, r.stdout + r.stderr)
        self.assertIn("--save", r.stderr)
        self.assertIn("built-in", r.stderr)

    def test_bad_files_name_the_file_and_the_row(self):
        bad = lab_rows()[:4]
        bad[2][0] = "llama-9b"
        r = run("calibrate", write_csv(self.tmp.name, bad))
        self.assertEqual(r.returncode, 3, r.stdout + r.stderr)
        self.assertIn("measured.csv:4, model: no model 'llama-9b'", r.stderr)  # line 4: the header is line 1
        r = run("calibrate", write_csv(self.tmp.name, bad), "--format", "xlsx")
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("--format", r.stderr)
        broken = Path(self.tmp.name) / "broken.json"
        broken.write_text('{"completed": 10}')
        r = run("calibrate", str(broken), "--gpu", "h200", "--model", "llama-3.1-8b")
        self.assertEqual(r.returncode, 3, r.stdout + r.stderr)
        self.assertIn("broken.json", r.stderr)


if __name__ == "__main__":
    unittest.main()
