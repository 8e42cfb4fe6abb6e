// The formula table and the formula layer. See formulas.hpp.
#include "roofline/formulas.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <new>
#include <optional>
#include <string>
#include <utility>

#include "roofline/calibrate.hpp"
#include "roofline/catalog.hpp"
#include "roofline/defaults.hpp"
#include "roofline/dense.hpp"
#include "roofline/dtype.hpp"
#include "roofline/nearest.hpp"
#include "roofline/operators.hpp"
#include "roofline/per_thread.hpp"
#include "roofline/roofline.hpp"
#include "roofline/serving.hpp"
#include "roofline/units.hpp"

#include "ascii.hpp"
#include "config_text.hpp"

namespace roofline {
namespace {

constexpr double kNoMax = std::numeric_limits<double>::infinity();

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
constexpr ArgSpec renamed(ArgSpec arg, const char* name) {
    arg.name = name;
    return arg;
}

constexpr ArgSpec kFlops = number("flops", "FLOP", Check::non_negative,
    "Floating-point operations of the step, plain FLOP (16e9, not 16).",
    "这一步的浮点运算次数，单位 FLOP（写 16e9，不是 16）。");
constexpr ArgSpec kBytes = number("bytes", "bytes", Check::non_negative,
    "Bytes moved between memory and the chip in the step, plain bytes (16e9, not 16).",
    "这一步在显存与芯片之间搬运的字节数，单位字节（写 16e9，不是 16）。");
constexpr ArgSpec kTflops = number("tflops", "TFLOP/s", Check::positive,
    "Dense peak compute of the GPU, TFLOP/s (H100 SXM BF16: 989). Never the sparsity figure.",
    "GPU 的稠密峰值算力，TFLOPS（H100 SXM BF16 为 989）。不要用结构化稀疏的数字。");
constexpr ArgSpec kTbs = number("tbs", "TB/s", Check::positive,
    "Memory bandwidth of the GPU, TB/s = 1e12 bytes/s (H100 SXM: 3.35).",
    "GPU 的显存带宽，TB/s = 每秒 1e12 字节（H100 SXM 为 3.35）。");
constexpr ArgSpec kBwTbs = renamed(kTbs, "bw_tbs");
constexpr ArgSpec kAi = number("ai", "FLOP/byte", Check::non_negative,
    "Arithmetic intensity, FLOP per byte moved.",
    "算术强度，每搬运一个字节的浮点运算次数（FLOP/Byte）。");
constexpr ArgSpec kAiMin = optional(number("ai_min", "FLOP/byte", Check::positive,
    "Smallest arithmetic intensity of the chart, FLOP/byte (> 0).",
    "图表横轴最小的算术强度，FLOP/Byte（大于 0）。"), defaults::roof_ai_min);
constexpr ArgSpec kAiMax = optional(number("ai_max", "FLOP/byte", Check::positive,
    "Largest arithmetic intensity of the chart, FLOP/byte (above ai_min).",
    "图表横轴最大的算术强度，FLOP/Byte（须大于 ai_min）。"), defaults::roof_ai_max);
constexpr ArgSpec kPoints = with_max(optional(number("points", "rows", Check::count,
    "Rows of the array: points of the chart, log-spaced, 2 to 10000.",
    "数组的行数：图上的点数，按对数等距，2 到 10000。"), defaults::roof_points), defaults::roof_points_max);
constexpr ArgSpec kParamsB = number("params_b", "billions", Check::positive,
    "Parameters of the model, in billions (8 = 8e9 parameters).",
    "模型参数量，单位十亿（8 表示 80 亿个参数）。");
constexpr ArgSpec kBatch = number("batch", "sequences", Check::count,
    "Sequences decoded together in one step: the batch size, a whole number >= 1.",
    "同一步一起解码的序列数，即批大小，不小于 1 的整数。");
constexpr ArgSpec kCtx = number("ctx", "tokens", Check::non_negative,
    "Context of each sequence, tokens: how much KV cache each one reads (0: ignore KV).",
    "每个序列的上下文长度（token 数），决定它要读多少 KV Cache（0 表示不计 KV）。");
constexpr ArgSpec kKv = optional(number("kv_kib_per_token", "KiB/token", Check::non_negative,
    "KV cache per token, all layers, K and V together, KiB (8B GQA model: 128).",
    "每个 token 的 KV Cache，所有层、K 与 V 合计，KiB（8B GQA 模型为 128）。"),
    defaults::kv_kib_per_token_8b_gqa);
constexpr ArgSpec kBytesPerParam = optional(number("bytes_per_param", "bytes", Check::positive,
    "Bytes per weight: 2 for BF16, 1 for FP8 or INT8, 0.5 for INT4.",
    "每个权重的字节数：BF16 为 2，FP8 或 INT8 为 1，INT4 为 0.5。"), defaults::bf16_bytes_per_param);
constexpr ArgSpec kTokens = number("tokens", "tokens", Check::count,
    "Prompt tokens processed at once, a whole number >= 1.",
    "一次处理的输入 token 数，不小于 1 的整数。");
constexpr ArgSpec kMemGb = number("mem_gb", "GB", Check::positive,
    "GPU memory, GB = 1e9 bytes (H100 SXM: 80).",
    "GPU 显存容量，GB = 1e9 字节（H100 SXM 为 80）。");
constexpr ArgSpec kReserveGb = optional(number("reserve_gb", "GB", Check::non_negative,
    "Memory kept aside for activations and the runtime, GB.",
    "为激活值和运行时预留的显存，GB。"), defaults::reserve_gb);

constexpr ArgSpec kModel = text("model", "catalog id",
    "A model of the catalog, e.g. llama-3-8b (see ROOFLINE_MODELS()), or one a host program imported; or the "
    "text of a Hugging Face config.json (a text that starts with '{', e.g. a cell holding the file), read once "
    "and cached.",
    "目录中的模型编号，如 llama-3-8b（见 ROOFLINE_MODELS()），或宿主程序导入的模型；也可以是 Hugging Face "
    "config.json 的全文（以 '{' 开头的文本，如存放该文件内容的单元格），只解析一次并缓存。");
constexpr ArgSpec kGpu = text("gpu", "catalog id",
    "A GPU of the catalog, e.g. h100-sxm (see ROOFLINE_GPUS()).",
    "目录中的 GPU 编号，如 h100-sxm（见 ROOFLINE_GPUS()）。");
constexpr ArgSpec kGpuField = text("field", "field name",
    "A field of the GPU catalog: fp32_tflops, tf32_tflops, bf16_tflops, fp16_tflops, fp8_tflops, int8_tops, "
    "int4_tops, hbm_tbs, hbm_gb, l2_mb, interconnect_tbs, usd_per_gpu_hour (an example on-demand price; prices "
    "date quickly), fp4_tflops (dense NVFP4/MXFP4), scaleup_gpus (GPUs of one scale-up domain: 8 for a node, 72 "
    "for an NVL72 rack), scaleout_tbs (network TB/s per GPU beyond the domain), power_w (W per GPU).",
    "GPU 目录的字段：fp32_tflops、tf32_tflops、bf16_tflops、fp16_tflops、fp8_tflops、int8_tops、int4_tops、"
    "hbm_tbs、hbm_gb、l2_mb、interconnect_tbs、usd_per_gpu_hour（按需租用价格的示例；价格很快过时）、"
    "fp4_tflops（稠密 NVFP4/MXFP4 算力）、scaleup_gpus（一个纵向扩展域内的 GPU 数：单机 8，NVL72 机柜 72）、"
    "scaleout_tbs（域外每块 GPU 的网络带宽，TB/s）、power_w（每块 GPU 的功耗，W）。");
constexpr ArgSpec kModelField = text("field", "field name",
    "A field of the model catalog: params_b, active_params_b, params_b_reported, active_params_b_reported, layers, "
    "hidden, heads, kv_heads, head_dim, ffn, vocab, experts, experts_per_token, shared_experts, expert_ffn, "
    "kv_lora_rank, sliding_window, sliding_layers, kv_kib_per_token (at 2 bytes per value).",
    "模型目录的字段：params_b、active_params_b、params_b_reported、active_params_b_reported、layers、hidden、heads、"
    "kv_heads、head_dim、ffn、vocab、experts、experts_per_token、shared_experts、expert_ffn、kv_lora_rank、"
    "sliding_window、sliding_layers、kv_kib_per_token（按每个值 2 字节）。");
constexpr ArgSpec kWeightDtype = optional_text(text("weight_dtype", "dtype",
    "Format of the weights: native (the checkpoint's own formats, per module: the default), fp32, bf16, fp16, fp8, "
    "int8, int4, q8_0, q4_0, q4_k_m, nvfp4, mxfp4, fp8_block (block scales included).",
    "权重格式：native（检查点自身的格式，按模块区分；默认值）、fp32、bf16、fp16、fp8、int8、int4、q8_0、q4_0、q4_k_m、"
    "nvfp4、mxfp4、fp8_block（含分块缩放的开销）。"), defaults::weight_dtype);
constexpr ArgSpec kKvDtype = optional_text(text("kv_dtype", "dtype",
    "Format of the KV cache, as weight_dtype; empty or left out: bf16 (16 bits, as serving engines keep it "
    "unless told otherwise), whatever the weights' format.",
    "KV Cache 的格式，取值同 weight_dtype；留空或省略时为 bf16（16 位，推理引擎未另行指定时的做法），与权重格式无关。"),
    defaults::kv_dtype);
constexpr ArgSpec kTp = with_max(optional(number("tp", "GPUs", Check::count,
    "GPUs in tensor parallel: each holds 1/tp of the weights and the heads; two all-reduces per layer.",
    "张量并行的 GPU 数：每块持有 1/tp 的权重和注意力头；每层两次 all-reduce。"), 1), 1024);
constexpr ArgSpec kEp = with_max(optional(number("ep", "GPUs", Check::count,
    "Expert parallelism: the routed experts spread over ep of the tp GPUs (each expert in tensor parallel over "
    "tp / (pp x ep)), tokens sent to them and back (all-to-all); 1: experts in tensor parallel. A divisor of "
    "tp / pp.",
    "专家并行：路由专家分布在 tp 块 GPU 中的 ep 块上（每个专家再在 tp / (pp × ep) 块上张量并行），token 发往专家再收回"
    "（all-to-all）；1：专家按张量并行切分。须整除 tp / pp。"), 1), 1024);
constexpr ArgSpec kDpAttention = with_max(optional(number("dp_attention", "groups", Check::count,
    "Data-parallel attention: attention in dp_attention groups of tp / (pp x dp_attention) GPUs, each with its "
    "own sequences and their KV cache; 1: attention over all tp / pp GPUs. A divisor of tp / pp.",
    "数据并行注意力：注意力分成 dp_attention 组，每组 tp / (pp × dp_attention) 块 GPU，各自处理自己的序列并保存其 KV "
    "Cache；1：注意力在全部 tp / pp 块上张量并行。须整除 tp / pp。"), 1), 1024);
constexpr ArgSpec kPp = with_max(optional(number("pp", "stages", Check::count,
    "Pipeline parallelism: the layers in pp stages of tp / pp GPUs, the batch in pp micro-batches; 1: none. A "
    "divisor of tp.",
    "流水线并行：各层分成 pp 段，每段 tp / pp 块 GPU，批次分成 pp 个微批次；1：不用。须整除 tp。"), 1), 1024);
constexpr ArgSpec kProfile = optional_text(text("profile", "profile",
    "bound (the ideal roofline: a true lower bound), typical (fitted on serving engines' measurements), or one "
    "engine's: vllm, sglang, tensorrt-llm, llama.cpp; or a profile text, \"fit(...): bw=..., mfu=..., ...\" "
    "(docs/formulas.md, Profiles as text).",
    "bound（理想 Roofline，真正的下界）、typical（按各推理引擎的实测拟合），或某个引擎的：vllm、sglang、"
    "tensorrt-llm、llama.cpp；也可以是一段配置文本 \"fit(...): bw=..., mfu=..., ...\"（见 docs/formulas.md 的“配置文本”）。"), "bound");
constexpr ArgSpec kPromptTokens = number("prompt_tokens", "tokens", Check::count,
    "Tokens of each prompt, a whole number >= 1.",
    "每个提示的 token 数，不小于 1 的整数。");
constexpr ArgSpec kPrompts = optional(number("batch", "prompts", Check::count,
    "Prompts prefilled together, a whole number >= 1.",
    "一起做 Prefill 的提示个数，不小于 1 的整数。"), 1);
constexpr ArgSpec kMemUtil = optional(number("mem_util", "fraction", Check::fraction,
    "Fraction of the GPUs' memory that weights and KV cache may use, above 0 and at most 1.",
    "权重与 KV Cache 可用的显存比例，大于 0 且不超过 1。"), defaults::mem_util);

// The capacity planner's (docs/serving-model.md).
constexpr ArgSpec kOutputTokens = number("output_tokens", "tokens", Check::count,
    "Tokens of each answer, a whole number >= 2: the first comes from the prefill, the rest from decode steps.",
    "每个回答的 token 数，不小于 2 的整数：第一个来自 Prefill，其余来自逐步 Decode。");
constexpr ArgSpec kRps = number("rps", "requests/s", Check::positive,
    "The load to serve: requests per second, above 0.",
    "要承载的负载：每秒请求数，大于 0。");
constexpr ArgSpec kTtftMs = number("ttft_ms", "ms", Check::positive,
    "Target time to first token, ms (a mean, not a percentile).",
    "首 token 时间的目标，毫秒（均值，不是百分位数）。");
constexpr ArgSpec kTpotMs = number("tpot_ms", "ms", Check::positive,
    "Target time per output token after the first, ms (a mean, not a percentile).",
    "首 token 之后每个输出 token 的时间目标，毫秒（均值，不是百分位数）。");
constexpr ArgSpec kPlanProfile = optional_text(text("profile", "profile",
    "typical (the estimate: fitted efficiencies, queueing of prefills, memory reserved for the longest context) or "
    "bound (the ideal roofline, no queue: what no engine can beat); also one engine's (vllm, sglang, tensorrt-llm, "
    "llama.cpp), or a profile text, \"fit(...): bw=..., mfu=..., ...\" (docs/formulas.md, Profiles as text).",
    "typical（估计值：拟合的效率、Prefill 排队、按最长上下文预留显存）或 bound（理想 Roofline、无排队：任何引擎都"
    "无法超越）；也可用某个引擎的（vllm、sglang、tensorrt-llm、llama.cpp），或一段配置文本 \"fit(...): bw=..., mfu=..., ...\""
    "（见 docs/formulas.md 的“配置文本”）。"), "typical");
constexpr ArgSpec kPlanGpu = optional_text(text("gpu", "catalog ids",
    "The GPUs of the catalog to plan on, one or a list: \"h100-sxm\" or \"h100-sxm, h200, b200\" (',' ';' or a new "
    "line between them); empty or all: every GPU of the catalog.",
    "在目录中的这些 GPU 上规划，一种或一个列表：\"h100-sxm\" 或 \"h100-sxm, h200, b200\"（以 ',' ';' 或换行分隔）；"
    "留空或 all：目录中的全部 GPU。"), "all");
constexpr ArgSpec kPlanWeightDtype = optional_text(text("weight_dtype", "dtype",
    "One format of the weights (as in ROOFLINE_STEP_MS); empty or all: bf16, fp8 where the GPU has it (int8 where "
    "it has not), int4, and nvfp4 and mxfp4 where the GPU computes them.",
    "只用这一种权重格式（同 ROOFLINE_STEP_MS）；留空或 all：bf16、GPU 支持时的 fp8（不支持时为 int8）、int4，以及 GPU "
    "能直接计算时的 nvfp4 与 mxfp4。"), "all");
constexpr ArgSpec kPlanRows = optional_text(text("rows", "best or all",
    "best: for each GPU only the configurations that no other configuration of that GPU beats on both cost and "
    "TPOT; all: every feasible configuration.",
    "best：每种 GPU 只列出没有被同一 GPU 的其他配置在成本与 TPOT 上同时超过的配置；all：列出全部可行配置。"), "best");
constexpr ArgSpec kDisaggregated = with_max(optional(number("disaggregated", "0 or 1", Check::non_negative,
    "0: prefill and decode share each replica (chunked prefill); 1: separate prefill and decode pools, each sized "
    "for its own target.",
    "0：Prefill 与 Decode 共用每个副本（分块 Prefill）；1：Prefill 池与 Decode 池分开，各自按自己的目标配置。"), 0), 1);
constexpr ArgSpec kPrices = optional_text(text("prices", "USD per GPU-hour",
    "Prices that replace the catalog's, USD per GPU-hour, as a text: \"h100-sxm=2.49, a100-sxm-80gb=1.29\"; "
    "empty or catalog: the catalog's example prices.",
    "替换目录价格的 GPU 每小时价格（美元），写成文本：\"h100-sxm=2.49, a100-sxm-80gb=1.29\"；留空或 catalog：用目录中的"
    "示例价格。"),
    "catalog");
constexpr ArgSpec kUsdPerGpuHour = number("usd_per_gpu_hour", "USD/GPU-hour", Check::non_negative,
    "Price of one GPU for an hour, USD (ROOFLINE_GPU(gpu; \"usd_per_gpu_hour\") gives the catalog's example).",
    "一块 GPU 一小时的价格，美元（ROOFLINE_GPU(gpu; \"usd_per_gpu_hour\") 给出目录中的示例价格）。");
constexpr ArgSpec kGpus = number("gpus", "GPUs", Check::count,
    "GPUs paid for, a whole number >= 1.",
    "计费的 GPU 数，不小于 1 的整数。");
constexpr ArgSpec kOutputTokensPerS = number("output_tokens_per_s", "tokens/s", Check::positive,
    "Output tokens per second that those GPUs deliver together, above 0.",
    "这些 GPU 合计每秒输出的 token 数，大于 0。");
constexpr ArgSpec kAcceptance = with_max(number("acceptance", "probability", Check::non_negative,
    "Probability that the target model accepts a drafted token, 0 to 1 (each independently).",
    "目标模型接受一个草稿 token 的概率，0 到 1（相互独立）。"), 1);
constexpr ArgSpec kDraftLen = number("draft_len", "tokens", Check::count,
    "Tokens the draft model proposes before each target step, a whole number >= 1.",
    "每次目标模型验证之前草稿模型提出的 token 数，不小于 1 的整数。");
constexpr ArgSpec kDraftModel = text("draft_model", "catalog id",
    "The draft model of the catalog, e.g. llama-3.1-8b: it runs on the same GPUs in the same formats and tp as "
    "the target. Like model, it may be the text of a config.json; mtp: the target's own multi-token-prediction "
    "layers (DeepSeek, GLM, Qwen3.5), one step of them per drafted token.",
    "目录中的草稿模型，如 llama-3.1-8b：与目标模型在同样的 GPU 上、同样的格式与 tp 下运行。与 model "
    "一样，也可以是 config.json 的全文；mtp：目标模型自带的多 token 预测层（DeepSeek、GLM、Qwen3.5），每个草稿 token "
    "运行一次。");

constexpr ArgSpec kFormulaName = text("formula", "formula name",
    "The formula to explain, e.g. ROOFLINE_FIT_BATCH.",
    "要解释的公式名，如 ROOFLINE_FIT_BATCH。");
constexpr ArgSpec kArguments = rest("arguments", "numbers or texts",
    "The formula's arguments in its order, each a number or a text; trailing optional ones may be left out.",
    "该公式的参数，按其顺序，每个为数字或文本；末尾的可选参数可以省略。");

// Calibration's.
constexpr ArgSpec kMeasurements = table("measurements", "model, gpu, weight_dtype, kv_dtype, tp, batch, context, metric, value",
    "Measured rows, one per row of the range, columns in this order: model, gpu, weight_dtype, kv_dtype, tp, batch, "
    "context, metric (step_ms: one decode step of batch sequences at context tokens; ttft_ms: the prefill of batch "
    "prompts of context tokens), value (ms). A header row and empty rows are skipped; empty formats and tp take "
    "ROOFLINE_STEP_MS's defaults. At least 3 rows.",
    "实测数据，区域中每行一条，列依次为：model、gpu、weight_dtype、kv_dtype、tp、batch、context、metric（step_ms：batch "
    "个序列在 context 个 token 上下文下的一步 Decode；ttft_ms：batch 个长 context 个 token 的提示的 Prefill）、value（毫秒）。"
    "表头行与空行被跳过；格式与 tp 留空时取 ROOFLINE_STEP_MS 的默认值。至少 3 行。");
constexpr ArgSpec kBaseProfile = optional_text(text("base_profile", "profile",
    "The profile whose parameters the fit starts from and keeps where the rows do not tell them (typical, an "
    "engine's such as vllm, bound, or a profile text).",
    "拟合的起点配置；实测数据无法确定的参数保留它的值（typical、某个引擎的如 vllm、bound，或一段配置文本）。"), "typical");

constexpr std::array<ArgSpec, 0> kArgsNone{};
constexpr std::array kArgsCalibrate{kMeasurements, kBaseProfile};
constexpr std::array kArgsWhy{kFormulaName, kArguments};
constexpr std::array kArgsDecodeFlop{kParamsB, kBatch};
constexpr std::array kArgsGpu{kGpu, kGpuField};
constexpr std::array kArgsModel{kModel, kModelField};
constexpr std::array kArgsStep{kModel, kGpu, kBatch, kCtx, kWeightDtype, kKvDtype, kTp, kProfile, kEp, kDpAttention, kPp};
constexpr std::array kArgsTtft{kModel, kGpu, kPromptTokens, kPrompts, kWeightDtype, kTp, kProfile, kEp, kDpAttention, kPp};
constexpr std::array kArgsFit{kModel, kGpu, with_check(kCtx, Check::positive), kWeightDtype, kKvDtype, kTp, kMemUtil,
                              kEp, kDpAttention, kPp};
constexpr std::array kArgsCache{kModel, kBatch, kCtx, kKvDtype, kTp, kEp, kDpAttention, kPp};

constexpr std::array kArgsE2e{kModel, kGpu, kPromptTokens, kOutputTokens, kBatch, kWeightDtype, kKvDtype, kTp,
                              kPlanProfile, kMemUtil, kEp, kDpAttention, kPp};
constexpr std::array kArgsSloBatch{kModel, kGpu, kCtx, kTpotMs, kWeightDtype, kKvDtype, kTp, kPlanProfile, kMemUtil,
                                   kEp, kDpAttention, kPp};
constexpr std::array kArgsReplicaRps{kModel, kGpu, kPromptTokens, kOutputTokens, kTtftMs, kTpotMs, kWeightDtype,
                                     kKvDtype, kTp, kPlanProfile, kMemUtil, kEp, kDpAttention, kPp};
constexpr std::array kArgsPlan{kModel, kRps, kPromptTokens, kOutputTokens, kTtftMs, kTpotMs, kPlanGpu,
                               kPlanWeightDtype, kKvDtype, kPlanProfile, kDisaggregated, kPrices, kMemUtil, kPlanRows};
constexpr std::array kArgsCostPerMtok{kUsdPerGpuHour, kGpus, kOutputTokensPerS};
constexpr std::array kArgsSpecTokens{kAcceptance, kDraftLen};
constexpr std::array kArgsSpecStep{kModel, kDraftModel, kGpu, kBatch, kCtx, kDraftLen, kAcceptance, kWeightDtype,
                                   kKvDtype, kTp, kPlanProfile, kEp, kDpAttention, kPp};

constexpr std::array kArgsCompute{kFlops, kTflops};
constexpr std::array kArgsMemory{kBytes, kTbs};
constexpr std::array kArgsTime{kFlops, kBytes, kTflops, kTbs};
constexpr std::array kArgsAi{kFlops, with_check(kBytes, Check::positive)};
constexpr std::array kArgsBalance{kTflops, kTbs};
constexpr std::array kArgsAttainable{kAi, kTflops, kTbs};
constexpr std::array kArgsRoof{kTflops, kTbs, kAiMin, kAiMax, kPoints};
constexpr std::array kArgsDecode{kParamsB, kBatch, kCtx, kBwTbs,
                                 optional(kTflops, defaults::h100_sxm_bf16_dense_tflops), kKv,
                                 kBytesPerParam};
constexpr std::array kArgsDecodeAi{kParamsB, kBatch, kCtx, kKv, kBytesPerParam};
constexpr std::array kArgsCritical{kParamsB, kCtx, kTflops, kBwTbs, kKv, kBytesPerParam};
constexpr std::array kArgsPrefill{kParamsB, kTokens, kTflops, optional(kBwTbs, defaults::h100_sxm_hbm_tbs),
                                  kBytesPerParam};
constexpr std::array kArgsWeights{kParamsB, kBytesPerParam};
constexpr std::array kArgsKv{kBatch, kCtx, kKv};
constexpr std::array kArgsMaxBatch{kMemGb, kParamsB, with_check(kCtx, Check::positive),
                                   with_check(kKv, Check::positive), kBytesPerParam, kReserveGb};

// ---- Generic invocation: from a row of Args to a typed formula function. -----------------------

/// Argument `i` of a call as the function's parameter type; a span parameter takes the rest of them.
template <typename T> T arg_at(std::span<const Arg> a, std::size_t i);
template <> double arg_at<double>(std::span<const Arg> a, std::size_t i) { return std::get<double>(a[i].value); }
template <> std::string_view arg_at<std::string_view>(std::span<const Arg> a, std::size_t i) {
    return std::get<std::string>(a[i].value);
}
template <> std::span<const Arg> arg_at<std::span<const Arg>>(std::span<const Arg> a, std::size_t i) {
    return a.subspan(i);
}

Value to_value(double v) { return {v}; }
Value to_value(std::string_view v) { return {std::string(v)}; }
Value to_value(std::string v) { return {std::move(v)}; }
Value to_value(Table v) { return {std::move(v)}; }

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
                              std::size_t released_args = 0) {
    static_assert(N == fn_traits<decltype(F)>::arity, "the table must list every argument of the function");
    return {name, group, type_of<typename fn_traits<decltype(F)>::result>(), unit, en, zh,
            std::span<const ArgSpec>(args), &invoke<F>, example, released_args};
}

/// A formula that gained the layout arguments (ep, dp_attention, pp: 0.6) keeps its released typed C function
/// with the arguments before them.
template <std::size_t N> constexpr std::size_t before_layout(const std::array<ArgSpec, N>&) { return N - 3; }

constexpr const char* kPrimitives = "Roofline primitives";
constexpr const char* kDense = "Dense model from its parameter count";
constexpr const char* kCatalog = "Catalog and model-aware estimates";
constexpr const char* kPlanner = "Planner";
constexpr const char* kCalibration = "Calibration";
constexpr const char* kDiagnostics = "Why a formula fails";

// ---- The table. --------------------------------------------------------------------------------

constexpr std::array kFormulas{
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
        "FLOP, bytes, ms and what bounds it (one GPU of tp).",
        "ROOFLINE_TTFT_MS 的 Prefill 逐算子分解（含注意力）：一行表头，然后每行为算子、FLOP、字节数、毫秒、受什么限制"
        "（按 tp 中的一块 GPU）。",
        kArgsTtft, "ROOFLINE_TTFT_BREAKDOWN(\"llama-3-8b\"; \"h100-sxm\"; 2000)", before_layout(kArgsTtft)),
    formula<&formula::e2e_ms>("ROOFLINE_E2E_MS", kPlanner, "ms",
        "Latency of one request on a replica decoding batch sequences with chunked prefill: time to first token + "
        "(output_tokens - 1) x time per output token, ms.",
        "一个副本以分块 Prefill 方式同时解码 batch 个序列时，一个请求的端到端延迟：首 token 时间 + (output_tokens - 1) × "
        "每个输出 token 的时间，毫秒。",
        kArgsE2e, "ROOFLINE_E2E_MS(\"llama-3.1-70b\"; \"h100-sxm\"; 2000; 300; 32; \"fp8\"; \"\"; 4)", before_layout(kArgsE2e)),
    formula<&formula::slo_batch>("ROOFLINE_SLO_BATCH", kPlanner, "sequences",
        "The largest batch whose decode step at ctx tokens of context meets tpot_ms and fits in memory; an error "
        "where even one sequence is slower than tpot_ms.",
        "在 ctx 个 token 的上下文下，一步 Decode 满足 tpot_ms 且放得进显存的最大批大小；连一个序列都慢于 tpot_ms 时返回"
        "错误值。",
        kArgsSloBatch, "ROOFLINE_SLO_BATCH(\"llama-3.1-8b\"; \"h100-sxm\"; 4096; 20)", before_layout(kArgsSloBatch)),
    formula<&formula::replica_rps>("ROOFLINE_REPLICA_RPS", kPlanner, "requests/s",
        "Requests per second one replica of tp GPUs sustains within both targets (chunked prefill and decode on "
        "the same GPUs); an error naming the target that not even one request meets.",
        "一个由 tp 块 GPU 组成的副本在两个目标之内能承载的每秒请求数（Prefill 与 Decode 在同一组 GPU 上）；连一个请求都"
        "达不到某个目标时返回错误值并指出该目标。",
        kArgsReplicaRps,
        "ROOFLINE_REPLICA_RPS(\"llama-3.1-70b\"; \"h100-sxm\"; 2000; 300; 500; 50; \"fp8\"; \"\"; 4)", before_layout(kArgsReplicaRps)),
    formula<&formula::plan>("ROOFLINE_PLAN", kPlanner,
        "gpu, tp, weights, batch, replicas, prefill_tp, prefill_replicas, gpus, ttft_ms, tpot_ms, "
        "output_tok_s_per_gpu, usd_per_hour, usd_per_mtok, ep, dp_attention, pp",
        "The capacity plan for rps requests/s within both targets: a header row, then one row per feasible GPU, "
        "layout and weight format, cheapest first: batch, replicas, prefill pool (disaggregated), GPUs, TTFT and "
        "TPOT at full load, output tokens/s per GPU, USD per hour and per million output tokens (\"\" without a "
        "price), and the replica's layout (ep, dp_attention, pp).",
        "在两个目标之内承载每秒 rps 个请求的容量规划：一行表头，然后每个可行的 GPU、并行布局与权重格式一行，最便宜的在前："
        "批大小、副本数、Prefill 池（分离部署时）、GPU 总数、满载时的首 token 时间与每 token 时间、每块 GPU 每秒输出 "
        "token 数、每小时美元与每百万输出 token 美元（无价格时为 \"\"），以及副本的并行布局（ep、dp_attention、pp）。",
        kArgsPlan, "ROOFLINE_PLAN(\"llama-3.1-70b\"; 100; 2000; 300; 500; 50)", kArgsPlan.size() - 1),
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
        "\"fit(typical; n=12; mdape=2.0%; loo=4.1%): bw=0.83, mfu=0.61, ...\" (its rows, its median error on them "
        "and in leave-one-out, then the parameters). No answer where the rows are too few.",
        "按你的实测数据拟合出的配置，以文本给出，所有公式的 profile 参数都接受它：\"fit(typical; n=12; mdape=2.0%; "
        "loo=4.1%): bw=0.83, mfu=0.61, ...\"（行数、在这些行上与留一法下的中位误差，然后是各参数）。数据行太少时无结果。",
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

/// A formula's argument by its name.
const ArgSpec& arg_named(const FormulaSpec& f, std::string_view name) {
    for (const ArgSpec& a : f.args)
        if (name == a.name) return a;
    throw Error::of_call(Status::internal, f.name, "", fmt::format("the table lists no argument {}", name));
}

/// Refuses a number outside its argument's domain: "must be <must_be> (got <value>)".
[[noreturn]] void out_of_domain(const FormulaSpec& f, const ArgSpec& a, double value, std::string_view must_be) {
    throw Error::of_argument(Status::invalid_argument, f.name, a.name,
                             fmt::format("must be {} (got {})", must_be, value));
}

/// Refuses a number that fails its argument's check, saying why.
[[noreturn, gnu::cold, gnu::noinline]] void refuse_number(const FormulaSpec& f, const ArgSpec& a, double v) {
    if (std::isnan(v)) out_of_domain(f, a, v, "a number");
    if (std::isinf(v)) out_of_domain(f, a, v, "finite");
    switch (a.check) {
        case Check::finite: break;
        case Check::non_negative: if (v < 0) out_of_domain(f, a, v, "zero or more"); break;
        case Check::positive: if (!(v > 0)) out_of_domain(f, a, v, "greater than zero"); break;
        case Check::count: if (v < 1 || v != std::floor(v)) out_of_domain(f, a, v, "a whole number >= 1"); break;
        case Check::fraction: if (!(v > 0) || v > 1) out_of_domain(f, a, v, "above 0 and at most 1"); break;
    }
    if (v > a.max) out_of_domain(f, a, v, fmt::format("at most {}", a.max));
    throw Error::of_call(Status::internal, f.name, a.name, "a number refused for no reason");
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
[[noreturn, gnu::cold, gnu::noinline]] void too_large(const FormulaSpec& f) {
    throw Error::of_call(Status::out_of_range, f.name, "", "the result is too large to represent");
}
inline double finite(const FormulaSpec& f, double v) {
    if (!std::isfinite(v)) [[unlikely]] too_large(f);
    return v;
}

DenseModel dense(double params_b, double bytes_per_param, double kv_kib_per_token) {
    return {params_b, bytes_per_param, kv_kib_per_token};
}

using ascii::iequals;

}  // namespace

std::span<const FormulaSpec> formulas() noexcept { return kFormulas; }

namespace {

/// A hash of a formula name that ignores the case of its letters: its length and four letters after
/// "ROOFLINE_" (cheap, and enough to tell the table's names apart).
constexpr std::size_t name_hash(std::string_view name) noexcept {
    if (name.empty()) return 0;
    auto at = [&](std::size_t i) {
        const char c = name[std::min(i, name.size() - 1)];
        return static_cast<std::uint64_t>(static_cast<unsigned char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c));
    };
    const std::uint64_t h = (name.size() * 0x9E3779B97F4A7C15ull) ^ (at(9) << 8) ^ (at(name.size() / 2) << 16) ^
                            (at(name.size() - 2) << 24) ^ (at(name.size() - 1) << 32);
    return static_cast<std::size_t>((h * 0xBF58476D1CE4E5B9ull) >> 32);
}

/// The table's rows by the hash of their names, open addressing, built at compile time.
constexpr std::size_t kNameSlots = [] {
    std::size_t n = 16;
    while (n < 4 * kFormulas.size()) n *= 2;
    return n;
}();
constexpr auto kNameIndex = [] {
    std::array<std::size_t, kNameSlots> slots{};
    for (auto& s : slots) s = kFormulas.size();  // empty
    for (std::size_t i = 0; i < kFormulas.size(); ++i) {
        std::size_t h = name_hash(kFormulas[i].name);
        while (slots[h % kNameSlots] != kFormulas.size()) ++h;
        slots[h % kNameSlots] = i;
    }
    return slots;
}();

}  // namespace

