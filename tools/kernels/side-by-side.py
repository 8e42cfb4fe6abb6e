#!/usr/bin/env python3
"""aiconfigurator's estimator and libroofline side by side on the planner validation's NVIDIA rows (issue #44,
Deliver 6; docs/accuracy.md, "Side by side"). A one-off tool, run by hand, not in CI.

    cd tools/kernels && npm install && cd ../..            # hyparquet, for the parquet tables
    apt-get install python3-pandas python3-scipy python3-yaml python3-prettytable python3-munch python3-tqdm \\
                    python3-pydantic                        # Debian's; aiconfigurator's imports
    git -C MIRROR archive v0.11.0 | tar -x -C /tmp/aic      # a snapshot of github.com/ai-dynamo/aiconfigurator
    cmake --build build --target roofline-planner-accuracy
    /usr/bin/python3 tools/kernels/side-by-side.py /tmp/aic [--markdown]

What it asks, row by row (tests/data/serving-validation.csv, NVIDIA GPUs that aiconfigurator has data for, rows at a
stated batch): aiconfigurator's `cli_estimate` in aggregated mode (in-flight batching of `batch` concurrent requests
of the row's prompt and output lengths) or, for a decode pool or a decode-only row, in its generation-only static
mode, with the row's layout (TP, TEP, DEP: aiconfigurator's tp is the GPUs of one attention group, its batch that
group's), formats and engine (TensorRT-LLM, and NIM on it: trtllm; SGLang: sglang), each model's config.json from the
catalog (libroofline/catalog/models.json); and libroofline's `typical` as build/bench/roofline-planner-accuracy
answers the same row. Output tokens per second per GPU against the published figure.

aiconfigurator runs from its source tree with Debian's numpy, pandas and scipy (older than its declared minimums: what
breaks is reported per row), a stand-in for pyarrow that decodes parquet with hyparquet (side-by-side/pyarrow), its
Rust extension absent (0.11's default Python path does not call it) and its plotting libraries replaced by mocks.
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile
import types
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))

# Catalog GPU -> aiconfigurator system (aic-core/src/aiconfigurator_core/systems/*.yaml).
SYSTEMS = {"h200": "h200_sxm", "h100-sxm": "h100_sxm", "a100-sxm-80gb": "a100_sxm", "b200": "b200_sxm",
           "b300": "b300_sxm", "gb200": "gb200", "gb300": "gb300", "l40s": "l40s"}
BACKENDS = {"tensorrt-llm": "trtllm", "nim (tensorrt-llm)": "trtllm", "sglang": "sglang", "vllm": "vllm"}
# Catalog format -> aiconfigurator's quant modes (sdk/common.py).
GEMM = {"bf16": "bfloat16", "fp16": "bfloat16", "fp8": "fp8", "nvfp4": "nvfp4", "fp8_block": "fp8_block"}
KV = {"bf16": "bfloat16", "fp16": "bfloat16", "fp8": "fp8"}


def load_aiconfigurator(snapshot):
    """Imports aiconfigurator's cli_estimate from a source snapshot (see the module's docstring)."""
    meta = tempfile.mkdtemp(prefix="aic-meta-")
    for dist in ("aiconfigurator", "aiconfigurator_core"):
        d = os.path.join(meta, f"{dist}-0.11.0.dist-info")
        os.makedirs(d)
        with open(os.path.join(d, "METADATA"), "w") as f:
            f.write(f"Metadata-Version: 2.1\nName: {dist.replace('_', '-')}\nVersion: 0.11.0\n")
    sys.path[:0] = [meta, os.path.join(HERE, "side-by-side"), os.path.join(snapshot, "aic-core", "src"),
                    os.path.join(snapshot, "src")]
    rust = types.ModuleType("aiconfigurator_core._aiconfigurator_core")

    def absent(*_args, **_kwargs):
        raise RuntimeError("aiconfigurator's Rust extension is not built here")

    for name in ("AicEngine", "RustForwardPassPerfModel"):
        setattr(rust, name, type(name, (), {"__init__": absent, "from_spec": staticmethod(absent),
                                             "from_native": staticmethod(absent)}))
    rust._build_smoke = lambda: 0
    rust.engine_spec_bincode_from_json = absent
    sys.modules["aiconfigurator_core._aiconfigurator_core"] = rust
    for name in ("plotext", "plotly", "plotly.graph_objects", "plotly.express", "plotly.subplots", "bokeh",
                 "bokeh.plotting", "bokeh.models", "bokeh.layouts", "bokeh.io", "bokeh.palettes", "bokeh.embed",
                 "bokeh.resources", "pynvml"):
        sys.modules.setdefault(name, mock.MagicMock(name=name))
    from aiconfigurator.cli.api import cli_estimate  # noqa: E402 (after the stand-ins)
    return cli_estimate


def libroofline_rows(binary, table):
    """{id: typical's output tokens/s per GPU} as roofline-planner-accuracy prints each row."""
    out = subprocess.run([binary, table], check=True, capture_output=True, text=True).stdout
    rows = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 14 and f[12].replace(".", "", 1).isdigit() and f[13].endswith("%"):
            rows[f[0]] = float(f[12])
    return rows


def model_dir(models, model_id, cache):
    d = os.path.join(cache, model_id)
    if not os.path.exists(os.path.join(d, "config.json")):
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "config.json"), "w") as f:
            json.dump(models[model_id]["config"], f)
    return d


