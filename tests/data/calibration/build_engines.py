#!/usr/bin/env python3
"""Writes engines.csv: published measurements of today's serving engines as calibration rows (issue #19, Deliver 2).

Run from anywhere: python3 tests/data/calibration/build_engines.py
Reads ../calibration-candidates/rows.csv (the 89 candidate rows, see that folder's REPORT.md) and adds the rows found
later (NEW_* below). Every conversion is written out here; ENGINES.md says what each group is and what was left out.

Columns: those of ../measurements.csv, then output_tokens, ep, dp_attention, firmness, engine_date (year-month of the
engine build measured, from its version or the source's date: tools/calibration_rows.hpp holds rows of builds before
2025-06 out of the fit and reports them apart).
Metrics:
  step_ms  one decode step of `batch` sequences at `ctx_mean` tokens of context (clean: a differential of two latency
           runs, a decode-only pool, llama-bench tg).
  ttft_ms  the prefill of `batch` prompts of `prompt_tokens` tokens, no queueing (ctx_mean = prompt_tokens).
  tpot_ms  mean (or median: the note says) time per output token of a closed-loop serving benchmark at concurrency
           `batch`, prompts of `prompt_tokens`, answers of `output_tokens`; ctx_mean empty.
  e2e_ms   end-to-end latency of a benchmark_latency-style run: one prefill of `batch` x `prompt_tokens`, then
           (output_tokens - 1) decode steps at batch `batch`; ctx_mean empty.
"""
import csv
import os

HERE = os.path.dirname(os.path.abspath(__file__))
CAND = os.path.join(HERE, '..', 'calibration-candidates', 'rows.csv')
OUT = os.path.join(HERE, 'engines.csv')

COLS = ('id,source,gpu,engine,model,weight_dtype,kv_dtype,tp,batch,prompt_tokens,ctx_mean,metric,value,profile,note,'
        'output_tokens,ep,dp_attention,firmness,engine_date').split(',')
PROFILE = {'vllm': 'vllm', 'sglang': 'sglang', 'tensorrt-llm': 'tensorrt-llm', 'llama.cpp': 'llama.cpp'}

rows = []


def add(**k):
    r = {c: '' for c in COLS}
    for a, b in k.items():
        assert a in r, a
        r[a] = '' if b is None else str(b)
    r['profile'] = PROFILE.get(r['engine'], 'typical')
    r['ep'] = r['ep'] or '1'
    r['dp_attention'] = r['dp_attention'] or '1'
    assert r['metric'] in ('step_ms', 'ttft_ms', 'tpot_ms', 'e2e_ms'), r['metric']
    assert r['firmness'] in ('firm', 'medium', 'weak'), r['firmness']
    if r['metric'] in ('tpot_ms', 'e2e_ms'):
        assert r['ctx_mean'] == '' and r['output_tokens'] != '', r['id']
    else:
        assert r['ctx_mean'] != '', r['id']
    rows.append(r)


def fmt(x, nd=3):
    """A value with at most nd decimals, trailing zeros dropped."""
    s = f'{x:.{nd}f}'.rstrip('0').rstrip('.')
    return s


cand = list(csv.DictReader(open(CAND, newline='')))
assert len(cand) == 89, len(cand)


def src(i):
    return cand[i]['source']


# ---------------------------------------------------------------------------------------------------------------
# A. Candidates: cmontemuino/amd-mi300x-ml-benchmarks, vLLM benchmark_latency JSON on one MI300X (candidate rows 0-11)
#    Kept: the 3 differential steps (rows 0, 2, 4: (L(out 1024) - L(out 128)) / 896, prefill cancels) and the 3
#    end-to-end runs of 128 output tokens (rows 6, 8, 10) as e2e_ms. Left out: the out-1024 e2e runs (7, 9, 11: each is
#    the out-128 run plus the 896 steps already in the step rows) and the derived ttft rows (1, 3, 5: L(128) - 127 steps,
#    the same information again).
# ---------------------------------------------------------------------------------------------------------------
VER_CM = '0.9.2.dev364+gb432b7a28 (image rocm/vllm:rocm6.4.1_vllm_0.9.1_20250715, V0 engine, HIP graphs)'
for i in (0, 2, 4):
    c = cand[i]
    b = int(c['batch'])
    add(id=f'vllm-mi300x-l31-8b-b{b}-step', source=src(i), gpu='mi300x', engine='vllm', model='llama-3.1-8b',
        weight_dtype='fp16', kv_dtype='fp16', tp=1, batch=b, prompt_tokens=128, ctx_mean=704, metric='step_ms',
        value=c['value'], firmness='firm',
        note=f'vLLM {VER_CM}; {c["notes"]}; p50 of 10 iterations')