const FormulaSpec* find_formula(std::string_view name) noexcept {
    for (std::size_t h = name_hash(name);; ++h) {
        const std::size_t i = kNameIndex[h % kNameSlots];
        if (i == kFormulas.size()) return nullptr;
        if (iequals(kFormulas[i].name, name)) return &kFormulas[i];
    }
}

std::string c_function_name(std::string_view formula_name) {
    std::string s(formula_name);
    for (char& c : s)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return s;
}

std::string default_string(const ArgSpec& arg) {
    if (!arg.optional || arg.type == Type::rest) return {};
    if (arg.type == Type::text) return arg.default_text;
    return fmt::format("{}", arg.default_number);
}

std::string signature(const FormulaSpec& formula) {
    std::vector<std::string> args;
    for (const ArgSpec& a : formula.args)
        args.push_back(a.type == Type::rest ? fmt::format("{}...", a.name)
                       : a.optional       ? fmt::format("[{}={}]", a.name, default_string(a))
                                          : std::string(a.name));
    return fmt::format("{}({})", formula.name, fmt::join(args, "; "));
}

Value call(std::string_view name, std::span<const Arg> args) {
    const FormulaSpec* f = find_formula(name);
    if (!f) {
        std::vector<std::string_view> names;
        for (const FormulaSpec& known : kFormulas) names.emplace_back(known.name);
        throw Error::of_call(Status::unknown_formula, "", "",
                             fmt::format("no formula named '{}'{}", name, suggestion(name, names)));
    }
    // A `rest` argument, always the last, takes every argument from its place on.
    const bool takes_rest = !f->args.empty() && f->args.back().type == Type::rest;
    const std::span<const ArgSpec> fixed = takes_rest ? f->args.first(f->args.size() - 1) : f->args;
    const std::size_t required = static_cast<std::size_t>(
        std::count_if(fixed.begin(), fixed.end(), [](const ArgSpec& a) { return !a.optional; }));
    if (args.size() < required || (!takes_rest && args.size() > fixed.size()))
        throw Error::of_call(Status::wrong_arity, f->name, "",
                             takes_rest                  ? fmt::format("takes at least {} argument{} (got {})", required,
                                                                       required == 1 ? "" : "s", args.size())
                             : required == fixed.size() ? fmt::format("takes {} arguments (got {})", required, args.size())
                                                         : fmt::format("takes {} to {} arguments (got {})", required,
                                                                       fixed.size(), args.size()));
    for (std::size_t i = 0; i < fixed.size() && i < args.size(); ++i) {
        const ArgSpec& a = fixed[i];
        const bool is_text = std::holds_alternative<std::string>(args[i].value);
        if (is_text != passed_as_text(a.type))
            throw Error::of_argument(Status::invalid_argument, f->name, a.name,
                                     a.type == Type::text    ? "must be a text"
                                     : a.type == Type::table ? "must be a table (a range of cells, as a text)"
                                                             : "must be a number");
    }
    // Every argument given: the formula reads them where they are.
    if (args.size() >= fixed.size()) return f->invoke(args);
    // Trailing optional arguments left out: their defaults from the table.
    struct Default {  // made where the list keeps it: no copy of its text
        const ArgSpec& a;
        operator Arg() const {  // NOLINT: implicit, for ArgList::push_back
            if (a.type == Type::text)
                return Arg{std::variant<double, std::string>(std::in_place_type<std::string>, a.default_text)};
            return Arg{a.default_number};
        }
    };
    ArgList full(fixed.size());
    for (std::size_t i = 0; i < fixed.size(); ++i) {
        if (i < args.size()) full.push_back(args[i]);
        else full.push_back(Default{fixed[i]});
    }
    return f->invoke(full.view());
}

