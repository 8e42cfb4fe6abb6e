// The per-operator roofline of one decode step and of a prefill, for a model from the catalog on a GPU.
//
// Each operator (projections, attention, MLP or experts, norms, embedding, lm_head, and with tensor
// parallelism the all-reduces) sits on its own roofline: its time is max(FLOPs / peak, bytes /
// bandwidth) on one GPU of the `tp` that share it, or its bytes over the interconnect for an
// all-reduce. The step takes the sum of its operators plus the profile's fixed overhead.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "roofline/catalog.hpp"
#include "roofline/dtype.hpp"
#include "roofline/roofline.hpp"

namespace roofline {

/// Achieved fractions of the hardware and fixed costs (docs/accuracy.md, "Profiles"). `bound` is every
/// efficiency 1, every cost 0: a true lower bound.
struct Profile {
    std::string name;
    double bandwidth_efficiency = 1;     ///< fraction of the memory bandwidth reached
    double compute_efficiency = 1;       ///< fraction of the dense peak that large matrix multiplies reach
    double interconnect_efficiency = 1;  ///< fraction of the interconnect bandwidth reached
    double step_overhead_ms = 0;         ///< fixed cost of each forward pass (scheduling, sampling, launches)
    double allreduce_latency_us = 0;     ///< fixed cost of each all-reduce, all-gather and pipeline transfer
    /// Expert parallelism: tokens of the busiest GPU's experts over the mean (>= 1; bound: 1). It multiplies the
    /// experts' FLOPs and activations when ep > 1 (docs/serving-model.md, "Layouts").
    double expert_imbalance = 1;
    /// Expert parallelism's traffic (dispatch, combine and the gathers around them) overlapped with the step's other
    /// work, as engines do with two micro-batches in flight (SGLang's two-batch overlap, DeepEP): the step takes the
    /// longer of the two. bound: true (no engine hides more); the fitted profiles: false unless profiles.json says so.
    bool overlap_expert_traffic = false;
    /// All-reduces within a scale-up domain whose switches reduce (GpuSpec::switch_reduction: NVLink SHARP, NCCL's
    /// NVLS) send (p - 1) / p of their data per GPU and direction, half a ring's 2 (p - 1) / p. bound: true (a
    /// measured NVLS all-reduce beats a ring's roofline); the fitted profiles: false (their interconnect efficiency is
    /// fitted on the ring's bytes).
    bool switch_reduction = false;
    /// Tokens at which a matrix multiply reaches half of compute_efficiency: a multiply of m tokens runs at
    /// compute_efficiency x m / (m + mfu_half_tokens) of the peak (small decode batches reach far less of it than
    /// large prefills). 0: every multiply at compute_efficiency (bound; profile texts of 0.8).
    double mfu_half_tokens = 0;
    /// Fraction of the memory bandwidth (as the other operators reach it) that attention kernels reach, and of the
    /// compute roof where attention_compute_efficiency is 0: 1 = as well as the matrix multiplies.
    double attention_efficiency = 1;
    /// Fraction of the dense peak of its compute dtype that attention's score and value products reach, set from
    /// measured attention kernels (profiles.json "set", per vendor), not fitted: with it, attention_efficiency
    /// scales only attention's memory roof (the cache's read). The datacenter Hopper and Blackwell GPUs' median:
    /// since 0.15 each GPU architecture's measured ratio to it scales it (kernels.hpp, attention_compute_ratio()).
    /// 0: compute_efficiency x attention_efficiency, as before 0.14 (bound; profile texts without `attn_compute`).
    double attention_compute_efficiency = 0;
    /// Fixed cost of each layer in each forward pass, µs (kernel launches; engines that capture graphs pay little).
    double layer_overhead_us = 0;
    /// Fixed cost of each all-to-all (expert parallelism's dispatch and combine), µs.
    double alltoall_latency_us = 0;
    /// Fixed cost of each routed expert a MoE layer runs on a GPU in each forward pass, µs: engines that launch
    /// the matrix multiplies of each expert apart (llama.cpp) pay it per expert the tokens pick; engines with one
    /// fused MoE kernel pay next to nothing. 0: none (bound; profile texts before 0.10).
    double expert_overhead_us = 0;
    /// The fixed time a MoE layer's fused kernels take beyond a dense MLP's two multiplies (routing, the tokens'
    /// permutation, the grouped multiplies' own fixed time, the finalize), measured per GPU architecture
    /// (kernels.hpp, moe_layer_us()), times this: set, not fitted (profiles.json "set"): 1 in the profiles of engines
    /// whose fused MoE kernels were measured. 0: none (bound; llama.cpp, which pays expert_overhead_us instead; profile
    /// texts before 0.14). An architecture without measured kernels adds nothing.
    double moe_layer = 0;
    /// A sparse layer's prefill (DeepSeek's DSA) gathers each query's top-k cached entries for it alone
    /// (Operator::gather_bytes), times this: set, not fitted (profiles.json "set"): 1 in the profiles of the engines
    /// whose DSA kernels were measured (aiconfigurator's DeepSeek-V3.2 modules: docs/accuracy.md). 0: the cache read
    /// once (bound: a kernel may keep a short context's entries in the L2; profile texts before 0.14).
    double sparse_gather = 0;
    /// Fraction of the 16-bit dense peak at which a delta-rule state layer (gated DeltaNet, KDA) computes its
    /// recurrence (Operator::recurrence_flops), set from the measured kernels (profiles.json "set": the chunked
    /// recurrence's Triton and FlashInfer kernels of the engines, 2-10% of the peak), not fitted. 0: at the profile's
    /// compute roof like a matrix multiply (bound; profile texts before 0.15).
    double state_compute_efficiency = 0;
    /// Engine limits of the serving model (docs/serving-model.md, section 2), set from each engine's documented
    /// defaults, not fitted: the most sequences one scheduler runs at once (vLLM max_num_seqs, SGLang
    /// --max-running-requests, TensorRT-LLM max_batch_size) and the most tokens one iteration carries, decode and
    /// prefill together (vLLM max_num_batched_tokens, SGLang --chunked-prefill-size, TensorRT-LLM max_num_tokens).
    /// Each attention group (dp_attention) runs a scheduler of its own. 0: no limit (bound; profile texts before 0.11).
    double max_running_seqs = 0;
    double max_iteration_tokens = 0;
    /// Fraction of the network's rate (GpuSpec::scaleout_tbs) that traffic leaving the scale-up domain reaches, set
    /// from a measurement, not fitted (no calibration row spans nodes): 0 = interconnect_efficiency's, as before 0.12.
    double scaleout_efficiency = 0;
    /// The profile a GPU of another vendor runs under (profiles.json "vendors"): the same name, the parameters fitted
    /// on that vendor's measurements. Each vendor's name in lower case ("amd"). Empty: one set of parameters for every GPU.
    std::vector<std::pair<std::string, std::shared_ptr<const Profile>>> vendors;

