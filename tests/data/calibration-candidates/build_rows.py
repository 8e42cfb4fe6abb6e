import csv
rows=[]
COLS="model,gpu,engine,engine_version,weight_dtype,kv_dtype,tp,ep,dp,batch,input_len,output_len,metric,value,unit,source,firmness,notes".split(',')
def add(**k):
    r={c:'' for c in COLS}; r.update({a:str(b) for a,b in k.items()}); rows.append(r)

# ---------- AMD 1: cmontemuino MI300X vLLM benchmark_latency JSON (differential) ----------
src_cm=("cmontemuino/amd-mi300x-ml-benchmarks@081d8b322a4459e3da47e3413e812864184df7e1:datasets/sample-results/"
        "Llama-3.1-8B_latency_bs{b}_in128_out{o}_float16_mem0.8_*.json (vLLM benchmark_latency --output-json; 10 iters; 'percentiles'.'50'); "
        "command line in 40ecc2fb773c9b92ca56d8a7983cc82bd164f4d3:datasets/sample-results/logs/*.log")
lat={1:(0.71686,5.6085),8:(0.89737,7.08982),32:(1.18113,8.91987)}
for b,(l128,l1024) in lat.items():
    step=(l1024-l128)/896*1000
    add(model="meta-llama/Llama-3.1-8B-Instruct",gpu="mi300x",engine="vllm",engine_version="0.9.2.dev364+gb432b7a28 (image rocm/vllm:rocm6.4.1_vllm_0.9.1_20250715, V0 engine, HIP graphs on)",
        weight_dtype="fp16",kv_dtype="fp16",tp=1,ep=1,dp=1,batch=b,input_len=128,output_len="128 and 1024",metric="step_ms",value=round(step,3),unit="ms",
        source=src_cm.format(b=b,o="{128,1024}"),firmness="firm (raw JSON; differential of two runs)",
        notes=f"step = (p50 latency out1024 {l1024}s - p50 latency out128 {l128}s)/896 steps; decode steps 128..1024, so ctx_mean = 128+576 = 704; prefill cancels; single GPU of 8x MI300X Dell XE9680; mem-util 0.8 files")
    ttft=(l128-127*step/1000)*1000
    add(model="meta-llama/Llama-3.1-8B-Instruct",gpu="mi300x",engine="vllm",engine_version="0.9.2.dev364+gb432b7a28 (rocm/vllm:rocm6.4.1_vllm_0.9.1_20250715, V0)",
        weight_dtype="fp16",kv_dtype="fp16",tp=1,ep=1,dp=1,batch=b,input_len=128,output_len=128,metric="ttft_ms",value=round(ttft,1),unit="ms",
        source=src_cm.format(b=b,o="{128,1024}"),firmness="weak (derived: p50 latency out128 minus 127 derived steps; includes engine start-of-request overhead)",
        notes=f"prefill of {b} prompts x 128 tokens estimated as L(128)-127*step")
# raw e2e rows too (so a user can recompute)
for b,(l128,l1024) in lat.items():
    for o,l in ((128,l128),(1024,l1024)):
        add(model="meta-llama/Llama-3.1-8B-Instruct",gpu="mi300x",engine="vllm",engine_version="0.9.2.dev364 (rocm/vllm:rocm6.4.1_vllm_0.9.1_20250715, V0)",
            weight_dtype="fp16",kv_dtype="fp16",tp=1,ep=1,dp=1,batch=b,input_len=128,output_len=o,metric="e2e_latency_s",value=l,unit="s",
            source=src_cm.format(b=b,o=o),firmness="firm (raw JSON)",notes="vLLM benchmark_latency: one prefill of batch x input + (output-1) decode steps; step_ms ~= value*1000/output_len")