Table table_from_text(std::string_view text) {
    Table t;
    std::vector<std::vector<std::variant<double, std::string>>> rows;
    if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    if (text.empty()) return t;
    for (std::string_view rest = text;;) {
        const std::size_t nl = rest.find('\n');
        std::string_view line = rest.substr(0, nl);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        auto& row = rows.emplace_back();
        for (std::string_view cells = line;;) {
            const std::size_t tab = cells.find('\t');
            const std::string_view cell = cells.substr(0, tab);
            double v = 0;
            const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), v);
            if (!cell.empty() && ec == std::errc() && end == cell.data() + cell.size()) row.emplace_back(v);
            else row.emplace_back(std::string(cell));
            if (tab == std::string_view::npos) break;
            cells.remove_prefix(tab + 1);
        }
        t.cols = std::max(t.cols, row.size());
        if (nl == std::string_view::npos) break;
        rest.remove_prefix(nl + 1);
    }
    t.rows = rows.size();
    t.cells.reserve(t.rows * t.cols);
    for (auto& row : rows) {
        for (auto& cell : row) t.cells.push_back(std::move(cell));
        for (std::size_t c = row.size(); c < t.cols; ++c) t.cells.emplace_back(std::string());
    }
    return t;
}

std::string table_text(const Table& table, std::string_view argument) {
    std::string out;
    for (std::size_t r = 0; r < table.rows; ++r) {
        for (std::size_t c = 0; c < table.cols; ++c) {
            const auto& cell = table.cells[r * table.cols + c];
            if (c) out += '\t';
            if (const double* d = std::get_if<double>(&cell)) {
                out += fmt::format("{}", *d);
            } else {
                const std::string& s = std::get<std::string>(cell);
                if (s.find_first_of("\t\r\n") != std::string::npos)
                    throw Error::of_argument(Status::invalid_argument, "", std::string(argument),
                                             fmt::format("row {}, cell {}: a text with a tab or a line break", r + 1, c + 1));
                out += s;
            }
        }
        if (r + 1 < table.rows) out += '\n';
    }
    return out;
}

