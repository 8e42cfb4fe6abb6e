// The article's defaults, defined once. The formula table (formula_table.hpp) takes its optional
// arguments' defaults from here; every host reads them from that table.
#pragma once

#include <cstddef>
#include <cstdint>

namespace roofline::defaults {

/// H100 SXM, BF16 dense Tensor Core peak, TFLOP/s (the article; NVIDIA H100 datasheet).
inline constexpr double h100_sxm_bf16_dense_tflops = 989.0;
/// H100 SXM HBM3 bandwidth, TB/s (the article; NVIDIA H100 datasheet).
inline constexpr double h100_sxm_hbm_tbs = 3.35;
/// KV cache of an 8B GQA model (Llama-3-8B: 32 layers x 8 KV heads x 128 dims x K,V x 2 B), KiB/token.
inline constexpr double kv_kib_per_token_8b_gqa = 128.0;
/// BF16 weights: bytes per parameter.
inline constexpr double bf16_bytes_per_param = 2.0;
/// FLOP per parameter per token of a dense forward pass (one multiply-add).
inline constexpr double flops_per_param_per_token = 2.0;

/// ROOFLINE_ROOF: default range and resolution of the chart.
inline constexpr double roof_ai_min = 0.1;
inline constexpr double roof_ai_max = 10000.0;
inline constexpr double roof_points = 50.0;
inline constexpr double roof_points_max = 10000.0;

/// Weight format of the catalog formulas: the checkpoint's own formats, per module ("native": bf16 for the
/// 16-bit checkpoints, FP8 with block scales for DeepSeek's, MXFP4 experts for gpt-oss; docs/formulas.md).
/// Until 0.5.0 it was bf16 for every model.
inline constexpr const char* weight_dtype = "native";
/// KV cache format of the catalog formulas, whatever the weights' format: 16 bits, as llama.cpp, vLLM and
/// TensorRT-LLM keep it unless told otherwise. ROOFLINE_TTFT_MS's prefill writes its KV cache in it.
inline constexpr const char* kv_dtype = "bf16";

/// The catalog formulas' replica: one GPU, and on more the layout that divides nothing but the tensors (tensor
/// parallelism): the routed experts over all of them, one attention group, one pipeline stage.
inline constexpr double tp = 1;
inline constexpr double ep = 1;
inline constexpr double dp_attention = 1;
inline constexpr double pp = 1;

/// ROOFLINE_TTFT_MS: prompts prefilled together.
inline constexpr double prompts = 1;

/// The profile of the catalog formulas (ROOFLINE_STEP_MS, ...): the ideal roofline, a true lower bound.
inline constexpr const char* profile = "bound";
/// The profile of the planner's formulas and of serving.hpp's PlanOptions, and the base of ROOFLINE_CALIBRATE's fit:
/// the estimate, fitted on serving engines' measurements.
inline constexpr const char* plan_profile = "typical";

/// ROOFLINE_PLAN: the datacenter GPUs of the catalog ("datacenter"; before 0.13 "all", every GPU: issue #32, GeForce
/// cards are not licensed for datacenter deployment and came first in plans), the model's published checkpoints
/// ("published"; before 0.14 every format the GPU computes in every module, now "all" with them: issue #32, plans
/// picked formats nobody ships, e.g. int4 DeepSeek-R1 on H200), the catalog's example prices ("catalog"), prefill and decode on the same GPUs (0), and for each GPU the
/// rows no other beats ("best").
inline constexpr const char* plan_gpus = "datacenter";
inline constexpr const char* plan_weight_dtype = "published";
inline constexpr const char* plan_prices = "catalog";
inline constexpr double plan_disaggregated = 0;
inline constexpr const char* plan_rows = "best";
/// ROOFLINE_PLAN (since 0.13): a plan may load its replicas to their whole capacity at the targets (headroom 1), and
/// needs one replica at least (min_replicas 1): what plans were before both arguments.
inline constexpr double plan_headroom = 1;
inline constexpr double plan_min_replicas = 1;
/// ROOFLINE_PLAN (since 0.14): no electricity in the price (a cloud's GPU-hour includes it), a PUE of 1 (the kW of the
/// IT equipment alone), no power budget.
inline constexpr double plan_usd_per_kwh = 0;
inline constexpr double plan_pue = 1;
inline constexpr double plan_max_kw = 0;
/// ROOFLINE_PLAN (since 0.14): input tokens not priced apart from output tokens.
inline constexpr double plan_input_ratio = 0;
/// ROOFLINE_PLAN (since 0.14): a disaggregated plan's prefill pool on each decode GPU's own type.
inline constexpr const char* plan_prefill_gpu = "same";
/// ROOFLINE_PLAN (since 0.14): whole servers (or racks) are rented, and priced, where before 0.14 each GPU was.
inline constexpr const char* plan_rent = "servers";
/// ROOFLINE_PLAN (since 0.14): GPUs priced at the catalog's on-demand examples, as before 0.14.
inline constexpr const char* plan_price_basis = "on-demand";
/// ROOFLINE_PLAN (since 0.14): years an owned server's purchase price is spread over: 5, the useful life of servers
/// in the large clouds' accounts (Amazon's 2024 annual report shortened it from 6 to 5 years for some servers;
/// Microsoft and Alphabet use 6): set your own.
inline constexpr double plan_years = 5;

/// ROOFLINE_SIMULATE: 1000 requests (enough for a p99 from ten samples above it), seed 1, Poisson arrivals (gaps:
/// coefficient of variation 1), every request of the given lengths; at most 1,000,000 requests in one call.
inline constexpr double simulate_requests = 1000;
inline constexpr double simulate_requests_max = 1000000;
inline constexpr std::uint64_t simulate_seed = 1;
inline constexpr const char* simulate_arrival = "poisson";
inline constexpr double simulate_cv = 1;
inline constexpr const char* simulate_lengths = "fixed";
inline constexpr double simulate_spread = 0;
/// The most token steps (a sequence's decode token or prefill chunk in one iteration) one call simulates, about a
/// second of CPU: past it an error names `requests`, so that no cell computes for minutes; a search at a percentile
/// (ROOFLINE_REPLICA_RPS, ROOFLINE_PLAN) has twice that for all its simulations of one replica.
inline constexpr double simulate_max_steps = 2e7;

/// The fraction of each GPU's memory that weights and KV cache may use: every `mem_util` default (the formula
/// table's and serving.hpp's), as vLLM's gpu_memory_utilization default.
inline constexpr double mem_util = 0.9;

/// ROOFLINE_MAX_BATCH: memory kept aside, GB.
inline constexpr double reserve_gb = 0.0;

/// ROOFLINE_CALIBRATE: the most rows a range of measurements may have, empty ones included (a whole-column
/// range of Calc has 1,048,576; the fit's leave-one-out costs grow with the square of the measured rows).
inline constexpr std::size_t calibration_rows_max = 100000;

}  // namespace roofline::defaults
