// The per-operator model. See operators.hpp.
#include "roofline/operators.hpp"
#include "roofline/kernels.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "roofline/error.hpp"
#include "roofline/roofline.hpp"
#include "roofline/units.hpp"

namespace roofline {
namespace {

constexpr double kActivationBytes = 2;  // activations travel in 16 bits
constexpr double kDispatchBytes = 1;    // tokens dispatched to their experts in FP8 (DeepEP's dispatch)

/// How one GPU of a replica holds the model: the GPUs of its pipeline stage, of its attention group and of its
/// experts' tensor parallelism (operators.hpp, Layout), and the parameters and cache it holds.
struct Shard {
    double stage;           ///< GPUs of a pipeline stage: tp / pp (dense MLPs, embedding, lm_head split over them)
    double groups;          ///< attention groups of the stage (dp_attention)
    double attention_tp;    ///< GPUs of an attention group: stage / groups
    double ep, expert_tp;   ///< GPUs the experts are spread over, and each expert's tensor parallelism
    double pp;              ///< pipeline stages
    double heads, kv_heads; ///< of one attention group's GPU
    double weight_value_bytes;     ///< bytes per stored weight of the linear layers, block scales included
    double expert_value_bytes;     ///< of the routed experts
    double embedding_value_bytes;  ///< of the embedding and lm_head
    double kv_value_bytes;         ///< bytes per KV cache value
    // Parameters on one GPU.
    double qkv, o, dense_mlp, expert, shared, router, embed, lm_head, norms;
    double indexer;     ///< a sparse layer's indexer (replicated, or its query heads split: MiniMax-M3)
    double indexer_heads; ///< the indexer's query heads on one GPU
    double state;       ///< a state layer (split by its heads)
    double kv_values;   ///< KV values per token per attention layer on one GPU
    double state_bytes; ///< one sequence's state, one state layer, on one GPU
    double state_split; ///< the GPUs a state layer's heads are split over
    /// Experts over ep > 1 GPUs with data-parallel attention (DEP and its kin): each attention group keeps its own
    /// tokens, sent to the experts and back (all-to-all), and runs the dense MLPs where its attention runs.
    bool dispatched;
};

Shard shard(const DeploymentRef& d) {
    const ModelSpec& m = d.model;
    const Layout& l = d.layout;
    Shard s{};
    s.pp = l.pp;
    s.stage = d.tp / l.pp;
    s.groups = l.dp_attention;
    s.attention_tp = s.stage / l.dp_attention;
    s.ep = l.ep;
    s.expert_tp = s.stage / l.ep;
    const double ta = s.attention_tp;
    s.heads = m.heads / ta;
    s.kv_heads = std::max(1.0, m.kv_heads / ta);  // fewer KV heads than GPUs: each GPU keeps one
    s.weight_value_bytes = bytes_per_value(d.weights);
    s.expert_value_bytes = bytes_per_value(d.experts);
    s.embedding_value_bytes = bytes_per_value(d.embedding);
    s.kv_value_bytes = bytes_per_value(d.kv);
    if (m.mla()) {
        // The down-projections are replicated; the up-projections and the output split by heads.
        const double q = m.q_lora_rank > 0 ? m.hidden * m.q_lora_rank + m.q_lora_rank * s.heads * m.qk_dim()
                                           : m.hidden * s.heads * m.qk_dim();
        s.qkv = q + m.hidden * (m.kv_lora_rank + m.qk_rope_head_dim) +
                m.kv_lora_rank * s.heads * (m.qk_nope_head_dim + m.v_head_dim) +
                (m.gated_attention ? m.hidden * s.heads * m.v_head_dim : 0);  // Kimi-K3's output gate
        s.o = s.heads * m.v_head_dim * m.hidden;
        s.kv_values = m.kv_values_per_token_layer();  // the latent is shared by all heads: replicated
    } else if (m.shared_kv) {
        // DeepSeek-V4: wq_a and the key-value head replicated, wq_b split by heads, wo_a by groups, wo_b by rows.
        s.qkv = m.hidden * m.q_lora_rank + m.q_lora_rank * s.heads * m.head_dim + m.hidden * s.kv_heads * m.head_dim;
        s.o = s.heads * m.head_dim * m.o_lora_rank + m.o_groups / ta * m.o_lora_rank * m.hidden;
        s.kv_values = s.kv_heads * m.head_dim;
    } else {
        s.qkv = (m.gated_attention ? 2 : 1) * m.hidden * s.heads * m.head_dim + 2 * m.hidden * s.kv_heads * m.head_dim;
        s.o = s.heads * m.head_dim * m.hidden;
        s.kv_values = 2 * s.kv_heads * m.head_dim;
    }
    s.dispatched = m.moe() && l.ep > 1 && l.dp_attention > 1;
    // The dense MLP layers of an MoE model: in tensor parallel over the stage; dispatched, in the attention group's
    // tensor parallelism on its own tokens, as engines run them beside data-parallel attention (SGLang's
    // --moe-dense-tp-size 1 of its large-scale EP deployments, TensorRT-LLM and vLLM with attention DP): no gather.
    s.dense_mlp = m.dense_mlp_params() / (s.dispatched ? ta : s.stage);
    // Each GPU holds experts / ep experts, each split over expert_tp GPUs: experts x an expert / stage in all.
    s.expert = m.moe() ? m.expert_params() / s.stage : 0;
    // With ep > 1 the router and the shared experts run where the attention does (on its group's tokens).
    s.shared = m.moe() ? m.shared_experts * m.shared_expert_params() / (l.ep > 1 ? ta : s.stage) : 0;
    s.router = m.moe() ? m.router_params() : 0;
    s.embed = m.vocab * m.hidden / s.stage;
    s.lm_head = m.vocab * m.hidden / s.stage;
    s.norms = m.norm_count * m.hidden;
    // MiniMax-M3's index query heads shard as its KV heads (at least one a GPU); its shared key head is replicated.
    const IndexerSpec& x = m.indexer;
    s.indexer_heads = x.heads_split ? std::max(1.0, x.heads / ta) : x.heads;
    s.indexer = x.heads_split && x.heads > 0 ? x.params - x.split_params + x.split_params * s.indexer_heads / x.heads
                                             : x.params;
    s.state_split = m.state.heads > 0 ? std::min(ta, m.state.heads) : 1;
    s.state = m.state.params / s.state_split;
    s.state_bytes = m.state.state_bytes() / s.state_split;
    return s;
}

/// Tokens of context that a layer of this kind reads for a new token at context `ctx`.
double seen(const LayerRun& r, double ctx) {
    switch (r.attention) {
        case Attention::full: return ctx;
        case Attention::sliding:
        case Attention::sparse:
        case Attention::block_sparse: return std::min(ctx, r.window);  // block_sparse: its picked blocks
        case Attention::chunked: return ctx - r.window * std::floor(ctx / r.window);
        case Attention::compressed:  // the window, and the compressed entries (all, or the indexer's top-k)
            return std::min(ctx, r.window) + (r.topk > 0 ? std::min(ctx / r.ratio, r.topk) : ctx / r.ratio);
        default: return 0;
    }
}

/// Positions pairs (query, key) of a causal prefill of `tokens` tokens in a layer of this kind.
double causal_pairs(const LayerRun& r, double tokens) {
    auto within = [](double n, double window) {
        if (window <= 0 || n <= window) return n * (n + 1) / 2;
        return window * (window + 1) / 2 + (n - window) * window;
    };
    switch (r.attention) {
        case Attention::full: return within(tokens, 0);
        case Attention::sliding:
        case Attention::sparse:
        case Attention::block_sparse: return within(tokens, r.window);
        case Attention::chunked: {
            const double chunks = std::floor(tokens / r.window), rest = tokens - chunks * r.window;
            return chunks * within(r.window, 0) + within(rest, 0);
        }
        case Attention::compressed:  // position i: min(i, window) tokens and min(i / ratio, topk) entries
            return within(tokens, r.window) + within(tokens, r.topk * r.ratio) / r.ratio;
        default: return 0;
    }
}

/// Layers that keep a KV cache (their attention reads one).
bool attends(const LayerRun& r) { return r.attention != Attention::none && r.attention != Attention::state; }

/// Layers whose indexer keeps a key of every token and scores them all (DeepSeek-V3.2's DSA, MiniMax-M3's MSA).
bool indexes_every_token(const LayerRun& r) {
    return r.attention == Attention::sparse || r.attention == Attention::block_sparse;
}
double indexing_layers(const ModelSpec& m) {
    return m.layers_with(Attention::sparse) + m.layers_with(Attention::block_sparse);
}

/// DeepSeek-V4's compressed layers, summed over them: their compressors' parameters, the compressed entries and
/// the indexer keys one token adds (one per `ratio` tokens), the float32 values of one sequence's compressor
/// states, and those one token touches: a row of each state written, the whole state read at each
/// compression (every `ratio` tokens).
struct Compressed {
    double params = 0, entries = 0, keys = 0, state_values = 0, state_touched = 0;
};
Compressed compressed_layers(const ModelSpec& m) {
    Compressed c;
    if (!(m.layers_with(Attention::compressed) > 0)) return c;
    for (const LayerRun& r : m.attention_groups) {
        if (r.attention != Attention::compressed) continue;
        const double rows = (r.ratio == 4 ? 2 : 1) * r.ratio, state = m.compressor_state_values(r);
        c.params += r.count * m.compressor_params(r);
        c.entries += r.count / r.ratio;
        if (r.topk > 0) c.keys += r.count / r.ratio;
        c.state_values += r.count * state;
        c.state_touched += r.count * state * (1 / rows + 1 / r.ratio);
    }
    return c;
}
constexpr double kCompressorStateBytes = 4;  // float32

/// A new operator at the end of `ops`, every field as a new Operator's.
static_assert(std::is_trivially_copyable_v<Operator>);

// A step builds a dozen operators, each zeroed first: at 120 bytes GCC does it in a few vector stores, from 128 on
// with `rep stos`, which made a step a quarter slower (bench/speed, BM_step_ms: 190 -> 250 ns). A field more needs a
// place in the padding, or the benchmark's word.
static_assert(sizeof(Operator) <= 120, "Operator grew past 120 bytes: see the comment above");

Operator& add(std::vector<Operator>& ops, std::string_view name, DType compute = DType::bf16) {
    Operator& op = ops.emplace_back();
    op.name = name;
    op.compute = compute;
    return op;
}

/// Writes the operators of a step into `ops`, emptied first: a formula keeps one list per thread, whose memory
/// (kMaxOperators reserved) is reused from call to call. Operator is trivially copyable: nothing is freed.
class OperatorList {
public:
    explicit OperatorList(std::vector<Operator>& ops) : ops_(ops) {
        ops_.clear();
        ops_.reserve(kMaxOperators);
    }
    OperatorList(const OperatorList&) = delete;
    OperatorList& operator=(const OperatorList&) = delete;