for i in (6, 8, 10):
    c = cand[i]
    b = int(c['batch'])
    add(id=f'vllm-mi300x-l31-8b-b{b}-128-128-e2e', source=src(i), gpu='mi300x', engine='vllm', model='llama-3.1-8b',
        weight_dtype='fp16', kv_dtype='fp16', tp=1, batch=b, prompt_tokens=128, output_tokens=128, metric='e2e_ms',
        value=fmt(float(c['value']) * 1000, 2), firmness='firm',
        note=f'vLLM {VER_CM}; benchmark_latency p50 end-to-end {c["value"]} s x 1000; --dtype float16, '
             f'gpu-memory-utilization 0.8; one GPU of a Dell XE9680')

# ---------------------------------------------------------------------------------------------------------------
# B. Candidates: Oracle OCI blog, vLLM benchmark_latency, Llama 3.1 405B FP8 on 8x MI300X (candidate rows 28-32): e2e_ms.
# ---------------------------------------------------------------------------------------------------------------
for i in range(28, 33):
    c = cand[i]
    b = int(c['batch'])
    add(id=f'vllm-mi300x-l31-405b-fp8-tp8-b{b}-128-128-e2e', source=src(i), gpu='mi300x', engine='vllm',
        model='llama-3.1-405b', weight_dtype='fp8', kv_dtype='bf16', tp=8, batch=b, prompt_tokens=128,
        output_tokens=128, metric='e2e_ms', value=fmt(float(c['value']) * 1000, 1), firmness='medium',
        note=f'vLLM version not stated (ROCm vLLM, late 2024); benchmark_latency end-to-end {c["value"]} s x 1000; '
             'FP8 checkpoint; kv_dtype not stated: bf16 assumed (vLLM auto keeps the 16-bit KV)')

# ---------------------------------------------------------------------------------------------------------------
# C. Candidates: dstack DeepSeek-R1 online benchmark, 8x MI300X and 8x H200 (candidate rows 33-55): tpot_ms (mean TPOT
#    of SGLang bench_serving, closed loop at max_concurrency, 500 prompts of 3200 -> 800 tokens, range ratio 1).
#    Left out: the TensorRT-LLM rows 56-57 (measured concurrency ~111 with max_concurrency 4 / 16: real batch unknown)
#    and the TTFT rows 58-61 (mean TTFT at concurrency 4 holds queueing behind other prefills: not a no-queue prefill).
# ---------------------------------------------------------------------------------------------------------------
for i in range(33, 56):
    c = cand[i]
    b = int(c['batch'])
    eng = c['engine']
    dpa = int(c['dp'])
    median = c['notes'].split('median ')[1].split(';')[0]
    add(id=f'{eng}-{c["gpu"]}-dsr1-tp8{"-dpa8" if dpa > 1 else ""}-c{b}-3200-800-tpot', source=src(i), gpu=c['gpu'],
        engine=eng, model='deepseek-r1', weight_dtype='native', kv_dtype='bf16', tp=8, batch=b, prompt_tokens=3200,
        output_tokens=800, metric='tpot_ms', value=c['value'], ep=1, dp_attention=dpa, firmness='medium',
        note=f'{eng} {c["engine_version"]}; MEAN TPOT (median {median}); weight_dtype native = the checkpoint\'s '
             'block-scaled FP8; kv_dtype not stated: engine default bf16 assumed'
             + ('; --enable-dp-attention: attention DP8, MoE TP8 (ep 1)' if dpa > 1 else ''))

# ---------------------------------------------------------------------------------------------------------------
# D. Candidates: ROCm/ATOM recipes (AMD's own engine; profile typical).
#    DeepSeek-R1 on 8x MI300X (rows 62-63) and GLM-5.2 on 4x MI355X (rows 64-71). ATOM's benchmark_serving draws each
#    length uniformly from [int(0.8 L), L] (--random-range-ratio 0.8): the mean length, not the nominal, is entered
#    (1024 -> 922, 8192 -> 7373).
# ---------------------------------------------------------------------------------------------------------------
def atom_mean(n):
    return round((int(0.8 * n) + n) / 2)


for i in (62, 63):
    c = cand[i]
    b = int(c['batch'])
    add(id=f'atom-mi300x-dsr1-fp8-tp8-c{b}-1024-1024-tpot', source=src(i), gpu='mi300x', engine='atom',
        model='deepseek-r1', weight_dtype='native', kv_dtype='fp8', tp=8, batch=b, prompt_tokens=atom_mean(1024),
        output_tokens=atom_mean(1024), metric='tpot_ms', value=c['value'], firmness='medium',
        note='ATOM main (rocm/atom:latest, Aug 2026; commit not stated); DeepSeek-R1-0528 (same shapes as R1), native '
             'block FP8; TPOT as the recipe table gives it (mean); nominal 1024/1024 with range ratio 0.8 -> mean 922; '
             'no MTP')
