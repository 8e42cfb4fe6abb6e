// The per-operator model. See operators.hpp.
#include "roofline/operators.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "ascii.hpp"
#include "catalog_data.hpp"
#include "roofline/roofline.hpp"
#include "roofline/units.hpp"

namespace roofline {
namespace {

constexpr double kActivationBytes = 2;  // activations travel in 16 bits

struct Profiles {
    std::vector<Profile> all;
    Profiles() {
        all.push_back({"bound", 1, 1, 1, 0, 0});
        const auto j = nlohmann::json::parse(detail::kProfilesJson);
        for (const auto& p : j.at("profiles")) {
            const auto& f = p.at("fitted");
            all.push_back({p.at("name").get<std::string>(), f.at("bandwidth_efficiency").get<double>(),
                           f.at("compute_efficiency").get<double>(), f.at("interconnect_efficiency").get<double>(),
                           f.at("step_overhead_ms").get<double>(), f.at("allreduce_latency_us").get<double>()});
        }
    }
};

const Profiles& profiles() {
    static const Profiles p;
    return p;
}

/// How one GPU of `tp` holds the model.
struct Shard {
    double tp, heads, kv_heads;
    double weight_value_bytes;     ///< bytes per stored weight of the linear layers, block scales included
    double expert_value_bytes;     ///< of the routed experts
    double embedding_value_bytes;  ///< of the embedding and lm_head
    double kv_value_bytes;         ///< bytes per KV cache value
    // Parameters on one GPU.
    double qkv, o, dense_mlp, expert, shared, router, embed, lm_head, norms;
    double indexer;     ///< a sparse layer's indexer (replicated)
    double state;       ///< a state layer (split by its heads)
    double kv_values;   ///< KV values per token per attention layer on one GPU
    double state_bytes; ///< one sequence's state, one state layer, on one GPU
};

Shard shard(const DeploymentRef& d) {
    const ModelSpec& m = d.model;
    Shard s{};
    s.tp = d.tp;
    s.heads = m.heads / d.tp;
    s.kv_heads = std::max(1.0, m.kv_heads / d.tp);  // fewer KV heads than GPUs: each GPU keeps one
    s.weight_value_bytes = bytes_per_value(d.weights);
    s.expert_value_bytes = bytes_per_value(d.experts);
    s.embedding_value_bytes = bytes_per_value(d.embedding);
    s.kv_value_bytes = bytes_per_value(d.kv);
    if (m.mla()) {
        // The down-projections are replicated; the up-projections and the output split by heads.
        const double q = m.q_lora_rank > 0 ? m.hidden * m.q_lora_rank + m.q_lora_rank * s.heads * m.qk_dim()
                                           : m.hidden * s.heads * m.qk_dim();
        s.qkv = q + m.hidden * (m.kv_lora_rank + m.qk_rope_head_dim) +
                m.kv_lora_rank * s.heads * (m.qk_nope_head_dim + m.v_head_dim);
        s.o = s.heads * m.v_head_dim * m.hidden;
        s.kv_values = m.kv_values_per_token_layer();  // the latent is shared by all heads: replicated
    } else {
        s.qkv = (m.gated_attention ? 2 : 1) * m.hidden * s.heads * m.head_dim + 2 * m.hidden * s.kv_heads * m.head_dim;
        s.o = s.heads * m.head_dim * m.hidden;
        s.kv_values = 2 * s.kv_heads * m.head_dim;
    }
    s.dense_mlp = m.dense_mlp_params() / d.tp;
    s.expert = m.moe() ? m.expert_params() / d.tp : 0;
    s.shared = m.moe() ? m.shared_experts * m.shared_expert_params() / d.tp : 0;
    s.router = m.moe() ? m.router_params() : 0;
    s.embed = m.vocab * m.hidden / d.tp;
    s.lm_head = m.vocab * m.hidden / d.tp;
    s.norms = m.norm_count * m.hidden;
    s.indexer = m.indexer.params;
    const double state_split = m.state.heads > 0 ? std::min(d.tp, m.state.heads) : 1;
    s.state = m.state.params / state_split;
    s.state_bytes = m.state.state_bytes() / state_split;
    return s;
}

/// Tokens of context that a layer of this kind reads for a new token at context `ctx`.
double seen(const LayerRun& r, double ctx) {
    switch (r.attention) {
        case Attention::full: return ctx;
        case Attention::sliding:
        case Attention::sparse: return std::min(ctx, r.window);
        case Attention::chunked: return ctx - r.window * std::floor(ctx / r.window);
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
        case Attention::sparse: return within(tokens, r.window);
        case Attention::chunked: {
            const double chunks = std::floor(tokens / r.window), rest = tokens - chunks * r.window;
            return chunks * within(r.window, 0) + within(rest, 0);
        }
        default: return 0;
    }
}

/// Layers that keep a KV cache (their attention reads one).
bool attends(const LayerRun& r) { return r.attention != Attention::none && r.attention != Attention::state; }

/// A new operator at the end of `ops` (its name's length known at compile time: no strlen, no memcpy call).
template <std::size_t N> Operator& add(std::vector<Operator>& ops, const char (&name)[N], DType compute = DType::bf16) {
    Operator& op = ops.emplace_back();
    op.name.append(name, N - 1);
    op.compute = compute;
    return op;
}

/// Writes the operators of a step into `ops` from its start, over the operators a previous step left
/// there (a formula keeps one list per thread): an operator of the same name keeps its name's memory, so
/// that a step allocates and copies nothing for names. On destruction, drops what is left past the end.
class OperatorList {
public:
    explicit OperatorList(std::vector<Operator>& ops) : ops_(ops) { ops_.reserve(kMaxOperators); }
    OperatorList(const OperatorList&) = delete;
    OperatorList& operator=(const OperatorList&) = delete;
    ~OperatorList() { ops_.resize(count_); }