namespace formula {

// ---- Roofline primitives. ----------------------------------------------------------------------

double compute_ms(double flops, double tflops) {
    const auto& f = checked<&compute_ms>({flops, tflops});
    return finite(f, compute_time_ms(flops, tflops));
}

double memory_ms(double bytes, double tbs) {
    const auto& f = checked<&memory_ms>({bytes, tbs});
    return finite(f, memory_time_ms(bytes, tbs));
}

double time_ms(double flops, double bytes, double tflops, double tbs) {
    const auto& f = checked<&time_ms>({flops, bytes, tflops, tbs});
    return finite(f, step_time({flops, bytes}, {tflops, tbs}).time_ms);
}

double ai(double flops, double bytes) {
    const auto& f = checked<&ai>({flops, bytes});
    return finite(f, arithmetic_intensity({flops, bytes}));
}

double balance(double tflops, double tbs) {
    const auto& f = checked<&balance>({tflops, tbs});
    return finite(f, balance_point({tflops, tbs}));
}

double attainable_tflops(double ai, double tflops, double tbs) {
    const auto& f = checked<&attainable_tflops>({ai, tflops, tbs});
    return finite(f, roofline::attainable_tflops(ai, Gpu{tflops, tbs}));
}

std::string_view bound(double flops, double bytes, double tflops, double tbs) {
    const auto& f = checked<&bound>({flops, bytes, tflops, tbs});
    const StepTime t = step_time({flops, bytes}, {tflops, tbs});
    finite(f, t.time_ms);
    return to_string(t.bound);
}

Table roof(double tflops, double tbs, double ai_min, double ai_max, double points) {
    const auto& f = checked<&roof>({tflops, tbs, ai_min, ai_max, points});
    if (!(ai_max > ai_min))
        out_of_domain(f, arg_named(f, "ai_max"), ai_max, fmt::format("greater than ai_min ({})", ai_min));
    if (points < 2) out_of_domain(f, arg_named(f, "points"), points, "at least 2");
    Table t;
    t.cols = 2;
    for (const RoofPoint& p : roofline::roof({tflops, tbs}, ai_min, ai_max, static_cast<int>(points))) {
        t.cells.emplace_back(finite(f, p.ai));
        t.cells.emplace_back(finite(f, p.attainable_tflops));
        ++t.rows;
    }
    return t;
}

// ---- Dense model from its parameter count. -----------------------------------------------------

double decode_ms(double params_b, double batch, double ctx, double bw_tbs, double tflops,
                 double kv_kib_per_token, double bytes_per_param) {
    const auto& f = checked<&decode_ms>({params_b, batch, ctx, bw_tbs, tflops, kv_kib_per_token, bytes_per_param});
    const Work w = decode_work(dense(params_b, bytes_per_param, kv_kib_per_token), batch, ctx);
    return finite(f, step_time(w, {tflops, bw_tbs}).time_ms);
}

double decode_toks(double params_b, double batch, double ctx, double bw_tbs, double tflops,
                   double kv_kib_per_token, double bytes_per_param) {
    const auto& f = checked<&decode_toks>({params_b, batch, ctx, bw_tbs, tflops, kv_kib_per_token, bytes_per_param});
    const Work w = decode_work(dense(params_b, bytes_per_param, kv_kib_per_token), batch, ctx);
    const double step_ms = finite(f, step_time(w, {tflops, bw_tbs}).time_ms);
    return finite(f, batch / units::seconds_from_ms(step_ms));
}

double decode_ai(double params_b, double batch, double ctx, double kv_kib_per_token, double bytes_per_param) {
    const auto& f = checked<&decode_ai>({params_b, batch, ctx, kv_kib_per_token, bytes_per_param});
    const Work w = decode_work(dense(params_b, bytes_per_param, kv_kib_per_token), batch, ctx);
    finite(f, w.flops);
    return finite(f, arithmetic_intensity(w));
}

double decode_flop(double params_b, double batch) {
    const auto& f = checked<&decode_flop>({params_b, batch});
    return finite(f, decode_work(dense(params_b, defaults::bf16_bytes_per_param, 0), batch, 0).flops);
}

double decode_bytes(double params_b, double batch, double ctx, double kv_kib_per_token, double bytes_per_param) {
    const auto& f = checked<&decode_bytes>({params_b, batch, ctx, kv_kib_per_token, bytes_per_param});
    return finite(f, decode_work(dense(params_b, bytes_per_param, kv_kib_per_token), batch, ctx).bytes);
}

double critical_batch(double params_b, double ctx, double tflops, double bw_tbs, double kv_kib_per_token,
                      double bytes_per_param) {
    const auto& f = checked<&critical_batch>({params_b, ctx, tflops, bw_tbs, kv_kib_per_token, bytes_per_param});
    const CriticalBatch c =
        roofline::critical_batch(dense(params_b, bytes_per_param, kv_kib_per_token), ctx, {tflops, bw_tbs});
    if (!c.reachable)
        throw Error::of_call(Status::no_solution, f.name, "ctx",
                             fmt::format("no batch is compute bound: with ctx = {} tokens of {} KiB each, every "
                                         "sequence adds more memory time than compute time",
                                         ctx, kv_kib_per_token));
    return finite(f, c.batch);
}

double prefill_ms(double params_b, double tokens, double tflops, double bw_tbs, double bytes_per_param) {
    const auto& f = checked<&prefill_ms>({params_b, tokens, tflops, bw_tbs, bytes_per_param});
    const Work w = prefill_work(dense(params_b, bytes_per_param, 0), tokens);
    return finite(f, step_time(w, {tflops, bw_tbs}).time_ms);
}

double weights_gb(double params_b, double bytes_per_param) {
    const auto& f = checked<&weights_gb>({params_b, bytes_per_param});
    return finite(f, units::gb_from_bytes(weight_bytes(dense(params_b, bytes_per_param, 0))));
}

double kv_gb(double batch, double ctx, double kv_kib_per_token) {
    const auto& f = checked<&kv_gb>({batch, ctx, kv_kib_per_token});
    return finite(f, units::gb_from_bytes(kv_bytes(dense(0, 0, kv_kib_per_token), batch, ctx)));
}

double max_batch(double mem_gb, double params_b, double ctx, double kv_kib_per_token, double bytes_per_param,
                 double reserve_gb) {
    const auto& f = checked<&max_batch>({mem_gb, params_b, ctx, kv_kib_per_token, bytes_per_param, reserve_gb});
    const DenseModel m = dense(params_b, bytes_per_param, kv_kib_per_token);
    const MemoryFit fit = roofline::max_batch(m, mem_gb, ctx, reserve_gb);
    if (!fit.weights_fit)
        throw Error::of_call(Status::no_solution, f.name, "mem_gb",
                             fmt::format("the weights ({} GB) and the reserve ({} GB) do not fit in mem_gb = {} GB",
                                         units::gb_from_bytes(weight_bytes(m)), reserve_gb, mem_gb));
    return finite(f, fit.batch);
}

// ---- Catalog and model-aware estimates. -----------------------------------------------------------

namespace {

/// An id that names nothing: the error of the argument, its reason worded by nearest.hpp (suggestion included).
[[noreturn]] void unknown_id(const FormulaSpec& f, const char* arg, std::string reason) {
    throw Error::of_argument(Status::unknown_id, f.name, arg, std::move(reason));
}

/// An id of a short closed list: "no <kind> '<id>' (<a, b, c>); did you mean ...?"
[[noreturn]] void unknown_choice(const FormulaSpec& f, const char* arg, std::string_view kind, std::string_view id,
                                 const std::vector<std::string>& known) {
    unknown_id(f, arg, roofline::unknown_choice(kind, id, known));
}

/// The model of the argument `arg` ("model", "draft_model"), not copied: the catalog's entry of that id, or
/// where the text is a config.json (its first non-space character '{') the model read from it, cached
/// (config_text.hpp). A config text is never looked up as an id, an id never read as JSON.
std::shared_ptr<const ModelSpec> model_entry_of(const FormulaSpec& f, std::string_view id, const char* arg = "model") {
    if (config_text::is_config(id)) {
        try {
            return config_text::model(id, arg);
        } catch (const Error& e) {  // the importer's error, which names its argument but no formula
            if (!e.where().empty()) throw;
            throw Error::of_argument(e.status(), f.name, e.argument(), e.reason());
        }
    }
    if (auto m = model_entry(id)) return m;
    unknown_id(f, arg, unknown_catalog_id("model", id, model_ids()));
}

/// The same, copied.
ModelSpec model_of(const FormulaSpec& f, std::string_view id, const char* arg = "model") {
    return *model_entry_of(f, id, arg);
}

/// The draft of ROOFLINE_SPEC_STEP_MS's draft_model "mtp": the model's MTP layers, or why there are none.
ModelSpec mtp_draft_of(const FormulaSpec& f, const ModelSpec& target) {
    if (!(target.mtp_layers > 0))
        throw Error::of_argument(Status::invalid_argument, f.name, "draft_model",
                                 fmt::format("'mtp': '{}' has no multi-token-prediction layers (config.json's "
                                             "num_nextn_predict_layers or mtp_num_hidden_layers)", target.id));
    return mtp_draft(target);
}

GpuSpec gpu_of(const FormulaSpec& f, std::string_view id) {
    if (auto g = find_gpu(id)) return *g;
    unknown_id(f, "gpu", unknown_catalog_id("GPU", id, gpu_ids()));
}

/// An optional text argument: empty means its default from the table (every host's "left out").
std::string_view or_default(const FormulaSpec& f, const char* arg, std::string_view text) {
    if (!text.empty()) return text;
    const ArgSpec& a = arg_named(f, arg);
    return a.optional && a.default_text ? std::string_view(a.default_text) : text;
}

DType dtype_of(const FormulaSpec& f, const char* arg, std::string_view name) {
    name = or_default(f, arg, name);
    if (auto d = parse_dtype(name)) return *d;
    std::vector<std::string> known = dtype_names();
    if (std::string_view(arg) == "weight_dtype") known.insert(known.begin(), "native");
    unknown_choice(f, arg, "dtype", name, known);
}

const Profile& profile_of(const FormulaSpec& f, std::string_view name, const char* arg = "profile") {
    name = or_default(f, arg, name);
    const Profile* p = nullptr;
    try {
        p = find_profile(name);
    } catch (const Error& e) {  // a malformed profile text: the error names its parameter, but no formula
        if (!e.where().empty()) throw;
        throw Error::of_argument(e.status(), f.name, arg, e.reason());
    }
    if (p) return *p;
    unknown_choice(f, arg, "profile", name, profile_names());
}

/// A deployment whose model and GPU are the catalog's entries themselves, held, not copied.
struct Deployed {
    std::shared_ptr<const ModelSpec> model;
    std::shared_ptr<const GpuSpec> gpu;
    DeploymentRef ref;
};

/// The catalog's entry of a GPU, not copied; where there is none, gpu_of() says why.
std::shared_ptr<const GpuSpec> gpu_entry_of(const FormulaSpec& f, std::string_view id) {
    if (auto g = gpu_entry(id)) return g;
    return std::make_shared<const GpuSpec>(gpu_of(f, id));
}

/// Refuses a layout that cannot hold the model (operators.hpp, layout_problem), naming its argument.
void check_layout(const FormulaSpec& f, const ModelSpec& m, double tp, const Layout& layout) {
    if (layout.trivial()) {
        if (tp == 1 ? m.heads != std::floor(m.heads) : std::fmod(m.heads, tp) != 0)  // fmod(h, 1): h's fraction
            out_of_domain(f, arg_named(f, "tp"), tp, fmt::format("a divisor of the model's {} attention heads", m.heads));
        return;
    }
    const std::string problem = layout_problem(m, tp, layout);
    if (problem.empty()) return;
    const std::size_t colon = problem.find(": ");
    throw Error::of_argument(Status::invalid_argument, f.name, arg_named(f, problem.substr(0, colon)).name,
                             problem.substr(colon + 2));
}

/// What deployed() resolved last on the calling thread, and from what. A spreadsheet's cells, and a sweep from
/// C, pass the same model, GPU and formats call after call; resolving them (the catalog's lookups, the formats'
/// names, the layout's checks) was a third of a STEP_MS call. A hit needs the same formula (whose defaults fill
/// left-out texts), the same texts, tp and layout, and a catalog that no host changed since
/// (catalog_generation()). Only successes are kept: a refused call resolves again, and says why, every time.
struct LastDeployed {
    const FormulaSpec* f = nullptr;
    std::string model, gpu, weight_dtype, kv_dtype;
    double tp = 0;
    Layout layout;
    std::uint64_t generation = 0;
    std::optional<Deployed> deployed;