GLM_NOTE = ('ATOM (rocm/atom:latest, Aug 2026); amd/GLM-5.2-MXFP4 taken as the catalog\'s glm-5 (glm_moe_dsa shapes; '
            'GLM-5.2 adds IndexShare: the DSA indexer\'s top-k shared across layers, which only removes indexer work: '
            'a small share of the step at these contexts); weight_dtype mxfp4 for every linear layer (AMD Quark MXFP4 '
            'checkpoint; which modules stay 16-bit not read); FP8 KV; no DP attention, no MTP')
for i in range(64, 70):
    c = cand[i]
    b = int(c['batch'])
    isl = int(c['input_len'])
    add(id=f'atom-mi355x-glm5-mxfp4-tp4-c{b}-{isl}-1024-tpot', source=src(i), gpu='mi355x', engine='atom',
        model='glm-5', weight_dtype='mxfp4', kv_dtype='fp8', tp=4, batch=b, prompt_tokens=atom_mean(isl),
        output_tokens=atom_mean(1024), metric='tpot_ms', value=c['value'], firmness='medium',
        note=f'{GLM_NOTE}; MEDIAN TPOT; nominal {isl}/1024, range ratio 0.8 -> means {atom_mean(isl)}/{atom_mean(1024)}')
# The two TTFT rows (candidates 70, 71: 101 ms for 922 tokens, 363 ms for 7373) are left out since 0.12: measured by
# the client at concurrency 1, a line through them has a fixed part of 64 ms (HTTP, tokenization, the serving loop:
# 922 tokens of GLM-5 prefill on 4 MI355X are some 12 ms of weight reads and 5 ms of compute), the kind of TTFT
# ENGINES.md leaves out elsewhere (the SGLang cookbook's, 90-150 ms fixed). Fitted, they held the AMD variant's compute
# efficiency at its floor (0.26) with a fixed step cost of 1.35 ms.
for i in ():
    c = cand[i]
    isl = int(c['input_len'])
    p = atom_mean(isl)
    add(id=f'atom-mi355x-glm5-mxfp4-tp4-c1-{isl}-ttft', source=src(i), gpu='mi355x', engine='atom', model='glm-5',
        weight_dtype='mxfp4', kv_dtype='fp8', tp=4, batch=1, prompt_tokens=p, ctx_mean=p, metric='ttft_ms',
        value=c['value'], firmness='medium',
        note=f'{GLM_NOTE}; MEDIAN TTFT at concurrency 1 (one prompt at a time: no queueing); nominal {isl} tokens, '
             f'mean {p}')

# ---------------------------------------------------------------------------------------------------------------
# E. Candidates: single console outputs (rows 72, 74): tpot_ms. Their TTFT rows (73, 75) are left out (mean TTFT under
#    concurrency 32 / 64: queueing).
# ---------------------------------------------------------------------------------------------------------------
add(id='vllm-mi300x-qwen3-8b-c32-1024-1024-tpot', source=src(72), gpu='mi300x', engine='vllm', model='qwen3-8b',
    weight_dtype='bf16', kv_dtype='bf16', tp=1, batch=32, prompt_tokens=1024, output_tokens=1024, metric='tpot_ms',
    value=cand[72]['value'], firmness='medium',
    note='vLLM vllm/vllm-openai-rocm:latest (Apr 2026, digest not stated); Qwen/Qwen3Guard-Gen-8B = Qwen3-8B shapes; '
         'MEAN TPOT (median 9.46); 100 prompts at max concurrency 32; tp 1 ASSUMED (not in the excerpt)')
add(id='vllm-mi355x-l31-405b-mxfp4-tp1-c64-1022-1024-tpot', source=src(74), gpu='mi355x', engine='vllm',
    model='llama-3.1-405b', weight_dtype='mxfp4', kv_dtype='bf16', tp=1, batch=64, prompt_tokens=1022,
    output_tokens=1024, metric='tpot_ms', value=cand[74]['value'], firmness='medium',
    note='vLLM upstream main around 2025-09-18 (PR branch); AMD Quark MXFP4 checkpoint of Llama-3.1-405B-Instruct '
         '(exact HF id not in the excerpt), mxfp4 for every linear layer; kv_dtype not stated: bf16 assumed; MEAN TPOT '
         '(median 76.05); 320 prompts at max concurrency 64, mean prompt 326905/320 = 1022')