    /// The next operator, every field as a new Operator's.
    Operator& add(std::string_view name, DType compute = DType::bf16) { return roofline::add(ops_, name, compute); }

private:
    std::vector<Operator>& ops_;
};

/// Operations of the vector units per weight of a weight-only format to dequantize it in a GEMV kernel: unpack
/// (shift and mask), convert to the compute dtype, apply the block's scale (docs/accuracy.md, "Few rows").
constexpr double kDequantOpsPerWeight = 3;

/// A linear layer of `params` weights on `tokens` tokens, `times` over: 2 FLOP per weight per token; the
/// weights read once, the activations in and out.
Operator& linear(OperatorList& ops, std::string_view name, double params, double tokens, double in, double out,
            double weight_value_bytes, DType compute, double times = 1) {
    Operator& op = ops.add(name, compute);
    op.flops = 2 * params * tokens;
    op.bytes = params * weight_value_bytes + tokens * (in + out) * kActivationBytes;
    op.flops *= times;
    op.bytes *= times;
    op.tokens = tokens;
    op.layers = times;
    if (weight_value_bytes < bytes_per_value(compute) * (1 - 1e-9)) op.dequant_flops = params * kDequantOpsPerWeight * times;
    return op;
}

/// Sequences (or prompts) of one pipeline micro-batch when `n` pass the replica: n / pp, and at least a whole one
/// when there are fewer than pp (a sequence is not split; the other stages wait: the pipeline's bubble).
double per_micro_batch(double pp, double n) { return n >= pp ? n / pp : std::min(n, 1.0); }

/// The tokens of a step as one GPU sees them: `stage` pass its pipeline stage in one micro-batch, `mix` its
/// attention group's share of them (stage / dp_attention).
struct Tokens {
    double stage, mix;
};
Tokens tokens_of(const Shard& s, double sequences, double tokens_each = 1) {
    const double stage = per_micro_batch(s.pp, sequences) * tokens_each;
    return {stage, stage / s.groups};
}

/// The operators both phases share, before attention: the embedding and the QKV projections (a sparse
/// layer's indexer projections among them), on the attention group's tokens.
void operators_before_attention(OperatorList& ops, const DeploymentRef& d, const Shard& s, double tokens) {
    const ModelSpec& m = d.model;
    Operator& embedding = ops.add("embedding");
    embedding.bytes = tokens * m.hidden * s.embedding_value_bytes;
    embedding.local = true;
    const double attention_layers = m.attention_layers();
    const double sparse_layers = m.indexer_layers;  // sparse layers, and compressed ones with a top-k
    if (attention_layers <= 0) return;
    Operator& qkv = linear(ops, "qkv_proj", s.qkv, tokens, m.hidden, s.qkv / m.hidden, s.weight_value_bytes,
                           compute_dtype(d.weights), attention_layers);
    qkv.local = true;
    if (sparse_layers > 0 && s.indexer > 0) {  // the indexer's projections with the other projections
        qkv.flops += 2 * s.indexer * tokens * sparse_layers;
        qkv.bytes += (s.indexer * s.weight_value_bytes + tokens * s.indexer_heads * m.indexer.head_dim * kActivationBytes) *
                     sparse_layers;
    }
    if (m.layers_with(Attention::compressed) > 0) {  // DeepSeek-V4's compressors (replicated: one key-value head)
        const Compressed c = compressed_layers(m);
        qkv.flops += 2 * c.params * tokens;
        qkv.bytes += c.params * s.weight_value_bytes;
    }
}

/// The state layers (linear attention, state-space): their projections, convolution and recurrence in one
/// operator; each of `sequences` sequences reads and writes its state once.
void state_layers(OperatorList& ops, const DeploymentRef& d, const Shard& s, double tokens, double sequences) {
    const ModelSpec& m = d.model;
    const double layers = m.layers_with(Attention::state);
    if (layers <= 0) return;
    const double split = s.state_split;
    Operator& op = ops.add("linear_attn", compute_dtype(d.weights));
    op.kind = OperatorKind::state;
    op.local = true;
    op.tokens = tokens;
    op.layers = layers;
    op.flops = layers * tokens * (2 * s.state + m.state.flops_per_token / split);
    // A delta rule's recurrence runs in kernels of its own, far from the matrix units' peak (Profile::
    // state_compute_efficiency); Mamba-2's scan is not measured (docs/accuracy.md): timed as the projections.
    if (delta_rule(m.state.kind))
        op.recurrence_flops = layers * tokens * m.state.flops_per_token / split;
    op.bytes = layers * (s.state * s.weight_value_bytes +
                         tokens * (m.hidden + (m.state.in_width + m.state.out_width) / split + m.hidden) * kActivationBytes +
                         2 * sequences * s.state_bytes);
}

/// The operators both phases share, after attention: the output projection, MLP or experts, norms,
/// lm_head, and the traffic between GPUs. `t` as tokens_of() gives them; `lm_tokens` and `sequences` per
/// micro-batch of the stage.
void operators_after_attention(OperatorList& ops, const DeploymentRef& d, const Shard& s, const Tokens& t,
                               double lm_tokens, double sequences) {
    const ModelSpec& m = d.model;
    const DType compute = compute_dtype(d.weights);
    const double weight_value_bytes = s.weight_value_bytes;
    const double attention_layers = m.attention_layers();
    if (attention_layers > 0)
        linear(ops, "o_proj", s.o, t.mix, s.o / m.hidden, m.hidden, weight_value_bytes, compute, attention_layers)
            .local = true;
    state_layers(ops, d, s, t.mix, sequences / s.groups);
    const double dense_layers = m.layers_with(Mlp::dense);
    if (dense_layers > 0)
        linear(ops, "mlp", s.dense_mlp, s.dispatched ? t.mix : t.stage, m.hidden, m.hidden, weight_value_bytes, compute,
               dense_layers)
            .local = s.dispatched;
    const double moe_layers = m.moe_layers();
    const bool expert_parallel = s.ep > 1;
    if (m.moe() && moe_layers > 0) {
        // The router and the shared experts: on the attention group's tokens with ep > 1, else on the stage's.
        const double local = expert_parallel ? t.mix : t.stage;
        linear(ops, "router", s.router, local, m.hidden, m.experts, kActivationBytes, DType::bf16, moe_layers).local =
            expert_parallel;
        // Only the experts the tokens pick are read; each token computes with k of them. With ep > 1 a GPU reads
        // the activations of the tokens sent to its experts only, and the busiest GPU sets the pace.
        const double touched = expected_distinct_experts(m.experts, m.experts_per_token, t.stage);
        Operator& experts = ops.add("experts", compute_dtype(d.experts));
        experts.kind = OperatorKind::experts;
        experts.flops = 2 * s.expert * m.experts_per_token * t.stage * moe_layers;
        experts.bytes = (touched * s.expert * s.expert_value_bytes +
                         t.stage * m.experts_per_token * 2 * m.expert_width() * kActivationBytes / s.ep) *
                        moe_layers;
        experts.expert_parallel = expert_parallel;
        experts.tokens = touched > 0 ? t.stage * m.experts_per_token / touched : 0;  // each expert's rows
        experts.count = touched / s.ep;  // the experts a GPU runs (the profile's expert_overhead_us)
        if (s.expert_value_bytes < bytes_per_value(experts.compute) * (1 - 1e-9))
            experts.dequant_flops = touched * s.expert * kDequantOpsPerWeight * moe_layers;
        experts.layers = moe_layers;
        if (m.shared_experts > 0)
            linear(ops, "shared_experts", s.shared, local, m.hidden, m.hidden, weight_value_bytes, compute, moe_layers)
                .local = expert_parallel;
    }
    const double norm_count = s.norms / m.hidden;
    Operator& norms = ops.add("norms");
    norms.local = true;
    norms.layers = m.layers;
    norms.flops = 5 * t.mix * m.hidden * norm_count;
    norms.bytes = s.norms * kActivationBytes + 2 * t.mix * m.hidden * kActivationBytes * norm_count;
    if (m.hc_mult > 0) {
        // DeepSeek-V4's hyper-connections, at 2 points a layer (inference/model.py, Block.hc_pre and hc_post): the
        // h streams' (2 + h) h mixes (a product with the h x hidden stream and its RMS), their weighted sum into
        // one; the output back to each stream and the h x h combination of the streams. The streams read and
        // written in 16 bits (h + 1 values a point before, 2 h + 1 after), the float32 mixing weights once.
        const double h = m.hc_mult, points = 2 * m.layers;
        norms.flops += t.mix * points * m.hidden * (2 * (2 + h) * h * h + 5 * h + 2 * h * h);
        norms.bytes += points * ((2 + h) * h * h * m.hidden * 4 + t.mix * (3 * h + 2) * m.hidden * kActivationBytes);
    }
    if (m.attn_res_reads > 0) {
        // Kimi-K3's Attention Residuals: each source read in 16 bits, its RMS norm and score (5 FLOPs a value) and
        // the weighted sum (2); the norms' and projections' weights once.
        norms.flops += 7 * t.mix * m.attn_res_reads * m.hidden;
        norms.bytes += (4 * m.layers + 2) * m.hidden * kActivationBytes +
                       t.mix * m.attn_res_reads * m.hidden * kActivationBytes;
    }
    linear(ops, "lm_head", s.lm_head, lm_tokens, m.hidden, m.vocab / s.stage, s.embedding_value_bytes,
           compute_dtype(d.embedding))
        .kind = OperatorKind::lm_head;

    // Traffic between GPUs, ring collectives: an all-reduce over p GPUs sends 2 (p - 1) / p of its data per GPU.
    // A group of more GPUs than the scale-up domain holds reaches part of them over the network: a ring's every
    // step waits for its slowest link (all of its bytes count as leaving the domain); an all-to-all sends the
    // share of its peers outside the domain over the network.
    const double token_bytes = m.hidden * kActivationBytes;
    const double domain = std::max(1.0, d.gpu.scaleup_gpus);
    auto spans = [&](double gpus) { return gpus > domain; };
    auto outside = [&](double gpus) { return gpus > domain ? (gpus - domain) / (gpus - 1) : 0.0; };
    const double mixers = m.layers - m.layers_with(Attention::none);
    // Experts over ep GPUs without data-parallel attention (TEP): every GPU of the stage holds all of the step's
    // tokens after the attention's all-reduce; each runs its own experts on the tokens routed to them, and their
    // outputs are summed by an all-reduce over the stage, as after a tensor-parallel MLP (vLLM and SGLang without
    // an all-to-all backend, TensorRT-LLM without attention DP, ATOM). No dispatch, no combine: the all-to-all is
    // what data-parallel attention groups need, each with its own tokens (s.dispatched).
    const bool dispatched = s.dispatched;
    // Layers whose MLP output is all-reduced over the stage: the dense ones and the MoE ones, unless dispatched;
    // dispatched, the dense ones within the attention group.
    const double tensor_mlps = dispatched ? 0 : dense_layers + moe_layers;
    const double group_layers = mixers + (dispatched ? dense_layers : 0);
    double reduce_count = 0, reduce_bytes = 0, reduce_out = 0;
    if (s.attention_tp > 1) {  // after each token mixer (and dispatched, each dense MLP), within its attention group
        reduce_count += group_layers;
        const double bytes = group_layers * 2 * (s.attention_tp - 1) / s.attention_tp * t.mix * token_bytes;
        reduce_bytes += bytes;
        reduce_out += spans(s.attention_tp) ? bytes : 0;
    }
    if (s.groups == 1 && s.stage > 1) {  // after each tensor-parallel MLP, over the stage
        reduce_count += tensor_mlps;
        const double bytes = tensor_mlps * 2 * (s.stage - 1) / s.stage * t.stage * token_bytes;
        reduce_bytes += bytes;
        reduce_out += spans(s.stage) ? bytes : 0;
    }
    if (reduce_count > 0) {
        Operator& allreduce = ops.add("allreduce");
        allreduce.kind = OperatorKind::allreduce;
        allreduce.count = reduce_count;
        allreduce.link_bytes = reduce_bytes;
        allreduce.scaleout_bytes = reduce_out;
        allreduce.local = s.groups > 1;  // within each attention group
    }
    // Data-parallel attention meets a tensor-parallel MLP: the groups' tokens gathered before it, its output
    // reduced and scattered back after it; with ep > 1, the group's tokens gathered again after the combine.
    double gather_count = 0, gather_bytes = 0;
    if (s.groups > 1 && tensor_mlps > 0) {
        gather_count += 2 * tensor_mlps;
        gather_bytes += tensor_mlps * ((s.groups - 1) / s.groups + (s.stage - 1) / s.stage) * t.stage * token_bytes;
    }
    if (dispatched && s.attention_tp > 1 && moe_layers > 0) {
        gather_count += moe_layers;
        gather_bytes += moe_layers * (s.attention_tp - 1) / s.attention_tp * t.mix * token_bytes;
    }
    if (gather_count > 0) {
        Operator& allgather = ops.add("allgather");
        allgather.kind = OperatorKind::allgather;
        allgather.count = gather_count;
        allgather.link_bytes = gather_bytes;
        allgather.scaleout_bytes = spans(s.stage) ? gather_bytes : 0;
        allgather.expert_parallel = expert_parallel;
    }
    if (dispatched && moe_layers > 0) {
        // Dispatch and combine: each GPU sends its stage / GPUs share of the tokens to their k experts, each expert's
        // expert_tp GPUs, (ep - 1) / ep of them on other GPUs, in FP8 (a byte a value, as DeepEP dispatches); the
        // partial outputs come back in 16 bits.
        Operator& alltoall = ops.add("alltoall");
        alltoall.count = 2 * moe_layers;
        alltoall.link_bytes = moe_layers * t.stage / s.stage * m.experts_per_token * s.expert_tp * (s.ep - 1) / s.ep *
                              m.expert_width() * (kDispatchBytes + kActivationBytes);
        alltoall.expert_parallel = true;
        alltoall.kind = OperatorKind::alltoall;
        alltoall.local = true;  // each GPU sends its own group's tokens
        alltoall.scaleout_bytes = alltoall.link_bytes * outside(s.stage);
    }
    if (s.pp > 1) {
        // The micro-batch's activations from stage to stage, each GPU of a stage sending its share.
        Operator& p2p = ops.add("pipeline");
        p2p.kind = OperatorKind::pipeline;
        p2p.count = s.pp - 1;
        p2p.link_bytes = (s.pp - 1) * t.stage / s.stage * token_bytes;
        // Consecutive stages on the same domain where they fit: the boundaries between domains go over the network.
        const double domains = std::ceil(d.tp / domain);
        p2p.scaleout_bytes = p2p.link_bytes * std::min(1.0, std::max(0.0, domains - 1) / (s.pp - 1));
    }
}

}  // namespace

std::string_view to_string(Resource r) noexcept {
    switch (r) {
        case Resource::compute: return "compute";
        case Resource::memory: return "memory";
        case Resource::interconnect: return "interconnect";
        default: return "overhead";
    }
}

std::string layout_problem(const ModelSpec& m, double tp, const Layout& l) {
    auto whole = [](double v) { return std::isfinite(v) && v >= 1 && v == std::floor(v); };
    if (!whole(l.ep)) return fmt::format("ep: must be a whole number >= 1 (got {})", l.ep);
    if (!whole(l.dp_attention)) return fmt::format("dp_attention: must be a whole number >= 1 (got {})", l.dp_attention);
    if (!whole(l.pp)) return fmt::format("pp: must be a whole number >= 1 (got {})", l.pp);
    if (std::fmod(tp, l.pp) != 0) return fmt::format("pp: {} does not divide tp = {}", l.pp, tp);
    if (l.pp > m.layers) return fmt::format("pp: {} stages for the model's {} layers", l.pp, m.layers);
    const double stage = tp / l.pp;
    if (std::fmod(stage, l.ep) != 0) return fmt::format("ep: {} does not divide tp / pp = {}", l.ep, stage);
    if (l.ep > 1 && !m.moe()) return fmt::format("ep: {} for a model without experts ('{}'): only 1", l.ep, m.id);
    if (l.ep > m.experts && l.ep > 1)
        return fmt::format("ep: {} is more than the model's {} experts", l.ep, m.experts);
    if (std::fmod(stage, l.dp_attention) != 0)
        return fmt::format("dp_attention: {} does not divide tp / pp = {}", l.dp_attention, stage);
    const double group = stage / l.dp_attention;
    if (group == 1 ? m.heads != std::floor(m.heads) : std::fmod(m.heads, group) != 0)
        return fmt::format("{}: the model's {} attention heads are not a multiple of the {} GPUs of an attention "
                           "group (tp / (pp x dp_attention))",
                           l.trivial() ? "tp" : "dp_attention", m.heads, group);
    // DeepSeek-V4's grouped output projection: each GPU of a group holds whole groups (vLLM: o_groups // tp).
    if (m.o_groups > 0 && (group == 1 ? false : std::fmod(m.o_groups, group) != 0))
        return fmt::format("{}: the model's {} output groups (o_groups) are not a multiple of the {} GPUs of an attention "
                           "group (tp / (pp x dp_attention))",
                           l.trivial() ? "tp" : "dp_attention", m.o_groups, group);
    return {};
}

double micro_batch_tokens(const DeploymentRef& d, double tokens) noexcept {
    return per_micro_batch(d.layout.pp, tokens);
}

double expected_distinct_experts(double experts, double per_token, double tokens) noexcept {
    return experts * (1 - std::pow(1 - per_token / experts, tokens));
}

void decode_operators(const DeploymentRef& d, double batch, double ctx, std::vector<Operator>& list) {
    const ModelSpec& m = d.model;
    const Shard s = shard(d);
    OperatorList ops(list);
    // One micro-batch of the pipeline through the whole model (layers / pp on each of pp stages, one after
    // the other): its time is a round in which every sequence advances a token (docs/serving-model.md).
    const Tokens t = tokens_of(s, batch);
    operators_before_attention(ops, d, s, t.mix);
    // Attention: every sequence (of the attention group's, t.mix) reads its own KV cache (a window, a chunk or its top-k at most); a sparse
    // layer's indexer also scores every cached token with its own keys.
    // MLA attends in the latent space (the up-projections absorbed): keys of kv_lora_rank + rope, values of kv_lora_rank.
    const double per_position = m.mla() ? (m.kv_lora_rank + m.qk_rope_head_dim) + m.kv_lora_rank : m.qk_dim() + m.v_dim();
    double positions = 0, indexed = 0;
    for (const LayerRun& r : m.attention_groups) {
        if (!attends(r)) continue;
        positions += r.count * seen(r, ctx);
        if (indexes_every_token(r)) indexed += r.count * ctx;
        if (r.attention == Attention::compressed && r.topk > 0) indexed += r.count * ctx / r.ratio;
    }
    const double attention_layers = m.attention_layers();
    if (attention_layers > 0) {
        Operator& attention = ops.add("attention");
        attention.kind = OperatorKind::attention;
        attention.local = true;
        attention.layers = attention_layers;
        const double scores = 2 * t.mix * s.indexer_heads * m.indexer.head_dim * indexed;
        attention.flops = 2 * t.mix * s.heads * per_position * positions + scores;
        if (m.indexer.fp8_scores()) attention.fp8_flops = scores;
        // Read the context, write the new token (and a compressed layer its share of an entry, of an indexer key,
        // and its compressor state's row, reading the state at each compression).
        const Compressed c = compressed_layers(m);
        attention.bytes = t.mix * s.kv_values * s.kv_value_bytes * (positions + attention_layers + c.entries) +
                          t.mix * m.indexer.key_bytes() * (indexed + indexing_layers(m) + c.keys) +
                          t.mix * c.state_touched * kCompressorStateBytes;
    }
    operators_after_attention(ops, d, s, t, t.stage, t.stage);
}

void prefill_operators(const DeploymentRef& d, double batch, double tokens, std::vector<Operator>& list) {
    const ModelSpec& m = d.model;
    const Shard s = shard(d);
    const Tokens t = tokens_of(s, batch, tokens);  // the prompts in micro-batches, as decode_operators' sequences
    const Tokens prompts = tokens_of(s, batch);
    OperatorList ops(list);
    operators_before_attention(ops, d, s, t.mix);
    // Causal attention: position i attends to min(i, window) positions (its chunk's, in a chunked layer);
    // a sparse layer's indexer scores all i of them.
    double pairs = 0, indexed = 0, gathered = 0;
    for (const LayerRun& r : m.attention_groups) {
        if (!attends(r)) continue;
        pairs += r.count * causal_pairs(r, tokens);
        // A sparse layer's query reads its own top-k entries: min(i, topk) of them at position i, as its pairs.
        if (r.attention == Attention::sparse) gathered += r.count * causal_pairs(r, tokens);
        if (indexes_every_token(r)) indexed += r.count * tokens * (tokens + 1) / 2;
        if (r.attention == Attention::compressed && r.topk > 0) indexed += r.count * tokens * (tokens + 1) / 2 / r.ratio;
    }
    pairs *= prompts.mix;
    indexed *= prompts.mix;
    const double attention_layers = m.attention_layers();
    if (attention_layers > 0) {
        Operator& attention = ops.add("attention");
        attention.kind = OperatorKind::attention;
        attention.local = true;
        attention.layers = attention_layers;
        const double scores = 2 * s.indexer_heads * m.indexer.head_dim * indexed;
        attention.flops = 2 * s.heads * (m.qk_dim() + m.v_dim()) * pairs + scores;
        if (m.indexer.fp8_scores()) attention.fp8_flops = scores;
        // Fused attention reads Q, K, V once and writes the output and the KV cache.
        attention.bytes = attention_layers * t.mix *
                              (s.kv_values * s.kv_value_bytes + s.heads * (m.qk_dim() + 2 * m.v_dim()) * kActivationBytes) +
                          indexing_layers(m) * t.mix * m.indexer.key_bytes();
        attention.gather_bytes = prompts.mix * gathered * s.kv_values * s.kv_value_bytes;
        if (m.layers_with(Attention::compressed) > 0) {  // the entries and keys written, each prompt's states once
            const Compressed c = compressed_layers(m);
            attention.bytes += t.mix * (c.entries * s.kv_values * s.kv_value_bytes + c.keys * m.indexer.key_bytes()) +
                               2 * prompts.mix * c.state_values * kCompressorStateBytes;
        }
    }
    operators_after_attention(ops, d, s, t, prompts.stage, prompts.stage);
}

void mixed_operators(const DeploymentRef& d, double batch, double ctx, double prompts, double prompt_tokens,
                     std::vector<Operator>& list) {
    // Attention of each phase as decode_operators and prefill_operators count it: each sequence its own cache,
    // each prompt its causal prefill; the other operators see every token with the weights read once.
    double flops = 0, fp8_flops = 0, bytes = 0, gather_bytes = 0;
    for (int phase = 0; phase < 2; ++phase) {
        if (phase == 0) decode_operators(d, batch, ctx, list);
        else prefill_operators(d, prompts, prompt_tokens, list);
        for (const Operator& op : list)
            if (op.kind == OperatorKind::attention)
                flops += op.flops, fp8_flops += op.fp8_flops, bytes += op.bytes, gather_bytes += op.gather_bytes;
    }
    const ModelSpec& m = d.model;
    const Shard s = shard(d);
    const Tokens decoding = tokens_of(s, batch), prefilling = tokens_of(s, prompts, prompt_tokens),
                 prompt_sequences = tokens_of(s, prompts);
    const Tokens t{decoding.stage + prefilling.stage, decoding.mix + prefilling.mix};
    OperatorList ops(list);
    operators_before_attention(ops, d, s, t.mix);
    if (m.attention_layers() > 0) {
        Operator& attention = ops.add("attention");
        attention.kind = OperatorKind::attention;
        attention.local = true;
        attention.layers = m.attention_layers();
        attention.flops = flops;
        attention.fp8_flops = fp8_flops;
        attention.bytes = bytes;
        attention.gather_bytes = gather_bytes;
    }
    const double sequences = decoding.stage + prompt_sequences.stage;  // lm_head: a token of each
    operators_after_attention(ops, d, s, t, sequences, sequences);
}

std::vector<Operator> decode_operators(const DeploymentRef& d, double batch, double ctx) {
    std::vector<Operator> ops;
    decode_operators(d, batch, ctx, ops);
    return ops;
}

std::vector<Operator> prefill_operators(const DeploymentRef& d, double batch, double tokens) {
    std::vector<Operator> ops;
    prefill_operators(d, batch, tokens, ops);
    return ops;
}

double timed_flops(const Operator& op, const GpuSpec& gpu) noexcept {
    if (op.fp8_flops <= 0) return op.flops;
    return op.flops - op.fp8_flops * (1 - gpu.peak_tflops(op.compute) / gpu.peak_tflops(DType::fp8));
}

double timed_bytes(const Operator& op, const Profile& profile) noexcept {
    return op.gather_bytes > 0 ? op.bytes + profile.sparse_gather * op.gather_bytes : op.bytes;
}

Gpu attention_roof(const GpuSpec& gpu, const Profile& profile, DType compute) {
    // A measured rate, the datacenter GPUs' median, moves with the architecture's (never above the peak).
    const double efficiency =
        profile.attention_compute_efficiency > 0
            ? std::min(1.0, profile.attention_compute_efficiency * attention_compute_ratio(gpu.architecture))
            : profile.compute_efficiency * profile.attention_efficiency;
    return {gpu.peak_tflops(compute) * efficiency, gpu.hbm_tbs * profile.bandwidth_efficiency * profile.attention_efficiency};
}

double estimate(std::vector<Operator>& ops, const GpuSpec& gpu, const Profile& of_any_vendor) {
    const Profile& profile = of_any_vendor.vendors.empty() ? of_any_vendor : of_any_vendor.for_vendor(gpu.vendor);
    double total = 0, overlapped = 0, layers = 0;
    // The roof of the operators' compute dtype, worked out again only when it changes.
    DType roof_dtype = DType::bf16;
    Gpu roof{0, 0};
    bool have_roof = false;
    for (Operator& op : ops) {
        layers = std::max(layers, op.layers);
        if (op.link_bytes > 0) {
            // Within the scale-up domain and over the network at once: the slower of the two.
            // An all-reduce the domain's switches reduce sends half a ring's bytes (Profile::switch_reduction).
            const double in_switch =
                op.kind == OperatorKind::allreduce && profile.switch_reduction && gpu.switch_reduction ? 0.5 : 1;
            const double inside = (op.link_bytes - op.scaleout_bytes) * in_switch;
            const double up = inside > 0 ? memory_time_ms(inside, gpu.interconnect_tbs * profile.interconnect_efficiency) : 0;
            const double out = op.scaleout_bytes > 0
                                   ? memory_time_ms(op.scaleout_bytes,
                                                    gpu.scaleout_tbs * (profile.scaleout_efficiency > 0
                                                                            ? profile.scaleout_efficiency
                                                                            : profile.interconnect_efficiency))
                                   : 0;
            const double latency_us =
                op.kind == OperatorKind::alltoall ? profile.alltoall_latency_us : profile.allreduce_latency_us;
            op.ms = std::max(up, out) + op.count * latency_us / 1e3;
            op.bound = Resource::interconnect;
            if (op.expert_parallel && profile.overlap_expert_traffic) {
                overlapped += op.ms;
                continue;
            }
        } else {
            if (!have_roof || op.compute != roof_dtype) {
                roof = {gpu.peak_tflops(op.compute) * profile.compute_efficiency, gpu.hbm_tbs * profile.bandwidth_efficiency};
                roof_dtype = op.compute;
                have_roof = true;
            }
            Gpu at = roof;
            // A multiply of few rows fills few of the matrix units' tiles: it reaches compute_efficiency x m / (m +
            // mfu_half_tokens) of their peak. Engines run such a multiply on the vector units instead (a GEMV kernel
            // has no tile of rows to fill), at compute_efficiency of the FP32 peak: the faster of the two, so that a
            // decode step of few sequences stays bound by its weights' read (docs/accuracy.md, "Few rows").
            // Its weights of a weight-only format are dequantized there too, once per weight whatever the rows. The
            // routed experts run as one grouped multiply of every expert's rows (fused MoE kernels), each expert's
            // rows padded to the tile: no vector path.
            if (profile.mfu_half_tokens > 0 && op.tokens > 0) {
                const double tiles = at.tflops * op.tokens / (op.tokens + profile.mfu_half_tokens);
                const double vector = op.kind == OperatorKind::experts
                                          ? 0
                                          : std::min(at.tflops, gpu.fp32 * profile.compute_efficiency) *
                                                (op.flops > 0 ? op.flops / (op.flops + op.dequant_flops) : 1);
                at.tflops = std::max(tiles, vector);
            }
            if (op.kind == OperatorKind::attention) at = attention_roof(gpu, profile, op.compute);
            double flops = timed_flops(op, gpu);
            // A delta rule's recurrence at its own rate: as the FLOPs at the operator's roof that take its time.
            if (op.recurrence_flops > 0 && profile.state_compute_efficiency > 0)
                flops += op.recurrence_flops *
                         (at.tflops / (gpu.peak_tflops(DType::bf16) * profile.state_compute_efficiency) - 1);
            const StepTime time = step_time({flops, timed_bytes(op, profile)}, at);
            op.ms = time.time_ms * (op.expert_parallel ? profile.expert_imbalance : 1);
            if (op.kind == OperatorKind::experts)
                op.ms += op.layers * (op.count * profile.expert_overhead_us +
                                      (profile.moe_layer > 0 ? profile.moe_layer * moe_layer_us(gpu.architecture) : 0)) /
                         1e3;
            op.bound = time.bound == Bound::compute ? Resource::compute : Resource::memory;
        }
        total += op.ms;
    }
    // Overlapped traffic adds only what the rest of the step does not hide.
    total = std::max(total, overlapped);
    const double fixed_ms = profile.step_overhead_ms + layers * profile.layer_overhead_us / 1e3;
    if (fixed_ms > 0) {
        Operator& overhead = add(ops, "overhead");
        overhead.kind = OperatorKind::overhead;
        overhead.ms = fixed_ms;
        overhead.bound = Resource::overhead;
        total += overhead.ms;
    }
    return total;
}

double weight_bytes_per_gpu(const DeploymentRef& d) {
    const ModelSpec& m = d.model;
    const Shard s = shard(d);
    // A pipeline stage holds layers / pp of the layers; the first holds the embedding, the last the lm_head.
    const double linear = (m.attention_layers() * (s.qkv + s.o) + m.indexer_layers * s.indexer +
                           compressed_layers(m).params +
                           m.layers_with(Attention::state) * s.state + m.layers_with(Mlp::dense) * s.dense_mlp +
                           m.moe_layers() * (s.router + s.shared)) /
                          s.pp;
    const double experts = m.moe_layers() * m.experts * s.expert / s.pp;
    const double embedding = s.pp > 1 ? std::max(s.embed, s.lm_head) : s.embed + (m.tied_embeddings ? 0 : s.lm_head);
    // Hyper-connections' and Attention Residuals' weights beside the norms (hc's in float32, as DeepSeek keeps them).
    const double mixing = m.layers * m.mixing_params_per_layer() + m.mixing_params_head();
    return linear * s.weight_value_bytes + experts * s.expert_value_bytes + embedding * s.embedding_value_bytes +
           (s.norms * kActivationBytes + mixing * (m.hc_mult > 0 ? 4 : kActivationBytes)) / s.pp;
}

double kv_bytes_per_sequence_per_gpu(const DeploymentRef& d, double ctx) {
    const ModelSpec& m = d.model;
    const Shard s = shard(d);
    double positions = 0, indexed = 0;
    for (const LayerRun& r : m.attention_groups) {
        if (!attends(r)) continue;
        // A chunked layer holds the chunk being filled, at most `window` tokens.
        // A sparse or block-sparse layer holds every token (and its indexer key), whatever it reads of them.
        positions += r.count * (r.attention == Attention::full || indexes_every_token(r) ? ctx : std::min(ctx, r.window));
        if (indexes_every_token(r)) indexed += r.count * ctx;
        if (r.attention == Attention::compressed) {  // the window's tokens, then an entry (and a key) per ratio
            positions += r.count * ctx / r.ratio;
            if (r.topk > 0) indexed += r.count * ctx / r.ratio;
        }
    }
    // A GPU holds its attention group's sequences (1 / dp_attention of them) for its stage's layers (1 / pp).
    return (s.kv_values * s.kv_value_bytes * positions + m.indexer.key_bytes() * indexed +
            m.layers_with(Attention::state) * s.state_bytes +
            compressed_layers(m).state_values * kCompressorStateBytes) /
           (s.groups * s.pp);
}

std::vector<double> attention_breaks(const ModelSpec& m, double lo, double hi) {
    std::vector<double> breaks;
    for (const LayerRun& r : m.attention_groups) {
        if (r.window <= 0 || !attends(r)) continue;
        if (r.attention == Attention::chunked) {
            // ctx mod window restarts at each multiple of the window.
            for (double c = std::ceil((lo + 1) / r.window) * r.window; c <= hi && breaks.size() < 64; c += r.window)
                breaks.push_back(c);
        } else if (std::floor(r.window) >= lo && std::floor(r.window) < hi) {
            breaks.push_back(std::floor(r.window) + 1);  // min(ctx, window) is affine up to the window
        }
        const double picked = r.topk * r.ratio;  // compressed: min(ctx / ratio, topk) is affine up to ratio topk
        if (r.attention == Attention::compressed && picked > 0 && std::floor(picked) >= lo && std::floor(picked) < hi)
            breaks.push_back(std::floor(picked) + 1);
    }
    std::sort(breaks.begin(), breaks.end());
    breaks.erase(std::unique(breaks.begin(), breaks.end()), breaks.end());
    return breaks;
}

}  // namespace roofline