    /// The parameters for a GPU of this vendor (GpuSpec::vendor, compared in lower case): a variant's, else these.
    const Profile& for_vendor(std::string_view vendor) const noexcept;
};

/// The profile of a name ("bound" and those fitted on published measurements, profiles.json), or of a
/// profile text (calibrate.hpp, "fit(...): bw=..."; its name is the text); nullptr when no profile has that
/// name. A malformed profile text throws Error naming its parameter.
const Profile* find_profile(std::string_view name);
std::vector<std::string> profile_names();
/// Adds (or replaces) the named profiles of a catalog's JSON text, its "profiles" member (absent: none):
/// [{"id": "lab-vllm", "profile": "fit(...): bw=..., ...", "source": "..."}], each a profile text as
/// ROOFLINE_CALIBRATE writes one under a name of its own (1 to 100 characters, not a built-in profile's).
/// find_profile() finds them by name after the built-ins. Returns how many; throws Error (argument
/// `argument`) naming the entry and the parameter at fault, adding none of the file's. With `add` false: only checks.
std::size_t add_named_profiles(std::string_view catalog_json, const std::string& argument = "catalog_json",
                               bool add = true);

/// What bounds an operator's time. One byte: it sits beside Operator's flags (see Operator's last fields).
enum class Resource : unsigned char { compute, memory, interconnect, overhead };
std::string_view to_string(Resource r) noexcept;

/// What an operator is, where a profile or the serving model treats it apart from the others; set where the operator
/// model builds it (operators.cpp), and matched on everywhere instead of its name (a name is output only).
enum class OperatorKind : unsigned char {
    other,      ///< a matrix multiply of every token (projections, a dense MLP, the router, shared experts), norms,
                ///< the embedding
    attention,  ///< attention over the cache (the profile's attention_efficiency and attention_compute_efficiency)
    alltoall,   ///< expert parallelism's dispatch and combine (the profile's alltoall_latency_us)
    lm_head,    ///< the output projection: a token of each sequence (a prompt's last), not every token
    experts,    ///< the routed experts: only those the tokens pick are read
    state,      ///< the state layers (linear attention, state-space): each sequence's state read and written once
    allreduce,  ///< the all-reduces of tensor parallelism (the profile's allreduce_latency_us)
    allgather,  ///< the gathers around data-parallel attention (the profile's allreduce_latency_us)
    pipeline,   ///< the transfers between pipeline stages (the profile's allreduce_latency_us)
    overhead,   ///< the profile's fixed costs (estimate() appends it)
};

/// One operator of a step, summed over the layers, as one GPU of `tp` runs it.

struct Operator {
    std::string_view name;      ///< a literal ("qkv_proj", "attention", ...): static storage, never freed
    double flops = 0;           ///< on one GPU
    double bytes = 0;           ///< moved to or from memory on one GPU
    double link_bytes = 0;      ///< sent to other GPUs by one GPU (collectives, pipeline transfers)
    double scaleout_bytes = 0;  ///< the part of link_bytes that leaves the scale-up domain (over the network)
    double count = 0;           ///< how many kernels it stands for in a layer: all-reduces (in all layers, on a
                                ///< link operator), the distinct experts a GPU runs (the routed experts)
    double tokens = 0;          ///< rows of its matrix multiply (the profile's mfu_half_tokens); 0: not one
    /// Work of turning its weights from a weight-only format (int8, int4, q8_0, q4_0, q4_k_m: stored in fewer bits
    /// than it computes in) into its compute dtype, FLOP-equivalents, where a multiply of few rows runs on the vector
    /// units (estimate()); 0 for weights in their compute dtype.
    double dequant_flops = 0;
    /// Of flops, those computed in FP8 whatever `compute` is (attention: a sparse layer's indexer scoring the cached
    /// keys in FP8, IndexerSpec::fp8_scores), at the FP8 peak where the GPU has one (timed_flops()).
    double fp8_flops = 0;
    /// Bytes of the cache that each query gathers for itself, beyond `bytes` (attention: a sparse layer's prefill, each
    /// query reading its own top-k cached entries, no two queries sharing the read), timed where the profile counts
    /// them (Profile::sparse_gather, timed_bytes()).
    double gather_bytes = 0;
    /// Of flops, those of a delta-rule state layer's recurrence and convolution (gated DeltaNet, KDA), computed at
    /// Profile::state_compute_efficiency of the 16-bit dense peak where the profile sets it (timed_flops()).
    double recurrence_flops = 0;
    double layers = 0;          ///< layers it runs in, once each a forward pass (the profile's layer_overhead_us
                                ///< counts the most of any operator: the step's layers)
    DType compute = DType::bf16;
    OperatorKind kind = OperatorKind::other;
    bool expert_parallel = false;  ///< the routed experts spread over ep > 1 GPUs: the profile's imbalance applies,
                                   ///< or (on a link operator) traffic of expert parallelism that the profile may overlap
    /// Works on one attention group's tokens (the token mixers, the projections and norms beside them, what a GPU
    /// dispatches): with data-parallel attention, an iteration waits for its busiest group (serving.cpp).
    bool local = false;
    // Filled by estimate() (`bound` beside the flags above, in their padding: the struct stays at 120 bytes, which a
    // new one's zeroing takes in a few vector stores; at 128 GCC zeroes it with `rep stos`, a quarter slower per step,
    // bench/speed; operators.cpp holds it there):
    Resource bound = Resource::memory;
    double ms = 0;
};

/// How the `tp` GPUs of a replica share the model (docs/serving-model.md, "Layouts"). The replica's GPUs form
/// `pp` pipeline stages of tp / pp GPUs, each holding layers / pp of the layers; within a stage the token
/// mixers (attention, state layers) run in `dp_attention` groups of tp / (pp dp_attention) GPUs in tensor
/// parallel, each group with its own sequences and their KV cache; the routed experts are spread over `ep`
/// GPUs, each expert in tensor parallel over tp / (pp ep); dense MLPs, embedding and lm_head are in tensor
/// parallel over the stage. All 1: tensor parallelism over the tp GPUs.
struct Layout {
    double ep = 1;            ///< expert parallelism: a divisor of tp / pp
    double dp_attention = 1;  ///< data-parallel attention groups: a divisor of tp / pp
    double pp = 1;            ///< pipeline stages: a divisor of tp
    bool trivial() const noexcept { return ep == 1 && dp_attention == 1 && pp == 1; }
};

/// What runs: the model, its dtypes, and how many GPUs share it.
struct Deployment {
    ModelSpec model;
    GpuSpec gpu;
    DType weights = DType::bf16;
    DType kv = DType::bf16;
    double tp = 1;
    DType experts = DType::bf16;    ///< as DeploymentRef's
    DType embedding = DType::bf16;
    Layout layout;                  ///< how the tp GPUs share the model
    Deployment() = default;
    Deployment(ModelSpec m, GpuSpec g, DType w, DType k, double t)
        : model(std::move(m)), gpu(std::move(g)), weights(w), kv(k), tp(t), experts(w), embedding(w) {}
};

/// A deployment as the operator model reads it: the model and the GPU by reference (catalog entries are
/// not copied on every formula call). A Deployment converts to one; it must outlive the call.
struct DeploymentRef {
    const ModelSpec& model;
    const GpuSpec& gpu;
    DType weights = DType::bf16;  ///< the linear layers' format (attention, dense MLPs, shared experts)
    DType kv = DType::bf16;
    double tp = 1;
    DType experts = DType::bf16;    ///< the routed experts' format (one format for all: = weights)
    DType embedding = DType::bf16;  ///< the embedding's and lm_head's format (one format for all: = weights)
    Layout layout;                  ///< how the tp GPUs share the model (all 1: tensor parallelism)