# ---------------------------------------------------------------------------------------------------------------
# F. Candidates: dstack PD-ratio, gpt-oss-120b on H200, SGLang 3 prefill + 1 decode workers of TP2 (rows 76-81).
#    The decode worker does decode only (no prefill interference), so these are step_ms: batch = the concurrency (an
#    upper bound of the decode worker's batch), ctx_mean = prompt + half the mean output (outputs stop at EOS).
# ---------------------------------------------------------------------------------------------------------------
for i in range(76, 82):
    c = cand[i]
    b = int(c['batch'])
    isl = int(c['input_len'])
    osl = int(c['output_len'])
    median = c['notes'].split('median ')[1].split(';')[0]
    add(id=f'sglang-h200-gptoss120b-tp2-pd-c{b}-{isl}-{osl}-step', source=src(i), gpu='h200', engine='sglang',
        model='gpt-oss-120b', weight_dtype='native', kv_dtype='bf16', tp=2, batch=b, prompt_tokens=isl,
        ctx_mean=isl + osl // 2, metric='step_ms', value=c['value'], output_tokens=osl, firmness='medium',
        note=f'SGLang lmsysorg/sglang:latest (Sep 2025, ~0.5.2, not pinned); decode-only TP2 worker of a 3P1D '
             f'disaggregated deployment: mean TPOT {c["value"]} ms (median {median}) taken as the step; batch = '
             f'concurrency {b} (upper bound); mean output {osl} tokens (stops at EOS), ctx_mean = {isl} + {osl}/2; '
             'weight_dtype native = MXFP4 experts, BF16 attention')

# ---------------------------------------------------------------------------------------------------------------
# G. Candidates: Vultr cookbook, Nemotron-3-Nano-30B-A3B FP8 on 2x B200, vLLM 0.16.0 (rows 82-87): tpot_ms.
#    Left out: the TTFT row 88 (c=8: prefill batch unknown; c=1 value looks like warm-up).
# ---------------------------------------------------------------------------------------------------------------
for i in range(82, 88):
    c = cand[i]
    b = int(c['batch'])
    add(id=f'vllm-b200-nemotron3nano-fp8-tp2-c{b}-2048-512-tpot', source=src(i), gpu='b200', engine='vllm',
        model='nemotron-3-nano-30b-a3b', weight_dtype='fp8', kv_dtype='bf16', tp=2, batch=b, prompt_tokens=2048,
        output_tokens=512, metric='tpot_ms', value=c['value'], firmness='medium',
        note='vLLM 0.16.0; nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-FP8 (catalog id is the BF16 release, same shapes); '
             'TPOT of the docs table (mean); kv_dtype not stated: bf16 assumed; 50 prompts at c=1, 400 at c>1')

# ===============================================================================================================
# NEW rows (found for this file)
# ===============================================================================================================

# H. llama.cpp llama-bench on data-centre NVIDIA GPUs: XiongjieDai/GPU-Benchmarks-on-LLM-Inference README, LLaMA 3,
#    'NVIDIA Professional GPUs' (RunPod, Ubuntu 22.04, CUDA 12.1.1, May 2024; llama.cpp master cloned at run time, the
#    notebooks 'LLaMA 3/Professional GPUs/*_v3.ipynb' hold the raw output). llama-bench default batch 1 for tg.
#    Conversion as the rtx-4090 rows of ../measurements.csv: tgN -> step_ms = 1000 / (t/s) at ctx_mean N/2, prompt 0;
#    ppN -> ttft_ms = N / (t/s) x 1000 at prompt N. Columns kept: tg512, tg4096, pp512, pp4096.
SRC_XD = ('XiongjieDai/GPU-Benchmarks-on-LLM-Inference@aa72e0ec86c356c41f8281c9733e9a13c3675800:README.md, '
          "'LLaMA 3' > 'NVIDIA Professional GPUs' table (llama-bench {t}; raw output in 'LLaMA 3/Professional GPUs/"
          "{nb}_v3.ipynb' @7d5af5243b33c4fbea06cfaa962aa7fdee031af6)")