# ---------- AMD 2: ROCm/vllm dev-docker README, vLLM 0.8.5 table (same benchmark family as validation rows) ----------
src_rv=("ROCm/vllm@7bb0618b1fe725b7d4fad9e525aa44da12c94a8b:docs/dev-docker/README.md, table 'Latency Measurements' "
        "(rocm/vllm-dev image with ROCm 6.3.1, vLLM 0.8.5, PyTorch 2.7; benchmark_latency.py; 8x MI300X 192GB 750W) https://github.com/ROCm/vllm/blob/7bb0618b1fe725b7d4fad9e525aa44da12c94a8b/docs/dev-docker/README.md")
t70={(128,1):15.851,(128,8):19.277,(128,32):23.902,(128,128):44.107,(2048,1):15.981,(2048,8):20.218,(2048,32):27.407,(2048,128):56.659}
t405={(128,1):45.929,(128,8):51.621,(128,32):63.642,(128,128):110.142,(2048,1):46.489,(2048,8):54.252,(2048,32):74.346,(2048,128):154.134}
for name,hf,t in (("70B","amd/Llama-3.1-70B-Instruct-FP8-KV",t70),("405B","amd/Llama-3.1-405B-Instruct-FP8-KV",t405)):
    for (i,b),v in t.items():
        add(model=hf,gpu="mi300x",engine="vllm",engine_version="0.8.5 (ROCm/vllm dev-docker, May 2025)",weight_dtype="fp8",kv_dtype="fp8",tp=8,ep=1,dp=1,
            batch=b,input_len=i,output_len=2048,metric="e2e_latency_s",value=v,unit="s",source=src_rv,firmness="firm (table); step conversion approximate",
            notes=f"step_ms ~= {round(v*1000/2048,2)} (latency/2048, includes one prefill of {b}x{i} tokens); SAME benchmark family as serving-validation rows rocm-mi300x-* (those are the 0.9.1/0.10.0 versions of this table) - keep out of calibration if validation must stay independent")

# ---------- AMD 3: Oracle OCI blog MI300X Llama 3.1 405B FP8 ----------
src_or=("https://blogs.oracle.com/cloud-infrastructure/serving-llama-31-405b-model-with-amd-mi300x-gpus, section 'Latency measurements' table "
        "(vLLM scripts/benchmark_latency.py, input 128, output 128, OCI BM.GPU.MI300X.8, single instance on all 8 GPUs)")
for b,v in ((1,3.530),(2,3.583),(4,3.734),(8,3.974),(16,4.375)):
    add(model="meta-llama/Llama-3.1-405B-Instruct (FP8)",gpu="mi300x",engine="vllm",engine_version="not stated (ROCm vLLM, late 2024)",weight_dtype="fp8",kv_dtype="not stated",tp=8,ep=1,dp=1,
        batch=b,input_len=128,output_len=128,metric="e2e_latency_s",value=v,unit="s",source=src_or,firmness="medium (table; engine version and kv dtype not stated)",
        notes=f"step_ms ~= {round(v*1000/128,2)} (latency/128 incl. prefill of {b}x128 tokens, <~5% at these batches); ctx_mean ~192")

# ---------- AMD 4: dstack DeepSeek-R1 online benchmark, MI300X ----------
src_ds=("dstackai/benchmarks@7f37e6697725e58dd09b9ef190b62ce19f01d45e (branch deepseek-r1-benchmark):Deepseek-R1/raw_data/online_results.csv line {ln} "
        "(SGLang bench_serving.py modified by dstack; random, range_ratio 1, 500 prompts, closed loop at max_concurrency); versions and launch commands in Deepseek-R1/README.md; blog https://dstack.ai/blog/h200-mi300x-deepskeek-benchmark/")
