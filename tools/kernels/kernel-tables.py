#!/usr/bin/env python3
"""The error tables of docs/accuracy.md's "Kernels" section, from libroofline/catalog/kernels.json.

    tools/kernels/kernel-tables.py KERNELS_JSON DOC --write   rewrites the tables in DOC (scripts/fit-kernels runs it)
    tools/kernels/kernel-tables.py KERNELS_JSON DOC --check   exits 1 where a table of DOC is not what kernels.json says

Each table sits between `<!-- kernels-KIND:begin -->` and `<!-- kernels-KIND:end -->` (KIND: summary, gemm, moe,
attention, mla, collectives); each cell of the kinds' tables is a model's median absolute percentage error, fitted /
with shapes left out, as kernels.json states it; the summary is kernels.json's "summary" (tools/fit-kernels counts
each kind's models within issue #44's targets, "targets_percent", with shapes left out).
"""
import json
import sys

ENGINES = [("trtllm", "TensorRT-LLM"), ("sglang", "SGLang"), ("vllm", "vLLM")]
# The architectures in the tables' order, with the GPUs of TensorRT-LLM's rows (kernels.json "gpus" gives them too).
ARCHITECTURES = ["Ampere", "Ada Lovelace", "Hopper", "Blackwell", "Blackwell Ultra", "Blackwell (GB202)"]
GEMM_FORMATS = ["bf16", "fp8", "fp8_block", "nvfp4"]
MOE_FORMATS = [("bf16", "bf16"), ("fp8", "fp8"), ("fp8_block", "fp8_block"), ("nvfp4", "nvfp4"),
               ("mxfp4", "mxfp4 (16-bit activations)")]
COLLECTIVES = [("all_reduce", "all-reduce"), ("all_gather", "all-gather"), ("reduce_scatter", "reduce-scatter"),
               ("alltoall", "all-to-all")]
ATTENTION_COLUMNS = [("decode", "bf16"), ("decode", "fp8"), ("prefill", "bf16"), ("prefill", "fp8")]
GPU_NAMES = {"a100-sxm-80gb": "A100", "l40s": "L40S", "h100-sxm": "H100", "h200": "H200", "b200": "B200",
             "gb200": "GB200", "b300": "B300", "gb300": "GB300", "rtx-pro-6000": "RTX PRO 6000"}


def cell(model):
    if model is None:
        return ""
    e = model["mdape_percent"]
    return f"{e['fitted']:.1f} / {e['shapes_left_out']:.1f}"


def find(models, **fields):
    found = [m for m in models if all(m.get(k) == v for k, v in fields.items())]
    return found[0] if found else None


def gpus_of(models, architecture, key="gpus"):
    ids = sorted({g for m in models if m["architecture"] == architecture for g in m[key]},
                 key=list(GPU_NAMES).index)
    return ", ".join(GPU_NAMES[g] for g in ids)


SUMMARY = [("gemm", "matrix multiplies"), ("moe", "MoE layers (TensorRT-LLM)"),
           ("attention", "attention, decode and prefill"), ("mla", "MLA attention"), ("collectives", "NCCL collectives")]


def table(kernels, kind):
    if kind == "summary":
        lines = ["| kernels | models | within the target, shapes left out | median, shapes left out |", "|---|---|---|---|"]
        for k, name in SUMMARY:
            summary = kernels["summary"][k]
            lines.append(f"| {name} | {summary['models']} | {summary['within_target']} (≤ {kernels['targets_percent'][k]}%) "
                         f"| {summary['median_shapes_left_out']:.1f}% |")
        return "\n".join(lines) + "\n"
    models = kernels[kind]
    lines = []
    if kind == "gemm":
        lines += ["| engine, architecture | " + " | ".join(GEMM_FORMATS) + " |", "|---" * (len(GEMM_FORMATS) + 1) + "|"]
        for engine, name in ENGINES:
            for a in ARCHITECTURES:
                cells = [cell(find(models, engine=engine, architecture=a, format=f)) for f in GEMM_FORMATS]
                gpus = f" ({gpus_of(models, a)})" if engine == "trtllm" else ""
                if any(cells):
                    lines.append(f"| {name}, {a}{gpus} | " + " | ".join(cells) + " |")
    elif kind == "moe":
        lines += ["| architecture | " + " | ".join(h for _, h in MOE_FORMATS) + " |", "|---" * (len(MOE_FORMATS) + 1) + "|"]
        for a in ARCHITECTURES:
            cells = [cell(find(models, engine="trtllm", architecture=a, format=f)) for f, _ in MOE_FORMATS]
            if any(cells):
                lines.append(f"| {a} ({gpus_of(models, a)}) | " + " | ".join(cells) + " |")
    elif kind == "collectives":
        lines += ["| architecture, GPUs | " + " | ".join(h for _, h in COLLECTIVES) + " |", "|---" * (len(COLLECTIVES) + 1) + "|"]
        for a in ARCHITECTURES:
            for gpus in sorted({m["gpus"] for m in models if m["architecture"] == a}):
                cells = [cell(find(models, architecture=a, op=op, gpus=gpus)) for op, _ in COLLECTIVES]
                lines.append(f"| {a} ({gpus_of(models, a, 'measured_on')}), {gpus:g} | " + " | ".join(cells) + " |")
    else:
        lines += ["| engine, architecture | " + " | ".join(f"{p} {kv}" for p, kv in ATTENTION_COLUMNS) + " |",
                  "|---" * (len(ATTENTION_COLUMNS) + 1) + "|"]
        for engine, name in ENGINES:
            for a in ARCHITECTURES:
                cells = [cell(find(models, engine=engine, architecture=a, phase=p, kv=kv)) for p, kv in ATTENTION_COLUMNS]
                if any(cells):
                    lines.append(f"| {name}, {a} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main():
    if len(sys.argv) != 4 or sys.argv[3] not in ("--write", "--check"):
        sys.exit(__doc__)
    kernels = json.load(open(sys.argv[1], encoding="utf-8"))
    path = sys.argv[2]
    text = open(path, encoding="utf-8").read()
    stale = []
    for kind in ("summary", "gemm", "moe", "attention", "mla", "collectives"):
        begin, end = f"<!-- kernels-{kind}:begin -->\n", f"<!-- kernels-{kind}:end -->"
        b, e = text.find(begin), text.find(end)
        if b < 0 or e < b:
            sys.exit(f"{path} has no kernels-{kind} block")
        generated = table(kernels, kind)
        if text[b + len(begin):e] != generated:
            stale.append(kind)
            text = text[:b + len(begin)] + generated + text[e:]
    if sys.argv[3] == "--write":
        open(path, "w", encoding="utf-8").write(text)
    elif stale:
        sys.exit(f"{path}: the kernels tables {', '.join(stale)} are not what {sys.argv[1]} states: run "
                 "tools/kernels/kernel-tables.py KERNELS_JSON DOC --write (scripts/fit-kernels does)")


if __name__ == "__main__":
    main()