    /// One format for every weight.
    DeploymentRef(const ModelSpec& m, const GpuSpec& g, DType w, DType k, double t) noexcept
        : model(m), gpu(g), weights(w), kv(k), tp(t), experts(w), embedding(w) {}
    /// The checkpoint's own formats, per module (weight format "native").
    static DeploymentRef native(const ModelSpec& m, const GpuSpec& g, DType k, double t) noexcept {
        DeploymentRef d(m, g, m.native_linear, k, t);
        d.experts = m.native_experts;
        d.embedding = m.native_embedding;
        return d;
    }
    DeploymentRef(const Deployment& d) noexcept  // NOLINT: implicit, for every caller that holds a Deployment
        : model(d.model), gpu(d.gpu), weights(d.weights), kv(d.kv), tp(d.tp), experts(d.experts),
          embedding(d.embedding), layout(d.layout) {}
};

/// The most operators a step has (estimate() included): the capacity to reserve.
inline constexpr std::size_t kMaxOperators = 17;

/// The operators of one decode step: `batch` sequences, one new token each, `ctx` tokens of context.
std::vector<Operator> decode_operators(const DeploymentRef& d, double batch, double ctx);
/// The operators of a prefill of `batch` prompts of `tokens` tokens (causal attention; the lm_head only
/// for the last token of each prompt).
std::vector<Operator> prefill_operators(const DeploymentRef& d, double batch, double tokens);
/// The same into `ops`, which they clear first: a caller that keeps `ops` reuses its memory.
void decode_operators(const DeploymentRef& d, double batch, double ctx, std::vector<Operator>& ops);
void prefill_operators(const DeploymentRef& d, double batch, double tokens, std::vector<Operator>& ops);

/// The operators of one fused iteration, as an engine with chunked prefill runs one: `batch` sequences decode a
/// token each at `ctx` tokens of context, and `prompts` prompts of `prompt_tokens` tokens prefill (a fraction of
/// a prompt: its share), in one forward pass: the weights read once for all their tokens. prompts = 0 is
/// decode_operators'; batch = 0 is prefill_operators' (one list; the same numbers up to rounding).
void mixed_operators(const DeploymentRef& d, double batch, double ctx, double prompts, double prompt_tokens,
                     std::vector<Operator>& ops);

/// The roof attention runs under on `gpu` with `profile` (already its vendor's variant), computing in `compute`:
/// FLOPs at attention_compute_efficiency x the GPU architecture's measured ratio (kernels.hpp,
/// attention_compute_ratio(); since 0.15), at most 1, of the dense peak where the profile sets it, else at
/// compute_efficiency x attention_efficiency; bytes at bandwidth_efficiency x attention_efficiency of the memory
/// bandwidth.
Gpu attention_roof(const GpuSpec& gpu, const Profile& profile, DType compute);

/// An operator's FLOPs as they take time at its compute dtype's roof on `gpu`: its fp8_flops scaled by the ratio of
/// that dtype's peak to the FP8 peak (GpuSpec::peak_tflops: 1 on a GPU without FP8), the rest as they are.
double timed_flops(const Operator& op, const GpuSpec& gpu) noexcept;
/// An operator's bytes as they take time under a profile: its bytes, and its gather_bytes times the profile's
/// sparse_gather.
double timed_bytes(const Operator& op, const Profile& profile) noexcept;

/// Times every operator on the GPU under the profile; returns the step's total, ms (overhead included).
double estimate(std::vector<Operator>& ops, const GpuSpec& gpu, const Profile& profile);

/// Why a layout cannot hold this model on these GPUs ("" when it can): ep, dp_attention and pp whole numbers
/// >= 1, pp dividing tp, ep and dp_attention dividing tp / pp, the heads of each attention group whole, ep
/// only for a model with experts and at most their number, pp at most the layers. The message names the
/// argument first, e.g. "ep: 3 does not divide tp / pp = 8".
std::string layout_problem(const ModelSpec& m, double tp, const Layout& layout);

/// The tokens one pipeline micro-batch routes through an MoE layer when `tokens` pass the replica: tokens / pp,
/// at least one (a sequence is not split).
double micro_batch_tokens(const DeploymentRef& d, double tokens) noexcept;

/// The expected number of distinct experts that `tokens` tokens touch in one MoE layer:
/// E * (1 - (1 - k/E)^tokens).
double expected_distinct_experts(double experts, double per_token, double tokens) noexcept;

/// Bytes of the weights on one GPU, and of the cache of one sequence of `ctx` tokens on one GPU: the KV
/// cache of its attention layers (a window or a chunk caps theirs; MLA stores its latent; sparse and
/// block-sparse layers hold every token and add their indexer keys) and the recurrent state of its state layers (constant in the context).
double weight_bytes_per_gpu(const DeploymentRef& d);
double kv_bytes_per_sequence_per_gpu(const DeploymentRef& d, double ctx);
/// The contexts at which a decode step's attention stops being affine in the context, in (lo, hi]: a
/// context c listed means the step is affine on ... c - 1 and on c ... (sliding windows, top-k, chunks).
std::vector<double> attention_breaks(const ModelSpec& m, double lo, double hi);

}  // namespace roofline