ds=[# ln,gpu,engine,ver,conc,isl,osl,mean_ttft,mean_tpot,median_tpot,dp,notes
 (7,'mi300x','vllm','0.7.3.dev138+g21f6ca217',4,3200,800,1259.2,46.20,46.17,1,''),
 (6,'mi300x','vllm','0.7.3.dev138+g21f6ca217',8,3200,800,2231.2,50.87,50.56,1,''),
 (5,'mi300x','vllm','0.7.3.dev138+g21f6ca217',16,3200,800,4261.1,55.57,54.91,1,''),
 (4,'mi300x','vllm','0.7.3.dev138+g21f6ca217',32,3200,800,7110.2,61.93,60.82,1,''),
 (3,'mi300x','vllm','0.7.3.dev138+g21f6ca217',64,3200,800,12233.7,77.97,76.69,1,''),
 (2,'mi300x','vllm','0.7.3.dev138+g21f6ca217',128,3200,800,22245.6,109.07,108.64,1,''),
 (14,'mi300x','sglang','0.4.2.post4 (rocm/sglang-staging:20250212)',4,3200,800,1644.6,34.94,34.90,1,''),
 (15,'mi300x','sglang','0.4.2.post4 (rocm/sglang-staging:20250212)',8,3200,800,2462.1,38.75,38.21,1,''),
 (16,'mi300x','sglang','0.4.2.post4 (rocm/sglang-staging:20250212)',16,3200,800,4186.8,47.09,47.36,1,''),
 (17,'mi300x','sglang','0.4.2.post4 (rocm/sglang-staging:20250212)',32,3200,800,7397.8,59.62,59.43,1,''),
 (18,'mi300x','sglang','0.4.2.post4 (rocm/sglang-staging:20250212)',64,3200,800,13925.3,84.95,84.53,1,''),
 (19,'mi300x','sglang','0.4.2.post4 (rocm/sglang-staging:20250212)',128,3200,800,27308.8,135.73,135.93,1,''),
 (13,'h200','sglang','0.4.3.post2 (lmsysorg/sglang:latest, Feb 2025)',4,3200,800,3903.9,43.58,43.15,8,'--enable-dp-attention (attention DP8, MoE TP8)'),
 (12,'h200','sglang','0.4.3.post2',8,3200,800,3673.6,43.82,43.48,8,'--enable-dp-attention'),
 (11,'h200','sglang','0.4.3.post2',16,3200,800,7121.7,52.51,50.91,8,'--enable-dp-attention'),
 (10,'h200','sglang','0.4.3.post2',32,3200,800,10992.5,63.64,61.19,8,'--enable-dp-attention'),
 (9,'h200','sglang','0.4.3.post2',64,3200,800,20637.1,80.24,76.50,8,'--enable-dp-attention'),
 (8,'h200','sglang','0.4.3.post2',128,3200,800,36230.5,110.75,108.35,8,'--enable-dp-attention'),
 (25,'h200','vllm','0.7.4.dev181+gf35f8e22',4,3200,800,975.7,25.73,25.73,1,''),
 (24,'h200','vllm','0.7.4.dev181+gf35f8e22',8,3200,800,1765.7,31.28,31.33,1,''),
 (23,'h200','vllm','0.7.4.dev181+gf35f8e22',16,3200,800,3368.6,49.60,49.75,1,''),
 (22,'h200','vllm','0.7.4.dev181+gf35f8e22',32,3200,800,7650.8,51.67,52.00,1,''),
 (21,'h200','vllm','0.7.4.dev181+gf35f8e22',64,3200,800,14164.4,65.62,64.42,1,''),
 (26,'h200','tensorrt-llm','0.17.post1.dev (commit 9b931c0f, trtllm-serve)',4,3200,800,1003.8,55.12,55.12,1,'DOUBT: measured concurrency column = 111 although max_concurrency=4; limit probably not applied for the TRT-LLM backend, so batch is unknown (~100+)'),
 (28,'h200','tensorrt-llm','0.17.post1.dev (commit 9b931c0f)',16,3200,800,2750.9,57.55,57.58,1,'DOUBT: measured concurrency 114 vs max_concurrency 16; batch unknown'),
]
for ln,gpu,eng,ver,conc,isl,osl,ttft,tpot,mtpot,dp,nt in ds:
    add(model="deepseek-ai/DeepSeek-R1",gpu=gpu,engine=eng,engine_version=ver,weight_dtype="fp8 (block-scaled, native checkpoint)",kv_dtype="bf16 (engine default; not stated)",tp=8,ep=1,dp=dp,
        batch=conc,input_len=isl,output_len=osl,metric="tpot_ms",value=tpot,unit="ms",source=src_ds.format(ln=ln),
        firmness="medium (CSV of bench_serving results; serving TPOT includes prefill interference of arriving requests)" if 'DOUBT' not in nt else "weak (see notes)",
        notes=f"mean TPOT; median {mtpot}; ctx_mean ~{isl+osl//2}; 8 GPUs one instance; {nt}".strip('; '))
