// Kernel models: the time of one kernel on one GPU (a matrix multiply, a collective) as a function of its shape and
// format, with a few parameters per GPU architecture and format, fitted on measured kernels (tests/data/kernels:
// aiconfigurator's databases; issue #44) by tools/fit-kernels into libroofline/catalog/kernels.json, per engine where
// the engines' kernels differ (matrix multiplies).
//
// Each model is a roofline with the terms a kernel adds to it: a fixed latency, tiles that few rows or few columns
// leave unfilled, and (in a kernel benchmark, which runs the same operands again and again) operands that come from
// the L2 cache. docs/accuracy.md, "Kernels", gives each model's error, fitted and with shapes left out.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/catalog.hpp"
#include "roofline/dtype.hpp"

namespace roofline {

/// A matrix multiply on one GPU: C[m, n] = A[m, k] x B[k, n], A and B in `format` (the activations quantized to it,
/// as the kernels measured run them; a weight-only format, int8 or int4, has its weights B in it and A in 16 bits),
/// C in 16 bits.
struct GemmShape {
    double m = 0, n = 0, k = 0;
    DType format = DType::bf16;
};

/// The parameters of one architecture's multiplies in one format.
struct GemmKernel {
    double compute_efficiency = 1;    ///< of the format's dense peak (GpuSpec::peak_tflops) in a large multiply
    double half_rows = 0;             ///< rows m at which a multiply reaches half of it: x m / (m + half_rows)
    double half_columns = 0;          ///< columns n at which it reaches half of it: x n / (n + half_columns)
    double bandwidth_efficiency = 1;  ///< of the memory bandwidth, with many columns
    /// Columns at which the operands' read reaches half of bandwidth_efficiency: a multiply of few columns keeps few
    /// of the GPU's multiprocessors reading (one tile of columns each), whatever its rows.
    double half_columns_memory = 0;
    double latency_us = 0;            ///< fixed time of the kernel (its launch within a graph, its tail)
    /// Operands that fit in the L2 come at this multiple of the bandwidth when the cache is warm (a benchmark's
    /// repeated calls). A model's step reads each layer's weights once: gemm_kernel_ms(..., warm_l2 = false).
    double l2_speedup = 1;
    /// The output tile a kernel's thread block computes, rows and columns (CUTLASS's and cuBLAS's 64 to 256).
    double tile = 128;
    /// Output tiles at which a multiply reaches half of its rate, both roofs: a multiply of few tiles of C keeps few
    /// multiprocessors working (a split of k over more of them recovers part); 0: no such term.
    double half_tiles = 0;
};

/// The time of one multiply, ms: latency + max(FLOPs / (peak x efficiency x rows' and columns' fill), bytes /
/// (bandwidth x efficiency x columns' fill)) x (t + half_tiles) / t, t = ceil(m / tile) x ceil(n / tile) the output
/// tiles; with `warm_l2`, the bytes up to the GPU's L2 (128 MB where the catalog gives none) at l2_speedup times the
/// rate.
double gemm_kernel_ms(const GemmShape& shape, const GpuSpec& gpu, const GemmKernel& kernel, bool warm_l2 = false);

/// A MoE layer's routed experts on one GPU, as one fused kernel runs them (TensorRT-LLM's CUTLASS and DeepGEMM MoE):
/// `tokens` tokens on the GPU (each GPU of ep sees them all, as with tensor-parallel attention before the experts),
/// each routed to `topk` of `experts` experts, balanced; the experts spread over `ep` GPUs, each split over `tp`;
/// each expert's MLP gated (gate and up, then down: 3 hidden x inter weights) or not (2).
struct MoeShape {
    double tokens = 0, hidden = 0, inter = 0, topk = 0, experts = 0, tp = 1, ep = 1;
    bool gated = true;
    DType format = DType::bf16;
};

/// The parameters of one architecture's fused MoE kernel in one format.
struct MoeKernel {
    double compute_efficiency = 1;    ///< of the format's dense peak, with many rows per expert and many tiles
    double half_rows = 0;             ///< rows (tokens) per expert at which half of it is reached
    double bandwidth_efficiency = 1;  ///< of the memory bandwidth, reading the experts' weights
    /// Each expert's columns on the GPU (inter / tp) at which the weights' read reaches half of bandwidth_efficiency:
    /// an expert split thin over many GPUs keeps few multiprocessors reading each.
    double half_columns = 0;
    double latency_us = 0;            ///< fixed time of the layer's kernels (routing, permutation, the two multiplies)
    double expert_us = 0;             ///< time of each expert the GPU runs (a tile schedule of its own)
    /// Passes over a token's hidden activations (16 bits) for each expert it is routed to on the GPU: gathered to its
    /// experts, quantized, the multiplies' inputs and outputs, scattered back and summed.
    double activation_passes = 0;
    /// Rows of an expert's tile in the grouped multiplies: each expert's rows are computed in whole tiles of them
    /// (ceil(r / tile_rows) x tile_rows), so few tokens an expert waste most of a tile. 0: no such padding.
    double tile_rows = 0;
    /// Output tiles at which each grouped multiply (the gate and up projections, (matrices - 1) x w columns; the down
    /// projection, hidden columns) reaches half its compute rate, counted in tiles of kMoeOutputTile x kMoeOutputTile
    /// (each expert's rows in whole tiles): few tiles keep few multiprocessors working, and each wave's last tiles
    /// leave some idle. 0: no such term.
    double half_tiles = 0;
};

/// The rows and columns of the output tile that MoeKernel::half_tiles counts (CUTLASS's grouped multiplies' common
/// 128 x 128; the fitted half_tiles carries what other tiles change).
inline constexpr double kMoeOutputTile = 128;

/// The time of one MoE layer's experts, ms: latency + max(FLOPs / (peak x efficiency x r / (r + half_rows)), weights
/// of the experts touched / (bandwidth x efficiency x w / (w + half_columns))) + activation_passes x assignments x hidden x 2 bytes / bandwidth
/// + expert_us x experts touched, where a GPU runs tokens x topk / ep assignments over min(experts / ep, tokens x
/// topk / ep) experts (balanced routing), r = assignments / experts touched, w = inter / tp; the FLOPs of each expert's
/// rows in whole tiles of tile_rows; each grouped multiply's FLOPs at (t + half_tiles) / t of its time, t its output
/// tiles (MoeKernel::half_tiles).
double moe_kernel_ms(const MoeShape& shape, const GpuSpec& gpu, const MoeKernel& kernel);

/// Attention of one GPU over its heads, as a fused kernel runs it (FlashAttention, FlashInfer, TensorRT-LLM's XQA and
/// FMHA): `batch` sequences, `heads` query heads and `kv_heads` key-value heads of `head_dim` on the GPU. Decode
/// (`prefill` false): one new token each over `context` cached tokens; prefill: causal over a prompt of `context`.
/// DeepSeek's MLA (mla_shape()) sets the dimensions apart: scores over qk_dim, values of v_dim, and cache_values
/// values a token holds per key-value head.
struct AttentionShape {
    double batch = 1, context = 0, heads = 0, kv_heads = 0, head_dim = 128;
    DType kv = DType::bf16;  ///< the KV cache's format
    bool prefill = false;
    double qk_dim = 0;        ///< dimensions of a score's dot product; 0: head_dim
    double v_dim = 0;         ///< dimensions of a value; 0: head_dim
    double cache_values = 0;  ///< values of one token per key-value head in the cache; 0: K and V, 2 x head_dim

