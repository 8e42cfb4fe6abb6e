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
    double weight_value_bytes;  ///< bytes per stored weight, block scales included
    double kv_value_bytes;      ///< bytes per KV cache value
    // Parameters on one GPU.
    double qkv, o, dense_mlp, expert, shared, router, embed, lm_head, norms;
    double kv_values;  ///< KV values per token per layer on one GPU
};

Shard shard(const DeploymentRef& d) {
    const ModelSpec& m = d.model;
    Shard s{};
    s.tp = d.tp;
    s.heads = m.heads / d.tp;
    s.kv_heads = std::max(1.0, m.kv_heads / d.tp);  // fewer KV heads than GPUs: each GPU keeps one
    s.weight_value_bytes = bytes_per_value(d.weights);
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
        s.qkv = m.hidden * s.heads * m.head_dim + 2 * m.hidden * s.kv_heads * m.head_dim;
        s.o = s.heads * m.head_dim * m.hidden;
        s.kv_values = 2 * s.kv_heads * m.head_dim;
    }
    s.dense_mlp = m.dense_mlp_params() / d.tp;
    s.expert = m.moe() ? m.expert_params() / d.tp : 0;
    s.shared = m.shared_experts * s.expert;
    s.router = m.moe() ? m.router_params() : 0;
    s.embed = m.vocab * m.hidden / d.tp;
    s.lm_head = m.vocab * m.hidden / d.tp;
    s.norms = (2 * m.layers + 1) * m.hidden;
    return s;
}

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
void linear(OperatorList& ops, const char (&name)[N], double params, double tokens, double in, double out,
            double weight_value_bytes, DType compute, double times = 1) {
    Operator& op = ops.add(name, compute);
    op.flops = 2 * params * tokens;
    op.bytes = params * weight_value_bytes + tokens * (in + out) * kActivationBytes;
    op.flops *= times;
    op.bytes *= times;
}

/// The layers that see at most `window` tokens, and the rest.
struct Layers {
    double sliding, full;
};
Layers layer_split(const ModelSpec& m) { return {m.sliding_layers, m.layers - m.sliding_layers}; }

/// The operators both phases share, before attention: the embedding and the QKV projections.
void operators_before_attention(OperatorList& ops, const DeploymentRef& d, const Shard& s, double tokens) {
    const ModelSpec& m = d.model;
    const double weight_value_bytes = s.weight_value_bytes;
    ops.add("embedding").bytes = tokens * m.hidden * weight_value_bytes;
    linear(ops, "qkv_proj", s.qkv, tokens, m.hidden, s.qkv / m.hidden, weight_value_bytes, compute_dtype(d.weights),
           m.layers);
}