XD = {  # gpu: (notebook, {model_dtype: (tg512, tg1024, tg4096, tg8192, pp512, pp1024, pp4096, pp8192)})
    'a100-pcie-80gb': ('A100_PCIe', {
        ('llama-3-8b', 'q4_k_m'): (140.62, 138.31, 127.22, 117.60, 5981.04, 5800.48, 4959.84, 4083.37),
        ('llama-3-8b', 'fp16'): (54.84, 54.56, 53.02, 51.24, 7741.34, 7504.24, 6137.54, 4849.11),
        ('llama-3-70b', 'q4_k_m'): (22.31, 22.11, 20.93, 19.53, 744.12, 726.65, 653.20, 573.95)}),
    'a100-sxm-80gb': ('A100_SXM', {
        ('llama-3-8b', 'q4_k_m'): (135.04, 133.38, 125.09, 115.92, 5947.64, 5863.92, 5121.60, 4137.08),
        # pp of 8B F16 on A100 SXM (603.76 ... 1323.07 t/s, below its own Q4_K_M and rising with length) is left out
        ('llama-3-8b', 'fp16'): (53.49, 53.18, 52.03, 50.52, None, None, None, None),
        ('llama-3-70b', 'q4_k_m'): (24.61, 24.33, 22.91, 21.32, 817.58, 796.81, 714.07, 625.66)}),
    'h100-pcie': ('H100_PCIe', {
        ('llama-3-8b', 'q4_k_m'): (145.55, 144.49, 136.06, 126.83, 8125.45, 7760.16, 6423.31, 5185.03),
        ('llama-3-8b', 'fp16'): (68.03, 67.79, 65.97, 63.55, 10815.51, 10342.63, 8106.53, 6191.45),
        ('llama-3-70b', 'q4_k_m'): (25.03, 25.01, 23.82, 22.39, 1012.73, 984.06, 863.37, 741.52)}),
}
SHORT = {'llama-3-8b': 'l3-8b', 'llama-3-70b': 'l3-70b', 'llama-3.1-8b': 'l31-8b', 'llama-3.1-70b': 'l31-70b',
         'deepseek-v3': 'dsv3'}
for gpu, (nb, table) in XD.items():
    for (model, dt), v in table.items():
        tg = {512: v[0], 4096: v[2]}
        pp = {512: v[4], 4096: v[6]}
        for n, tps in tg.items():
            add(id=f'llama.cpp-{gpu}-{SHORT[model]}-{dt.replace("_", "")}-tg{n}', source=SRC_XD.format(t=f'tg {n}', nb=nb),
                gpu=gpu, engine='llama.cpp', model=model, weight_dtype=dt, kv_dtype='fp16', tp=1, batch=1,
                prompt_tokens=0, ctx_mean=n // 2, metric='step_ms', value=fmt(1000 / tps), firmness='medium',
                note=f'llama.cpp master of May 2024 (build not printed in the README); {tps} t/s generating {n} tokens '
                     f'-> 1000/{tps} ms a token at mean context {n // 2}; GGUF {dt.upper()}, KV f16, one GPU')
        for n, tps in pp.items():
            if tps is None:
                continue
            add(id=f'llama.cpp-{gpu}-{SHORT[model]}-{dt.replace("_", "")}-pp{n}', source=SRC_XD.format(t=f'pp {n}', nb=nb),
                gpu=gpu, engine='llama.cpp', model=model, weight_dtype=dt, kv_dtype='fp16', tp=1, batch=1,
                prompt_tokens=n, ctx_mean=n, metric='ttft_ms', value=fmt(n / tps * 1000, 2), firmness='medium',
                note=f'llama.cpp master of May 2024; {tps} t/s over a {n}-token prompt -> {n}/{tps} s; GGUF '
                     f'{dt.upper()}, KV f16, one GPU; llama-bench default -b 2048 -ub 512 (prompts past 512 tokens go '
                     'in 512-token micro-batches)')

# I. llama.cpp on 8x MI300X (AMD ROCm blogs; llama-bench, default split mode 'layer': the layers spread over the 8 GPUs,
#    run one GPU after another). At batch 1 a tg token and a prompt of at most one micro-batch (ub 512) pass the GPUs
#    in turn, so the time is one GPU's work on all layers plus 7 hops: entered as tp 1 (no pp column; the serial
#    pipeline is not the project's micro-batched pp). pp1024..pp4096 are left out (8 micro-batches pipelined over the
#    8 GPUs: not one GPU's time). tgN -> step at ctx N/2; ppN -> ttft of N tokens.
SRC_RB = ('ROCm/rocm-blogs@{c}:blogs/ecosystems-and-partners/{d}/README.md, section {s} (llama-bench output on 8x '
          'MI300X, {img}) https://rocm.blogs.amd.com/ecosystems-and-partners/{d}/README.html')