    /// The three above with their defaults applied: what every count of attention's FLOPs and bytes uses.
    double qk() const noexcept { return qk_dim > 0 ? qk_dim : head_dim; }
    double v() const noexcept { return v_dim > 0 ? v_dim : head_dim; }
    double cached() const noexcept { return cache_values > 0 ? cache_values : 2 * head_dim; }
    /// Score and value FLOPs of one pair (a query and a key) of one head: 2 x (qk + v).
    double flops_per_pair() const noexcept { return 2 * (qk() + v()); }
};

/// DeepSeek's multi-head latent attention (DeepSeek-V3/R1, Kimi K2: a latent of `latent` values and a rotary key of
/// `rope` per token; heads of `nope` + `rope` query/key and `v` value dimensions) of `heads` heads on one GPU, as the
/// engines run it: decode absorbed over the latent cache (multi-query: one cached latent of latent + rope values read
/// for all heads, scores over latent + rope, values of latent), prefill as multi-head attention (scores over nope +
/// rope, values of v; the latent written once per token).
AttentionShape mla_shape(double batch, double context, double heads, DType kv, bool prefill, double latent = 512,
                         double rope = 64, double nope = 128, double v = 128);

/// The parameters of one architecture's attention kernel in one phase.
struct AttentionKernel {
    double compute_efficiency = 1;    ///< of the 16-bit dense peak (the score and value products)
    double bandwidth_efficiency = 1;  ///< of the memory bandwidth, reading the cache
    /// Work units at which half of the GPU's rate is reached (few sequences of few heads keep few multiprocessors
    /// busy): decode, sequences x key-value heads x (1 + context / split_tokens) (flash decoding's blocks of the
    /// context); prefill, sequences x query heads x ceil(context / split_tokens) (tiles of queries).
    double half_units = 0;
    double split_tokens = 64;  ///< tokens of a work unit's block (decode: of the context; prefill: of queries)
    double latency_us = 0;    ///< fixed time of the kernel
    double sequence_us = 0;   ///< time of each sequence (its metadata, its cache's pages)
    /// Passes over each new token's queries, keys and values in 16 bits (the rotary embedding, the cache's write, the
    /// queries' and outputs' reads and writes).
    double token_passes = 0;
    /// The softmax's work on each score (its exponential on the special-function units, whose rate is a small
    /// fraction of the tensor cores', its maximum and scaling), as dimensions of the products at the 16-bit peak:
    /// a pair costs 2 x (qk_dim + v_dim + pair_dims) FLOPs. It weighs most on small heads.
    double pair_dims = 0;
    /// Decode of more than kLargestSharedGroup query heads a key-value head: the share of the extra reads of the cache
    /// by each query head, 1 + large_group_reads x (group - 1) reads in all (TensorRT-LLM's XQA kernels share one read
    /// among at most 32 query heads; larger groups run as multi-head attention). 0: one read whatever the group.
    double large_group_reads = 0;
    /// A kernel benchmark's warm L2 (attention_kernel_ms(..., warm_l2 = true)): the bytes, where all of them fit in
    /// the GPU's L2, come at this multiple of the bandwidth; where they do not, from memory (a cyclic read larger than
    /// the cache hits nothing). A model's step reads each layer's cache once, among the weights: not warm.
    double l2_speedup = 1;
    /// Decode: the query heads a key-value head shares are the rows of the products' tiles, computed in whole tiles of
    /// group_tile rows (Hopper's wgmma: 64; FlashMLA pads its heads to 64): a small group wastes most of a tile.
    /// 1: no such padding.
    double group_tile = 1;
    /// Time of each sequence's key-value head, µs: a block of the kernel's grid (its setup, its pages, its first loads)
    /// that even a sequence of one token pays, where a GQA kernel packs a key-value head's query heads into one block
    /// (SGLang's 64 sequences of one token over 64 key-value heads take 0.15 ms on A100, over one 0.016).
    double kv_head_us = 0;
};

/// The largest group of query heads a key-value head that decode kernels share one read of the cache among
/// (AttentionKernel::large_group_reads).
inline constexpr double kLargestSharedGroup = 32;

/// The time of one attention kernel, ms: latency + batch x (sequence_us + kv_heads x kv_head_us) + max(FLOPs / (peak x
/// efficiency), bytes / (bandwidth x efficiency)) / (u / (u + half_units)), where u is the work units
/// (AttentionKernel::half_units). FLOPs: 2 x batch x heads x (qk_dim + v_dim + pair_dims) x pairs; decode: context
/// pairs, each key-value head's group of query heads in whole tiles of group_tile; prefill: context x (context +
/// split_tokens) / 2, the causal pairs in whole tiles. Bytes: the cache's values read once (large groups:
/// AttentionKernel::large_group_reads) and token_passes over each new token's Q, K and V; with `warm_l2`, all of them at
/// l2_speedup times the bandwidth where they fit in the GPU's L2 (128 MB where the catalog gives none).
double attention_kernel_ms(const AttentionShape& shape, const GpuSpec& gpu, const AttentionKernel& kernel,
                           bool warm_l2 = false);

/// The collectives of nccl-tests.
enum class Collective { all_reduce, all_gather, reduce_scatter, alltoall };
std::string_view to_string(Collective c) noexcept;
/// "all_reduce" -> Collective::all_reduce (nccl-tests' and aiconfigurator's names); nullopt for another name.
std::optional<Collective> parse_collective(std::string_view name) noexcept;

/// The parameters of one architecture's collective of one kind over one number of GPUs.
struct CollectiveKernel {
    double bus_efficiency = 1;  ///< of the interconnect's bandwidth per direction (GpuSpec::interconnect_tbs)
    double latency_us = 0;      ///< fixed time of the collective
    /// Small messages go by a protocol of lower latency and lower rate (NCCL's LL and LL128, which send flags with the
    /// data): its latency as a share of latency_us, and its efficiency as a share of bus_efficiency (0: no such
    /// protocol). NCCL takes whichever is faster for the size.
    double small_latency_share = 0;
    double small_efficiency_share = 0;
};

/// The time of one collective over `gpus` GPUs of a scale-up domain, ms: latency + bytes x factor / (interconnect x
/// efficiency), or the small messages' protocol's time where it is shorter (CollectiveKernel::small_latency_share),
/// with nccl-tests' bus factor (all-reduce 2 (g - 1) / g, the others (g - 1) / g) and its size: the all-reduce's
/// buffer, the all-gather's output, the reduce-scatter's input, the all-to-all's buffer of each GPU.
double collective_kernel_ms(Collective op, double gpus, double bytes, const GpuSpec& gpu,
                            const CollectiveKernel& kernel);

/// The fitted kernel models of the catalog (catalog/kernels.json): a multiply's of an engine (aiconfigurator's names:
/// "trtllm", "sglang", "vllm"), an architecture (GpuSpec::architecture) and a format; a collective's (NCCL's) of an
/// architecture, a kind and a number of GPUs. nullptr where none was fitted (no measured kernel of that architecture,
/// or measurements the model cannot describe: kernels.json "not_fitted" says why).
const GemmKernel* find_gemm_kernel(std::string_view engine, std::string_view architecture, DType format);
const MoeKernel* find_moe_kernel(std::string_view engine, std::string_view architecture, DType format);
/// An attention kernel's of an engine, architecture, phase and KV cache format.
const AttentionKernel* find_attention_kernel(std::string_view engine, std::string_view architecture, bool prefill,
                                             DType kv);
/// An MLA attention kernel's (mla_shape()) of an engine, architecture, phase and KV cache format.
const AttentionKernel* find_mla_kernel(std::string_view engine, std::string_view architecture, bool prefill, DType kv);
const CollectiveKernel* find_collective_kernel(std::string_view architecture, Collective op, double gpus);

/// The GPU's L2 cache, bytes: the catalog's l2_mb, or 128 MB where it gives none. What a kernel benchmark's operands
/// may come from when it calls the same kernel again and again (gemm_kernel_ms' warm_l2; the bound tests).
double l2_bytes(const GpuSpec& gpu) noexcept;

/// What a MoE layer's fused kernels take beyond a dense MLP's two multiplies, µs, on GPUs of an architecture
/// (kernels.json "moe_layer", from every engine's measured MoE layers and multiplies of one token: tools/kernel_rows.hpp,
/// moe_layer_latencies()): the routing, the tokens' permutation, the grouped multiplies' fixed time and the finalize.
/// The step adds it to each MoE layer under a profile that sets Profile::moe_layer. 0 for an architecture without
/// measured kernels (AMD's CDNA, DGX Spark's GB10).
double moe_layer_us(std::string_view architecture);

/// How fast a long prefill's attention computes on GPUs of an architecture against the datacenter Hopper and
/// Blackwell GPUs' median (kernels.json "attention_compute", from every engine's measured prefill attention of 16,384
/// tokens or more: tools/kernel_rows.hpp, attention_compute_rates()): B200's exponentials bound it below Hopper's,
/// B300's twice as fast go above. A profile's attention_compute_efficiency (that median's rate) is scaled by it
/// (operators.hpp, attention_roof()). 1 for an architecture without measured kernels (AMD's CDNA: its variants set
/// their own rate).
double attention_compute_ratio(std::string_view architecture);

// ---- Fitting (tools/fit-kernels, bench/kernel-accuracy) ----

/// One measured multiply.
struct GemmSample {
    GemmShape shape;
    const GpuSpec* gpu = nullptr;
    double measured_ms = 0;
};
/// One measured MoE layer.
struct MoeSample {
    MoeShape shape;
    const GpuSpec* gpu = nullptr;
    double measured_ms = 0;
};
/// One measured attention kernel.
struct AttentionSample {
    AttentionShape shape;
    const GpuSpec* gpu = nullptr;
    double measured_ms = 0;
};
/// One measured collective.
struct CollectiveSample {
    Collective op = Collective::all_reduce;
    double gpus = 2, bytes = 0;
    const GpuSpec* gpu = nullptr;
    double measured_ms = 0;
};

/// A parameter of a kernel model the fitter fits, with the limits it keeps it in (a fit at a limit is the model
/// telling that it misses something, as docs/accuracy.md says of each) and its unit (kernels.json "units" is written
/// from these tables: one parameter's name has one unit in every kind).
struct KernelParameter {
    std::string_view json;
    std::string_view unit;
    double lo, hi;
    /// Its lower limit leaves its term out (a latency of 0, no fill term, no L2 speedup): a fit there finds no such
    /// effect, not a model that misses one. An efficiency's limits, and the upper ones, are not.
    bool lo_leaves_out = false;
};
namespace kernel_units {
inline constexpr std::string_view compute =
    "fraction of the catalog's peak in the format it computes in (attention's: BF16)";
inline constexpr std::string_view bandwidth = "fraction of the catalog's memory bandwidth";
inline constexpr std::string_view us = "µs";
inline constexpr std::string_view rows = "rows (tokens)";
inline constexpr std::string_view columns = "columns (output features of one GPU)";
inline constexpr std::string_view l2 = "multiple of the memory bandwidth (a benchmark's warm L2)";
}  // namespace kernel_units
inline constexpr KernelParameter kGemmParameters[] = {
    {"compute_efficiency", kernel_units::compute, 0.25, 1.0},
    {"half_rows", kernel_units::rows, 0, 2048, true},
    {"half_columns", kernel_units::columns, 0, 2048, true},
    {"bandwidth_efficiency", kernel_units::bandwidth, 0.5, 1.0},
    {"half_columns_memory", kernel_units::columns, 0, 32768, true},
    {"latency_us", kernel_units::us, 0, 50, true},
    {"l2_speedup", kernel_units::l2, 1, 10, true},
    {"tile", "rows and columns of an output tile", 64, 256},
    {"half_tiles", "output tiles", 0, 256, true},
};
inline constexpr KernelParameter kMoeParameters[] = {
    {"compute_efficiency", kernel_units::compute, 0.1, 1.0},
    {"half_rows", kernel_units::rows, 0, 512, true},
    {"bandwidth_efficiency", kernel_units::bandwidth, 0.3, 1.0},
    {"half_columns", kernel_units::columns, 0, 8192, true},
    {"latency_us", kernel_units::us, 0, 100, true},
    {"expert_us", "µs (each expert the GPU runs)", 0, 10, true},
    {"activation_passes", "passes over a token's hidden activations in 16 bits", 0, 40, true},
    {"tile_rows", "rows (tokens) of an expert's tile", 1, 256, true},
    {"half_tiles", "output tiles", 0, 2048, true},
};
inline constexpr KernelParameter kAttentionParameters[] = {
    {"compute_efficiency", kernel_units::compute, 0.1, 1.0},
    {"bandwidth_efficiency", kernel_units::bandwidth, 0.3, 1.0},
    {"half_units", "work units (sequences x heads x blocks)", 0, 4096, true},
    {"split_tokens", "tokens (a decode block of the context; a prefill tile of queries)", 16, 16384},
    {"latency_us", kernel_units::us, 0, 50, true},
    {"sequence_us", "µs (each sequence)", 0, 20, true},
    {"token_passes", "passes over a new token's Q, K and V in 16 bits", 0, 40, true},
    {"pair_dims", "dimensions of the products per score (2 FLOPs each)", 0, 512, true},
    {"large_group_reads", "share of the extra reads of the cache by each query head", 0, 1, true},
    {"l2_speedup", kernel_units::l2, 1, 10, true},
    {"group_tile", "rows (query heads) of a decode tile", 1, 128, true},
    {"kv_head_us", "µs (each sequence's key-value head)", 0, 2, true},
};
inline constexpr KernelParameter kCollectiveParameters[] = {
    {"bus_efficiency", "fraction of the interconnect's bandwidth per direction", 0.05, 1.0},
    {"latency_us", kernel_units::us, 0, 200, true},
    {"small_latency_share", "share of latency_us (small messages' protocol)", 0, 1},
    {"small_efficiency_share", "share of bus_efficiency (small messages' protocol)", 0, 1, true},
};
/// The median error with shapes left out each kind's models aim at, % (issue #44: the multiplies, MoE layers and
/// attention within 10%, the collectives within 15%). fit-kernels counts the models within it (kernels.json
/// "targets_percent" and "summary"), in kernels.json's order of the kinds.
struct KernelTarget {
    std::string_view kind;
    int percent;
};
inline constexpr KernelTarget kKernelTargets[] = {
    {"gemm", 10}, {"moe", 10}, {"attention", 10}, {"mla", 10}, {"collectives", 15},
};
std::vector<double> parameters_of(const GemmKernel& k);
GemmKernel gemm_kernel_of(const std::vector<double>& parameters);
std::vector<double> parameters_of(const MoeKernel& k);
MoeKernel moe_kernel_of(const std::vector<double>& parameters);
std::vector<double> parameters_of(const AttentionKernel& k);
AttentionKernel attention_kernel_of(const std::vector<double>& parameters);
std::vector<double> parameters_of(const CollectiveKernel& k);
CollectiveKernel collective_kernel_of(const std::vector<double>& parameters);

/// The parameters that minimise the sum of |log(predicted / measured)| over the samples (measured with a warm L2).
/// Attention's fits hold what their rows cannot identify at its lower limit: prefill rows decode's terms (not the warm
/// L2: a prefill's Q, K and V outgrow it in many rows), rows of one head shape (MLA's, whose latent all heads share)
/// pair_dims and large_group_reads, GQA decode rows group_tile, rows of one count of key-value heads (MLA's decode)
/// kv_head_us (kernels.cpp, fit_attention_kernel()).
GemmKernel fit_gemm_kernel(const std::vector<GemmSample>& samples);
MoeKernel fit_moe_kernel(const std::vector<MoeSample>& samples);
AttentionKernel fit_attention_kernel(const std::vector<AttentionSample>& samples);
CollectiveKernel fit_collective_kernel(const std::vector<CollectiveSample>& samples);

/// Median absolute percentage error of a model on samples.
double gemm_mdape_percent(const std::vector<GemmSample>& samples, const GemmKernel& kernel);
double moe_mdape_percent(const std::vector<MoeSample>& samples, const MoeKernel& kernel);
double attention_mdape_percent(const std::vector<AttentionSample>& samples, const AttentionKernel& kernel);
double collective_mdape_percent(const std::vector<CollectiveSample>& samples, const CollectiveKernel& kernel);

}  // namespace roofline