/// The operators both phases share, after attention: the output projection, MLP or experts, norms,
/// lm_head, all-reduces.
void operators_after_attention(OperatorList& ops, const DeploymentRef& d, const Shard& s, double tokens,
                               double lm_tokens) {
    const ModelSpec& m = d.model;
    const DType compute = compute_dtype(d.weights);
    const double weight_value_bytes = s.weight_value_bytes;
    linear(ops, "o_proj", s.o, tokens, s.o / m.hidden, m.hidden, weight_value_bytes, compute, m.layers);
    const double dense_layers = m.layers - m.moe_layers();
    if (dense_layers > 0)
        linear(ops, "mlp", s.dense_mlp, tokens, m.hidden, m.hidden, weight_value_bytes, compute, dense_layers);
    if (m.moe()) {
        const double moe_layers = m.moe_layers();
        linear(ops, "router", s.router, tokens, m.hidden, m.experts, kActivationBytes, DType::bf16, moe_layers);
        // Only the experts the tokens pick are read; each token computes with k of them.
        const double touched = expected_distinct_experts(m.experts, m.experts_per_token, tokens);
        Operator& experts = ops.add("experts", compute);
        experts.flops = 2 * s.expert * m.experts_per_token * tokens * moe_layers;
        experts.bytes = (touched * s.expert * s.weight_value_bytes +
                         tokens * m.experts_per_token * 2 * m.hidden * kActivationBytes) *
                        moe_layers;
        if (m.shared_experts > 0)
            linear(ops, "shared_experts", s.shared, tokens, m.hidden, m.hidden, weight_value_bytes, compute, moe_layers);
    }
    Operator& norms = ops.add("norms");
    norms.flops = 5 * tokens * m.hidden * (2 * m.layers + 1);
    norms.bytes = s.norms * kActivationBytes + 2 * tokens * m.hidden * kActivationBytes * (2 * m.layers + 1);
    linear(ops, "lm_head", s.lm_head, lm_tokens, m.hidden, m.vocab / d.tp, weight_value_bytes, compute);
    if (d.tp > 1) {
        // Two all-reduces per layer (after attention, after the MLP), ring: each GPU sends 2(p-1)/p of them.
        Operator& allreduce = ops.add("allreduce");
        allreduce.count = 2 * m.layers;
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
    // Attention: every sequence reads its own KV cache (a sliding-window layer at most its window).
    const Layers layers = layer_split(m);
    const double seen = layers.full * ctx + layers.sliding * std::min(ctx, m.sliding_window);
    Operator& attention = ops.add("attention");
    // MLA attends in the latent space (the up-projections absorbed): keys of kv_lora_rank + rope, values of kv_lora_rank.
    const double per_position = m.mla() ? (m.kv_lora_rank + m.qk_rope_head_dim) + m.kv_lora_rank : m.qk_dim() + m.v_dim();
    attention.flops = 2 * batch * s.heads * per_position * seen;
    // Read the context, write the new token.
    attention.bytes = batch * s.kv_values * s.kv_value_bytes * (seen + m.layers);
    operators_after_attention(ops, d, s, batch, batch);
}

void prefill_operators(const DeploymentRef& d, double batch, double tokens, std::vector<Operator>& list) {
    const ModelSpec& m = d.model;
    const Shard s = shard(d);
    const double all_tokens = batch * tokens;
    OperatorList ops(list);
    operators_before_attention(ops, d, s, all_tokens);
    // Causal attention: position i attends to min(i, window) positions.
    auto causal = [&](double window) {
        if (window <= 0 || tokens <= window) return tokens * (tokens + 1) / 2;
        return window * (window + 1) / 2 + (tokens - window) * window;
    };
    const Layers layers = layer_split(m);
    const double pairs = batch * (layers.full * causal(0) + layers.sliding * causal(m.sliding_window));
    Operator& attention = ops.add("attention");
    attention.flops = 2 * s.heads * (m.qk_dim() + m.v_dim()) * pairs;
    // Fused attention reads Q, K, V once and writes the output and the KV cache.
    attention.bytes = m.layers * all_tokens *
                      (s.kv_values * s.kv_value_bytes + s.heads * (m.qk_dim() + 2 * m.v_dim()) * kActivationBytes);
    operators_after_attention(ops, d, s, all_tokens, batch);
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
    const double dense_layers = m.layers - m.moe_layers();
    const double params = m.layers * (s.qkv + s.o) + dense_layers * s.dense_mlp +
                          m.moe_layers() * (s.router + m.experts * s.expert + s.shared) + s.embed +
                          (m.tied_embeddings ? 0 : s.lm_head);
    return params * s.weight_value_bytes + s.norms * kActivationBytes;
}

double kv_bytes_per_sequence_per_gpu(const DeploymentRef& d, double ctx) {
    const ModelSpec& m = d.model;
    const Shard s = shard(d);
    const Layers layers = layer_split(m);
    return s.kv_values * s.kv_value_bytes * (layers.full * ctx + layers.sliding * std::min(ctx, m.sliding_window));
}

}  // namespace roofline