MI = [  # (commit, dir, section, image/build, model, tag, fa, {test: t/s})
    ('09302f54b0bf61c6d4c84200460b42dc0eda54bb', 'llama-cpp-oct2025', "'DeepSeek V3 671B'",
     'image llama.cpp:llama.cpp-b6652.amd0_rocm7.0.0_ubuntu24.04_full, build b6652', 'deepseek-v3', 'b6652', 0,
     {'tg128': 42.51, 'pp128': 192.10, 'pp512': 514.07}),
    ('09302f54b0bf61c6d4c84200460b42dc0eda54bb', 'llama-cpp-oct2025', "'Llama 3.1 70B'",
     'image llama.cpp:llama.cpp-b6652.amd0_rocm7.0.0_ubuntu24.04_full, build b6652, -fa 1', 'llama-3.1-70b', 'b6652', 1,
     {'tg128': 36.51, 'pp128': 1088.59, 'pp512': 1340.55}),
    ('54f99e22ce872c51283812c0ded020f45fc79955', 'llama-cpp', "'Benchmark llama.cpp'",
     'ROCm/llama.cpp built on rocm/dev-ubuntu-24.04:6.4-complete, build 66906cd8 (5997)', 'deepseek-v3', 'b5997', 0,
     {'tg128': 37.04, 'pp128': 180.11, 'pp512': 439.14}),
]
for commit, d, sec, img, model, tag, fa, tests in MI:
    for test, tps in tests.items():
        n = int(test[2:])
        common = dict(source=SRC_RB.format(c=commit, d=d, s=sec, img=img), gpu='mi300x', engine='llama.cpp',
                      model=model, weight_dtype='q4_k_m', kv_dtype='fp16', tp=1, batch=1, firmness='medium')
        why = (f'llama.cpp {tag} (ROCm); GGUF Q4_K_M{", flash attention on" if fa else ""}; 8 GPUs in layer split, '
               'entered as tp 1 (serial: one GPU at a time at batch 1; 7 hops included)'
               + ('; does not fit one MI300X: tp 1 only as the serial equivalent' if model == 'deepseek-v3' else ''))
        if test.startswith('tg'):
            add(id=f'llama.cpp-mi300x-{SHORT[model]}-q4km-{tag}-{test}', prompt_tokens=0, ctx_mean=n // 2,
                metric='step_ms', value=fmt(1000 / tps), note=f'{why}; {tps} t/s -> 1000/{tps} ms at mean context {n // 2}',
                **common)
        else:
            add(id=f'llama.cpp-mi300x-{SHORT[model]}-q4km-{tag}-{test}', prompt_tokens=n, ctx_mean=n,
                metric='ttft_ms', value=fmt(n / tps * 1000, 2), note=f'{why}; {tps} t/s -> {n}/{tps} s (one micro-batch)',
                **common)

# J. TensorRT-LLM tech blog 1, DeepSeek-R1 min latency (batch 1) on 8x B200, ISL 1k / OSL 2k: TPS/user of the rows
#    WITHOUT MTP -> tpot_ms = 1000 / (TPS/user) (over 2k outputs the one prefill is < 3 % of the request).
#    NVFP4 MoE and dense FFN, BF16 attention (the blog's precision table): entered as nvfp4 for every linear layer.
SRC_T1 = ('NVIDIA/TensorRT-LLM@01c4ece911eb569e72cf4177f83238a0520641c2:docs/source/blogs/tech_blog/'
          'blog1_Pushing_Latency_Boundaries_Optimizing_DeepSeek-R1_Performance_on_NVIDIA_B200_GPUs.md, {t}')
for t, tps, ep, what in (
        ("table 'Key Optimizations', row 'Baseline: CUDA Graph + EP8TP8'", 67, 8,
         'baseline: CUDA graph, MoE EP8 / attention TP8, no MTP'),
        ("table 'Key Optimizations', row 'Optimize Fuse_A_GEMM'", 89, 8,
         'EP8TP8 with the first four kernel optimizations (multi-stream shared expert, MLA kernel, top-k, Fuse_A_GEMM), '
         'no MTP'),
        ("table 'Autoregressive MTP Layers', row 'Without MTP'", 111, 4,
         'the MTP study\'s baseline: no MTP; layout taken as --tp 8 --ep 4 (its MTP 3 row, 253, is the Key Optimizations '
         'row of EP4TP2), with the optimizations up to that row incl. clock/power tuning')):
    add(id=f'tensorrt-llm-b200-dsr1-nvfp4-tp8-ep{ep}-c1-{tps}tps-tpot', source=SRC_T1.format(t=t), gpu='b200',
        engine='tensorrt-llm', model='deepseek-r1', weight_dtype='nvfp4', kv_dtype='bf16', tp=8, batch=1,
        prompt_tokens=1024, output_tokens=2048, metric='tpot_ms', value=fmt(1000 / tps), ep=ep, firmness='medium',
        note=f'TensorRT-LLM PyTorch backend, spring 2025 (version not stated); {what}; {tps} TPS/user -> 1000/{tps} ms; '
             'weights: NVFP4 MoE and dense FFN, BF16 attention (entered as nvfp4); KV bf16 (attention in bf16)')