    bool holds(const FormulaSpec& f_, std::string_view model_, std::string_view gpu_, std::string_view weight_dtype_,
               std::string_view kv_dtype_, double tp_, const Layout& layout_) const noexcept {
        return deployed && f == &f_ && tp == tp_ && layout.ep == layout_.ep && layout.dp_attention == layout_.dp_attention &&
               layout.pp == layout_.pp && model == model_ && gpu == gpu_ && weight_dtype == weight_dtype_ &&
               kv_dtype == kv_dtype_ && generation == catalog_generation();
    }
};

Deployed resolve_deployment(const FormulaSpec& f, std::string_view model, std::string_view gpu,
                            std::string_view weight_dtype, std::string_view kv_dtype, double tp, const Layout& layout);

/// The model on the GPU in these dtypes over `tp` GPUs in that layout, every text argument resolved and checked.
Deployed deployed(const FormulaSpec& f, std::string_view model, std::string_view gpu, std::string_view weight_dtype,
                  std::string_view kv_dtype, double tp, const Layout& layout) {
    LastDeployed& last = per_thread<LastDeployed, LastDeployed>();
    if (last.holds(f, model, gpu, weight_dtype, kv_dtype, tp, layout)) return *last.deployed;
    const std::uint64_t generation = catalog_generation();  // before the lookups: a change during them misses next time
    Deployed d = resolve_deployment(f, model, gpu, weight_dtype, kv_dtype, tp, layout);
    last.deployed.reset();
    last.f = &f;
    last.model.assign(model);
    last.gpu.assign(gpu);
    last.weight_dtype.assign(weight_dtype);
    last.kv_dtype.assign(kv_dtype);
    last.tp = tp;
    last.layout = layout;
    last.generation = generation;
    last.deployed.emplace(d);
    return d;
}

Deployed resolve_deployment(const FormulaSpec& f, std::string_view model, std::string_view gpu,
                            std::string_view weight_dtype, std::string_view kv_dtype, double tp, const Layout& layout) {
    auto m = model_entry_of(f, model);
    auto g = gpu_entry_of(f, gpu);
    // An empty format is the argument's default (or_default): kv_dtype 16 bits, whatever the weights' format.
    // "native": the checkpoint's own formats, per module (the default).
    const bool native = ascii::iequals(or_default(f, "weight_dtype", weight_dtype), "native");
    const DType weights = native ? m->native_linear : dtype_of(f, "weight_dtype", weight_dtype);
    const DType kv = dtype_of(f, "kv_dtype", kv_dtype);
    check_layout(f, *m, tp, layout);
    if (tp > 1 && !(g->interconnect_tbs > 0))
        out_of_domain(f, arg_named(f, "tp"), tp, fmt::format("1: the catalog has no interconnect bandwidth for '{}'", g->id));
    if (tp > g->scaleup_gpus && !(g->scaleout_tbs > 0))
        out_of_domain(f, arg_named(f, "tp"), tp,
                      fmt::format("at most {}, the scale-up domain of '{}': the catalog has no network bandwidth for it",
                                  g->scaleup_gpus, g->id));
    DeploymentRef ref = native ? DeploymentRef::native(*m, *g, kv, tp) : DeploymentRef{*m, *g, weights, kv, tp};
    ref.layout = layout;
    return {std::move(m), std::move(g), ref};
}

/// The same as a Deployment of its own (copies of the entries), for what keeps one.
Deployment deployment(const FormulaSpec& f, std::string_view model, std::string_view gpu, std::string_view weight_dtype,
                      std::string_view kv_dtype, double tp, const Layout& layout) {
    const Deployed d = deployed(f, model, gpu, weight_dtype, kv_dtype, tp, layout);
    Deployment out{d.ref.model, d.ref.gpu, d.ref.weights, d.ref.kv, d.ref.tp};
    out.experts = d.ref.experts;
    out.embedding = d.ref.embedding;
    out.layout = layout;
    return out;
}

/// The operator list of the calling thread's formula calls: its memory is reused from call to call.
std::vector<Operator>& operator_scratch() {
    struct Scratch;
    return per_thread<Scratch, std::vector<Operator>>();
}

Table column(const std::vector<std::string>& ids) {
    Table t;
    t.cols = 1;
    for (const auto& id : ids) t.cells.emplace_back(id);
    t.rows = ids.size();
    return t;
}

/// An array formula's header row: the columns its table entry declares ("a, b, c", the result unit), in order:
/// one place for an array's columns.
Table with_header(const FormulaSpec& f) {
    Table t;
    std::string_view columns = f.result_unit;
    while (!columns.empty()) {
        const std::size_t comma = columns.find(", ");
        t.cells.emplace_back(std::string(columns.substr(0, comma)));
        columns = comma == std::string_view::npos ? std::string_view() : columns.substr(comma + 2);
    }
    t.cols = t.cells.size();
    return t;
}

/// The operators of a step as a table: a header row, then one row per operator (overhead included).
Table breakdown(const FormulaSpec& f, std::vector<Operator>& ops, const GpuSpec& gpu, const Profile& profile) {
    finite(f, estimate(ops, gpu, profile));
    Table t = with_header(f);
    for (const Operator& op : ops) {
        t.cells.emplace_back(std::string(op.name));
        t.cells.emplace_back(finite(f, op.flops));
        t.cells.emplace_back(finite(f, op.bytes + op.link_bytes));
        t.cells.emplace_back(finite(f, op.ms));
        t.cells.emplace_back(std::string(to_string(op.bound)));
    }
    t.rows = ops.size() + 1;
    return t;
}

/// Where a spreadsheet user finds the ids an argument takes (ROOFLINE_WHY points there).
constexpr std::pair<std::string_view, std::string_view> kIdListings[] = {
    {"model", "ROOFLINE_MODELS()"}, {"draft_model", "ROOFLINE_MODELS()"}, {"gpu", "ROOFLINE_GPUS()"},
    {"prices", "ROOFLINE_GPUS()"}};

}  // namespace

Table gpus() { return column(gpu_ids()); }
Table models() { return column(model_ids()); }

double gpu(std::string_view gpu, std::string_view field) {
    const auto& f = spec_of<&formula::gpu>();
    const GpuSpec g = gpu_of(f, gpu);
    const auto v = gpu_field(g, field);
    if (!v) unknown_choice(f, "field", "field of the GPU catalog", field, gpu_field_names());
    if (!(*v > 0))
        throw Error::of_call(Status::no_solution, f.name, "field",
                             fmt::format("the catalog has no {} for '{}' (the GPU lacks it, or it is not published)",
                                         field, g.id));
    return finite(f, *v);
}

double model(std::string_view model, std::string_view field) {
    const auto& f = spec_of<&formula::model>();
    const ModelSpec m = model_of(f, model);
    const auto v = model_field(m, field);
    if (!v) unknown_choice(f, "field", "field of the model catalog", field, model_field_names());
    return finite(f, *v);
}

double step_ms(std::string_view model, std::string_view gpu, double batch, double ctx, std::string_view weight_dtype,
               std::string_view kv_dtype, double tp, std::string_view profile, double ep, double dp_attention, double pp) {
    const auto& f = checked<&step_ms>({model, gpu, batch, ctx, weight_dtype, kv_dtype, tp, profile, ep, dp_attention, pp});
    const Deployed d = deployed(f, model, gpu, weight_dtype, kv_dtype, tp, {ep, dp_attention, pp});
    auto& ops = operator_scratch();
    decode_operators(d.ref, batch, ctx, ops);
    return finite(f, estimate(ops, *d.gpu, profile_of(f, profile)));
}

double step_toks(std::string_view model, std::string_view gpu, double batch, double ctx,
                 std::string_view weight_dtype, std::string_view kv_dtype, double tp, std::string_view profile, double ep, double dp_attention, double pp) {
    const auto& f = checked<&step_toks>({model, gpu, batch, ctx, weight_dtype, kv_dtype, tp, profile, ep, dp_attention, pp});
    const Deployed d = deployed(f, model, gpu, weight_dtype, kv_dtype, tp, {ep, dp_attention, pp});
    auto& ops = operator_scratch();
    decode_operators(d.ref, batch, ctx, ops);
    return finite(f, batch / units::seconds_from_ms(finite(f, estimate(ops, *d.gpu, profile_of(f, profile)))));
}

double ttft_ms(std::string_view model, std::string_view gpu, double prompt_tokens, double batch,
               std::string_view weight_dtype, double tp, std::string_view profile, double ep, double dp_attention, double pp) {
    const auto& f = checked<&ttft_ms>({model, gpu, prompt_tokens, batch, weight_dtype, tp, profile, ep, dp_attention, pp});
    // The prefill writes a 16-bit KV cache, whatever the weights' format.
    const Deployed d = deployed(f, model, gpu, weight_dtype, defaults::kv_dtype, tp, {ep, dp_attention, pp});
    auto& ops = operator_scratch();
    prefill_operators(d.ref, batch, prompt_tokens, ops);
    return finite(f, estimate(ops, *d.gpu, profile_of(f, profile)));
}

double fit_batch(std::string_view model, std::string_view gpu, double ctx, std::string_view weight_dtype,
                 std::string_view kv_dtype, double tp, double mem_util, double ep, double dp_attention, double pp) {
    const auto& f = checked<&fit_batch>({model, gpu, ctx, weight_dtype, kv_dtype, tp, mem_util, ep, dp_attention, pp});
    const Deployed deployment = deployed(f, model, gpu, weight_dtype, kv_dtype, tp, {ep, dp_attention, pp});
    const DeploymentRef& d = deployment.ref;
    const double usable = mem_util * units::bytes_from_gb(d.gpu.hbm_gb);
    const double weights = weight_bytes_per_gpu(d);
    if (weights >= usable)
        throw Error::of_call(Status::no_solution, f.name, "model",
                             fmt::format("the weights ({:.3g} GB per GPU) do not fit in {} of the {} GB of a '{}'",
                                         units::gb_from_bytes(weights), mem_util, d.gpu.hbm_gb, d.gpu.id));
    return finite(f, std::floor((usable - weights) / kv_bytes_per_sequence_per_gpu(d, ctx) * (1 + 1e-12)));
}

double cache_gb(std::string_view model, double batch, double ctx, std::string_view kv_dtype, double tp, double ep, double dp_attention, double pp) {
    const auto& f = checked<&cache_gb>({model, batch, ctx, kv_dtype, tp, ep, dp_attention, pp});
    const auto m = model_entry_of(f, model);
    const Layout layout{ep, dp_attention, pp};
    check_layout(f, *m, tp, layout);
    static const GpuSpec no_gpu{};  // the cache does not depend on the GPU
    DeploymentRef d{*m, no_gpu, DType::bf16, dtype_of(f, "kv_dtype", kv_dtype), tp};
    d.layout = layout;
    return finite(f, batch * units::gb_from_bytes(kv_bytes_per_sequence_per_gpu(d, ctx)));
}

Table step_breakdown(std::string_view model, std::string_view gpu, double batch, double ctx,
                     std::string_view weight_dtype, std::string_view kv_dtype, double tp, std::string_view profile, double ep, double dp_attention, double pp) {
    const auto& f = checked<&step_breakdown>({model, gpu, batch, ctx, weight_dtype, kv_dtype, tp, profile, ep, dp_attention, pp});
    const Deployment d = deployment(f, model, gpu, weight_dtype, kv_dtype, tp, {ep, dp_attention, pp});
    auto ops = decode_operators(d, batch, ctx);
    return breakdown(f, ops, d.gpu, profile_of(f, profile));
}

Table ttft_breakdown(std::string_view model, std::string_view gpu, double prompt_tokens, double batch,
                     std::string_view weight_dtype, double tp, std::string_view profile, double ep, double dp_attention, double pp) {
    const auto& f = checked<&ttft_breakdown>({model, gpu, prompt_tokens, batch, weight_dtype, tp, profile, ep, dp_attention, pp});
    // As ROOFLINE_TTFT_MS: the prefill writes a 16-bit KV cache.
    const Deployment d = deployment(f, model, gpu, weight_dtype, defaults::kv_dtype, tp, {ep, dp_attention, pp});
    auto ops = prefill_operators(d, batch, prompt_tokens);
    return breakdown(f, ops, d.gpu, profile_of(f, profile));
}

// ---- Planner: the serving model (serving.hpp, docs/serving-model.md) through the table. -----------

namespace {

/// Runs the serving model; an error it throws (which names its argument but no formula) is said as the formula's.
template <typename F> auto serving_model(const FormulaSpec& f, F&& compute) {
    try {
        return compute();
    } catch (const Error& e) {
        if (!e.where().empty()) throw;
        if (e.argument().empty()) throw Error::of_call(e.status(), f.name, "", e.reason());
        throw Error::of_argument(e.status(), f.name, e.argument(), e.reason());
    }
}

serving::Workload workload(double prompt_tokens, double output_tokens) { return {prompt_tokens, output_tokens}; }

/// An optional text that asks for every choice: empty or "all".
bool every(std::string_view choice) { return choice.empty() || iequals(choice, "all"); }

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' || s.front() == '\r'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

/// The GPUs of ROOFLINE_PLAN's `gpu`: one id or a list ("h100-sxm, h200"; ',' ';' or a new line between them),
/// each the catalog's id of a GPU.
std::vector<std::string> gpu_list_of(const FormulaSpec& f, std::string_view text) {
    if (text.find_first_of(",;\n") == std::string_view::npos) return {gpu_of(f, text).id};  // one id, as it is
    std::vector<std::string> ids;
    while (!text.empty()) {
        const std::size_t end = text.find_first_of(",;\n");
        const std::string_view item = trimmed(text.substr(0, end));
        text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
        if (item.empty()) continue;
        ids.push_back(gpu_of(f, item).id);
    }
    if (ids.empty())
        throw Error::of_argument(Status::invalid_argument, f.name, "gpu", "names no GPU (got a list of separators)");
    return ids;
}

/// The price overrides of ROOFLINE_PLAN: "h100-sxm=2.49, a100-sxm-80gb=1.29" (',' ';' or a new line between
/// entries; a decimal point), by the catalog's id of each GPU; none for "" or "catalog".
std::map<std::string, double> prices_of(const FormulaSpec& f, std::string_view text) {
    std::map<std::string, double> prices;
    if (iequals(trimmed(text), "catalog")) return prices;
    auto bad = [&](std::string reason) { throw Error::of_argument(Status::invalid_argument, f.name, "prices", std::move(reason)); };
    while (!text.empty()) {
        const std::size_t end = text.find_first_of(",;\n");
        const std::string_view raw = text.substr(0, end), entry = trimmed(raw);
        text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
        if (entry.empty()) continue;
        const std::size_t equals = entry.find('=');
        if (equals == std::string_view::npos)
            bad(fmt::format("'{}' is not gpu=price (e.g. \"h100-sxm=2.49, a100-sxm-80gb=1.29\")", raw));
        const std::string_view id = trimmed(entry.substr(0, equals)), number = trimmed(entry.substr(equals + 1));
        const GpuSpec gpu = [&] {
            if (auto g = find_gpu(id)) return *g;
            unknown_id(f, "prices", unknown_catalog_id("GPU", id, gpu_ids()));
        }();
        double usd = 0;
        const auto [at, error] = std::from_chars(number.data(), number.data() + number.size(), usd);
        if (number.empty() || error != std::errc() || at != number.data() + number.size() || !std::isfinite(usd))
            bad(fmt::format("the price of '{}' must be a number of USD per GPU-hour with a decimal point (got '{}')",
                            id, number));
        if (usd < 0) bad(fmt::format("the price of '{}' must be zero or more (got {})", id, usd));
        prices[gpu.id] = usd;
    }
    return prices;
}

/// A price cell of ROOFLINE_PLAN: the number, or "" where the GPU has no price.
std::variant<double, std::string> price_cell(const FormulaSpec& f, const std::optional<double>& usd) {
    if (!usd) return std::string();
    return finite(f, *usd);
}

}  // namespace

double e2e_ms(std::string_view model, std::string_view gpu, double prompt_tokens, double output_tokens, double batch,
              std::string_view weight_dtype, std::string_view kv_dtype, double tp, std::string_view profile,
              double mem_util, double ep, double dp_attention, double pp) {
    const auto& f = checked<&e2e_ms>(
        {model, gpu, prompt_tokens, output_tokens, batch, weight_dtype, kv_dtype, tp, profile, mem_util, ep, dp_attention, pp});
    const Deployment d = deployment(f, model, gpu, weight_dtype, kv_dtype, tp, {ep, dp_attention, pp});
    const Profile& p = profile_of(f, profile);
    return finite(f, serving_model(f, [&] {
        return serving::e2e_ms(d, p, workload(prompt_tokens, output_tokens), batch, mem_util);
    }));
}

double slo_batch(std::string_view model, std::string_view gpu, double ctx, double tpot_ms, std::string_view weight_dtype,
                 std::string_view kv_dtype, double tp, std::string_view profile, double mem_util, double ep, double dp_attention, double pp) {
    const auto& f = checked<&slo_batch>({model, gpu, ctx, tpot_ms, weight_dtype, kv_dtype, tp, profile, mem_util, ep, dp_attention, pp});
    const Deployment d = deployment(f, model, gpu, weight_dtype, kv_dtype, tp, {ep, dp_attention, pp});
    const Profile& p = profile_of(f, profile);
    return finite(f, serving_model(f, [&] { return serving::slo_batch(d, p, ctx, tpot_ms, mem_util); }));
}

double replica_rps(std::string_view model, std::string_view gpu, double prompt_tokens, double output_tokens,
                   double ttft_ms, double tpot_ms, std::string_view weight_dtype, std::string_view kv_dtype, double tp,
                   std::string_view profile, double mem_util, double ep, double dp_attention, double pp) {
    const auto& f = checked<&replica_rps>({model, gpu, prompt_tokens, output_tokens, ttft_ms, tpot_ms, weight_dtype,
                                           kv_dtype, tp, profile, mem_util, ep, dp_attention, pp});
    const Deployment d = deployment(f, model, gpu, weight_dtype, kv_dtype, tp, {ep, dp_attention, pp});
    const Profile& p = profile_of(f, profile);
    return finite(f, serving_model(f, [&] {
        return serving::replica_rps(d, p, workload(prompt_tokens, output_tokens), {ttft_ms, tpot_ms}, mem_util).rps;
    }));
}

Table plan(std::string_view model, double rps, double prompt_tokens, double output_tokens, double ttft_ms,
           double tpot_ms, std::string_view gpu, std::string_view weight_dtype, std::string_view kv_dtype,
           std::string_view profile, double disaggregated, std::string_view prices, double mem_util,
           std::string_view rows_wanted) {
    const auto& f = checked<&plan>({model, rps, prompt_tokens, output_tokens, ttft_ms, tpot_ms, gpu, weight_dtype,
                                    kv_dtype, profile, disaggregated, prices, mem_util, rows_wanted});
    if (disaggregated != 0 && disaggregated != 1)
        out_of_domain(f, arg_named(f, "disaggregated"), disaggregated, "0 (colocated) or 1 (disaggregated)");
    const ModelSpec m = model_of(f, model);
    serving::PlanOptions o;
    if (!every(gpu)) o.gpus = gpu_list_of(f, gpu);
    const std::string_view rows_choice = or_default(f, "rows", rows_wanted);
    if (!iequals(rows_choice, "best") && !iequals(rows_choice, "all"))
        unknown_choice(f, "rows", "choice of rows", rows_choice, {"best", "all"});
    o.all_rows = iequals(rows_choice, "all");
    if (!every(weight_dtype)) {
        // The planner compares configurations of one format for every weight; the checkpoint's own mix is
        // not one of its rows yet (issue 17): said so, rather than "no dtype 'native'".
        if (ascii::iequals(weight_dtype, "native"))
            throw Error::of_argument(Status::invalid_argument, f.name, "weight_dtype",
                                     "must be one format for every weight (bf16, fp8, int8, int4, ...) or all (got "
                                     "'native'): the planner does not plan a checkpoint's mix of formats yet");
        o.weights = dtype_of(f, "weight_dtype", weight_dtype);
    }
    o.kv = dtype_of(f, "kv_dtype", kv_dtype);
    o.profile = profile_of(f, profile).name;
    o.mem_util = mem_util;
    o.disaggregated = disaggregated == 1;
    o.prices = prices_of(f, prices);
    const std::vector<serving::PlanRow> rows = serving_model(f, [&] {
        return serving::plan(m, rps, workload(prompt_tokens, output_tokens), {ttft_ms, tpot_ms}, o);
    });
    // The columns the table declares; they only grow at the end (a workbook's INDEX(...; ; 13) keeps its meaning).
    Table t = with_header(f);
    t.cells.reserve(t.cols * (rows.size() + 1));
    for (const serving::PlanRow& r : rows) {
        t.cells.emplace_back(r.gpu);
        t.cells.emplace_back(finite(f, r.tp));
        t.cells.emplace_back(std::string(to_string(r.weights)));
        for (double v : {r.batch, r.replicas, r.prefill_tp, r.prefill_replicas, r.gpus, r.ttft_ms, r.tpot_ms,
                         r.output_tokens_per_s_per_gpu})
            t.cells.emplace_back(finite(f, v));
        t.cells.push_back(price_cell(f, r.usd_per_hour));
        t.cells.push_back(price_cell(f, r.usd_per_mtok));
        for (double v : {r.layout.ep, r.layout.dp_attention, r.layout.pp}) t.cells.emplace_back(finite(f, v));
    }
    t.rows = rows.size() + 1;
    return t;
}

double cost_per_mtok(double usd_per_gpu_hour, double gpus, double output_tokens_per_s) {
    const auto& f = checked<&cost_per_mtok>({usd_per_gpu_hour, gpus, output_tokens_per_s});
    return finite(f, serving_model(f, [&] { return serving::cost_per_mtok(usd_per_gpu_hour, gpus, output_tokens_per_s); }));
}

double spec_tokens(double acceptance, double draft_len) {
    const auto& f = checked<&spec_tokens>({acceptance, draft_len});
    return finite(f, serving_model(f, [&] { return serving::spec_tokens(acceptance, draft_len); }));
}

double spec_step_ms(std::string_view model, std::string_view draft_model, std::string_view gpu, double batch, double ctx,
                    double draft_len, double acceptance, std::string_view weight_dtype, std::string_view kv_dtype,
                    double tp, std::string_view profile, double ep, double dp_attention, double pp) {
    const auto& f = checked<&spec_step_ms>(
        {model, draft_model, gpu, batch, ctx, draft_len, acceptance, weight_dtype, kv_dtype, tp, profile, ep, dp_attention, pp});
    const Deployment d = deployment(f, model, gpu, weight_dtype, kv_dtype, tp, {ep, dp_attention, pp});
    // "mtp": the target's own MTP layers draft (a decoder layer each, with the target's embedding and lm_head).
    const ModelSpec draft = ascii::iequals(draft_model, "mtp") ? mtp_draft_of(f, d.model) : model_of(f, draft_model, "draft_model");
    const Profile& p = profile_of(f, profile);
    return finite(f, serving_model(f, [&] {
        return serving::spec_step_ms(d, draft, p, batch, ctx, draft_len, acceptance);
    }));
}

// ---- Calibration. ----------------------------------------------------------------------------------

namespace {

/// A table argument's columns, as its unit lists them ("model, gpu, ...").
std::vector<std::string_view> columns_of(const ArgSpec& a) {
    std::vector<std::string_view> out;
    for (std::string_view rest = a.unit; !rest.empty();) {
        const std::size_t comma = rest.find(", ");
        out.push_back(rest.substr(0, comma));
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 2);
    }
    return out;
}

using Cell = std::variant<double, std::string>;

bool empty_cell(const Cell& c) { return std::holds_alternative<std::string>(c) && std::get<std::string>(c).empty(); }

/// The measured rows of ROOFLINE_CALIBRATE's `measurements`, each as a case of the fitter. An error names the row
/// (1: the range's first) and its column.
std::vector<CalibrationCase> measured_cases(const FormulaSpec& f, std::string_view measurements,
                                            std::vector<std::size_t>& rows) {
    const ArgSpec& arg = f.args[0];
    const std::vector<std::string_view> columns = columns_of(arg);
    const Table t = table_from_text(measurements);
    auto refuse = [&](std::string reason) -> Error {
        return Error::of_argument(Status::invalid_argument, f.name, arg.name, std::move(reason));
    };
    if (t.rows > defaults::calibration_rows_max)
        throw refuse(fmt::format("has {} rows: at most {}", t.rows, defaults::calibration_rows_max));
    if (t.rows > 0 && t.cols < columns.size())
        throw refuse(fmt::format("has {} column{}: it takes {}, {}", t.cols, t.cols == 1 ? "" : "s", columns.size(),
                                 arg.unit));
    std::vector<CalibrationCase> cases;
    bool first = true;
    for (std::size_t r = 0; r < t.rows; ++r) {
        const auto row = std::span<const Cell>(t.cells).subspan(r * t.cols, t.cols);
        if (std::all_of(row.begin(), row.end(), empty_cell)) continue;
        const std::size_t at = r + 1;
        // A header: the first row that is not empty, if it holds no number (a measured row has four).
        const bool header = first && std::none_of(row.begin(), row.end(), [](const Cell& c) {
                                return std::holds_alternative<double>(c);
                            });
        first = false;
        if (header) continue;
        for (std::size_t c = columns.size(); c < row.size(); ++c)
            if (!empty_cell(row[c]))
                throw refuse(fmt::format("row {}: column {} is not empty: measurements take {} columns, {}", at, c + 1,
                                         columns.size(), arg.unit));
        auto text = [&](std::size_t c) -> std::string_view {
            if (const double* d = std::get_if<double>(&row[c]))
                throw refuse(fmt::format("row {}, {}: must be a text (got {})", at, columns[c], *d));
            return std::get<std::string>(row[c]);
        };
        auto number = [&](std::size_t c, std::optional<double> if_empty = std::nullopt) -> double {
            if (const double* d = std::get_if<double>(&row[c])) return *d;
            if (empty_cell(row[c]) && if_empty) return *if_empty;
            if (empty_cell(row[c])) throw refuse(fmt::format("row {}, {}: is empty", at, columns[c]));
            throw refuse(fmt::format("row {}, {}: must be a number (got '{}')", at, columns[c],
                                     std::get<std::string>(row[c])));
        };
        const std::string_view model = text(0), gpu = text(1), weight_dtype = text(2), kv_dtype = text(3),
                               metric = text(7);
        const double tp = number(4, 1.0), batch = number(5), context = number(6), value = number(8);
        if (model.empty()) throw refuse(fmt::format("row {}, {}: is empty", at, columns[0]));
        if (gpu.empty()) throw refuse(fmt::format("row {}, {}: is empty", at, columns[1]));
        const bool decode = iequals(metric, "step_ms");
        if (!decode && !iequals(metric, "ttft_ms"))
            throw refuse(fmt::format("row {}, {}: '{}' is neither step_ms nor ttft_ms", at, columns[7], metric));
        if (!(value > 0) || !std::isfinite(value))
            throw refuse(fmt::format("row {}, {}: must be a time above 0 ms (got {})", at, columns[8], value));
        // The row as the formula that predicts its metric takes it, checked and resolved by that formula's rules; its
        // refusal names that formula's argument, said here as the column.
        CalibrationCase c;
        c.metric = decode ? "step_ms" : "ttft_ms";
        c.measured_ms = value;
        try {
            if (decode) {
                const auto& g = checked<&step_ms>({model, gpu, batch, context, weight_dtype, kv_dtype, tp, "", 1, 1, 1});
                const Deployed d = deployed(g, model, gpu, weight_dtype, kv_dtype, tp, {});
                decode_operators(d.ref, batch, context, c.ops);
                c.gpu = *d.gpu;
            } else {
                const auto& g = checked<&ttft_ms>({model, gpu, context, batch, weight_dtype, tp, "", 1, 1, 1});
                const Deployed d = deployed(g, model, gpu, weight_dtype, defaults::kv_dtype, tp, {});
                prefill_operators(d.ref, batch, context, c.ops);
                c.gpu = *d.gpu;
            }
        } catch (const Error& e) {
            const std::string_view a = e.argument();
            const std::string_view column = a == "ctx" || a == "prompt_tokens" ? "context" : a;
            throw Error::of_argument(e.status(), f.name, arg.name,
                                     column.empty() ? fmt::format("row {}: {}", at, e.reason())
                                                    : fmt::format("row {}, {}: {}", at, column, e.reason()));
        }
        cases.push_back(std::move(c));
        rows.push_back(at);
    }
    return cases;
}

}  // namespace

