// Reading tests/data/kernels (aiconfigurator's measured kernels, README there): every row as a sample of a kernel model
// (roofline/kernels.hpp) with the engine that ran it. One reader for the fitter (tools/fit-kernels), the benchmark
// (bench/kernel-accuracy.cpp) and the tests (tests/test_kernels.cpp): the one place that says how aiconfigurator's
// names and units map to the library's, and which rows mean what the models say. Header-only.
#pragma once

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "measurements.hpp"
#include "roofline/calibrate.hpp"
#include "roofline/catalog.hpp"
#include "roofline/kernels.hpp"
#include "roofline/operators.hpp"
#include "roofline/units.hpp"

namespace kernel_rows {

/// aiconfigurator's gemm_dtype and kv_cache_dtype names of the formats the catalog has: its weight-only int8_wo and
/// int4_wo as the catalog's int8 and int4 (weights in 8 or 4.25 bits, the activations in 16, computed in 16:
/// TensorRT-LLM's on A100, the only rows of them); sq (SmoothQuant's W8A8) left out.
inline const std::map<std::string, roofline::DType> kFormats = {{"bfloat16", roofline::DType::bf16},
                                                                {"fp8", roofline::DType::fp8},
                                                                {"fp8_block", roofline::DType::fp8_block},
                                                                {"nvfp4", roofline::DType::nvfp4},
                                                                {"int8_wo", roofline::DType::int8},
                                                                {"int4_wo", roofline::DType::int4}};
/// Its moe_dtype names: those, and MXFP4 weights with 16-bit activations (w4a16_mxfp4: gpt-oss on Hopper).
inline const std::map<std::string, roofline::DType> kMoeFormats = {{"bfloat16", roofline::DType::bf16},
                                                                   {"fp8", roofline::DType::fp8},
                                                                   {"fp8_block", roofline::DType::fp8_block},
                                                                   {"nvfp4", roofline::DType::nvfp4},
                                                                   {"w4a16_mxfp4", roofline::DType::mxfp4}};
/// The engine whose MoE rows are read: TensorRT-LLM's. SGLang's and vLLM's are set apart (kMoeSetApart).
inline constexpr const char* kMoeEngine = "trtllm";
inline constexpr const char* kMoeSetApart =
    "SGLang's and vLLM's MoE rows run up to 2x faster than TensorRT-LLM's on the same shape and beyond the memory "
    "bandwidth for the weights their columns say they read (a DeepSeek-shaped FP8-block layer of 64 tokens on H100: "
    "1.91-1.99 ms, 5.9 TB/s of 3.35): their collectors must execute less than their columns say; set apart until that "
    "is found (docs/accuracy.md, 'Measured kernels')";

/// TensorRT-LLM's decode attention on A100 is set apart: its rows that read several times the L2 run at the memory
/// bandwidth in the median (1.04x of the roofline) and 33 of them faster than it, down to 0.60x, where every other
/// GPU's TensorRT-LLM decode rows take 1.04x at least (median 1.16-1.50x): the collector must read less than its
/// columns say on that GPU.
inline constexpr const char* kAttentionSetApartGpu = "a100-sxm-80gb";
inline constexpr const char* kAttentionSetApart =
    "TensorRT-LLM's A100 decode attention rows: those that read several times the L2 run at 1.04x the memory roofline "
    "in the median and 33 faster than it (down to 0.60x of an 8-head, 4-KV-head read of 131,071 tokens x 16 "
    "sequences), where TensorRT-LLM's decode on H100, H200 and B200 never beats 1.04x (medians 1.16-1.50x): the "
    "collector must read less than its columns say on A100; set apart (docs/accuracy.md, 'Measured kernels')";

/// One measured DSA module: a layer of DeepSeek-V3.2's sparse attention as the engines run it (its projections, the
/// lightning indexer, the top-k selection and the sparse MLA attention; aiconfigurator's dsa_context_module and
/// dsa_generation_module), with `heads` of the model's 128 query heads on the GPU: a prefill of `batch` prompts of
/// `tokens` tokens (no cached prefix), or a decode step of `batch` sequences over `tokens` cached ones.
struct DsaModuleSample {
    bool prefill = false;
    double heads = 0, batch = 1, tokens = 0;
    roofline::DType weights = roofline::DType::bf16, kv = roofline::DType::bf16;
    const roofline::GpuSpec* gpu = nullptr;
    double measured_ms = 0;
};

/// One measured kernel of a linear-attention layer, as the collectors run it (linear_attention: gdn-*.csv, Qwen3.5's
/// and Qwen3-Next's gated delta rule; mamba2-*.csv, Mamba-2's convolution): the causal convolution over `channels`
/// channels of each token (prefill: causal_conv1d_fn over each prompt; decode: causal_conv1d_update, its state of
/// d_conv - 1 tokens read and written), or the gated delta rule's recurrence (prefill: chunked, chunk_gated_delta_rule;
/// decode: one step, fused_recurrent_gated_delta_rule), `heads` value heads each with a k_dim x v_dim state in
/// `state_bytes` bytes a value, `k_heads` key heads. `batch` sequences of `tokens` tokens (decode: 1).
struct LinearAttentionSample {
    enum class Kernel { convolution, recurrence };
    Kernel kernel = Kernel::recurrence;
    bool prefill = false;
    double batch = 1, tokens = 1;
    double channels = 0, conv_width = 4;
    double heads = 0, k_heads = 0, k_dim = 0, v_dim = 0, state_bytes = 2;
    const roofline::GpuSpec* gpu = nullptr;
    double measured_ms = 0;
};

/// One of MLA's absorbed batched multiplies in decode (mla_bmm-*.csv), per head of `heads` on the GPU: before the
/// attention each token's 128 no-rope query values into the 512-value latent (mla_gen_pre), after it the latent output
/// back to the 128 values of the head (mla_gen_post); the heads' weights (512 x 128 each) in `format`.
struct MlaBmmSample {
    bool before = true;
    double tokens = 0, heads = 0;
    roofline::DType format = roofline::DType::bf16;
    const roofline::GpuSpec* gpu = nullptr;
    double measured_ms = 0;
    static constexpr double kLatent = 512, kNope = 128;
};

/// One measured FP8 quantization with a static per-tensor scale (scale_matrix-*.csv): m x k 16-bit values read, as
/// many FP8 values written.
struct QuantizeSample {
    double m = 0, k = 0;
    const roofline::GpuSpec* gpu = nullptr;
    double measured_ms = 0;
};

/// The operator of a measured linear-attention kernel as the operator model counts it (operators.cpp, state_layers():
/// the convolution and the recurrence are two of the kernels its "linear_attn" holds), all its bytes from memory:
/// - the convolution: each token's channels read and written in 16 bits (decode: and the convolution's state of
///   conv_width - 1 tokens read and written), 2 x conv_width FLOPs a channel and token;
/// - the recurrence: each token's queries and keys (k_heads x k_dim) and values and output (heads x v_dim) read or
///   written in 16 bits, and in decode each sequence's state (heads x k_dim x v_dim values) read and written once;
///   the catalog's FLOPs of the recurrence (roofline::gated_deltanet_flops_per_token()) at the 16-bit peak.
/// Its FLOPs are recurrence_flops, timed at the profile's state_compute_efficiency where it sets one.
inline roofline::Operator operator_of(const LinearAttentionSample& s) {
    roofline::Operator op;
    op.name = "linear_attn";
    op.kind = roofline::OperatorKind::state;
    op.layers = 1;
    const double tokens = s.batch * s.tokens;
    if (s.kernel == LinearAttentionSample::Kernel::convolution) {
        op.flops = 2 * s.conv_width * tokens * s.channels;
        op.bytes = 2 * tokens * s.channels * 2 + (s.prefill ? 0 : 2 * s.batch * s.channels * (s.conv_width - 1) * 2);
    } else {
        op.flops = tokens * roofline::gated_deltanet_flops_per_token(s.heads, s.k_dim, s.v_dim);
        op.bytes = tokens * (2 * s.k_heads * s.k_dim + 2 * s.heads * s.v_dim) * 2 +
                   (s.prefill ? 0 : 2 * s.batch * s.heads * s.k_dim * s.v_dim * s.state_bytes);
    }
    op.recurrence_flops = op.flops;  // the step's recurrence_flops hold the recurrence's and the convolution's
    return op;
}

/// The operator of an MLA batched multiply as the operator model counts it (operators.cpp: the heads' absorbed
/// matrices are part of qkv_proj): 2 x 512 x 128 FLOPs per head and token in the weights' compute format, the heads'
/// weights read in their format, each token's inputs and outputs in 16 bits.
inline roofline::Operator operator_of(const MlaBmmSample& s) {
    roofline::Operator op;
    op.name = "mla_bmm";
    op.layers = 1;
    op.tokens = s.tokens;
    op.compute = roofline::compute_dtype(s.format);
    const double weights = s.heads * MlaBmmSample::kLatent * MlaBmmSample::kNope;
    op.flops = 2 * s.tokens * weights;
    op.bytes = weights * roofline::bytes_per_value(s.format) +
               s.tokens * s.heads * (MlaBmmSample::kLatent + MlaBmmSample::kNope) * 2;
    return op;
}

/// The operator of an FP8 quantization: m x k values read in 16 bits and written in 8; no FLOPs counted.
inline roofline::Operator operator_of(const QuantizeSample& s) {
    roofline::Operator op;
    op.name = "quantize";
    op.layers = 1;
    op.bytes = s.m * s.k * 3;
    return op;
}

/// A sample with the engine that ran it (aiconfigurator's name: trtllm, sglang, vllm, nccl).
template <class Sample>
struct Row {
    std::string engine;
    Sample sample;
};

/// Every row of the extracts in `dir` that a model describes. The samples point at the GPUs this object holds: it is
/// neither copied nor moved.
struct Rows {
    std::deque<roofline::GpuSpec> gpus;
    std::vector<Row<roofline::GemmSample>> gemm;
    std::vector<Row<roofline::MoeSample>> moe;
    std::vector<Row<roofline::AttentionSample>> attention;  ///< decode and prefill (AttentionShape::prefill)
    /// DeepSeek's MLA (roofline::mla_shape(): DeepSeek-V3/R1 and Kimi K2's dimensions, the collectors'), decode
    /// (generation, `step` cached tokens) and prefill (context, `isl` tokens); num_heads the heads on one GPU.
    std::vector<Row<roofline::AttentionSample>> mla;
    std::vector<Row<roofline::CollectiveSample>> collectives;
    /// Every engine's MoE layers of one token in 16 bits (SGLang's and vLLM's among them: at one token their time is
    /// the kernels' fixed time, whatever they read; kMoeSetApart is about the weights many tokens read): for
    /// moe_layer_latencies().
    std::vector<Row<roofline::MoeSample>> moe_one_token;
    /// Each engine's own all-reduce (custom_allreduce-*.csv: TensorRT-LLM's, and SGLang's and vLLM's custom kernels
    /// captured in a CUDA graph, as they serve; their eager calls left out), 16-bit values.
    std::vector<Row<roofline::CollectiveSample>> engine_allreduce;
    std::vector<Row<DsaModuleSample>> dsa;  ///< DeepSeek-V3.2's DSA modules, prefill and decode
    std::vector<Row<LinearAttentionSample>> linear_attention;  ///< GDN's convolution and recurrence, Mamba-2's convolution
    std::vector<Row<MlaBmmSample>> mla_bmm;
    std::vector<Row<QuantizeSample>> quantize;
    std::string commit;  ///< aiconfigurator's commit the extracts come from