for ln,gpu,eng,ver,conc,isl,osl,ttft,tpot,mtpot,dp,nt in ds:
    if conc==4 and 'DOUBT' not in nt:
        add(model="deepseek-ai/DeepSeek-R1",gpu=gpu,engine=eng,engine_version=ver,weight_dtype="fp8",kv_dtype="bf16 (default; not stated)",tp=8,ep=1,dp=dp,
            batch=1,input_len=isl,output_len=osl,metric="ttft_ms",value=ttft,unit="ms",source=src_ds.format(ln=ln),
            firmness="weak (mean TTFT at max_concurrency 4: one 3200-token prefill batched with ~3 running decodes, plus queueing)",notes=f"mean TTFT of a 3200-token prompt at concurrency 4; {nt}".strip('; '))

# ---------- AMD 5: ATOM recipes ----------
src_at_ds="ROCm/ATOM@09bea8b20a908cfc3df7fbe04befae9b1e433688:recipes/DeepSeek-R1.md, section 'Performance baseline', table 'FP8 (TP8, FP8 KV Cache)' (8x MI300X, rocm/atom:latest, ATOM main; atom.benchmarks.benchmark_serving random, range ratio 0.8, num_prompts = 10 x conc)"
for conc,tpot in ((128,28.8),(256,40.8)):
    add(model="deepseek-ai/DeepSeek-R1-0528",gpu="mi300x",engine="atom",engine_version="ATOM main (rocm/atom:latest, Aug 2026; exact commit not stated)",weight_dtype="fp8",kv_dtype="fp8",tp=8,ep=1,dp=1,
        batch=conc,input_len=1024,output_len=1024,metric="tpot_ms",value=tpot,unit="ms",source=src_at_ds,firmness="medium (table; image tag 'latest', serving TPOT)",
        notes="no MTP rows used; ctx_mean ~1536; range ratio 0.8 => lengths vary around the nominal value")
src_at_glm="ROCm/ATOM@dd8a9caa602c44b7379a9d252266e32281ae14a8:recipes/GLM-5.md, section 'GLM-5.2 (IndexShare)' > 'Performance baseline' table (4x MI355X, amd/GLM-5.2-MXFP4, TP4, MXFP4 weights, FP8 KV, no DPA/MTP, random-range-ratio 0.8; Median TTFT / Median TPOT)"
glm=[(1024,1,101,9.4),(1024,16,102,16.8),(1024,64,117,29.3),(8192,1,363,10.0),(8192,16,411,21.8),(8192,64,525,47.9)]
for isl,conc,ttft,tpot in glm:
    add(model="amd/GLM-5.2-MXFP4 (zai-org/GLM-5.2; glm_moe_dsa arch = catalog glm-5 + IndexShare)",gpu="mi355x",engine="atom",engine_version="ATOM (rocm/atom:latest, Aug 2026)",weight_dtype="mxfp4",kv_dtype="fp8",tp=4,ep=1,dp=1,
        batch=conc,input_len=isl,output_len=1024,metric="tpot_ms",value=tpot,unit="ms",source=src_at_glm,firmness="medium (table; median TPOT)",notes=f"ctx_mean ~{isl+512}; DSA sparse attention + IndexShare (model kind MLA/DSA MoE)")
