// The formula table, in one place: every argument (defined once, shared by every formula that takes it), every
// formula's row, and the checks of a call against its row. Private to the core: each group of formulas
// (formulas_primitives.cpp, formulas_catalog.cpp, formulas_planner.cpp, formulas_calibration.cpp) includes it,
// since a formula's body finds its row at compile time (checked<&formula::x>()), and formula_table.cpp holds
// the generic part (formulas(), find_formula(), call(), ...). Written once here; compiled into each of them
// (internal linkage: see below).
#pragma once

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "roofline/defaults.hpp"
#include "roofline/error.hpp"
#include "roofline/formulas.hpp"

namespace roofline::formula_table {

// ---- Refusals, defined once (formula_table.cpp). ----------------------------------------------------------------

/// A formula's argument by its name.
const ArgSpec& arg_named(const FormulaSpec& f, std::string_view name);

/// Refuses a number outside its argument's domain: "must be <must_be> (got <value>)".
[[noreturn]] void out_of_domain(const FormulaSpec& f, const ArgSpec& a, double value, std::string_view must_be);

/// Refuses a number that fails its argument's check, saying why.
[[noreturn, gnu::cold, gnu::noinline]] void refuse_number(const FormulaSpec& f, const ArgSpec& a, double v);

/// Refuses a result that is not a finite number.
[[noreturn, gnu::cold, gnu::noinline]] void too_large(const FormulaSpec& f);

// The rest has internal linkage, in each source that includes it, as it had when the formulas were one source: a
// formula's body finds its row at compile time by comparing the table's invoke<F> with its own, and a compiler may
// not compare the addresses of two functions of external linkage at compile time (GCC with -fsanitize=undefined
// refuses: they are weak symbols). The table's text is still written once, here; each group's source holds its own
// copy of the constants, and formulas() gives formula_table.cpp's.
namespace {

inline constexpr double kNoMax = std::numeric_limits<double>::infinity();
/// The most GPUs a replica's tp, ep, dp_attention or pp may name.
inline constexpr double kMaxGpus = 1024;

// ---- Arguments: each defined once, shared by every formula that takes it. ----------------------

constexpr ArgSpec number(const char* name, const char* unit, Check check, const char* en, const char* zh) {
    return {name, unit, Type::number, check, false, 0.0, nullptr, kNoMax, en, zh};
}
constexpr ArgSpec text(const char* name, const char* unit, const char* en, const char* zh) {
    return {name, unit, Type::text, Check::finite, false, 0.0, nullptr, kNoMax, en, zh};
}
/// A range of cells (Type::table): its unit lists its columns, in order.
constexpr ArgSpec table(const char* name, const char* columns, const char* en, const char* zh) {
    return {name, columns, Type::table, Check::finite, false, 0.0, nullptr, kNoMax, en, zh};
}
/// The last argument of a formula that takes any number of further arguments: optional, no default.
constexpr ArgSpec rest(const char* name, const char* unit, const char* en, const char* zh) {
    return {name, unit, Type::rest, Check::finite, true, 0.0, nullptr, kNoMax, en, zh};
}
constexpr ArgSpec optional_text(ArgSpec arg, const char* default_text) {
    arg.optional = true;
    arg.default_text = default_text;
    return arg;
}
constexpr ArgSpec optional(ArgSpec arg, double default_number) {
    arg.optional = true;
    arg.default_number = default_number;
    return arg;
}
constexpr ArgSpec with_check(ArgSpec arg, Check check) {
    arg.check = check;
    return arg;
}
constexpr ArgSpec with_max(ArgSpec arg, double max) {
    arg.max = max;
    return arg;
}
/// An optional `percentile` (percent, 0 or 50 to 99.9: serving::check_percentile; 0, the default, the means).
constexpr ArgSpec percentile_arg(const char* en, const char* zh) {
    return with_max(optional(number("percentile", "percent", Check::non_negative, en, zh), 0), 99.9);
}
constexpr ArgSpec renamed(ArgSpec arg, const char* name) {
    arg.name = name;
    return arg;
}

inline constexpr ArgSpec kFlops = number("flops", "FLOP", Check::non_negative,
    "Floating-point operations of the step, plain FLOP (16e9, not 16).",
    "这一步的浮点运算次数，单位 FLOP（写 16e9，不是 16）。");
inline constexpr ArgSpec kBytes = number("bytes", "bytes", Check::non_negative,
    "Bytes moved between memory and the chip in the step, plain bytes (16e9, not 16).",
    "这一步在显存与芯片之间搬运的字节数，单位字节（写 16e9，不是 16）。");
inline constexpr ArgSpec kTflops = number("tflops", "TFLOP/s", Check::positive,
    "Dense peak compute of the GPU, TFLOP/s (H100 SXM BF16: 989). Never the sparsity figure.",
    "GPU 的稠密峰值算力，TFLOPS（H100 SXM BF16 为 989）。不要用结构化稀疏的数字。");
inline constexpr ArgSpec kTbs = number("tbs", "TB/s", Check::positive,
    "Memory bandwidth of the GPU, TB/s = 1e12 bytes/s (H100 SXM: 3.35).",
    "GPU 的显存带宽，TB/s = 每秒 1e12 字节（H100 SXM 为 3.35）。");
inline constexpr ArgSpec kBwTbs = renamed(kTbs, "bw_tbs");
inline constexpr ArgSpec kAi = number("ai", "FLOP/byte", Check::non_negative,
    "Arithmetic intensity, FLOP per byte moved.",
    "算术强度，每搬运一个字节的浮点运算次数（FLOP/Byte）。");
inline constexpr ArgSpec kAiMin = optional(number("ai_min", "FLOP/byte", Check::positive,
    "Smallest arithmetic intensity of the chart, FLOP/byte (> 0).",
    "图表横轴最小的算术强度，FLOP/Byte（大于 0）。"), defaults::roof_ai_min);
inline constexpr ArgSpec kAiMax = optional(number("ai_max", "FLOP/byte", Check::positive,
    "Largest arithmetic intensity of the chart, FLOP/byte (above ai_min).",
    "图表横轴最大的算术强度，FLOP/Byte（须大于 ai_min）。"), defaults::roof_ai_max);
inline constexpr ArgSpec kPoints = with_max(optional(number("points", "rows", Check::count,
    "Rows of the array: points of the chart, log-spaced, 2 to 10000.",
    "数组的行数：图上的点数，按对数等距，2 到 10000。"), defaults::roof_points), defaults::roof_points_max);
inline constexpr ArgSpec kParamsB = number("params_b", "billions", Check::positive,
    "Parameters of the model, in billions (8 = 8e9 parameters).",
    "模型参数量，单位十亿（8 表示 80 亿个参数）。");
inline constexpr ArgSpec kBatch = number("batch", "sequences", Check::count,
    "Sequences decoded together in one step: the batch size, a whole number >= 1.",
    "同一步一起解码的序列数，即批大小，不小于 1 的整数。");
inline constexpr ArgSpec kCtx = number("ctx", "tokens", Check::non_negative,
    "Context of each sequence, tokens: how much KV cache each one reads (0: ignore KV).",
    "每个序列的上下文长度（token 数），决定它要读多少 KV Cache（0 表示不计 KV）。");
inline constexpr ArgSpec kKv = optional(number("kv_kib_per_token", "KiB/token", Check::non_negative,
    "KV cache per token, all layers, K and V together, KiB (8B GQA model: 128).",
    "每个 token 的 KV Cache，所有层、K 与 V 合计，KiB（8B GQA 模型为 128）。"),
    defaults::kv_kib_per_token_8b_gqa);
inline constexpr ArgSpec kBytesPerParam = optional(number("bytes_per_param", "bytes", Check::positive,
    "Bytes per weight: 2 for BF16, 1 for FP8 or INT8, 0.5 for INT4.",
    "每个权重的字节数：BF16 为 2，FP8 或 INT8 为 1，INT4 为 0.5。"), defaults::bf16_bytes_per_param);
inline constexpr ArgSpec kTokens = number("tokens", "tokens", Check::count,
    "Prompt tokens processed at once, a whole number >= 1.",
    "一次处理的输入 token 数，不小于 1 的整数。");
inline constexpr ArgSpec kMemGb = number("mem_gb", "GB", Check::positive,
    "GPU memory, GB = 1e9 bytes (H100 SXM: 80).",
    "GPU 显存容量，GB = 1e9 字节（H100 SXM 为 80）。");
inline constexpr ArgSpec kReserveGb = optional(number("reserve_gb", "GB", Check::non_negative,
    "Memory kept aside for activations and the runtime, GB.",
    "为激活值和运行时预留的显存，GB。"), defaults::reserve_gb);

inline constexpr ArgSpec kModel = text("model", "catalog id",
    "A model of the catalog, e.g. llama-3-8b (see ROOFLINE_MODELS()), or one a host program imported; or the "
    "text of a Hugging Face config.json (a text that starts with '{', e.g. a cell holding the file), read once "
    "and cached.",
    "目录中的模型编号，如 llama-3-8b（见 ROOFLINE_MODELS()），或宿主程序导入的模型；也可以是 Hugging Face "
    "config.json 的全文（以 '{' 开头的文本，如存放该文件内容的单元格），只解析一次并缓存。");
inline constexpr ArgSpec kGpu = text("gpu", "catalog id",
    "A GPU of the catalog, e.g. h100-sxm (see ROOFLINE_GPUS()).",
    "目录中的 GPU 编号，如 h100-sxm（见 ROOFLINE_GPUS()）。");
inline constexpr ArgSpec kGpuField = text("field", "field name",
    "A field of the GPU catalog: fp32_tflops, tf32_tflops, bf16_tflops, fp16_tflops, fp8_tflops, int8_tops, "
    "int4_tops, hbm_tbs, hbm_gb, l2_mb, interconnect_tbs, usd_per_gpu_hour (an example on-demand price; prices "
    "date quickly), fp4_tflops (dense NVFP4/MXFP4), scaleup_gpus (GPUs of one scale-up domain: 8 for a node, 72 "
    "for an NVL72 rack), scaleout_tbs (network TB/s per GPU beyond the domain), power_w (W per GPU), host_link_tbs "
    "(TB/s per direction between a GPU and its host's memory: PCIe or NVLink-C2C), idle_w (W a GPU draws with nothing "
    "running, measured), host_w (W per GPU the rest of its server draws: the system's published maximum), "
    "server_gpus (GPUs of the server or rack it is rented in: 8 for an HGX node, 72 for an NVL72 rack), "
    "usd_per_gpu_hour_reserved (a reserved or committed example price, USD per GPU-hour), reserved_years (its term, "
    "years), usd_per_server (an example purchase price of a server or rack of server_gpus GPUs, USD), memory_gb (the "
    "memory the serving formulas take mem_util of, GB: what the driver reports where the catalog records it, else "
    "hbm_gb).",
    "GPU 目录的字段：fp32_tflops、tf32_tflops、bf16_tflops、fp16_tflops、fp8_tflops、int8_tops、int4_tops、"
    "hbm_tbs、hbm_gb、l2_mb、interconnect_tbs、usd_per_gpu_hour（按需租用价格的示例；价格很快过时）、"
    "fp4_tflops（稠密 NVFP4/MXFP4 算力）、scaleup_gpus（一个纵向扩展域内的 GPU 数：单机 8，NVL72 机柜 72）、"
    "scaleout_tbs（域外每块 GPU 的网络带宽，TB/s）、power_w（每块 GPU 的功耗，W）、host_link_tbs（GPU 与主机内存之间"
    "每个方向的带宽，TB/s：PCIe 或 NVLink-C2C）、idle_w（GPU 空闲时的实测功耗，W）、host_w（服务器其余部分摊到每块 GPU "
    "的功耗，W：按系统公布的最大功耗）、server_gpus（租用时一台服务器或一个机柜中的 GPU 数：HGX 节点 8，NVL72 机柜 72）、usd_per_gpu_hour_reserved"
    "（预留或承诺用量示例价，每 GPU 小时美元）、reserved_years（其期限，年）、usd_per_server（一台含 server_gpus 块 GPU 的服务器或机柜的示例购置价，美元）、"
    "memory_gb（服务相关公式按 mem_util 取用的显存，GB：目录记有驱动报告的总量时取之，否则取 hbm_gb）。");
inline constexpr ArgSpec kModelField = text("field", "field name",
    "A field of the model catalog: params_b, active_params_b, params_b_reported, active_params_b_reported, layers, "
    "hidden, heads, kv_heads, head_dim, ffn, vocab, experts, experts_per_token, shared_experts, expert_ffn, "
    "kv_lora_rank, sliding_window, sliding_layers, kv_kib_per_token (at 2 bytes per value), context_window (tokens a "
    "sequence may hold: the config's max_position_embeddings, or its rope_scaling's extension; 0: not given).",
    "模型目录的字段：params_b、active_params_b、params_b_reported、active_params_b_reported、layers、hidden、heads、"
    "kv_heads、head_dim、ffn、vocab、experts、experts_per_token、shared_experts、expert_ffn、kv_lora_rank、"
    "sliding_window、sliding_layers、kv_kib_per_token（按每个值 2 字节）、context_window（一个序列可容纳的 token 数：配置的 "
    "max_position_embeddings，或 rope_scaling 扩展后的长度；0：未给出）。");
inline constexpr ArgSpec kWeightDtype = optional_text(text("weight_dtype", "dtype",
    "Format of the weights: native (the checkpoint's own formats, per module: the default), fp32, bf16, fp16, fp8, "
    "int8, int4, q8_0, q4_0, q4_k_m, nvfp4, mxfp4, fp8_block (block scales included).",
    "权重格式：native（检查点自身的格式，按模块区分；默认值）、fp32、bf16、fp16、fp8、int8、int4、q8_0、q4_0、q4_k_m、"
    "nvfp4、mxfp4、fp8_block（含分块缩放的开销）。"), defaults::weight_dtype);
inline constexpr ArgSpec kKvDtype = optional_text(text("kv_dtype", "dtype",
    "Format of the KV cache, as weight_dtype; empty or left out: bf16 (16 bits, as serving engines keep it "
    "unless told otherwise), whatever the weights' format.",
    "KV Cache 的格式，取值同 weight_dtype；留空或省略时为 bf16（16 位，推理引擎未另行指定时的做法），与权重格式无关。"),
    defaults::kv_dtype);
inline constexpr ArgSpec kTp = with_max(optional(number("tp", "GPUs", Check::count,
    "GPUs in tensor parallel: each holds 1/tp of the weights and the heads; two all-reduces per layer.",
    "张量并行的 GPU 数：每块持有 1/tp 的权重和注意力头；每层两次 all-reduce。"), defaults::tp), kMaxGpus);
inline constexpr ArgSpec kEp = with_max(optional(number("ep", "GPUs", Check::count,
    "Expert parallelism: the routed experts spread over ep of the tp GPUs (each expert in tensor parallel over "
    "tp / (pp x ep)): with dp_attention > 1 tokens sent to them and back (all-to-all), else their outputs summed "
    "by an all-reduce; 1: experts in tensor parallel. A divisor of tp / pp.",
    "专家并行：路由专家分布在 tp 块 GPU 中的 ep 块上（每个专家再在 tp / (pp × ep) 块上张量并行）：dp_attention > 1 时 "
    "token 发往专家再收回（all-to-all），否则各专家的输出经 all-reduce 求和；1：专家按张量并行切分。须整除 tp / pp。"),
    defaults::ep), kMaxGpus);
inline constexpr ArgSpec kDpAttention = with_max(optional(number("dp_attention", "groups", Check::count,
    "Data-parallel attention: attention in dp_attention groups of tp / (pp x dp_attention) GPUs, each with its "
    "own sequences and their KV cache; 1: attention over all tp / pp GPUs. A divisor of tp / pp.",
    "数据并行注意力：注意力分成 dp_attention 组，每组 tp / (pp × dp_attention) 块 GPU，各自处理自己的序列并保存其 KV "
    "Cache；1：注意力在全部 tp / pp 块上张量并行。须整除 tp / pp。"), defaults::dp_attention), kMaxGpus);
inline constexpr ArgSpec kPp = with_max(optional(number("pp", "stages", Check::count,
    "Pipeline parallelism: the layers in pp stages of tp / pp GPUs, the batch in pp micro-batches; 1: none. A "
    "divisor of tp.",
    "流水线并行：各层分成 pp 段，每段 tp / pp 块 GPU，批次分成 pp 个微批次；1：不用。须整除 tp。"), defaults::pp), kMaxGpus);
inline constexpr ArgSpec kProfile = optional_text(text("profile", "profile",
    "bound (the ideal roofline: a true lower bound), typical (fitted on serving engines' measurements), or one "
    "engine's: vllm, sglang, tensorrt-llm, llama.cpp; or a profile text, \"fit(...): bw=..., mfu=..., ...\" "
    "(docs/formulas.md, Profiles as text).",
    "bound（理想 Roofline，真正的下界）、typical（按各推理引擎的实测拟合），或某个引擎的：vllm、sglang、"
    "tensorrt-llm、llama.cpp；也可以是一段配置文本 \"fit(...): bw=..., mfu=..., ...\"（见 docs/formulas.md 的“配置文本”）。"), defaults::profile);
inline constexpr ArgSpec kPromptTokens = number("prompt_tokens", "tokens", Check::count,
    "Tokens of each prompt, a whole number >= 1.",
    "每个提示的 token 数，不小于 1 的整数。");
inline constexpr ArgSpec kPrompts = optional(number("batch", "prompts", Check::count,
    "Prompts prefilled together, a whole number >= 1.",
    "一起做 Prefill 的提示个数，不小于 1 的整数。"), defaults::prompts);
inline constexpr ArgSpec kMemUtil = optional(number("mem_util", "fraction", Check::fraction,
    "Fraction of the GPUs' memory that weights and KV cache may use, above 0 and at most 1.",
    "权重与 KV Cache 可用的显存比例，大于 0 且不超过 1。"), defaults::mem_util);

// The capacity planner's (docs/serving-model.md).
inline constexpr ArgSpec kOutputTokens = number("output_tokens", "tokens", Check::count,
    "Tokens of each answer, a whole number >= 2: the first comes from the prefill, the rest from decode steps.",
    "每个回答的 token 数，不小于 2 的整数：第一个来自 Prefill，其余来自逐步 Decode。");
inline constexpr ArgSpec kRps = number("rps", "requests/s", Check::positive,
    "The load to serve: requests per second, above 0.",
    "要承载的负载：每秒请求数，大于 0。");
inline constexpr ArgSpec kTtftMs = number("ttft_ms", "ms", Check::positive,
    "Target time to first token, ms (a mean, not a percentile).",
    "首 token 时间的目标，毫秒（均值，不是百分位数）。");
inline constexpr ArgSpec kTpotMs = number("tpot_ms", "ms", Check::positive,
    "Target time per output token after the first, ms (a mean, not a percentile).",
    "首 token 之后每个输出 token 的时间目标，毫秒（均值，不是百分位数）。");
inline constexpr ArgSpec kPlanProfile = optional_text(text("profile", "profile",
    "typical (the estimate: fitted efficiencies, queueing of prefills, memory reserved for the longest context) or "
    "bound (the ideal roofline, no queue: what no engine can beat); also one engine's (vllm, sglang, tensorrt-llm, "
    "llama.cpp), or a profile text, \"fit(...): bw=..., mfu=..., ...\" (docs/formulas.md, Profiles as text).",
    "typical（估计值：拟合的效率、Prefill 排队、按最长上下文预留显存）或 bound（理想 Roofline、无排队：任何引擎都"
    "无法超越）；也可用某个引擎的（vllm、sglang、tensorrt-llm、llama.cpp），或一段配置文本 \"fit(...): bw=..., mfu=..., ...\""
    "（见 docs/formulas.md 的“配置文本”）。"), defaults::plan_profile);
inline constexpr ArgSpec kPlanGpu = optional_text(text("gpu", "catalog ids",
    "The GPUs of the catalog to plan on, one or a list: \"h100-sxm\" or \"h100-sxm, h200, b200\" (',' ';' or a new "
    "line between them); empty or datacenter: its datacenter GPUs (not the GeForce cards, whose license rules out "
    "datacenter deployment, nor DGX Spark); all: every GPU of the catalog.",
    "在目录中的这些 GPU 上规划，一种或一个列表：\"h100-sxm\" 或 \"h100-sxm, h200, b200\"（以 ',' ';' 或换行分隔）；"
    "留空或 datacenter：目录中的数据中心 GPU（不含许可证不允许数据中心部署的 GeForce 显卡，也不含 DGX Spark）；"
    "all：目录中的全部 GPU。"), defaults::plan_gpus);
inline constexpr ArgSpec kPlanWeightDtype = optional_text(text("weight_dtype", "dtype",
    "The weights' formats: empty or published: the model's published checkpoints (its own formats, per module, and "
    "the quantized checkpoints its catalog entry lists), each on every GPU (FP8 and FP4 weights computed in 16 bits "
    "where the GPU has no such units; the weights column shows the format of most of the bytes); all: those, and "
    "bf16, fp8 where the GPU has it (int8 where it has not), int4, and nvfp4 and mxfp4 where the GPU computes them, in "
    "every module (their rows' checkpoint is empty where none is published); native: its own formats alone; or one "
    "format (as in ROOFLINE_STEP_MS) in every module.",
    "权重格式：留空或 published：模型已发布的检查点（其自身按模块区分的格式，以及目录条目列出的量化检查点），每个都在每种 "
    "GPU 上（没有相应单元的 GPU 以 16 位计算 FP8 与 FP4 权重；weights 列显示占字节最多的格式）；all：这些，再加上每个模块"
    "都用 bf16、GPU 支持时的 fp8（不支持时为 int8）、int4，以及 GPU 能直接计算时的 nvfp4 与 mxfp4（没有已发布检查点时"
    "该行的 checkpoint 为空）；native：只用其自身的格式；或每个模块都用这一种格式（同 ROOFLINE_STEP_MS）。"),
    defaults::plan_weight_dtype);
inline constexpr ArgSpec kPlanRows = optional_text(text("rows", "best or all",
    "best: for each GPU only the configurations that no other configuration of that GPU beats on both cost and "
    "TPOT; all: every feasible configuration.",
    "best：每种 GPU 只列出没有被同一 GPU 的其他配置在成本与 TPOT 上同时超过的配置；all：列出全部可行配置。"), defaults::plan_rows);
inline constexpr ArgSpec kHeadroom = optional(number("headroom", "fraction", Check::fraction,
    "The fraction of each replica's capacity at the targets that the load may use, above 0 and at most 1: 0.8 keeps "
    "a fifth of every replica spare for bursts (replicas = ceil(rps / (headroom x a replica's requests/s))).",
    "负载最多可用每个副本在目标之内容量的比例，大于 0 且不超过 1：0.8 让每个副本留出五分之一应对突发（副本数 = "
    "ceil(rps / (headroom × 每个副本的每秒请求数))）。"), defaults::plan_headroom);
inline constexpr ArgSpec kMinReplicas = with_max(optional(number("min_replicas", "replicas", Check::count,
    "Replicas at least, a whole number >= 1 (each pool's where prefill and decode are separate): 2 for a plan that "
    "survives the loss of one.",
    "副本数下限，不小于 1 的整数（Prefill 与 Decode 分开时为每个池的）：2 表示失去一个副本后仍能服务。"),
    defaults::plan_min_replicas), kMaxGpus);
inline constexpr ArgSpec kCurveTp = with_max(optional(number("tp", "GPUs", Check::non_negative,
    "GPUs of a replica (its layout in ep, dp_attention, pp as in ROOFLINE_STEP_MS); 0: every replica size and layout "
    "ROOFLINE_PLAN tries, the best at each point (the front).",
    "每个副本的 GPU 数（并行布局由 ep、dp_attention、pp 给出，同 ROOFLINE_STEP_MS）；0：尝试 ROOFLINE_PLAN 会尝试的每种"
    "副本大小与布局，在每一点取最好的（前沿）。"), 0), kMaxGpus);
inline constexpr ArgSpec kCurveTtftMs = optional(number("ttft_ms", "ms", Check::non_negative,
    "Leaves out the points whose time to first token is above it, ms (a mean); 0: none left out.",
    "去掉首 token 时间超过它的点，毫秒（均值）；0：不去掉。"), 0);
inline constexpr ArgSpec kArrival = optional_text(text("arrival", "poisson, constant or gamma",
    "How requests arrive at rps: poisson (exponential gaps), constant (every 1 / rps seconds) or gamma (gaps of mean "
    "1 / rps and coefficient of variation cv: bursts above 1).",
    "请求以 rps 到达的方式：poisson（指数间隔）、constant（每 1 / rps 秒一个）或 gamma（间隔均值为 1 / rps、变异系数为 cv："
    "大于 1 即突发）。"), defaults::simulate_arrival);
inline constexpr ArgSpec kCv = optional(number("cv", "ratio", Check::positive,
    "Coefficient of variation of the gaps between arrivals with arrival gamma (standard deviation over mean, > 0; 1 "
    "is Poisson's, 4 a bursty load).",
    "arrival 为 gamma 时到达间隔的变异系数（标准差除以均值，大于 0；1 即泊松，4 为突发负载）。"), defaults::simulate_cv);
inline constexpr ArgSpec kRequests = with_max(optional(number("requests", "requests", Check::count,
    "Requests simulated, a whole number from 1 to 1,000,000 (the more, the steadier a p99: 1000 gives ten samples above "
    "it).",
    "模拟的请求数，1 到 1,000,000 的整数（越多 p99 越稳定：1000 个请求在它之上有十个样本）。"),
    defaults::simulate_requests), defaults::simulate_requests_max);
inline constexpr ArgSpec kSeed = with_max(optional(number("seed", "number", Check::non_negative,
    "Seed of the random arrivals and lengths, a whole number >= 0: the same seed gives the same numbers everywhere.",
    "随机到达与长度的种子，不小于 0 的整数：同一个种子在任何地方给出同样的数字。"),
    static_cast<double>(defaults::simulate_seed)), 9007199254740992.0);
inline constexpr ArgSpec kLengths = optional_text(text("lengths", "fixed, uniform or lognormal",
    "How prompt and output lengths vary about prompt_tokens and output_tokens (their means): fixed, uniform (mean x (1 "
    "+- spread)) or lognormal (coefficient of variation spread).",
    "提示与输出长度围绕 prompt_tokens 与 output_tokens（其均值）变化的方式：fixed（固定）、uniform（均值 ×（1 ± spread））或 "
    "lognormal（变异系数为 spread 的对数正态）。"), defaults::simulate_lengths);
inline constexpr ArgSpec kSpread = optional(number("spread", "fraction", Check::non_negative,
    "How far lengths vary: with lengths uniform the fraction either side of the mean (below 1), with lognormal the "
    "coefficient of variation; 0 with fixed.",
    "长度变化的幅度：lengths 为 uniform 时为均值两侧的比例（小于 1），为 lognormal 时为变异系数；fixed 时为 0。"),
    defaults::simulate_spread);
inline constexpr ArgSpec kGoodputTtftMs = optional(number("ttft_ms", "ms", Check::non_negative,
    "Time-to-first-token target of the goodput, ms: a request within it (and within tpot_ms) counts; 0: none.",
    "有效吞吐（goodput）的首 token 时间目标，毫秒：在其之内（且在 tpot_ms 之内）的请求计入；0：不设。"), 0);
inline constexpr ArgSpec kGoodputTpotMs = optional(number("tpot_ms", "ms", Check::non_negative,
    "Time-per-output-token target of the goodput, ms (each request's mean after its first token); 0: none.",
    "有效吞吐的每 token 时间目标，毫秒（每个请求首 token 之后的均值）；0：不设。"), 0);
inline constexpr ArgSpec kPrefixTokens = optional(number("prefix_tokens", "tokens", Check::non_negative,
    "A shared prefix (a system prompt): the first prefix_tokens tokens of the prompts of a share prefix_share of the "
    "conversations are the same, computed once while they stay in the prefix cache (a whole number; 0: none).",
    "共享前缀（系统提示词）：比例为 prefix_share 的对话，其提示的前 prefix_tokens 个 token 相同，只要还在前缀缓存中就只"
    "计算一次（整数；0：没有）。"), 0);
inline constexpr ArgSpec kPrefixShare = with_max(optional(number("prefix_share", "fraction", Check::non_negative,
    "The share of conversations whose prompts start with the shared prefix, 0 to 1.",
    "提示以共享前缀开头的对话所占比例，0 到 1。"), 0), 1);
inline constexpr ArgSpec kTurns = with_max(optional(number("turns", "requests", Check::count,
    "Requests per conversation: each later turn's prompt is the conversation so far (earlier prompts and answers, "
    "kept in the prefix cache while memory allows) and a new message of prompt_tokens; conversations start at rps / "
    "turns.",
    "每个对话的请求数：后续每一轮的提示是此前的整个对话（之前的提示与回答，显存允许时留在前缀缓存中）加上 prompt_tokens "
    "长的新消息；对话以 rps / turns 的速率开始。"), 1), 1000);
inline constexpr ArgSpec kThinkS = optional(number("think_s", "s", Check::non_negative,
    "Mean time a user takes between an answer and the next turn, seconds (exponential); 0: at once.",
    "用户在回答与下一轮之间的平均时间，秒（指数分布）；0：立即。"), 0);
inline constexpr ArgSpec kHostKvGb = optional(number("host_kv_gb", "GB", Check::non_negative,
    "A second tier of KV memory: GB of host memory per GPU where cached prefixes and histories go when the GPUs' "
    "memory needs their room (a hit there waits for them to come back); 0: none.",
    "第二级 KV 存储：每块 GPU 可用的主机内存，GB；GPU 显存需要空间时缓存的前缀与对话历史移到这里（命中时须等它们传回）；"
    "0：没有。"), 0);
inline constexpr ArgSpec kHostTbs = optional(number("host_tbs", "TB/s", Check::non_negative,
    "Bandwidth per direction between each GPU and the host memory, TB/s; 0: the GPU's host link (ROOFLINE_GPU's "
    "host_link_tbs: PCIe or NVLink-C2C).",
    "每块 GPU 与主机内存之间每个方向的带宽，TB/s；0：GPU 的主机链路（ROOFLINE_GPU 的 host_link_tbs：PCIe 或 "
    "NVLink-C2C）。"), 0);
inline constexpr ArgSpec kConcurrency = with_max(optional(number("concurrency", "requests", Check::non_negative,
    "At most this many requests in flight, as a benchmark client with a concurrency limit sends them (vllm bench "
    "serve --max-concurrency): one that arrives while that many are in flight waits at the client and is sent when "
    "one ends, its times counted from then; with rps far above what the replica sustains, a closed loop of that many "
    "users (a whole number; 0: no limit).",
    "同时在途的请求至多这么多，如设了并发上限的压测客户端（vllm bench serve --max-concurrency）：在途已满时到达的请求在"
    "客户端等待，有请求结束时才发出，其时间从发出时算起；rps 远高于副本的承载能力时，即这么多个用户的闭环（整数；0：不限）。"),
    0), 1e6);
inline constexpr ArgSpec kPercentile = percentile_arg(
    "Meet ttft_ms and tpot_ms at this percentile of the requests, 50 to 99.9, as a simulation of the replica under "
    "Poisson arrivals finds it (ROOFLINE_SIMULATE, 1000 requests, seed 1); 0: as means (the closed form). bound: "
    "always the closed form (no queue, no tail).",
    "在请求的这个百分位上满足 ttft_ms 与 tpot_ms，50 到 99.9，由副本在泊松到达下的模拟求得（ROOFLINE_SIMULATE，1000 个"
    "请求，种子 1）；0：按均值（闭式模型）。bound：总是闭式模型（无排队、无尾部）。");
inline constexpr ArgSpec kCurvePercentile = percentile_arg(
    "TTFT and TPOT of each point at this percentile of the requests, 50 to 99.9, as a simulation of the replica at the "
    "point's load finds them (Poisson arrivals, 1000 requests, seed 1; with tp 0 the closed form's front is simulated, "
    "then reduced again); 0: means (the closed form). bound: always the means (no queue, no tail).",
    "每个点的首 token 时间与每 token 时间取请求的这个百分位，50 到 99.9，由副本在该点负载下的模拟求得（泊松到达，1000 个"
    "请求，种子 1；tp 为 0 时模拟闭式模型的前沿，再重新取前沿）；0：均值（闭式模型）。bound：总是均值（无排队、无尾部）。");
inline constexpr ArgSpec kSloPercentile = percentile_arg(
    "Meet tpot_ms at this percentile of the requests, 50 to 99.9: the batch is then the most concurrent requests of "
    "prompt_tokens tokens whose answers end at ctx (a closed loop, each user sending its next request as an answer "
    "ends) whose simulated TPOT meets it, prefills among the decode steps included; 0: the decode step at ctx (the "
    "closed form). bound: always the closed form.",
    "在请求的这个百分位上满足 tpot_ms，50 到 99.9：批大小即为提示长 prompt_tokens、回答结束于 ctx 的并发请求（闭环：每个"
    "用户在回答结束时发出下一个请求）之中，模拟所得 TPOT（含夹在 Decode 步之间的 Prefill）满足目标的最大并发数；0：ctx 处的"
    "一步 Decode（闭式模型）。bound：总是闭式模型。");
inline constexpr ArgSpec kSloPromptTokens = optional(number("prompt_tokens", "tokens", Check::non_negative,
    "With percentile: the tokens of each prompt, a whole number >= 1 leaving at least 2 tokens of answer before ctx; "
    "0 (the default) without percentile.",
    "给出 percentile 时：每个提示的 token 数，不小于 1 的整数，且在 ctx 之前至少留出 2 个 token 的回答；不给 percentile "
    "时为 0（默认）。"), 0);
inline constexpr ArgSpec kDisaggregated = with_max(optional(number("disaggregated", "0 or 1", Check::non_negative,
    "0: prefill and decode share each replica (chunked prefill); 1: separate prefill and decode pools, each sized "
    "for its own target.",
    "0：Prefill 与 Decode 共用每个副本（分块 Prefill）；1：Prefill 池与 Decode 池分开，各自按自己的目标配置。"), defaults::plan_disaggregated), 1);
inline constexpr ArgSpec kPrices = optional_text(text("prices", "USD per GPU-hour",
    "Prices that replace the catalog's, USD per GPU-hour, as a text: \"h100-sxm=2.49, a100-sxm-80gb=1.29\"; "
    "empty or catalog: the catalog's example prices.",
    "替换目录价格的 GPU 每小时价格（美元），写成文本：\"h100-sxm=2.49, a100-sxm-80gb=1.29\"；留空或 catalog：用目录中的"
    "示例价格。"),
    defaults::plan_prices);
inline constexpr ArgSpec kUsdPerKwh = optional(number("usd_per_kwh", "USD/kWh", Check::non_negative,
    "Electricity, USD per kWh: adds kw x usd_per_kwh to each row's USD per hour (and so to its USD per month and "
    "per million tokens); 0: none (a cloud's GPU-hour includes it).",
    "电价，每 kWh 美元：每行的每小时美元加上 kw × usd_per_kwh（每月与每百万 token 的美元随之增加）；0：不计（云上的 GPU "
    "小时价已含电费）。"), defaults::plan_usd_per_kwh);
inline constexpr ArgSpec kPue = optional(number("pue", "ratio", Check::positive,
    "The datacentre's power usage effectiveness, at least 1: its facility's power over its IT equipment's (cooling, "
    "power distribution); kw includes it. 1: the IT equipment alone.",
    "数据中心的电能使用效率（PUE），不小于 1：设施总功率与 IT 设备功率之比（制冷、配电）；kw 已含它。1：只计 IT 设备。"),
    defaults::plan_pue);
inline constexpr ArgSpec kMaxKw = optional(number("max_kw", "kW", Check::non_negative,
    "A power budget, kW: plans whose kw is above it are left out; 0: none.",
    "功率预算，kW：kw 超过它的方案被排除；0：不限。"), defaults::plan_max_kw);
inline constexpr ArgSpec kPrefillGpu = optional_text(text("prefill_gpu", "catalog ids",
    "Disaggregated plans (disaggregated 1): the GPUs the prefill pool is tried on, one or a list as gpu, each with "
    "every decode GPU (compute-rich GPUs for prefill, memory-rich ones for decode), the KV cache sent between the two "
    "over the network; same or empty: each decode GPU's own.",
    "分离部署（disaggregated 为 1）时 Prefill 池尝试的 GPU，一种或一个列表（同 gpu），与每种 Decode GPU 搭配（算力强的 "
    "GPU 做 Prefill，显存大的做 Decode），KV Cache 经网络在两者之间传送；same 或留空：与 Decode 相同的 GPU。"),
    defaults::plan_prefill_gpu);
inline constexpr ArgSpec kInputRatio = optional(number("input_ratio", "ratio", Check::non_negative,
    "The price of an input (prompt) token as a share of an output token's, as providers price them apart (0.25: a "
    "quarter): gives the prices per million input and output tokens that pay the plan's hour at the load; 0: not "
    "priced apart.",
    "输入（提示）token 价格占输出 token 价格的比例，如服务商分开定价（0.25：四分之一）：给出在该负载下付清方案每小时成本的"
    "每百万输入 token 与输出 token 价格；0：不分开定价。"), defaults::plan_input_ratio);
inline constexpr ArgSpec kRent = optional_text(text("rent", "servers or gpus",
    "What is rented and priced: servers: whole servers or racks of the GPU (ROOFLINE_GPU's server_gpus: 8 for an HGX "
    "node, 72 for an NVL72 rack), each pool's GPUs rounded up, the spare ones idle; gpus: each GPU alone, for clouds "
    "that rent single GPUs (every plan before 0.14).",
    "租用并计价的单位：servers：整台服务器或整个机柜（ROOFLINE_GPU 的 server_gpus：HGX 节点 8，NVL72 机柜 72），每个池的 "
    "GPU 数向上取整，多出的 GPU 空闲；gpus：按单块 GPU，适用于按块出租 GPU 的云（0.14 之前的所有方案）。"),
    defaults::plan_rent);
inline constexpr ArgSpec kPriceBasis = optional_text(text("price_basis", "on-demand, reserved or owned",
    "What the catalog's prices are (a GPU that prices names keeps its own): on-demand: each GPU's on-demand example "
    "(ROOFLINE_GPU's usd_per_gpu_hour); reserved: its reserved or committed example (usd_per_gpu_hour_reserved, for "
    "reserved_years); owned: its server's purchase price (usd_per_server) spread over years, per GPU-hour, with the "
    "electricity (usd_per_kwh, needed) and pue on top. A GPU without an example on the basis has no price.",
    "目录价格的依据（prices 中给出价格的 GPU 用它自己的）：on-demand：每种 GPU 的按需示例价（ROOFLINE_GPU 的 "
    "usd_per_gpu_hour）；reserved：预留或承诺用量示例价（usd_per_gpu_hour_reserved，期限 reserved_years）；owned：自购，"
    "服务器购置价（usd_per_server）按 years 年摊到每 GPU 小时，另加电费（须给出 usd_per_kwh）与 pue。在该依据下没有示例价"
    "的 GPU 没有价格。"), defaults::plan_price_basis);
inline constexpr ArgSpec kYears = optional(number("years", "years", Check::positive,
    "price_basis owned: the years a server's purchase price is spread over (5: the useful life large clouds give "
    "their servers).",
    "price_basis 为 owned 时服务器购置价分摊的年数（5：大型云厂商给服务器的使用年限）。"), defaults::plan_years);
inline constexpr ArgSpec kUsdPerGpuHour = number("usd_per_gpu_hour", "USD/GPU-hour", Check::non_negative,
    "Price of one GPU for an hour, USD (ROOFLINE_GPU(gpu; \"usd_per_gpu_hour\") gives the catalog's example).",
    "一块 GPU 一小时的价格，美元（ROOFLINE_GPU(gpu; \"usd_per_gpu_hour\") 给出目录中的示例价格）。");
inline constexpr ArgSpec kGpus = number("gpus", "GPUs", Check::count,
    "GPUs paid for, a whole number >= 1.",
    "计费的 GPU 数，不小于 1 的整数。");
inline constexpr ArgSpec kOutputTokensPerS = number("output_tokens_per_s", "tokens/s", Check::positive,
    "Output tokens per second that those GPUs deliver together, above 0.",
    "这些 GPU 合计每秒输出的 token 数，大于 0。");
inline constexpr ArgSpec kAcceptance = with_max(number("acceptance", "probability", Check::non_negative,
    "Probability that the target model accepts a drafted token, 0 to 1 (each independently).",
    "目标模型接受一个草稿 token 的概率，0 到 1（相互独立）。"), 1);
inline constexpr ArgSpec kDraftLen = number("draft_len", "tokens", Check::count,
    "Tokens the draft model proposes before each target step, a whole number >= 1.",
    "每次目标模型验证之前草稿模型提出的 token 数，不小于 1 的整数。");
inline constexpr ArgSpec kDraftModel = text("draft_model", "catalog id",
    "The draft model of the catalog, e.g. llama-3.1-8b: it runs on the same GPUs in the same formats and tp as "
    "the target. Like model, it may be the text of a config.json; mtp: the target's own multi-token-prediction "
    "layers (DeepSeek, GLM, Qwen3.5), one step of them per drafted token.",
    "目录中的草稿模型，如 llama-3.1-8b：与目标模型在同样的 GPU 上、同样的格式与 tp 下运行。与 model "
    "一样，也可以是 config.json 的全文；mtp：目标模型自带的多 token 预测层（DeepSeek、GLM、Qwen3.5），每个草稿 token "
    "运行一次。");

inline constexpr ArgSpec kFormulaName = text("formula", "formula name",
    "The formula to explain, e.g. ROOFLINE_FIT_BATCH.",
    "要解释的公式名，如 ROOFLINE_FIT_BATCH。");
inline constexpr ArgSpec kArguments = rest("arguments", "numbers or texts",
    "The formula's arguments in its order, each a number or a text; trailing optional ones may be left out.",
    "该公式的参数，按其顺序，每个为数字或文本；末尾的可选参数可以省略。");

// Calibration's.
inline constexpr ArgSpec kMeasurements = table("measurements", "model, gpu, weight_dtype, kv_dtype, tp, batch, context, metric, value",
    "Measured rows, one per row of the range, columns in this order: model, gpu, weight_dtype, kv_dtype, tp, batch, "
    "context, metric (step_ms: one decode step of batch sequences at context tokens; ttft_ms: the prefill of batch "
    "prompts of context tokens), value (ms). A header row and empty rows are skipped; empty formats and tp take "
    "ROOFLINE_STEP_MS's defaults. At least 3 rows.",
    "实测数据，区域中每行一条，列依次为：model、gpu、weight_dtype、kv_dtype、tp、batch、context、metric（step_ms：batch "
    "个序列在 context 个 token 上下文下的一步 Decode；ttft_ms：batch 个长 context 个 token 的提示的 Prefill）、value（毫秒）。"
    "表头行与空行被跳过；格式与 tp 留空时取 ROOFLINE_STEP_MS 的默认值。至少 3 行。");
inline constexpr ArgSpec kBaseProfile = optional_text(text("base_profile", "profile",
    "The profile whose parameters the fit starts from and keeps where the rows do not tell them (typical, an "
    "engine's such as vllm, bound, or a profile text).",
    "拟合的起点配置；实测数据无法确定的参数保留它的值（typical、某个引擎的如 vllm、bound，或一段配置文本）。"), defaults::plan_profile);

// The fleet's.
inline constexpr ArgSpec kWorkloads = table("workloads", "model, rps, prompt_tokens, output_tokens, ttft_ms, tpot_ms, gpu",
    "The workloads, one per row of the range, columns in this order: model, rps (requests/s), prompt_tokens, "
    "output_tokens, ttft_ms, tpot_ms (the targets, ms), gpu (optional: one GPU or a list this workload is planned on; "
    "empty: the gpu argument's). A header row and empty rows are skipped. At most 100 rows.",
    "工作负载，区域中每行一个，列依次为：model、rps（每秒请求数）、prompt_tokens、output_tokens、ttft_ms、tpot_ms（目标，"
    "毫秒）、gpu（可选：该负载规划所用的一种 GPU 或列表；留空：取 gpu 参数）。表头行与空行被跳过。最多 100 行。");
inline constexpr std::array<ArgSpec, 0> kArgsNone{};
inline constexpr std::array kArgsCalibrate{kMeasurements, kBaseProfile};
inline constexpr std::array kArgsFleet{kWorkloads, kPlanGpu, kPlanWeightDtype, kPlanProfile, kPrices, kHeadroom,
                                kMinReplicas, kPriceBasis, kYears, kUsdPerKwh, kPue, kRent};
inline constexpr std::array kArgsWhy{kFormulaName, kArguments};
inline constexpr std::array kArgsDecodeFlop{kParamsB, kBatch};
inline constexpr std::array kArgsGpu{kGpu, kGpuField};
inline constexpr std::array kArgsModel{kModel, kModelField};
inline constexpr std::array kArgsModelConfig{kModel};
inline constexpr std::array kArgsStep{kModel, kGpu, kBatch, kCtx, kWeightDtype, kKvDtype, kTp, kProfile, kEp, kDpAttention, kPp};
inline constexpr std::array kArgsTtft{kModel, kGpu, kPromptTokens, kPrompts, kWeightDtype, kTp, kProfile, kEp, kDpAttention, kPp};
inline constexpr std::array kArgsFit{kModel, kGpu, with_check(kCtx, Check::positive), kWeightDtype, kKvDtype, kTp, kMemUtil,
                              kEp, kDpAttention, kPp};
inline constexpr std::array kArgsCache{kModel, kBatch, kCtx, kKvDtype, kTp, kEp, kDpAttention, kPp};

inline constexpr std::array kArgsE2e{kModel, kGpu, kPromptTokens, kOutputTokens, kBatch, kWeightDtype, kKvDtype, kTp,
                              kPlanProfile, kMemUtil, kEp, kDpAttention, kPp};
inline constexpr std::array kArgsSloBatch{kModel, kGpu, kCtx, kTpotMs, kWeightDtype, kKvDtype, kTp, kPlanProfile, kMemUtil,
                                   kEp, kDpAttention, kPp, kSloPercentile, kSloPromptTokens};
inline constexpr std::array kArgsReplicaRps{kModel, kGpu, kPromptTokens, kOutputTokens, kTtftMs, kTpotMs, kWeightDtype,
                                     kKvDtype, kTp, kPlanProfile, kMemUtil, kEp, kDpAttention, kPp, kPercentile};
inline constexpr std::array kArgsPlan{kModel, kRps, kPromptTokens, kOutputTokens, kTtftMs, kTpotMs, kPlanGpu,
                               kPlanWeightDtype, kKvDtype, kPlanProfile, kDisaggregated, kPrices, kMemUtil, kPlanRows,
                               kHeadroom, kMinReplicas, kPercentile, kUsdPerKwh, kPue, kMaxKw,
                               kPrefillGpu, kInputRatio, kRent, kPriceBasis, kYears};
inline constexpr std::array kArgsCurve{kModel, kGpu, kPromptTokens, kOutputTokens, kWeightDtype, kKvDtype, kCurveTp,
                                kPlanProfile, kEp, kDpAttention, kPp, kCurveTtftMs, kMemUtil, kCurvePercentile};
inline constexpr std::array kArgsSimulate{kModel, kGpu, kRps, kPromptTokens, kOutputTokens, kWeightDtype, kKvDtype, kTp,
                                kPlanProfile, kEp, kDpAttention, kPp, kArrival, kCv, kRequests, kSeed, kLengths, kSpread,
                                kGoodputTtftMs, kGoodputTpotMs, kMemUtil, kPrefixTokens, kPrefixShare, kTurns,
                                kThinkS, kHostKvGb, kHostTbs, kConcurrency};
inline constexpr std::array kArgsCostPerMtok{kUsdPerGpuHour, kGpus, kOutputTokensPerS};
inline constexpr std::array kArgsSpecTokens{kAcceptance, kDraftLen};
inline constexpr std::array kArgsSpecStep{kModel, kDraftModel, kGpu, kBatch, kCtx, kDraftLen, kAcceptance, kWeightDtype,
                                   kKvDtype, kTp, kPlanProfile, kEp, kDpAttention, kPp};

inline constexpr std::array kArgsCompute{kFlops, kTflops};
inline constexpr std::array kArgsMemory{kBytes, kTbs};
inline constexpr std::array kArgsTime{kFlops, kBytes, kTflops, kTbs};
inline constexpr std::array kArgsAi{kFlops, with_check(kBytes, Check::positive)};
inline constexpr std::array kArgsBalance{kTflops, kTbs};
inline constexpr std::array kArgsAttainable{kAi, kTflops, kTbs};
inline constexpr std::array kArgsRoof{kTflops, kTbs, kAiMin, kAiMax, kPoints};
inline constexpr std::array kArgsDecode{kParamsB, kBatch, kCtx, kBwTbs,
                                 optional(kTflops, defaults::h100_sxm_bf16_dense_tflops), kKv,
                                 kBytesPerParam};
inline constexpr std::array kArgsDecodeAi{kParamsB, kBatch, kCtx, kKv, kBytesPerParam};
inline constexpr std::array kArgsCritical{kParamsB, kCtx, kTflops, kBwTbs, kKv, kBytesPerParam};
inline constexpr std::array kArgsPrefill{kParamsB, kTokens, kTflops, optional(kBwTbs, defaults::h100_sxm_hbm_tbs),
                                  kBytesPerParam};
inline constexpr std::array kArgsWeights{kParamsB, kBytesPerParam};
inline constexpr std::array kArgsKv{kBatch, kCtx, kKv};
inline constexpr std::array kArgsMaxBatch{kMemGb, kParamsB, with_check(kCtx, Check::positive),
                                   with_check(kKv, Check::positive), kBytesPerParam, kReserveGb};

// ---- Generic invocation: from a row of Args to a typed formula function. -----------------------

/// Argument `i` of a call as the function's parameter type; a span parameter takes the rest of them.
template <typename T> T arg_at(std::span<const Arg> a, std::size_t i);
template <> inline double arg_at<double>(std::span<const Arg> a, std::size_t i) { return std::get<double>(a[i].value); }
template <> inline std::string_view arg_at<std::string_view>(std::span<const Arg> a, std::size_t i) {
    return std::get<std::string>(a[i].value);
}
template <> inline std::span<const Arg> arg_at<std::span<const Arg>>(std::span<const Arg> a, std::size_t i) {
    return a.subspan(i);
}

inline Value to_value(double v) { return {v}; }
inline Value to_value(std::string_view v) { return {std::string(v)}; }
inline Value to_value(std::string v) { return {std::move(v)}; }
inline Value to_value(Table v) { return {std::move(v)}; }

template <typename R, typename... P, std::size_t... I>
Value invoke_impl(R (*f)(P...), [[maybe_unused]] std::span<const Arg> a, std::index_sequence<I...>) {
    return to_value(f(arg_at<P>(a, I)...));
}

template <typename F> struct fn_traits;
template <typename R, typename... P> struct fn_traits<R (*)(P...)> {
    static constexpr std::size_t arity = sizeof...(P);
    using result = R;
};

template <auto F> Value invoke(std::span<const Arg> a) {
    return invoke_impl(F, a, std::make_index_sequence<fn_traits<decltype(F)>::arity>{});
}

template <typename R> constexpr Type type_of() {
    if constexpr (std::is_same_v<R, double>) return Type::number;
    else if constexpr (std::is_same_v<R, std::string_view> || std::is_same_v<R, std::string>) return Type::text;
    else return Type::array;
}

template <auto F, std::size_t N>
constexpr FormulaSpec formula(const char* name, const char* group, const char* unit, const char* en,
                              const char* zh, const std::array<ArgSpec, N>& args, const char* example,
                              std::size_t released_args = 0, std::size_t v2_args = 0, std::size_t v3_args = 0,
                              std::size_t v4_args = 0) {
    static_assert(N == fn_traits<decltype(F)>::arity, "the table must list every argument of the function");
    return {name, group, type_of<typename fn_traits<decltype(F)>::result>(), unit, en, zh,
            std::span<const ArgSpec>(args), &invoke<F>, example, released_args, v2_args, v3_args, v4_args};
}

/// A formula that gained the layout arguments (ep, dp_attention, pp: 0.6) keeps its released typed C function
/// with the arguments before them.
template <std::size_t N> constexpr std::size_t before_layout(const std::array<ArgSpec, N>&) { return N - 3; }

inline constexpr const char* kPrimitives = "Roofline primitives";
inline constexpr const char* kDense = "Dense model from its parameter count";
inline constexpr const char* kCatalog = "Catalog and model-aware estimates";
inline constexpr const char* kPlanner = "Planner";
inline constexpr const char* kCalibration = "Calibration";
inline constexpr const char* kDiagnostics = "Why a formula fails";
inline constexpr const char* kEnergy = "Energy";

// ---- The table. --------------------------------------------------------------------------------

inline constexpr std::array kFormulas{
    formula<&formula::compute_ms>("ROOFLINE_COMPUTE_MS", kPrimitives, "ms",
        "Compute time: FLOPs divided by peak compute, ms.",
        "计算时间：浮点运算次数除以峰值算力，毫秒。",
        kArgsCompute, "ROOFLINE_COMPUTE_MS(16e9; 989)"),
    formula<&formula::memory_ms>("ROOFLINE_MEMORY_MS", kPrimitives, "ms",
        "Memory time: bytes moved divided by memory bandwidth, ms.",
        "搬运时间：搬运的字节数除以显存带宽，毫秒。",
        kArgsMemory, "ROOFLINE_MEMORY_MS(16e9; 3.35)"),
    formula<&formula::time_ms>("ROOFLINE_TIME_MS", kPrimitives, "ms",
        "Lower bound of one step: the larger of its compute time and its memory time, ms.",
        "一步的时间下界：计算时间与搬运时间中较大的那个，毫秒。",
        kArgsTime, "ROOFLINE_TIME_MS(0; 14e9; 989; 2)"),
    formula<&formula::ai>("ROOFLINE_AI", kPrimitives, "FLOP/byte",
        "Arithmetic intensity: FLOPs per byte moved.",
        "算术强度：每搬运一个字节所做的浮点运算次数。",
        kArgsAi, "ROOFLINE_AI(2e12; 16e9)"),
    formula<&formula::balance>("ROOFLINE_BALANCE", kPrimitives, "FLOP/byte",
        "Balance point of a GPU: peak compute over bandwidth, FLOP/byte (H100 SXM: 295).",
        "GPU 的平衡点：峰值算力除以带宽，FLOP/Byte（H100 SXM 约 295）。",
        kArgsBalance, "ROOFLINE_BALANCE(989; 3.35)"),
    formula<&formula::attainable_tflops>("ROOFLINE_ATTAINABLE_TFLOPS", kPrimitives, "TFLOP/s",
        "Height of the roof at an arithmetic intensity: min(peak, intensity x bandwidth), TFLOP/s.",
        "某一算术强度下屋顶的高度：min(峰值算力, 算术强度 × 带宽)，TFLOPS。",
        kArgsAttainable, "ROOFLINE_ATTAINABLE_TFLOPS(64; 989; 3.35)"),
    formula<&formula::bound>("ROOFLINE_BOUND", kPrimitives, "text",
        "What bounds the step: \"memory\" (bandwidth) or \"compute\" (peak); a tie counts as memory.",
        "这一步受什么限制：memory（访存受限）或 compute（计算受限）；两者相等时算作 memory。",
        kArgsTime, "ROOFLINE_BOUND(0; 14e9; 989; 2)"),
    formula<&formula::roof>("ROOFLINE_ROOF", kPrimitives, "FLOP/byte, TFLOP/s",
        "The roofline as an array of points rows: arithmetic intensity (log-spaced) and attainable "
        "TFLOP/s, for a log-log chart.",
        "以数组给出的 Roofline：共 points 行，每行是算术强度（对数等距）与可达算力 TFLOPS，用于双对数图。",
        kArgsRoof, "ROOFLINE_ROOF(989; 3.35; 1; 1000; 4)"),
    formula<&formula::decode_ms>("ROOFLINE_DECODE_MS", kDense, "ms",
        "Lower bound of one decode step of a dense model: the weights are read once for the whole "
        "batch, each sequence reads its own KV cache, 2 FLOP per parameter per token, ms.",
        "稠密模型一步 Decode 的时间下界：整批共享一次权重读取，每个序列各读自己的 KV Cache，"
        "每个参数每个 token 2 次浮点运算，毫秒。",
        kArgsDecode, "ROOFLINE_DECODE_MS(8; 64; 4096; 3.35)"),
    formula<&formula::decode_toks>("ROOFLINE_DECODE_TOKS", kDense, "tokens/s",
        "Throughput ceiling of decode: batch divided by the decode step time, tokens/s of the system.",
        "Decode 的系统吞吐上限：批大小除以一步的时间，整个系统每秒的 token 数。",
        kArgsDecode, "ROOFLINE_DECODE_TOKS(8; 64; 4096; 3.35)"),
    formula<&formula::decode_ai>("ROOFLINE_DECODE_AI", kDense, "FLOP/byte",
        "Arithmetic intensity of one decode step: its FLOPs over the bytes of weights and KV it reads.",
        "一步 Decode 的算术强度：浮点运算次数除以要读的权重与 KV 字节数。",
        kArgsDecodeAi, "ROOFLINE_DECODE_AI(8; 64; 0)"),
    formula<&formula::decode_flop>("ROOFLINE_DECODE_FLOP", kDense, "FLOP",
        "FLOPs of one decode step of a dense model: 2 per parameter per sequence of the batch.",
        "稠密模型一步 Decode 的浮点运算次数：每个参数、批中每个序列 2 次。",
        kArgsDecodeFlop, "ROOFLINE_DECODE_FLOP(8; 64)"),
    formula<&formula::decode_bytes>("ROOFLINE_DECODE_BYTES", kDense, "bytes",
        "Bytes one decode step of a dense model reads: the weights once, and each sequence's KV cache.",
        "稠密模型一步 Decode 读取的字节数：权重一次，加上每个序列各自的 KV Cache。",
        kArgsDecodeAi, "ROOFLINE_DECODE_BYTES(8; 64; 4096)"),
    formula<&formula::critical_batch>("ROOFLINE_CRITICAL_BATCH", kDense, "sequences",
        "Smallest whole batch whose decode step is compute bound; an error where the KV reads make "
        "that unreachable.",
        "使一步 Decode 变为计算受限的最小整数批大小；KV 读取使其无法达到时返回错误值。",
        kArgsCritical, "ROOFLINE_CRITICAL_BATCH(8; 0; 989; 3.35)"),
    formula<&formula::prefill_ms>("ROOFLINE_PREFILL_MS", kDense, "ms",
        "Lower bound of a prefill of tokens tokens: 2 FLOP per parameter per token, weights read once, ms.",
        "处理 tokens 个输入 token 的 Prefill 时间下界：每个参数每个 token 2 次浮点运算，权重只读一次，毫秒。",
        kArgsPrefill, "ROOFLINE_PREFILL_MS(8; 2000; 989)"),
    formula<&formula::weights_gb>("ROOFLINE_WEIGHTS_GB", kDense, "GB",
        "Memory of the weights, GB.",
        "权重占用的显存，GB。",
        kArgsWeights, "ROOFLINE_WEIGHTS_GB(8)"),
    formula<&formula::kv_gb>("ROOFLINE_KV_GB", kDense, "GB",
        "Memory of the KV cache of batch sequences of ctx tokens, GB.",
        "batch 个序列、每个 ctx 个 token 的 KV Cache 占用的显存，GB。",
        kArgsKv, "ROOFLINE_KV_GB(64; 4096)"),
    formula<&formula::max_batch>("ROOFLINE_MAX_BATCH", kDense, "sequences",
        "How many sequences of ctx tokens fit in memory beside the weights and the reserve; an error "
        "where the weights alone do not fit.",
        "放下权重和预留之后，显存还能容纳多少个 ctx 个 token 的序列；权重本身放不下时返回错误值。",
        kArgsMaxBatch, "ROOFLINE_MAX_BATCH(80; 8; 4096)"),
    formula<&formula::gpus>("ROOFLINE_GPUS", kCatalog, "catalog ids",
        "The GPUs of the catalog: a column of ids.",
        "目录中的 GPU：一列编号。",
        kArgsNone, "ROOFLINE_GPUS()"),
    formula<&formula::models>("ROOFLINE_MODELS", kCatalog, "catalog ids",
        "The models of the catalog: a column of ids.",
        "目录中的模型：一列编号。",
        kArgsNone, "ROOFLINE_MODELS()"),
    formula<&formula::gpu>("ROOFLINE_GPU", kCatalog, "the field's unit",
        "A number of the GPU catalog, e.g. bf16_tflops (dense) or hbm_tbs; an error where the GPU has no such figure.",
        "GPU 目录中的一个数，如 bf16_tflops（稠密）或 hbm_tbs；GPU 没有该项时返回错误值。",
        kArgsGpu, "ROOFLINE_GPU(\"h100-sxm\"; \"bf16_tflops\")"),
    formula<&formula::model>("ROOFLINE_MODEL", kCatalog, "the field's unit",
        "A number of the model catalog, e.g. params_b, kv_heads or kv_kib_per_token (at 2 bytes per value).",
        "模型目录中的一个数，如 params_b、kv_heads 或 kv_kib_per_token（按每个值 2 字节）。",
        kArgsModel, "ROOFLINE_MODEL(\"llama-3-8b\"; \"kv_kib_per_token\")"),
    formula<&formula::model_config>("ROOFLINE_MODEL_CONFIG", kCatalog, "text",
        "A model's config text (a Hugging Face config.json as compact JSON, its checkpoint's formats included): "
        "kept in a cell and given as the model argument, it computes as the model on any machine, also where the "
        "model is not in the catalog or user folder (a workbook shared with a colleague). Since 0.13.",
        "模型的配置文本（紧凑 JSON 形式的 Hugging Face config.json，含检查点的权重格式）：存入单元格后作为 model 参数，"
        "在任何机器上都按该模型计算，即使那台机器的目录或用户文件夹里没有这个模型（如与同事共享的工作簿）。自 0.13 起。",
        kArgsModelConfig, "ROOFLINE_MODEL_CONFIG(\"gpt-j-6b\")"),
    formula<&formula::step_ms>("ROOFLINE_STEP_MS", kCatalog, "ms",
        "One decode step of batch sequences of ctx tokens of context, operator by operator, on tp GPUs in "
        "tensor parallel, ms.",
        "batch 个序列、每个上下文 ctx 个 token 的一步 Decode，逐个算子估算，tp 块 GPU 张量并行，毫秒。",
        kArgsStep, "ROOFLINE_STEP_MS(\"llama-3-8b\"; \"h100-sxm\"; 64; 4096)", before_layout(kArgsStep)),
    formula<&formula::step_toks>("ROOFLINE_STEP_TOKS", kCatalog, "tokens/s",
        "Decode throughput of the system: batch divided by ROOFLINE_STEP_MS, tokens/s.",
        "Decode 的系统吞吐：batch 除以 ROOFLINE_STEP_MS，token/s。",
        kArgsStep, "ROOFLINE_STEP_TOKS(\"llama-3-8b\"; \"h100-sxm\"; 64; 4096)", before_layout(kArgsStep)),
    formula<&formula::ttft_ms>("ROOFLINE_TTFT_MS", kCatalog, "ms",
        "Time to first token: the prefill of batch prompts of prompt_tokens tokens, causal attention, ms.",
        "首 token 时间：batch 个、每个 prompt_tokens 个 token 的提示的 Prefill（因果注意力），毫秒。",
        kArgsTtft, "ROOFLINE_TTFT_MS(\"llama-3-8b\"; \"h100-sxm\"; 2000)", before_layout(kArgsTtft)),
    formula<&formula::fit_batch>("ROOFLINE_FIT_BATCH", kCatalog, "sequences",
        "How many sequences of ctx tokens fit in mem_util of the GPUs' memory beside the weights; an error "
        "where the weights alone do not fit.",
        "在 GPU 显存的 mem_util 比例内、放下权重之后能容纳多少个 ctx 个 token 的序列；权重本身放不下时返回错误值。",
        kArgsFit, "ROOFLINE_FIT_BATCH(\"llama-3-8b\"; \"h100-sxm\"; 4096)", before_layout(kArgsFit)),
    formula<&formula::cache_gb>("ROOFLINE_CACHE_GB", kCatalog, "GB",
        "GB of KV cache and recurrent state that batch sequences of ctx tokens hold on each of tp GPUs: sliding "
        "windows and chunks cap their layers, state layers hold a fixed state, MLA stores its latent, sparse "
        "and block-sparse attention (MiniMax-M3) add their indexer keys, compressed layers (DeepSeek-V4) hold their window, one entry per ratio "
        "tokens and their compressors' state.",
        "batch 个、每个 ctx 个 token 的序列在 tp 块 GPU 的每一块上占用的 KV Cache 与循环状态，GB：滑动窗口与分块限制其层，"
        "状态层保存固定大小的状态，MLA 存其潜变量，稀疏与块稀疏注意力（MiniMax-M3）另加索引器的键，压缩层（DeepSeek-V4）保存其窗口、每 ratio 个 "
        "token 一个压缩条目及其压缩器状态。",
        kArgsCache, "ROOFLINE_CACHE_GB(\"gpt-oss-120b\"; 64; 8192)", before_layout(kArgsCache)),
    formula<&formula::step_breakdown>("ROOFLINE_STEP_BREAKDOWN", kCatalog, "operator, FLOP, bytes, ms, bound",
        "The decode step of ROOFLINE_STEP_MS operator by operator: a header row, then operator, FLOP, bytes, ms "
        "and what bounds it (one GPU of tp).",
        "ROOFLINE_STEP_MS 的逐算子分解：一行表头，然后每行为算子、FLOP、字节数、毫秒、受什么限制（按 tp 中的一块 GPU）。",
        kArgsStep, "ROOFLINE_STEP_BREAKDOWN(\"llama-3-8b\"; \"h100-sxm\"; 64; 4096)", before_layout(kArgsStep)),
    formula<&formula::ttft_breakdown>("ROOFLINE_TTFT_BREAKDOWN", kCatalog, "operator, FLOP, bytes, ms, bound",
        "The prefill of ROOFLINE_TTFT_MS operator by operator, attention included: a header row, then operator, "
        "FLOP, bytes, ms and what bounds it (one GPU of tp). Bytes as the profile times them: since 0.14 a sparse "
        "prefill's attention (DeepSeek's DSA) adds each query's gather of its top-k entries where the profile counts "
        "it (typical; not bound).",
        "ROOFLINE_TTFT_MS 的 Prefill 逐算子分解（含注意力）：一行表头，然后每行为算子、FLOP、字节数、毫秒、受什么限制"
        "（按 tp 中的一块 GPU）。字节数按该 profile 计时的口径：自 0.14 起，稀疏注意力（DeepSeek 的 DSA）的 Prefill 在 "
        "profile 计入时（typical 计入，bound 不计）另加每个查询各自读取其 top-k 缓存条目的字节。",
        kArgsTtft, "ROOFLINE_TTFT_BREAKDOWN(\"llama-3-8b\"; \"h100-sxm\"; 2000)", before_layout(kArgsTtft)),
    formula<&formula::e2e_ms>("ROOFLINE_E2E_MS", kPlanner, "ms",
        "Latency of one request on a replica decoding batch sequences with chunked prefill: time to first token + "
        "(output_tokens - 1) x time per output token, ms.",
        "一个副本以分块 Prefill 方式同时解码 batch 个序列时，一个请求的端到端延迟：首 token 时间 + (output_tokens - 1) × "
        "每个输出 token 的时间，毫秒。",
        kArgsE2e, "ROOFLINE_E2E_MS(\"llama-3.1-70b\"; \"h100-sxm\"; 2000; 300; 32; \"fp8\"; \"\"; 4)", before_layout(kArgsE2e)),
    formula<&formula::slo_batch>("ROOFLINE_SLO_BATCH", kPlanner, "sequences",
        "The largest batch whose decode step at ctx tokens of context meets tpot_ms and fits in memory; an error "
        "where even one sequence is slower than tpot_ms. With percentile (since 0.14) the most concurrent requests "
        "whose TPOT meets tpot_ms at that percentile, as a simulation finds it.",
        "在 ctx 个 token 的上下文下，一步 Decode 满足 tpot_ms 且放得进显存的最大批大小；连一个序列都慢于 tpot_ms 时返回"
        "错误值。给出 percentile 时（自 0.14 起）为 TPOT 在该百分位上满足 tpot_ms 的最大并发请求数，由模拟求得。",
        kArgsSloBatch, "ROOFLINE_SLO_BATCH(\"llama-3.1-8b\"; \"h100-sxm\"; 4096; 20)", kArgsSloBatch.size() - 5,
        kArgsSloBatch.size() - 2),
    formula<&formula::replica_rps>("ROOFLINE_REPLICA_RPS", kPlanner, "requests/s",
        "Requests per second one replica of tp GPUs sustains within both targets (chunked prefill and decode on "
        "the same GPUs); an error naming the target that not even one request meets. With percentile (since 0.14) "
        "the targets hold at that percentile of the requests, as a simulation finds it.",
        "一个由 tp 块 GPU 组成的副本在两个目标之内能承载的每秒请求数（Prefill 与 Decode 在同一组 GPU 上）；连一个请求都"
        "达不到某个目标时返回错误值并指出该目标。给出 percentile 时（自 0.14 起）目标在请求的该百分位上满足，由模拟求得。",
        kArgsReplicaRps,
        "ROOFLINE_REPLICA_RPS(\"llama-3.1-70b\"; \"h100-sxm\"; 2000; 300; 500; 50; \"fp8\"; \"\"; 4)",
        kArgsReplicaRps.size() - 4, kArgsReplicaRps.size() - 1),
    formula<&formula::plan>("ROOFLINE_PLAN", kPlanner,
        "gpu, tp, weights, batch, replicas, prefill_tp, prefill_replicas, gpus, ttft_ms, tpot_ms, "
        "output_tok_s_per_gpu, usd_per_hour, usd_per_mtok, ep, dp_attention, pp, capacity_tok_s_per_gpu, checkpoint, "
        "engine_tp, usd_per_month, usd_per_mtok_blended, kw, j_per_token, tok_s_per_mw, prefill_gpu, usd_per_mtok_input, "
        "usd_per_mtok_output, servers, usd_per_gpu_hour",
        "The capacity plan for rps requests/s within both targets: a header row, then one row per feasible GPU, "
        "layout and weight format, cheapest first: batch, replicas, prefill pool (disaggregated), GPUs, TTFT and "
        "TPOT at full load, the load's output tokens/s per GPU, USD per hour and per million output tokens (\"\" "
        "without a price), the replica's layout (ep, dp_attention, pp), and the output tokens/s per GPU that the "
        "plan's GPUs sustain within both targets (its capacity: above the load's share where headroom, min_replicas "
        "or whole replicas leave some spare), then the published checkpoint in the row's formats (its Hugging Face id; "
        "\"\" where none is published), then the engine's tensor-parallel size (tp / pp: an engine's "
        "--tensor-parallel-size, with --pipeline-parallel-size pp; tp is the GPUs of a replica), then USD per month "
        "(730 hours) and per million tokens of the load, prompt and output together (\"\" without a price), then the "
        "deployment's power in kW (its GPUs at full load, their servers' share, times pue; \"\" without a board "
        "power), the joules per output token of the load and its output tokens/s per MW, and the prefill pool's GPU "
        "(\"\" colocated), and with input_ratio the prices per million input and output tokens, input_ratio apart, that "
        "pay the hour at the load (\"\" without), the servers (or racks) rented, and the (decode) GPU's price per "
        "GPU-hour on the plan's price_basis, electricity apart (\"\" without; since 0.14).",
        "在两个目标之内承载每秒 rps 个请求的容量规划：一行表头，然后每个可行的 GPU、并行布局与权重格式一行，最便宜的在前："
        "批大小、副本数、Prefill 池（分离部署时）、GPU 总数、满载时的首 token 时间与每 token 时间、负载摊到每块 GPU 的每秒"
        "输出 token 数、每小时美元与每百万输出 token 美元（无价格时为 \"\"）、副本的并行布局（ep、dp_attention、pp），"
        "以及这些 GPU 在两个目标之内每块每秒能输出的 token 数（容量：headroom、min_replicas 或整数副本留有余量时高于负载"
        "的份额），然后是该行格式对应的已发布检查点（其 Hugging Face id；没有已发布检查点时为 \"\"），最后是引擎的张量并行"
        "大小（tp / pp：即引擎的 --tensor-parallel-size，配合 --pipeline-parallel-size pp；tp 是一个副本的 GPU 数），"
        "然后是每月美元（730 小时）与负载每百万 token（输入与输出合计）美元（无价格时为 \"\"），然后是部署的功率 kW"
        "（GPU 满载、其服务器摊到的部分，乘以 pue；无板卡功耗时为 \"\"）、负载每个输出 token 的焦耳数与每 MW 的每秒输出 "
        "token 数，以及 Prefill 池的 GPU（同一副本时为 \"\"），给出 input_ratio 时还有按该比例分开定价、在该负载下付清每小时"
        "成本的每百万输入 token 与输出 token 价格（未给出时为 \"\"），租用的服务器（或机柜）数，以及按方案的 price_basis "
        "计的（Decode）GPU 每 GPU 小时价格，不含电费（没有时为 \"\"；自 0.14 起）。",
        kArgsPlan, "ROOFLINE_PLAN(\"llama-3.1-70b\"; 100; 2000; 300; 500; 50)", kArgsPlan.size() - 12,
        kArgsPlan.size() - 11, kArgsPlan.size() - 9, kArgsPlan.size() - 8),
    formula<&formula::curve>("ROOFLINE_CURVE", kPlanner,
        "tpot_ms, tok_s_per_user, capacity_tok_s_per_gpu, batch, ttft_ms, rps, tp, ep, dp_attention, pp",
        "Throughput against interactivity: a header row, then one row per decode batch of a replica at full load "
        "(1, 2, 3, 4, 6, 8, 12 ... up to the largest it runs), fastest first: TPOT, output tokens/s one user sees "
        "(1000 / TPOT), output tokens/s per GPU the replica sustains, the batch, TTFT, the replica's requests/s and its "
        "layout. With tp 0 (the default) every replica size and layout ROOFLINE_PLAN tries, reduced to the front: a "
        "row stays when no faster one sustains as much per GPU. With percentile (since 0.14) TPOT and TTFT at that "
        "percentile of the requests, as a simulation at each row's load finds them. Since 0.13.",
        "吞吐与交互性的关系曲线：一行表头，然后副本满载时每个 Decode 批大小一行（1、2、3、4、6、8、12……直到它能运行的最大"
        "批），最快的在前：每 token 时间、一个用户看到的每秒输出 token 数（1000 / TPOT）、副本每块 GPU 能维持的每秒输出 "
        "token 数、批大小、首 token 时间、副本每秒请求数及其并行布局。tp 为 0（默认）时尝试 ROOFLINE_PLAN 会尝试的每种副本"
        "大小与布局，只留前沿：没有更快的行能让每块 GPU 维持同样多时才保留。给出 percentile 时（自 0.14 起）每 token 时间与首 token "
        "时间取请求的该百分位，由每行负载下的模拟求得。自 0.13 起。",
        kArgsCurve, "ROOFLINE_CURVE(\"llama-3.1-70b\"; \"h100-sxm\"; 2000; 300; \"fp8\")", kArgsCurve.size() - 1),
    formula<&formula::simulate>("ROOFLINE_SIMULATE", kPlanner, "metric, mean, p50, p90, p99",
        "A replica under a stream of requests, simulated iteration by iteration (continuous batching, chunked prefill, "
        "the engine's caps, KV memory with preemption, a prefix cache for a shared prefix and multi-turn "
        "conversations): a header row, then ttft_ms, tpot_ms, itl_ms and e2e_ms, each "
        "with its mean, p50, p90 and p99; then one value each (in the mean column): throughput_tok_s, goodput_rps, "
        "mean_batch, prefix_hit_rate, requests, duration_s, iterations, preemptions, max_queue, offloaded_gb. The same "
        "seed gives the "
        "same numbers. Since 0.14.",
        "逐次迭代模拟一个副本承载请求流（连续批处理、分块 Prefill、引擎上限、显存不足时抢占、共享前缀与多轮对话的前缀缓存）：一行表头，然后 ttft_ms、"
        "tpot_ms、itl_ms 与 e2e_ms，各有均值、p50、p90 与 p99；然后各一个值（在 mean 列）：throughput_tok_s、goodput_rps、"
        "mean_batch、prefix_hit_rate、requests、duration_s、iterations、preemptions、max_queue、offloaded_gb。同一个种子给出同样的数字。"
        "自 0.14 起。",
        kArgsSimulate, "ROOFLINE_SIMULATE(\"llama-3.1-8b\"; \"h100-sxm\"; 10; 1000; 200)", kArgsSimulate.size() - 1),
    formula<&formula::cost_per_mtok>("ROOFLINE_COST_PER_MTOK", kPlanner, "USD per million output tokens",
        "Cost of a million output tokens: usd_per_gpu_hour x gpus / (output_tokens_per_s x 3600) x 1e6, USD.",
        "一百万个输出 token 的成本：usd_per_gpu_hour × gpus / (output_tokens_per_s × 3600) × 1e6，美元。",
        kArgsCostPerMtok, "ROOFLINE_COST_PER_MTOK(2; 8; 1000)"),
    formula<&formula::spec_tokens>("ROOFLINE_SPEC_TOKENS", kPlanner, "tokens per target step",
        "Speculative decoding: expected tokens per target step with draft_len drafted tokens each accepted with "
        "probability acceptance: (1 - acceptance^(draft_len + 1)) / (1 - acceptance).",
        "投机解码：每次草稿 draft_len 个 token、每个以 acceptance 的概率被接受时，目标模型每步产出的期望 token 数："
        "(1 - acceptance^(draft_len + 1)) / (1 - acceptance)。",
        kArgsSpecTokens, "ROOFLINE_SPEC_TOKENS(0.8; 4)"),
    formula<&formula::spec_step_ms>("ROOFLINE_SPEC_STEP_MS", kPlanner, "ms per output token",
        "Speculative decoding: ms per output token of draft_len draft steps and one target step that verifies them, "
        "divided by ROOFLINE_SPEC_TOKENS (batch sequences of ctx tokens of context).",
        "投机解码：draft_len 步草稿 Decode 加一步验证它们的目标模型前向，除以 ROOFLINE_SPEC_TOKENS，得到每个输出 token "
        "的毫秒数（batch 个序列、每个上下文 ctx 个 token）。",
        kArgsSpecStep,
        "ROOFLINE_SPEC_STEP_MS(\"llama-3.1-70b\"; \"llama-3.1-8b\"; \"h100-sxm\"; 8; 2048; 4; 0.7; \"fp8\"; \"\"; 4)", before_layout(kArgsSpecStep)),
    formula<&formula::calibrate>("ROOFLINE_CALIBRATE", kCalibration, "profile text",
        "A profile fitted on your measured rows, as a text that every formula's profile argument takes: "
        "\"fit(typical; n=12; loo=4.1%; mdape=2.0%; fitted bw mfu step_ms): bw=0.83, mfu=0.61, ...\" (its rows, its "
        "median error in leave-one-out and on them, the parameters its rows inform: one for every two rows at most, "
        "the rest the base profile's; then the parameters). No answer where the rows are too few.",
        "按你的实测数据拟合出的配置，以文本给出，所有公式的 profile 参数都接受它：\"fit(typical; n=12; loo=4.1%; "
        "mdape=2.0%; fitted bw mfu step_ms): bw=0.83, mfu=0.61, ...\"（行数、留一法下与在这些行上的中位误差、这些行能确定的"
        "参数：至多每两行一个，其余取基准配置的值；然后是各参数）。数据行太少时无结果。",
        kArgsCalibrate,
        "ROOFLINE_CALIBRATE({\"llama-3-8b\"; \"h200\"; \"bf16\"; \"bf16\"; 1; 1; 1024; \"step_ms\"; 6.0155 | \"llama-3-8b\"; \"h200\"; \"bf16\"; \"bf16\"; 1; 1; 4096; \"step_ms\"; 7.1348 | \"llama-3-8b\"; \"h200\"; \"bf16\"; \"bf16\"; 1; 8; 4096; \"step_ms\"; 7.4356})"),    formula<&formula::calibrate_rows>("ROOFLINE_CALIBRATE_ROWS", kCalibration,
        "row, model, gpu, metric, measured_ms, predicted_ms, loo_ms, error_percent, loo_error_percent",
        "How well ROOFLINE_CALIBRATE's fit predicts each measured row: a header row, then per row of the range that was "
        "fitted its row number, model, GPU and metric, the measured ms, the fitted profile's ms, the ms of the fit that "
        "left the row out (leave-one-out), and both errors in percent.",
        "ROOFLINE_CALIBRATE 的拟合对每条实测数据的预测：一行表头，然后每条参与拟合的数据一行：行号、模型、GPU、指标、实测毫秒、"
        "拟合配置的毫秒、去掉该行后拟合（留一法）的毫秒，以及两者的百分比误差。",
        kArgsCalibrate,
        "ROOFLINE_CALIBRATE_ROWS({\"llama-3-8b\"; \"h200\"; \"bf16\"; \"bf16\"; 1; 1; 1024; \"step_ms\"; 6.0155 | \"llama-3-8b\"; \"h200\"; \"bf16\"; \"bf16\"; 1; 1; 4096; \"step_ms\"; 7.1348 | \"llama-3-8b\"; \"h200\"; \"bf16\"; \"bf16\"; 1; 8; 4096; \"step_ms\"; 7.4356})"),

    formula<&formula::why>("ROOFLINE_WHY", kDiagnostics, "text",
        "Why a call of a formula fails, in words: \"ok\" when it succeeds, else the reason, naming the argument at "
        "fault.",
        "某个公式调用为什么失败：成功时为 ok，否则给出原因并指出出错的参数。",
        kArgsWhy, "ROOFLINE_WHY(\"ROOFLINE_FIT_BATCH\"; \"llama-3-70b\"; \"h100-sxm\"; 4096)"),
    // Since 0.14 (issue #34), after the others: the table's order is roofline_formula_at's index.
    formula<&formula::energy_j>("ROOFLINE_ENERGY_J", kEnergy, "J per output token",
        "Energy of one decode step of ROOFLINE_STEP_MS over all tp GPUs of the replica, per output token (one per "
        "sequence), J: each GPU's idle power for the step's time, and shares of its board power above idle for being "
        "busy and for its FLOPs and bytes (the power model, docs/formulas.md \"Energy\"); never more than board power "
        "x step time x tp / batch. GPUs only: the server around them and the datacentre's PUE are not in it. Since 0.14.",
        "ROOFLINE_STEP_MS 那一步 Decode 在副本全部 tp 块 GPU 上消耗的能量，按每个输出 token（每个序列一个）计，焦耳："
        "每块 GPU 在这一步时间内的空闲功耗，加上板卡功耗高于空闲部分中因忙碌、因其浮点运算与访存字节所占的份额（功耗模型，"
        "见 docs/formulas.md「Energy」）；不超过板卡功耗 × 步时 × tp / batch。只含 GPU：不含服务器其余部分与数据中心 PUE。"
        "自 0.14 起。",
        kArgsStep, "ROOFLINE_ENERGY_J(\"llama-3-8b\"; \"h100-sxm\"; 64; 4096)"),
    formula<&formula::prefill_energy_j>("ROOFLINE_PREFILL_ENERGY_J", kEnergy, "J per prompt token",
        "Energy of the prefill of ROOFLINE_TTFT_MS over all tp GPUs of the replica, per prompt token, J (the power "
        "model of ROOFLINE_ENERGY_J). GPUs only. Since 0.14.",
        "ROOFLINE_TTFT_MS 那次 Prefill 在副本全部 tp 块 GPU 上消耗的能量，按每个提示 token 计，焦耳（功耗模型同 "
        "ROOFLINE_ENERGY_J）。只含 GPU。自 0.14 起。",
        kArgsTtft, "ROOFLINE_PREFILL_ENERGY_J(\"llama-3-8b\"; \"h100-sxm\"; 2000)"),
    formula<&formula::fleet>("ROOFLINE_FLEET", kPlanner,
        "model, rps, gpu, weights, checkpoint, tp, engine_tp, pp, ep, dp_attention, replicas, gpus, servers, ttft_ms, "
        "tpot_ms, usd_per_hour, usd_per_month, usd_per_mtok, kw",
        "A fleet of workloads, each planned as ROOFLINE_PLAN plans it with these arguments (on its own GPUs where its "
        "row names them) and its cheapest configuration kept: a header row, one row per workload in their order (its "
        "model, load, GPU, weights and published checkpoint, replica layout, replicas, GPUs, servers rented, TTFT and "
        "TPOT at full load, USD per hour, per month and per million output tokens, kW), then a row \"total\": the "
        "load, GPUs, servers, USD per hour and month, USD per million output tokens of all the workloads' output, and "
        "kW, summed (\"\" where a workload has no price or board power). Each workload rents its own servers. Since "
        "0.14.",
        "一组工作负载的规划：每个负载按 ROOFLINE_PLAN 以这些参数规划（行中给出 GPU 时用它自己的 GPU），保留最便宜的配置：一行"
        "表头，然后每个负载一行，按其顺序（模型、负载、GPU、权重与已发布检查点、副本布局、副本数、GPU 数、租用的服务器数、满载时的"
        "首 token 时间与每 token 时间、每小时、每月与每百万输出 token 美元、kW），最后一行 \"total\"：负载、GPU 数、服务器数、每"
        "小时与每月美元、全部负载输出的每百万 token 美元与 kW 的合计（某个负载没有价格或板卡功耗时为 \"\"）。每个负载租用自己的"
        "服务器。自 0.14 起。",
        kArgsFleet,
        "ROOFLINE_FLEET({\"llama-3.1-70b\"; 100; 2000; 300; 500; 50 | \"llama-3.1-8b\"; 50; 1000; 200; 300; 30})"),
};

// ---- Checks: every formula validates its inputs here, against the table. -----------------------

/// The table's row of the formula function F: a formula's body finds its name, its arguments and their
/// checks there, so that each is written once, in the table. Found at compile time.
template <auto F> consteval std::size_t row_of() {
    for (std::size_t i = 0; i < kFormulas.size(); ++i)
        if (kFormulas[i].invoke == &invoke<F>) return i;
    throw "a formula function without a row in the table";  // not a constant expression: a compile error
}
template <auto F> const FormulaSpec& spec_of() {
    static constexpr std::size_t row = row_of<F>();
    return kFormulas[row];
}




/// Whether a number passes its argument's check: the test of every call, kept apart from the wording of
/// a refusal (refuse_number) and equivalent to it.
[[gnu::always_inline]] constexpr bool passes(const ArgSpec& a, double v) noexcept {
    if (!(v >= -std::numeric_limits<double>::max() && v <= std::numeric_limits<double>::max())) return false;  // NaN, inf
    switch (a.check) {
        case Check::finite: break;
        case Check::non_negative: if (v < 0) return false; break;
        case Check::positive: if (!(v > 0)) return false; break;
        // Whole: at or above 2^53 every double is; below it, the conversion to an integer is exact and defined.
        case Check::count: if (v < 1 || (v < 0x1p53 && v != static_cast<double>(static_cast<std::int64_t>(v)))) return false; break;
        case Check::fraction: if (!(v > 0) || v > 1) return false; break;
    }
    return v <= a.max;
}

/// An argument of a formula function as checked() takes it: a number, or a text (checked where it is
/// looked up). Lighter than a variant: checked() runs on every call.
struct Given {
    double number = 0;
    bool is_number = false;
    constexpr Given(double v) noexcept : number(v), is_number(true) {}  // NOLINT: implicit, in a braced list
    template <typename T>
        requires std::is_convertible_v<const T&, std::string_view>
    constexpr Given(const T&) noexcept {}  // NOLINT: implicit, in a braced list
};

/// Checks argument I of the formula of row `Row`: its check and limit read from the table at compile time.
template <std::size_t Row, std::size_t I> void check_given(const Given& v) {
    constexpr const ArgSpec& a = kFormulas[Row].args[I];
    if (v.is_number && !passes(a, v.number)) [[unlikely]] refuse_number(kFormulas[Row], a, v.number);
}

template <std::size_t Row, std::size_t... I>
void check_all(std::initializer_list<Given> values, std::index_sequence<I...>) {
    if (values.size() != sizeof...(I)) [[unlikely]]
        throw Error::of_call(Status::internal, kFormulas[Row].name, "", "checked with a wrong number of arguments");
    (check_given<Row, I>(values.begin()[I]), ...);
}

/// Checks the number arguments of the formula function F, given in its order, against its row of the
/// table (text ones are checked where they are looked up); returns the row.
template <auto F> const FormulaSpec& checked(std::initializer_list<Given> values) {
    static constexpr std::size_t row = row_of<F>();
    check_all<row>(values, std::make_index_sequence<kFormulas[row].args.size()>{});
    return kFormulas[row];
}

/// A result goes out only if it is a finite number.
inline double finite(const FormulaSpec& f, double v) {
    if (!std::isfinite(v)) [[unlikely]] too_large(f);
    return v;
}

// ---- Array results: the columns the table declares. ------------------------------------------------------------

/// The columns of an array formula's result or of a table argument, as its unit lists them ("a, b, c"), in order.
inline std::vector<std::string_view> columns_of(std::string_view unit) {
    std::vector<std::string_view> out;
    while (!unit.empty()) {
        const std::size_t comma = unit.find(", ");
        out.push_back(unit.substr(0, comma));
        unit = comma == std::string_view::npos ? std::string_view() : unit.substr(comma + 2);
    }
    return out;
}

/// An array formula's result, its columns those its row of the table declares: the result unit ("a, b, c") is the
/// one place for them, from which the header row, the C header's documentation check and the hosts read them. The
/// body writes its cells row by row; a row of any other width is refused (Status::internal), so that the body
/// cannot drift from the columns. Every number goes out finite (finite()).
class Rows {
public:
    /// Whether the result starts with the header row (the columns' names), as every table-like array does; the
    /// arrays of values (ROOFLINE_ROOF's points, ROOFLINE_GPUS' ids) have none.
    enum class Header { written, none };