def ask(cli_estimate, row, models, cache):
    """aiconfigurator's output tokens/s per GPU for a row, or raises with the reason."""
    system = SYSTEMS.get(row["gpu"])
    backend = BACKENDS.get(row["engine"].lower())
    if not system or not backend:
        raise LookupError(f"no aiconfigurator system or backend for {row['gpu']} / {row['engine']}")
    gpus, pp = int(row["tp"]), int(row["pp"] or 1)
    dp, ep = int(row["dp_attention"] or 1), int(row["ep"] or 1)
    moe = "num_experts" in json.dumps(models[row["model"]]["config"]) or "n_routed_experts" in json.dumps(
        models[row["model"]]["config"])
    weights = row["weight_dtype"]
    if weights == "fp8" and row["model"].startswith(("deepseek", "kimi")):
        weights = "fp8_block"  # their checkpoints' 128x128 block scales
    kwargs = dict(mode="agg", backend_name=backend, isl=int(row["prompt_tokens"]), osl=int(row["output_tokens"]),
                  batch_size=max(1, round(float(row["batch"]) / dp)), tp_size=gpus // (pp * dp), pp_size=pp,
                  attention_dp_size=dp, gemm_quant_mode=GEMM[weights], kvcache_quant_mode=KV[row["kv_dtype"] or "bf16"])
    if moe:
        kwargs.update(moe_ep_size=ep, moe_tp_size=gpus // (pp * ep))
        experts = row["expert_dtype"] or weights
        kwargs["moe_quant_mode"] = {"mxfp4": "w4a16_mxfp4" if system in ("h100_sxm", "h200_sxm") else "w4a8_mxfp4_mxfp8",
                                    "nvfp4": "nvfp4"}.get(experts, GEMM.get(experts, "bfloat16"))
    if row["phase"] == "decode":
        kwargs["mode"] = "static_gen"
    r = cli_estimate(model_dir(models, row["model"], cache), system, **kwargs)
    value = r.tokens_per_second_per_gpu
    if not value and r.tpot:
        value = kwargs["batch_size"] * dp * 1000 / r.tpot / gpus
    if not value:
        raise ValueError("no throughput in the estimate")
    return value, kwargs


def reason(e):
    """A short reason for a row aiconfigurator does not answer."""
    text = str(e).splitlines()[0] if str(e) else ""
    if isinstance(e, LookupError) and "no aiconfigurator system" in text:
        return "no such system"
    if "architecture" in text and "not supported" in text:
        return "model not supported"
    if type(e).__name__ == "PerfDataNotAvailableError":
        return "no measured kernel for it"
    return f"{type(e).__name__}: {text[:80]}"


def layout_of(row):
    gpus, ep, dp = int(row["tp"]), int(row["ep"] or 1), int(row["dp_attention"] or 1)
    kind = "DEP" if ep > 1 and dp > 1 else "TEP" if ep > 1 else "DP" if dp > 1 else "TP"
    return f"{kind}{gpus}" + (f" PP{row['pp']}" if row["pp"] not in ("", "1") else "")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("snapshot", help="aiconfigurator's source tree (a git archive of v0.11.0)")
    p.add_argument("--table", default=os.path.join(ROOT, "tests", "data", "serving-validation.csv"))
    p.add_argument("--planner-accuracy", default=os.path.join(ROOT, "build", "bench", "roofline-planner-accuracy"))
    p.add_argument("--markdown", action="store_true", help="print the table as docs/accuracy.md has it")
    a = p.parse_args()
    cli_estimate = load_aiconfigurator(a.snapshot)
    ours = libroofline_rows(a.planner_accuracy, a.table)
    with open(os.path.join(ROOT, "libroofline", "catalog", "models.json"), encoding="utf-8") as f:
        models = {m["id"]: m for m in json.load(f)["models"]}
    with open(os.path.join(ROOT, "libroofline", "catalog", "gpus.json"), encoding="utf-8") as f:
        vendor = {g["id"]: g.get("vendor") for g in json.load(f)["gpus"]}
    cache = tempfile.mkdtemp(prefix="aic-models-")
    results = []
    with open(a.table, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if vendor.get(row["gpu"]) != "NVIDIA" or not row["batch"]:
                continue
            published = float(row["output_tokens_per_s_per_gpu"])
            try:
                theirs, _ = ask(cli_estimate, row, models, cache)
                why = ""
            except Exception as e:  # report the row, go on
                theirs, why = None, reason(e)
            results.append((row, published, theirs, ours.get(row["id"]), why))
    err = lambda x, y: 100 * (x - y) / y
    if a.markdown:
        print("| row | GPU | model | layout | published | aiconfigurator 0.11 | error | libroofline `typical` | error |")
        print("|---|---|---|---|---:|---:|---:|---:|---:|")
    both_a, both_l = [], []
    for row, pub, theirs, mine, why in results:
        layout = layout_of(row)
        t = f"{theirs:.0f}" if theirs else "-"
        te = f"{err(theirs, pub):+.1f}%" if theirs else why
        m = f"{mine:.0f}" if mine else "-"
        me = f"{err(mine, pub):+.1f}%" if mine else ""
        if theirs and mine:
            both_a.append(abs(err(theirs, pub)))
            both_l.append(abs(err(mine, pub)))
        if a.markdown:
            print(f"| {row['id']} | {row['gpu']} | {row['model']} | {layout} | {pub:.0f} | {t} | {te} | {m} | {me} |")
        else:
            print(f"{row['id']:<44} {row['gpu']:<14} {row['model']:<15} {layout:<7} {pub:>9.0f} {t:>9} {te:>26} "
                  f"{m:>9} {me:>8}")
    if both_a:
        print(f"\nmedian absolute error on the {len(both_a)} rows both answer: aiconfigurator "
              f"{statistics.median(both_a):.1f}%, libroofline typical {statistics.median(both_l):.1f}%")


if __name__ == "__main__":
    main()