namespace {

/// The fit a thread computed last, and from what: ROOFLINE_CALIBRATE and ROOFLINE_CALIBRATE_ROWS of the same range
/// (a sheet shows both) fit once. Only successes are kept.
struct LastCalibration {
    std::string measurements, base_profile;
    std::uint64_t generation = 0;
    std::optional<Calibration> fit;
    std::vector<std::size_t> rows;  ///< each case's row in the table (1: its first)
};

/// The fit of a sheet's measured rows, for formula f (ROOFLINE_CALIBRATE or ROOFLINE_CALIBRATE_ROWS).
const LastCalibration& calibration(const FormulaSpec& f, std::string_view measurements, std::string_view base_profile) {
    LastCalibration& last = per_thread<LastCalibration, LastCalibration>();
    if (last.fit && last.measurements == measurements && last.base_profile == base_profile &&
        last.generation == catalog_generation())
        return last;
    const std::uint64_t generation = catalog_generation();
    Profile base = profile_of(f, base_profile, "base_profile");
    // A profile text as the base: the new fit is "fit(<its base>; ...)", not nested.
    if (is_profile_text(base.name)) base.name = base.name.substr(4, base.name.find(';') - 4);
    std::vector<std::size_t> rows;
    const std::vector<CalibrationCase> cases = measured_cases(f, measurements, rows);
    last.fit.reset();
    try {
        last.fit.emplace(roofline::calibrate(cases, base));
    } catch (const Error& e) {
        if (!e.where().empty()) throw;
        throw Error::of_argument(e.status(), f.name, e.argument(), e.reason());
    }
    last.measurements.assign(measurements);
    last.base_profile.assign(base_profile);
    last.generation = generation;
    last.rows = std::move(rows);
    return last;
}

}  // namespace