    explicit Rows(const FormulaSpec& f, Header header = Header::written) : f_(f) {
        const std::vector<std::string_view> columns = columns_of(f.result_unit);
        table_.cols = columns.size();
        if (header == Header::none) return;
        for (std::string_view c : columns) table_.cells.emplace_back(std::string(c));
        table_.rows = 1;
    }

    /// Room for that many rows more.
    void reserve(std::size_t rows) { table_.cells.reserve(table_.cols * (table_.rows + rows)); }

    Rows& number(double v) {
        table_.cells.emplace_back(finite(f_, v));
        ++in_row_;
        return *this;
    }
    Rows& text(std::string v) {
        table_.cells.emplace_back(std::move(v));
        ++in_row_;
        return *this;
    }
    /// A number (finite) or a text.
    Rows& cell(std::variant<double, std::string> v) {
        if (const double* d = std::get_if<double>(&v)) return number(*d);
        return text(std::get<std::string>(std::move(v)));
    }
    /// Ends a row: refused unless it has a cell for each column.
    void end_row() {
        if (in_row_ != table_.cols) [[unlikely]]
            throw Error::of_call(Status::internal, f_.name, "",
                                 fmt::format("row {} has {} cells: the table declares {} columns ({})", table_.rows + 1,
                                             in_row_, table_.cols, f_.result_unit));
        in_row_ = 0;
        ++table_.rows;
    }
    /// The result: refused with a row left unfinished.
    Table done() && {
        if (in_row_ != 0) [[unlikely]]
            throw Error::of_call(Status::internal, f_.name, "", "a row left unfinished");
        return std::move(table_);
    }

private:
    const FormulaSpec& f_;
    Table table_;
    std::size_t in_row_ = 0;
};

}  // namespace
}  // namespace roofline::formula_table