# K. Found in December 2026 (found-2026-12.csv: rows already in this file's columns, each with its source and a note
#    holding the raw numbers and the conversion; the search, what it read and what it left out: ENGINES.md, group 11).
#    Left out here:
#    - the vLLM TTFT at concurrency 1 of the GPUStack page (59 ms for a 233-token prompt, measured by the client through
#      the OpenAI chat endpoint: HTTP, tokenization and the chat template dominate it; not a prefill);
#    - SGLang gpt-oss-120b on 8x B200 (the gist): the same engine, model and GPU as the validation rows
#      sglang-gptoss120b-* (LMSYS blog); left out so that the planner's validation stays independent.
FOUND = os.path.join(HERE, 'found-2026-12.csv')
FOUND_LEFT_OUT = {'vllm-h100-qwen3-8b-bf16-tp1-c1-sharegpt-ttft', 'sglang-b200-gptoss120b-tp8-c1-1024-1024-tpot'}
found_dates = {}
for f in csv.DictReader(open(FOUND, newline='')):
    assert list(f) == COLS, list(f)
    if f['id'] in FOUND_LEFT_OUT:
        continue
    found_dates[f['id']] = f.pop('engine_date')
    assert f.pop('profile') == PROFILE.get(f['engine'], 'typical'), f['id']
    add(**f)

# L. llama.cpp llama-bench on an RTX 3090, from the two sources of ../measurements.csv's RTX 4090 rows (issue #31:
#    batch-1 decode on consumer GPUs). Conversion as group H: tgN -> step_ms = 1000 / (t/s) at ctx_mean N/2;
#    ppN -> ttft_ms = N / (t/s) x 1000.
#    - ggml-org/llama.cpp PR #4766 ('llama : ggml-backend integration'), JohannesGaessler's comparison table of
#      January 2024 (turn 56 of the thread), column 't/s master': RTX 3090, 'llama 7B' F16 and Q4_0, pp512 and tg128.
#      'llama 7B' is llama-bench's name for the architecture; taken as codellama-7b as the RTX 4090 rows of the same
#      table are (Llama-2-7B's shapes; the vocabulary differs by 16 tokens).
#    - XiongjieDai's 'NVIDIA Gaming GPUs' table (May 2024, the same README commit as group H): RTX 3090 24GB, Llama 3 8B
#      Q4_K_M and F16, tg512 and pp512: the columns measurements.csv takes for the RTX 4090. Left out: tg4096 and
#      pp4096 (llama-bench of 2024 without flash attention: fitted, its 4096-token prompts set the profile's attention
#      efficiency to the range's floor, 0.25, and with it the decode attention of every batch; the profile's decode
#      rows are all at batch 1 and cannot tell it).
SRC_4766 = ('ggml-org/llama.cpp pull request #4766 (llama : ggml-backend integration), comment of JohannesGaessler '
            "(turn 56), llama-bench table, RTX 3090, column 't/s master' ({t}), "
            'https://github.com/ggml-org/llama.cpp/pull/4766')
for dt, tg128, pp512 in (('fp16', 48.52, 4184.85), ('q4_0', 121.82, 3408.18)):
    add(id=f'llama.cpp-rtx-3090-cl7-{dt.replace("_", "")}-tg128', source=SRC_4766.format(t='tg128'), gpu='rtx-3090',
        engine='llama.cpp', model='codellama-7b', weight_dtype=dt, kv_dtype='fp16', tp=1, batch=1, prompt_tokens=0,
        ctx_mean=64, metric='step_ms', value=fmt(1000 / tg128), firmness='medium',
        note=f'llama.cpp master of January 2024; {tg128} t/s generating 128 tokens -> 1000/{tg128} ms a token at mean '
             f'context 64; GGUF {dt.upper()}, KV f16, one GPU')
    add(id=f'llama.cpp-rtx-3090-cl7-{dt.replace("_", "")}-pp512', source=SRC_4766.format(t='pp512'), gpu='rtx-3090',
        engine='llama.cpp', model='codellama-7b', weight_dtype=dt, kv_dtype='fp16', tp=1, batch=1, prompt_tokens=512,
        ctx_mean=512, metric='ttft_ms', value=fmt(512 / pp512 * 1000, 2), firmness='medium',
        note=f'llama.cpp master of January 2024; {pp512} t/s over a 512-token prompt -> 512/{pp512} s; GGUF '
             f'{dt.upper()}, KV f16, one GPU')
SRC_XD_GAMING = ('XiongjieDai/GPU-Benchmarks-on-LLM-Inference@aa72e0ec86c356c41f8281c9733e9a13c3675800:README.md, '
                 "'LLaMA 3' > 'NVIDIA Gaming GPUs' table, row '3090 24GB' (llama-bench {t})")