std::string calibrate(std::string_view measurements, std::string_view base_profile) {
    const auto& f = checked<&calibrate>({measurements, base_profile});
    return calibration(f, measurements, base_profile).fit->profile.name;
}

Table calibrate_rows(std::string_view measurements, std::string_view base_profile) {
    const auto& f = checked<&calibrate_rows>({measurements, base_profile});
    const LastCalibration& c = calibration(f, measurements, base_profile);
    const Table rows = table_from_text(measurements);
    Table t = with_header(f);
    for (std::size_t i = 0; i < c.rows.size(); ++i) {
        const std::size_t r = c.rows[i] - 1;
        const double measured = std::get<double>(rows.cells[r * rows.cols + 8]);
        const double predicted = c.fit->predicted_ms[i], loo = c.fit->loo_predicted_ms[i];
        t.cells.emplace_back(static_cast<double>(c.rows[i]));
        for (std::size_t col : {0, 1, 7}) t.cells.push_back(rows.cells[r * rows.cols + col]);
        for (double v : {measured, predicted, loo, (predicted / measured - 1) * 100, (loo / measured - 1) * 100})
            t.cells.emplace_back(finite(f, v));
    }
    t.rows = c.rows.size() + 1;
    return t;
}

// ---- Why a formula fails. ------------------------------------------------------------------------

std::string why(std::string_view formula, std::span<const Arg> arguments) {
    try {
        call(formula, arguments);
        return "ok";
    } catch (const Error& e) {
        // The message without "<FORMULA>: ", and for an unknown id where the spreadsheet lists the known ones.
        std::string reason = e.what();
        if (!e.where().empty()) reason.erase(0, e.where().size() + 2);
        if (e.status() == Status::unknown_id)
            for (const auto& [argument, listing] : kIdListings)
                if (e.argument() == argument) reason += fmt::format(" (see {})", listing);
        return reason;
    }
}

}  // namespace formula
}  // namespace roofline