    /// The next operator, every field as a new Operator's but its name.
    template <std::size_t N> Operator& add(const char (&name)[N], DType compute = DType::bf16) {
        if (count_ == ops_.size()) {
            ++count_;
            return roofline::add(ops_, name, compute);
        }
        Operator& op = ops_[count_++];
        // Every field of Operator, so that one added to it is not forgotten here (this does not compile).
        auto& [op_name, flops, bytes, link_bytes, kernels, op_compute, ms, bound] = op;
        if (std::string_view(op_name) != std::string_view(name, N - 1)) op_name.assign(name, N - 1);
        flops = bytes = link_bytes = kernels = ms = 0;
        op_compute = compute;
        bound = Resource::memory;
        return op;
    }

private:
    std::vector<Operator>& ops_;
    std::size_t count_ = 0;
};

/// A linear layer of `params` weights on `tokens` tokens, `times` over: 2 FLOP per weight per token; the
/// weights read once, the activations in and out.
template <std::size_t N>
Operator& linear(OperatorList& ops, const char (&name)[N], double params, double tokens, double in, double out,
            double weight_value_bytes, DType compute, double times = 1) {
    Operator& op = ops.add(name, compute);
    op.flops = 2 * params * tokens;
    op.bytes = params * weight_value_bytes + tokens * (in + out) * kActivationBytes;
    op.flops *= times;
    op.bytes *= times;
    return op;
}

/// The operators both phases share, before attention: the embedding and the QKV projections (a sparse
/// layer's indexer projections among them).
void operators_before_attention(OperatorList& ops, const DeploymentRef& d, const Shard& s, double tokens) {
    const ModelSpec& m = d.model;
    ops.add("embedding").bytes = tokens * m.hidden * s.embedding_value_bytes;
    const double attention_layers = m.attention_layers();
    const double sparse_layers = m.layers_with(Attention::sparse);
    if (attention_layers <= 0) return;
    Operator& qkv = linear(ops, "qkv_proj", s.qkv, tokens, m.hidden, s.qkv / m.hidden, s.weight_value_bytes,
                           compute_dtype(d.weights), attention_layers);
    if (sparse_layers > 0 && s.indexer > 0) {  // the indexer's projections with the other projections
        qkv.flops += 2 * s.indexer * tokens * sparse_layers;
        qkv.bytes += (s.indexer * s.weight_value_bytes + tokens * m.indexer.heads * m.indexer.head_dim * kActivationBytes) *
                     sparse_layers;
    }
}

/// The state layers (linear attention, state-space): their projections, convolution and recurrence in one
/// operator; each of `sequences` sequences reads and writes its state once.
void state_layers(OperatorList& ops, const DeploymentRef& d, const Shard& s, double tokens, double sequences) {
    const ModelSpec& m = d.model;
    const double layers = m.layers_with(Attention::state);
    if (layers <= 0) return;
    const double split = m.state.heads > 0 ? std::min(d.tp, m.state.heads) : 1;
    Operator& op = ops.add("linear_attn", compute_dtype(d.weights));
    op.flops = layers * tokens * (2 * s.state + m.state.flops_per_token / split);
    op.bytes = layers * (s.state * s.weight_value_bytes +
                         tokens * (m.hidden + (m.state.in_width + m.state.out_width) / split + m.hidden) * kActivationBytes +
                         2 * sequences * s.state_bytes);
}

/// The operators both phases share, after attention: the output projection, MLP or experts, norms,
/// lm_head, all-reduces.
void operators_after_attention(OperatorList& ops, const DeploymentRef& d, const Shard& s, double tokens,
                               double lm_tokens, double sequences) {
    const ModelSpec& m = d.model;
    const DType compute = compute_dtype(d.weights);
    const double weight_value_bytes = s.weight_value_bytes;
    const double attention_layers = m.attention_layers();
    if (attention_layers > 0)
        linear(ops, "o_proj", s.o, tokens, s.o / m.hidden, m.hidden, weight_value_bytes, compute, attention_layers);
    state_layers(ops, d, s, tokens, sequences);
    const double dense_layers = m.layers_with(Mlp::dense);
    if (dense_layers > 0)
        linear(ops, "mlp", s.dense_mlp, tokens, m.hidden, m.hidden, weight_value_bytes, compute, dense_layers);
    const double moe_layers = m.moe_layers();
    if (m.moe() && moe_layers > 0) {
        linear(ops, "router", s.router, tokens, m.hidden, m.experts, kActivationBytes, DType::bf16, moe_layers);
        // Only the experts the tokens pick are read; each token computes with k of them.
        const double touched = expected_distinct_experts(m.experts, m.experts_per_token, tokens);
        Operator& experts = ops.add("experts", compute_dtype(d.experts));
        experts.flops = 2 * s.expert * m.experts_per_token * tokens * moe_layers;
        experts.bytes = (touched * s.expert * s.expert_value_bytes +
                         tokens * m.experts_per_token * 2 * m.hidden * kActivationBytes) *
                        moe_layers;
        if (m.shared_experts > 0)
            linear(ops, "shared_experts", s.shared, tokens, m.hidden, m.hidden, weight_value_bytes, compute, moe_layers);
    }
    const double norm_count = s.norms / m.hidden;
    Operator& norms = ops.add("norms");
    norms.flops = 5 * tokens * m.hidden * norm_count;
    norms.bytes = s.norms * kActivationBytes + 2 * tokens * m.hidden * kActivationBytes * norm_count;
    linear(ops, "lm_head", s.lm_head, lm_tokens, m.hidden, m.vocab / d.tp, s.embedding_value_bytes,
           compute_dtype(d.embedding));
    if (d.tp > 1) {
        // An all-reduce after each token mixer and each MLP, ring: each GPU sends 2(p-1)/p of them.
        Operator& allreduce = ops.add("allreduce");
        allreduce.count = norm_count - 1;
        allreduce.link_bytes = allreduce.count * 2 * (d.tp - 1) / d.tp * tokens * m.hidden * kActivationBytes;
    }
}

}  // namespace

const Profile* find_profile(std::string_view name) {
    for (const Profile& p : profiles().all)  // names in lower case
        if (ascii::equals_lowered(p.name, name)) return &p;
    return nullptr;
}

std::vector<std::string> profile_names() {
    std::vector<std::string> names;
    for (const Profile& p : profiles().all) names.push_back(p.name);
    return names;
}

std::string_view to_string(Resource r) noexcept {
    switch (r) {
        case Resource::compute: return "compute";
        case Resource::memory: return "memory";
        case Resource::interconnect: return "interconnect";
        default: return "overhead";
    }
}

double expected_distinct_experts(double experts, double per_token, double tokens) noexcept {
    return experts * (1 - std::pow(1 - per_token / experts, tokens));
}

void decode_operators(const DeploymentRef& d, double batch, double ctx, std::vector<Operator>& list) {
    const ModelSpec& m = d.model;
    const Shard s = shard(d);
    OperatorList ops(list);
    operators_before_attention(ops, d, s, batch);
    // Attention: every sequence reads its own KV cache (a window, a chunk or its top-k at most); a sparse
    // layer's indexer also scores every cached token with its own keys.
    // MLA attends in the latent space (the up-projections absorbed): keys of kv_lora_rank + rope, values of kv_lora_rank.
    const double per_position = m.mla() ? (m.kv_lora_rank + m.qk_rope_head_dim) + m.kv_lora_rank : m.qk_dim() + m.v_dim();
    double positions = 0, indexed = 0;
    for (const LayerRun& r : m.attention_groups) {
        if (!attends(r)) continue;
        positions += r.count * seen(r, ctx);
        if (r.attention == Attention::sparse) indexed += r.count * ctx;
    }
    const double attention_layers = m.attention_layers();
    if (attention_layers > 0) {
        Operator& attention = ops.add("attention");
        attention.flops = 2 * batch * s.heads * per_position * positions +
                          2 * batch * m.indexer.heads * m.indexer.head_dim * indexed;
        // Read the context, write the new token.
        attention.bytes = batch * s.kv_values * s.kv_value_bytes * (positions + attention_layers) +
                          batch * m.indexer.key_bytes() * (indexed + m.layers_with(Attention::sparse));
    }
    operators_after_attention(ops, d, s, batch, batch, batch);
}

void prefill_operators(const DeploymentRef& d, double batch, double tokens, std::vector<Operator>& list) {
    const ModelSpec& m = d.model;
    const Shard s = shard(d);
    const double all_tokens = batch * tokens;
    OperatorList ops(list);
    operators_before_attention(ops, d, s, all_tokens);
    // Causal attention: position i attends to min(i, window) positions (its chunk's, in a chunked layer);
    // a sparse layer's indexer scores all i of them.
    double pairs = 0, indexed = 0;
    for (const LayerRun& r : m.attention_groups) {
        if (!attends(r)) continue;
        pairs += r.count * causal_pairs(r, tokens);
        if (r.attention == Attention::sparse) indexed += r.count * tokens * (tokens + 1) / 2;
    }
    pairs *= batch;
    indexed *= batch;
    const double attention_layers = m.attention_layers();
    if (attention_layers > 0) {
        Operator& attention = ops.add("attention");
        attention.flops = 2 * s.heads * (m.qk_dim() + m.v_dim()) * pairs +
                          2 * m.indexer.heads * m.indexer.head_dim * indexed;
        // Fused attention reads Q, K, V once and writes the output and the KV cache.
        attention.bytes = attention_layers * all_tokens *
                              (s.kv_values * s.kv_value_bytes + s.heads * (m.qk_dim() + 2 * m.v_dim()) * kActivationBytes) +
                          m.layers_with(Attention::sparse) * all_tokens * m.indexer.key_bytes();
    }
    operators_after_attention(ops, d, s, all_tokens, batch, batch);
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

double estimate(std::vector<Operator>& ops, const GpuSpec& gpu, const Profile& profile) {
    double total = 0;
    // The roof of the operators' compute dtype, worked out again only when it changes.
    DType roof_dtype = DType::bf16;
    Gpu roof{0, 0};
    bool have_roof = false;
    for (Operator& op : ops) {
        if (op.link_bytes > 0) {
            op.ms = memory_time_ms(op.link_bytes, gpu.interconnect_tbs * profile.interconnect_efficiency) +
                    op.count * profile.allreduce_latency_us / 1e3;
            op.bound = Resource::interconnect;
        } else {
            if (!have_roof || op.compute != roof_dtype) {
                roof = {gpu.peak_tflops(op.compute) * profile.compute_efficiency, gpu.hbm_tbs * profile.bandwidth_efficiency};
                roof_dtype = op.compute;
                have_roof = true;
            }
            const StepTime time = step_time({op.flops, op.bytes}, roof);
            op.ms = time.time_ms;
            op.bound = time.bound == Bound::compute ? Resource::compute : Resource::memory;
        }
        total += op.ms;
    }
    if (profile.step_overhead_ms > 0) {
        Operator& overhead = add(ops, "overhead");
        overhead.ms = profile.step_overhead_ms;
        overhead.bound = Resource::overhead;
        total += overhead.ms;
    }
    return total;
}

double weight_bytes_per_gpu(const DeploymentRef& d) {
    const ModelSpec& m = d.model;
    const Shard s = shard(d);
    const double linear = m.attention_layers() * (s.qkv + s.o) + m.layers_with(Attention::sparse) * s.indexer +
                          m.layers_with(Attention::state) * s.state + m.layers_with(Mlp::dense) * s.dense_mlp +
                          m.moe_layers() * (s.router + s.shared);
    const double experts = m.moe_layers() * m.experts * s.expert;
    const double embedding = s.embed + (m.tied_embeddings ? 0 : s.lm_head);
    return linear * s.weight_value_bytes + experts * s.expert_value_bytes + embedding * s.embedding_value_bytes +
           s.norms * kActivationBytes;
}

double kv_bytes_per_sequence_per_gpu(const DeploymentRef& d, double ctx) {
    const ModelSpec& m = d.model;
    const Shard s = shard(d);
    double positions = 0, indexed = 0;
    for (const LayerRun& r : m.attention_groups) {
        if (!attends(r)) continue;
        // A chunked layer holds the chunk being filled, at most `window` tokens.
        positions += r.count * (r.attention == Attention::full || r.attention == Attention::sparse ? ctx
                                                                                                  : std::min(ctx, r.window));
        if (r.attention == Attention::sparse) indexed += r.count * ctx;
    }
    return s.kv_values * s.kv_value_bytes * positions + m.indexer.key_bytes() * indexed +
           m.layers_with(Attention::state) * s.state_bytes;
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
    }
    std::sort(breaks.begin(), breaks.end());
    breaks.erase(std::unique(breaks.begin(), breaks.end()), breaks.end());
    return breaks;
}

}  // namespace roofline