for dt, v in (('q4_k_m', (115.42, 111.74, 97.31, 87.49, 4030.40, 3865.39, 3169.91, 2527.40)),
              ('fp16', (47.40, 46.51, 44.79, 42.62, 4444.65, 4239.64, 3410.47, 2667.14))):
    for n, tps in ((512, v[0]),):
        add(id=f'llama.cpp-rtx-3090-l3-8b-{dt.replace("_", "")}-tg{n}', source=SRC_XD_GAMING.format(t=f'tg {n}'),
            gpu='rtx-3090', engine='llama.cpp', model='llama-3-8b', weight_dtype=dt, kv_dtype='fp16', tp=1, batch=1,
            prompt_tokens=0, ctx_mean=n // 2, metric='step_ms', value=fmt(1000 / tps), firmness='medium',
            note=f'llama.cpp master of May 2024 (RunPod); {tps} t/s generating {n} tokens -> 1000/{tps} ms a token at '
                 f'mean context {n // 2}; GGUF {dt.upper()}, KV f16, one GPU')
    for n, tps in ((512, v[4]),):
        add(id=f'llama.cpp-rtx-3090-l3-8b-{dt.replace("_", "")}-pp{n}', source=SRC_XD_GAMING.format(t=f'pp {n}'),
            gpu='rtx-3090', engine='llama.cpp', model='llama-3-8b', weight_dtype=dt, kv_dtype='fp16', tp=1, batch=1,
            prompt_tokens=n, ctx_mean=n, metric='ttft_ms', value=fmt(n / tps * 1000, 2), firmness='medium',
            note=f'llama.cpp master of May 2024 (RunPod); {tps} t/s over a {n}-token prompt -> {n}/{tps} s; GGUF '
                 f'{dt.upper()}, KV f16, one GPU; llama-bench default -b 2048 -ub 512')

ids = [r['id'] for r in rows]
assert len(ids) == len(set(ids)), [i for i in ids if ids.count(i) > 1]
# The engine build's year-month (from the version's release or the source's date, as each row's note says).
ENGINE_DATE = {
    ('vllm', 'mi300x', 'llama-3.1-8b'): '2025-07',      # rocm/vllm 0.9.1 image of 2025-07-15
    ('vllm', 'mi300x', 'llama-3.1-405b'): '2024-11',    # Oracle's blog: ROCm vLLM of late 2024
    ('vllm', 'mi300x', 'deepseek-r1'): '2025-02',       # vLLM 0.7.3 dev
    ('sglang', 'mi300x', 'deepseek-r1'): '2025-02',     # rocm/sglang-staging:20250212
    ('sglang', 'h200', 'deepseek-r1'): '2025-02',       # SGLang 0.4.3.post2
    ('vllm', 'h200', 'deepseek-r1'): '2025-03',         # vLLM 0.7.4 dev
    ('atom', 'mi300x', 'deepseek-r1'): '2026-08',       # rocm/atom:latest, Aug 2026
    ('atom', 'mi355x', 'glm-5'): '2026-08',
    ('vllm', 'mi300x', 'qwen3-8b'): '2026-04',          # vllm-openai-rocm:latest, Apr 2026
    ('vllm', 'mi355x', 'llama-3.1-405b'): '2025-09',    # vLLM main around 2025-09-18
    ('sglang', 'h200', 'gpt-oss-120b'): '2025-09',      # lmsysorg/sglang:latest, Sep 2025
    ('vllm', 'b200', 'nemotron-3-nano-30b-a3b'): '2026-02',  # vLLM 0.16.0
    ('tensorrt-llm', 'b200', 'deepseek-r1'): '2025-04',  # TensorRT-LLM PyTorch backend, spring 2025
}
for r in rows:
    if r['id'] in found_dates:
        r['engine_date'] = found_dates[r['id']]
    elif r['engine'] == 'llama.cpp':
        r['engine_date'] = ('2025-10' if '-b6652-' in r['id'] else '2025-07' if '-b5997-' in r['id'] else
                            '2024-01' if r['id'].startswith('llama.cpp-rtx-3090-cl7-') else '2024-05')
    else:
        r['engine_date'] = ENGINE_DATE[(r['engine'], r['gpu'], r['model'])]

with open(OUT, 'w', newline='') as f:
    w = csv.DictWriter(f, fieldnames=COLS, lineterminator='\n')
    w.writeheader()
    w.writerows(rows)

# Summary: rows per profile x vendor x metric
from collections import Counter
cnt = Counter((r['profile'], 'AMD' if r['gpu'].startswith('mi') else 'NVIDIA', r['metric']) for r in rows)
print(len(rows), 'rows written to', os.path.relpath(OUT))
for k in sorted(cnt):
    print(' ', *k, cnt[k])