    explicit Rows(const std::string& dir) {
        using roofline::DType;
        for (const measurements::Row& s : measurements::read(dir + "/SOURCES.csv")) {
            commit = s["commit"];
            const roofline::GpuSpec* gpu = gpu_of(s["gpu"]);
            const std::string& file = s["file"], &engine = s["engine"];
            auto is = [&](const char* table) { return file.find(table) != std::string::npos; };
            const std::vector<measurements::Row> rows = measurements::read(dir + "/" + file);
            if (is("/gemm-")) {
                for (const measurements::Row& r : rows)
                    if (const auto f = kFormats.find(r["gemm_dtype"]); f != kFormats.end())
                        gemm.push_back({engine, {{r.number("m"), r.number("n"), r.number("k"), f->second}, gpu,
                                                 r.number("latency")}});
            } else if (is("/moe-")) {
                for (const measurements::Row& r : rows) {
                    if (r["moe_dtype"] != "bfloat16" || r.number("num_tokens") != 1 ||
                        r["kernel_source"].find("min_latency") != std::string::npos)
                        continue;
                    moe_one_token.push_back({engine, {moe_shape_of(r, DType::bf16), gpu, r.number("latency")}});
                }
                if (engine != kMoeEngine) continue;
                for (const measurements::Row& r : rows) {
                    const std::string& kernel = r["kernel_source"];
                    const auto f = kMoeFormats.find(r["moe_dtype"]);
                    // The min-latency path is a kernel for few tokens chosen apart, not the default; 16-bit activations
                    // with MXFP4 weights are dequantized only where the GPU has no FP4 units.
                    if (f == kMoeFormats.end() || kernel.find("min_latency") != std::string::npos ||
                        (f->second == DType::mxfp4 && gpu->fp4 > 0))
                        continue;
                    moe.push_back({engine, {moe_shape_of(r, f->second), gpu, r.number("latency")}});
                }
            } else if (is("/generation_attention-") || is("/context_attention-")) {
                const bool prefill = is("/context_attention-");
                if (!prefill && engine == "trtllm" && s["gpu"] == kAttentionSetApartGpu) continue;  // kAttentionSetApart
                for (const measurements::Row& r : rows)
                    if (const auto kv = kFormats.find(r["kv_cache_dtype"]); kv != kFormats.end()) {
                        const roofline::AttentionShape shape{r.number("batch_size"), r.number(prefill ? "isl" : "step"),
                                                             r.number("num_heads"), r.number("num_key_value_heads"),
                                                             r.number("head_dim"), kv->second, prefill};
                        attention.push_back({engine, {shape, gpu, r.number("latency")}});
                    }
            } else if (is("/generation_mla-") || is("/context_mla-")) {
                const bool prefill = is("/context_mla-");
                for (const measurements::Row& r : rows)
                    if (const auto kv = kFormats.find(r["kv_cache_dtype"]); kv != kFormats.end())
                        mla.push_back({engine, {roofline::mla_shape(r.number("batch_size"),
                                                                    r.number(prefill ? "isl" : "step"),
                                                                    r.number("num_heads"), kv->second, prefill),
                                                gpu, r.number("latency")}});
            } else if (is("/dsa_context_module-") || is("/dsa_generation_module-")) {
                const bool prefill = is("/dsa_context_module-");
                for (const measurements::Row& r : rows) {
                    const auto weights = kFormats.find(r["gemm_type"]), kv = kFormats.find(r["kv_cache_dtype"]);
                    if (weights == kFormats.end() || kv == kFormats.end()) continue;
                    // Decode: `step` tokens in the cache (`isl` the one new token); prefill: `isl` tokens.
                    dsa.push_back({engine, {prefill, r.number("num_heads"), r.number("batch_size"),
                                            r.number(prefill ? "isl" : "step"), weights->second, kv->second, gpu,
                                            r.number("latency")}});
                }
            } else if (is("/gdn-") || is("/mamba2-")) {
                const bool gdn = is("/gdn-");
                for (const measurements::Row& r : rows) {
                    const std::string& kernel = r["kernel_source"];
                    LinearAttentionSample x;
                    x.kernel = kernel.find("conv1d") != std::string::npos ? LinearAttentionSample::Kernel::convolution
                                                                          : LinearAttentionSample::Kernel::recurrence;
                    x.prefill = r["phase"] == "context";
                    x.batch = r.number("batch_size");
                    x.tokens = x.prefill ? r.number("seq_len") : 1;
                    x.gpu = gpu;
                    x.measured_ms = r.number("latency");
                    if (gdn) {
                        x.heads = r.number("num_v_heads");
                        x.k_heads = r.number("num_k_heads");
                        x.k_dim = r.number("head_k_dim");
                        x.v_dim = r.number("head_v_dim");
                        // TensorRT-LLM's collector convolves the keys alone and keeps the state in 16 bits, as
                        // SGLang's did before 0.5.14 (collector/sglang/collect_gdn.py at 1d12d321); SGLang's since
                        // 0.5.14 and vLLM's convolve queries, keys and values (2 x keys + values) and keep it in 32
                        // bits (aiconfigurator's collector/<engine>/collect_gdn.py at the extracts' commit).
                        const bool trtllm = engine == "trtllm" || (engine == "sglang" && older(s["version"], {0, 5, 14}));
                        x.channels = x.k_heads * x.k_dim * (trtllm ? 1 : 2) + (trtllm ? 0 : x.heads * x.v_dim);
                        x.state_bytes = trtllm ? 2 : 4;
                    } else {  // Mamba-2: x, B and C convolved (nheads x head_dim + 2 x n_groups x d_state channels)
                        x.channels = r.number("nheads") * r.number("head_dim") + 2 * r.number("n_groups") * r.number("d_state");
                    }
                    linear_attention.push_back({engine, x});
                }
            } else if (is("/mla_bmm-")) {
                for (const measurements::Row& r : rows)
                    if (const auto f = kFormats.find(r["bmm_dtype"]); f != kFormats.end())
                        mla_bmm.push_back({engine, {r["op_name"] == "mla_gen_pre", r.number("num_tokens"),
                                                    r.number("num_heads"), f->second, gpu, r.number("latency")}});
            } else if (is("/scale_matrix-")) {
                for (const measurements::Row& r : rows)
                    quantize.push_back({engine, {r.number("m"), r.number("k"), gpu, r.number("latency")}});
            } else if (is("/custom_allreduce-")) {
                for (const measurements::Row& r : rows) {
                    if (r["allreduce_dtype"] != "bfloat16" || r["kernel_source"].find("eager") != std::string::npos)
                        continue;
                    engine_allreduce.push_back({engine, {roofline::Collective::all_reduce, r.number("num_gpus"),
                                                         r.number("message_size") * 2, gpu, r.number("latency")}});
                }
            } else if (is("/nccl-")) {
                for (const measurements::Row& r : rows) {
                    const auto op = roofline::parse_collective(r["op_name"]);
                    if (!op) continue;
                    // message_size counts elements (aiconfigurator's collect_nccl.py: nccl-tests' bytes over the
                    // bytes of an element).
                    const double bytes = r.number("message_size") * (r["nccl_dtype"] == "half" ? 2 : 1);
                    collectives.push_back({engine, {*op, r.number("num_gpus"), bytes, gpu, r.number("latency")}});
                }
            }
        }
    }
    Rows(const Rows&) = delete;
    Rows& operator=(const Rows&) = delete;

private:
    /// Whether a version ("0.5.10", "1.3.0rc20") comes before `than` (its leading numbers compared).
    static bool older(const std::string& version, std::initializer_list<int> than) {
        std::vector<int> v;
        for (std::size_t i = 0; i < version.size() && v.size() < than.size();) {
            if (!std::isdigit(static_cast<unsigned char>(version[i]))) break;
            std::size_t end = i;
            while (end < version.size() && std::isdigit(static_cast<unsigned char>(version[end]))) ++end;
            v.push_back(std::stoi(version.substr(i, end - i)));
            i = end < version.size() && version[end] == '.' ? end + 1 : version.size();
        }
        return std::lexicographical_compare(v.begin(), v.end(), than.begin(), than.end());
    }
    static roofline::MoeShape moe_shape_of(const measurements::Row& r, roofline::DType format) {
        return {r.number("num_tokens"),  r.number("hidden_size"), r.number("inter_size"),
                r.number("topk"),        r.number("num_experts"), r.number("moe_tp_size"),
                r.number("moe_ep_size"), r["kernel_source"].find("nongated") == std::string::npos, format};
    }
    const roofline::GpuSpec* gpu_of(const std::string& id) {
        for (const roofline::GpuSpec& g : gpus)
            if (g.id == id) return &g;
        const auto g = roofline::find_gpu(id);
        if (!g) throw std::runtime_error("SOURCES.csv: no GPU " + id + " in the catalog");
        return &gpus.emplace_back(*g);
    }
};

/// The operators of a step that a DSA module holds: the projections (qkv_proj: the indexer's among them), the attention
/// (the indexer's scores among it) and the output projection.
inline bool in_dsa_module(const roofline::Operator& op) {
    return op.name == "qkv_proj" || op.kind == roofline::OperatorKind::attention || op.name == "o_proj";
}

/// DeepSeek-V3.2's step operators of a DSA sample (all its layers).
inline std::vector<roofline::Operator> dsa_step_operators(const DsaModuleSample& s, const roofline::ModelSpec& model) {
    const roofline::DeploymentRef d{model, *s.gpu, s.weights, s.kv, model.heads / s.heads};
    return s.prefill ? roofline::prefill_operators(d, s.batch, s.tokens) : roofline::decode_operators(d, s.batch, s.tokens);
}

/// The operator model's time of one DSA module under a profile, ms: the projections (the indexer's among them), the
/// attention (the indexer's scores among it) and the output projection of DeepSeek-V3.2's step as operators.cpp counts
/// them, with tensor parallelism putting `heads` of its query heads on the GPU, over its layers (all of them DSA).
inline double model_dsa_module_ms(const DsaModuleSample& s, const roofline::Profile& profile) {
    static const roofline::ModelSpec model = *roofline::find_model("deepseek-v3.2");
    std::vector<roofline::Operator> ops = dsa_step_operators(s, model);
    roofline::estimate(ops, *s.gpu, profile);
    double ms = 0;
    for (const roofline::Operator& op : ops)
        if (in_dsa_module(op)) ms += op.ms;
    return ms / model.layers;
}

/// What a MoE layer's fused kernels take beyond a dense MLP's two multiplies at one token, µs, on one architecture:
/// kernels.json "moe_layer", the step's Profile::moe_layer (operators.hpp). For each GPU of the architecture and each
/// engine, the median over its 16-bit MoE layers of one token of their time less the experts' weights read at the
/// memory bandwidth (routing, permutation, the grouped multiplies' fixed time, the finalize), less twice the median
/// over its 16-bit multiplies of one row (1,024 to 16,384 columns and inputs) of their time less their weights'
/// read: the fixed time of the gate-and-up and down multiplies a dense MLP would run, which the profiles' cost per
/// layer (layer_us, fitted on dense models' steps) already holds. The architecture's value: the median over its
/// GPUs and engines, at least 0.
struct MoeLayerLatency {
    std::string architecture;
    double us = 0;
    std::size_t pairs = 0;  ///< (GPU, engine) pairs measured
    std::set<std::string> gpus;
};
inline std::vector<MoeLayerLatency> moe_layer_latencies(const Rows& rows) {
    using Key = std::pair<const roofline::GpuSpec*, std::string>;
    std::map<Key, std::vector<double>> moe, gemm;
    // µs to read `bytes` at the GPU's memory bandwidth.
    const auto read_us = [](double bytes, const roofline::GpuSpec& g) {
        return bytes / roofline::units::bytes_per_second_from_tbs(g.hbm_tbs) * 1e6;  // s -> µs
    };
    for (const auto& [engine, s] : rows.moe_one_token) {
        const roofline::MoeShape& m = s.shape;
        const double experts = std::min(m.experts / m.ep, m.tokens * m.topk / m.ep);  // balanced routing
        const double weights = experts * (m.gated ? 3 : 2) * m.hidden * m.inter / m.tp * 2;
        moe[{s.gpu, engine}].push_back(s.measured_ms * 1e3 - read_us(weights, *s.gpu));
    }
    for (const auto& [engine, s] : rows.gemm) {
        const roofline::GemmShape& g = s.shape;
        if (g.format != roofline::DType::bf16 || g.m != 1 || g.n < 1024 || g.n > 16384 || g.k < 1024 || g.k > 16384)
            continue;
        gemm[{s.gpu, engine}].push_back(s.measured_ms * 1e3 - read_us(g.n * g.k * 2, *s.gpu));
    }
    std::map<std::string, MoeLayerLatency> by_architecture;
    std::map<std::string, std::vector<double>> extra;
    for (const auto& [key, times] : moe) {
        const auto multiplies = gemm.find(key);
        if (multiplies == gemm.end()) continue;
        const std::string& architecture = key.first->architecture;
        extra[architecture].push_back(roofline::median(times) - 2 * roofline::median(multiplies->second));
        MoeLayerLatency& l = by_architecture[architecture];
        l.architecture = architecture;
        l.gpus.insert(key.first->id);
        ++l.pairs;
    }
    std::vector<MoeLayerLatency> out;
    for (auto& [architecture, l] : by_architecture) {
        l.us = std::max(0.0, roofline::median(extra[architecture]));
        out.push_back(l);
    }
    return out;
}

/// The datacenter Hopper and Blackwell GPUs (H100, H200, B200, GB200, B300, GB300): the GPUs whose long prefills set
/// the profiles' attention compute (profiles.json "set", attention_compute_efficiency).
inline bool datacenter_gpu(const roofline::GpuSpec& g) {
    return g.id == "h100-sxm" || g.id == "h200" || g.id == "b200" || g.id == "gb200" || g.id == "b300" || g.id == "gb300";
}

/// A long prefill's attention rate: a measured prefill attention row with a 16-bit cache, head size 128 and prompts of
/// 16,384 tokens or more, its causal FLOPs (4 x batch x heads x head size x pairs) per second over the GPU's dense BF16
/// peak; nullopt for any other row. The rows the profiles' attention compute and the architectures' ratios are set on.
inline std::optional<double> long_prefill_attention_rate(const roofline::AttentionSample& r) {
    const roofline::AttentionShape& s = r.shape;
    if (!s.prefill || s.kv != roofline::DType::bf16 || s.head_dim != 128 || s.context < 16384) return std::nullopt;
    const double flops = 4 * s.batch * s.heads * s.head_dim * s.context * (s.context + 1) / 2;
    return flops / (r.measured_ms * 1e9) / r.gpu->peak_tflops(roofline::DType::bf16);
}

/// How fast each architecture's long prefills compute attention against the datacenter GPUs': kernels.json
/// "attention_compute" (kernels.hpp, attention_compute_ratio()). The median over the architecture's GPUs and every
/// engine of long_prefill_attention_rate(), over the median of the datacenter GPUs' rows (datacenter_gpu(): the rows
/// whose median is typical's attention_compute_efficiency). Blackwell's exponentials, not its matrix units, bound a
/// long prefill's attention; Blackwell Ultra doubles their rate.
struct AttentionComputeRate {
    std::string architecture;
    double rate = 0, ratio = 0;
    std::size_t rows = 0;
    std::set<std::string> gpus;
};
inline std::vector<AttentionComputeRate> attention_compute_rates(const Rows& rows) {
    std::map<std::string, std::vector<double>> of;
    std::map<std::string, std::set<std::string>> gpus;
    std::vector<double> datacenter;
    for (const auto& [engine, r] : rows.attention)
        if (const auto rate = long_prefill_attention_rate(r)) {
            of[r.gpu->architecture].push_back(*rate);
            gpus[r.gpu->architecture].insert(r.gpu->id);
            if (datacenter_gpu(*r.gpu)) datacenter.push_back(*rate);
        }
    const double reference = roofline::median(datacenter);
    std::vector<AttentionComputeRate> out;
    for (const auto& [architecture, rates] : of)
        out.push_back({architecture, roofline::median(rates), roofline::median(rates) / reference, rates.size(),
                       gpus[architecture]});
    return out;
}

/// The fixed time of an engine's all-reduce, µs: the median of the engines' measured all-reduces (engine_allreduce:
/// TensorRT-LLM's, SGLang's and vLLM's own kernels in CUDA graphs) of at most 32,768 16-bit values (64 kB, a decode
/// step's activations of a few tokens: their time is the latency) over 2 to 8 GPUs on NVLink (interconnect above 0.1
/// TB/s; the PCIe cards' all-reduce, L40S and RTX PRO 6000, goes through the host: 5-25 µs). The step's
/// allreduce_latency_us where a profile sets it (profiles.json "set": held, not fitted).
inline double engine_allreduce_latency_us(const Rows& rows) {
    std::vector<double> us;
    for (const auto& [engine, s] : rows.engine_allreduce)
        if (s.bytes <= 32768 * 2 && s.gpus >= 2 && s.gpus <= 8 && s.gpu->interconnect_tbs > 0.1)
            us.push_back(s.measured_ms * 1e3);
    return roofline::median(us);
}

}  // namespace kernel_rows