for isl,conc,ttft,tpot in glm:
    if conc==1:
        add(model="amd/GLM-5.2-MXFP4",gpu="mi355x",engine="atom",engine_version="ATOM (rocm/atom:latest, Aug 2026)",weight_dtype="mxfp4",kv_dtype="fp8",tp=4,ep=1,dp=1,
            batch=1,input_len=isl,output_len=1024,metric="ttft_ms",value=ttft,unit="ms",source=src_at_glm,firmness="medium (table; median TTFT at concurrency 1)",notes="prefill of one prompt")

# ---------- AMD 6: vllm-project/recipes PR 431 (Qwen3Guard-Gen-8B = Qwen3-8B arch) ----------
src_qg="vllm-project/recipes pull request #431 'mi300x verified tag for Qwen3Guard' (matti-palomaki-amd, 2026-04-30), description, block 'Serving Benchmark Result' for Qwen/Qwen3Guard-Gen-8B https://github.com/vllm-project/recipes/pull/431"
add(model="Qwen/Qwen3Guard-Gen-8B (Qwen3-8B architecture)",gpu="mi300x",engine="vllm",engine_version="vllm/vllm-openai-rocm:latest (Apr 2026; digest not stated in excerpt)",weight_dtype="bf16",kv_dtype="bf16 (default)",tp="1 (assumed; not in the excerpt read)",ep=1,dp=1,
    batch=32,input_len=1024,output_len=1024,metric="tpot_ms",value=9.42,unit="ms",source=src_qg,firmness="medium (console output; tp assumed)",notes="mean TPOT; median 9.46; 100 prompts at max concurrency 32; ctx_mean ~1536")
add(model="Qwen/Qwen3Guard-Gen-8B (Qwen3-8B architecture)",gpu="mi300x",engine="vllm",engine_version="vllm/vllm-openai-rocm:latest (Apr 2026)",weight_dtype="bf16",kv_dtype="bf16 (default)",tp="1 (assumed)",ep=1,dp=1,
    batch=32,input_len=1024,output_len=1024,metric="ttft_ms",value=645.02,unit="ms",source=src_qg,firmness="weak (mean TTFT under concurrency 32: queueing and batched prefills)",notes="median 666.11")

# ---------- AMD 7: vLLM PR 25135 (Llama 3.1 405B FP4 on MI355X, TP1) ----------
src_pr="vllm-project/vllm pull request #25135 'Llamas 3.1 405B fp4 changes upstreaming from 355_wip' (maleksan85, 2025-09-18), description, block 'upstream tp1' https://github.com/vllm-project/vllm/pull/25135"
add(model="Llama-3.1-405B-Instruct MXFP4 (AMD Quark checkpoint; exact HF id not in excerpt)",gpu="mi355x",engine="vllm",engine_version="upstream main around 2025-09-18 (PR branch)",weight_dtype="mxfp4",kv_dtype="not stated",tp=1,ep=1,dp=1,
    batch=64,input_len=1022,output_len=1024,metric="tpot_ms",value=75.58,unit="ms",source=src_pr,firmness="medium (console output)",notes="320 prompts, max concurrency 64, total input 326905, output 327680; median TPOT 76.05; ctx_mean ~1534")
add(model="Llama-3.1-405B-Instruct MXFP4",gpu="mi355x",engine="vllm",engine_version="upstream main around 2025-09-18",weight_dtype="mxfp4",kv_dtype="not stated",tp=1,ep=1,dp=1,
    batch=64,input_len=1022,output_len=1024,metric="ttft_ms",value=5240.27,unit="ms",source=src_pr,firmness="weak (mean TTFT under concurrency 64, includes queueing)",notes="median 5150.59")

# ---------- NVIDIA: dstack PD-ratio, H200, gpt-oss-120b, SGLang decode worker ----------
src_pd=("dstackai/benchmarks@06c957ab51572ca18db9c1f4bb254a9eb86df4d7:comparison/pd_ratio/raw_data/{f} (vllm bench serve --save-result JSON against an SGLang PD router; setup in comparison/pd_ratio/README.md: 8x H200 SXM5, lmsysorg/sglang:latest Sep 2025, each worker TP2, nixl transfer)")
pd=[("3p1d_conc32_in2048_out128_20250917_065817.json",32,2046,63,11.39,11.45),("3p1d_conc64_in2048_out128_20250917_065754.json",64,2046,63,13.46,13.77),("3p1d_conc128_in2048_out128_20250917_065731.json",128,2046,64,13.73,14.16),
    ("3p1d_conc32_in128_out2048_20250923_040856.json",32,128,667,10.48,10.88),("3p1d_conc64_in128_out2048_20250923_040740.json",64,128,654,12.65,13.02),("3p1d_conc128_in128_out2048_20250923_040639.json",128,128,635,15.38,15.64)]
for f,conc,isl,osl,tpot,med in pd:
    add(model="openai/gpt-oss-120b",gpu="h200",engine="sglang",engine_version="lmsysorg/sglang:latest (Sep 2025, ~0.5.2; not pinned)",weight_dtype="mxfp4 (MoE) / bf16",kv_dtype="bf16 (default)",tp=2,ep=1,dp=1,
        batch=conc,input_len=isl,output_len=osl,metric="tpot_ms",value=tpot,unit="ms",source=src_pd.format(f=f),firmness="medium (raw JSON; decode-only worker so no prefill interference, but batch on the decode worker <= concurrency)",
        notes=f"3 prefill + 1 decode workers: all decode on ONE TP2 worker; mean TPOT, median {med}; outputs stop at EOS (mean output {osl} tokens of nominal {2048 if isl==128 else 128}); ctx_mean ~{isl+osl//2}")

# ---------- NVIDIA: Vultr B200 Nemotron Nano ----------
src_vu=("https://docs.vultr.com/inference-cookbook/cuda/optimization/concurrency-tuning (updated 2026-03-11), section 'Throughput Results (NVIDIA HGX B200 Verified)', table 'Nemotron Nano 30B (FP8, TP=2, 2 GPUs)'; "
        "method in https://docs.vultr.com/inference-cookbook/cuda/benchmarks/methodology (vllm bench serve, random 2048/512, 50 prompts at c=1, 400 at c>1; vLLM 0.16.0 for Nemotron Nano)")
vu=[(1,362,2.91),(8,152,3.96),(16,160,4.32),(64,324,6.74),(128,520,8.91),(256,1254,11.77)]
for c,ttft,tpot in vu:
    add(model="nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-FP8",gpu="b200",engine="vllm",engine_version="0.16.0",weight_dtype="fp8",kv_dtype="not stated (recipe recommends fp8 with the FP8 model)",tp=2,ep=1,dp=1,
        batch=c,input_len=2048,output_len=512,metric="tpot_ms",value=tpot,unit="ms",source=src_vu,firmness="medium (docs table; serving TPOT)",notes="hybrid Mamba-Transformer MoE; ctx_mean ~2304; c=32 row (7.86 ms, > c=64) skipped as inconsistent")
add(model="nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-FP8",gpu="b200",engine="vllm",engine_version="0.16.0",weight_dtype="fp8",kv_dtype="not stated",tp=2,ep=1,dp=1,
    batch=8,input_len=2048,output_len=512,metric="ttft_ms",value=152,unit="ms",source=src_vu,firmness="weak (c=8 TTFT 152 ms used because the c=1 value 362 ms looks like first-request warmup; each c>1 TTFT includes batching)",notes="row 'Concurrent 8': mean TTFT of 2048-token prompts at concurrency 8 (prefill batch between 1 and 8, unknown)")
with open('/tmp/calib-search/rows.csv','w',newline='') as f:
    w=csv.DictWriter(f,fieldnames=COLS); w.writeheader(); w.writerows(rows)
amd=sum(r['gpu'].startswith('mi') for r in rows); print(len(rows),'rows; AMD',amd,'NVIDIA',len(rows)-amd)
