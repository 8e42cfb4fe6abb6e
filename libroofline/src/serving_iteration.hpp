// The serving model's iteration (serving.cpp) and the simulation's (simulate.cpp): the contexts a decoding sequence
// goes through, and the iteration model that times decode tokens fused with prefill tokens from the operator model's
// coefficients. Private to the core.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "roofline/error.hpp"
#include "roofline/operators.hpp"
#include "roofline/roofline.hpp"
#include "roofline/serving.hpp"

namespace roofline::serving::detail {

// ---- The contexts a decoding sequence goes through. --------------------------------------------------

/// Decode step j (j = 1 ... output_tokens - 1) of a request attends over prompt_tokens + j - 1 cached
/// tokens. A step is affine in the context except at a sliding window, where the slope changes: the
/// mean over the steps is exact when taken over each affine piece at its mean context.
struct ContextPiece {
    double lo = 0, hi = 0;  ///< the contexts lo, lo + 1, ..., hi
    double steps() const { return hi - lo + 1; }
    double mean() const { return (lo + hi) / 2; }
};

struct Contexts {
    std::vector<ContextPiece> piece;
    int count = 0;
    double steps = 0;

    /// The mean over every context of a function affine on each piece.
    template <typename F> double mean_of(F&& f) const {
        double sum = 0;
        for (int i = 0; i < count; ++i) sum += piece[i].steps() * f(piece[i].mean());
        return sum / steps;
    }
};

inline Contexts contexts(const ModelSpec& m, const Workload& w) {
    const double lo = w.prompt_tokens, hi = w.prompt_tokens + w.output_tokens - 2;
    Contexts c;
    c.steps = w.output_tokens - 1;
    double from = lo;
    for (double b : attention_breaks(m, lo, hi)) {  // a new piece starts at each break
        if (b <= from || b > hi) continue;
        c.piece.push_back({from, b - 1});
        from = b;
    }
    c.piece.push_back({from, hi});
    c.count = static_cast<int>(c.piece.size());
    return c;
}

/// The mean over the whole contexts lo ... hi of max(compute(x), memory(x)), both affine in x and given at lo
/// and hi: split where the two cross, each side is affine and its mean is its value at its mean context.
inline double mean_of_max(const ContextPiece& p, const StepTime& at_lo, const StepTime& at_hi) {
    auto at = [&](double x) {
        const double f = p.hi > p.lo ? (x - p.lo) / (p.hi - p.lo) : 0;
        return std::max(at_lo.compute_ms + f * (at_hi.compute_ms - at_lo.compute_ms),
                        at_lo.memory_ms + f * (at_hi.memory_ms - at_lo.memory_ms));
    };
    const double d_lo = at_lo.compute_ms - at_lo.memory_ms, d_hi = at_hi.compute_ms - at_hi.memory_ms;
    if ((d_lo >= 0) == (d_hi >= 0)) return at(p.mean());
    const double k = std::clamp(std::floor(p.lo + (p.hi - p.lo) * d_lo / (d_lo - d_hi)), p.lo, p.hi - 1);
    const ContextPiece left{p.lo, k}, right{k + 1, p.hi};
    return (left.steps() * at(left.mean()) + right.steps() * at(right.mean())) / p.steps();
}

// ---- One iteration: decode tokens fused with prefill tokens. ----------------------------------------

/// The operator of that kind in a list (the first: attention, lm_head, experts and state are one each).
inline const Operator& of_kind(const std::vector<Operator>& ops, OperatorKind kind) {
    for (const Operator& op : ops)
        if (op.kind == kind) return op;
    throw Error::of_call(Status::internal, "", "",
                         fmt::format("the operator model has no operator of kind {}", static_cast<int>(kind)));
}

/// One fused iteration on one GPU of tp: `batch` sequences decode one token each, and `prompts` prompts of
/// prompt_tokens tokens prefill, as one forward pass. The linear layers, experts, norms and all-reduces
/// see every token with the weights read once; attention is each sequence's decode attention plus each
/// prompt's causal prefill attention; lm_head runs for the decode tokens and the last token of each
/// prompt. batch = 0 is a prefill alone (prefill_operators), prompts = 0 a decode step alone
/// (decode_operators).
///
/// A planner evaluates thousands of iterations, so the operators are taken apart once into what they are
/// in operators.cpp: each operator's FLOPs, bytes and interconnect bytes are affine in the tokens it sees
/// (the experts' bytes also in the expected number of distinct experts those tokens touch), and attention
/// is linear in the sequences and prompts. The coefficients come from the operator model itself
/// (decode_operators at 0, 1 and 2 tokens; one sequence's attention at each context; one prompt's prefill
/// attention); tests/test_serving.cpp checks the result against operator lists built directly.
class IterationModel {
public:
    IterationModel(const Deployment& d, const Profile& p, const Contexts& c, double prompt_tokens)
        : gpu_(d.gpu), profile_(p.for_vendor(d.gpu.vendor)), contexts_(c), prompt_tokens_(prompt_tokens), model_(d.model), deployment_(d) {
        // Sampled at 0, u and 2u tokens, u = pp: affine there (a pipeline micro-batch of 1 and 2 sequences).
        const double u = d.layout.pp;
        std::vector<Operator> zero, one, two;
        decode_operators(d, 0, c.piece[0].lo, zero);
        decode_operators(d, u, c.piece[0].lo, one);
        decode_operators(d, 2 * u, c.piece[0].lo, two);
        template_ = zero;
        coefficients_.resize(zero.size());
        for (std::size_t i = 0; i < zero.size(); ++i) {
            Coefficients& k = coefficients_[i];
            k.kind = kind_of(zero[i].kind);
            k.flops0 = zero[i].flops;
            k.bytes0 = zero[i].bytes;
            k.flops1 = (one[i].flops - zero[i].flops) / u;
            k.recurrence0 = zero[i].recurrence_flops;
            k.recurrence1 = (one[i].recurrence_flops - zero[i].recurrence_flops) / u;
            k.bytes1 = (one[i].bytes - zero[i].bytes) / u;
            k.link1 = (one[i].link_bytes - zero[i].link_bytes) / u;
            k.out1 = (one[i].scaleout_bytes - zero[i].scaleout_bytes) / u;
            k.tokens1 = one[i].tokens / u;
            k.local = zero[i].local;
            if (k.kind == Kind::experts) {
                // bytes = weights of the touched experts + activations of each token.
                const double t1 = touched(u), t2 = touched(2 * u);
                k.bytes_per_expert = (two[i].bytes - 2 * one[i].bytes) / (t2 - 2 * t1);
                k.bytes1 = (one[i].bytes - k.bytes_per_expert * t1) / u;
            }
            if (k.kind == Kind::state) {
                // bytes = weights + activations of each token + each sequence's state, read and written once.
                k.bytes_per_sequence = 2 * kv_bytes_per_sequence_per_gpu(DeploymentRef(d), 0);
                k.bytes1 -= k.bytes_per_sequence;
            }
        }
        decode_attention_lo_.resize(c.count);
        decode_attention_hi_.resize(c.count);
        // One list reused for the attention at each piece's ends (`one` is the first piece's start).
        std::vector<Operator>& list = two;
        for (int j = 0; j < c.count; ++j) {
            const auto attention_at = [&](double ctx) -> Work {
                if (j == 0 && ctx == c.piece[0].lo) {
                    const Operator& a = of_kind(one, OperatorKind::attention);
                    return {timed_flops(a, gpu_) / u, timed_bytes(a, profile_) / u};
                }
                decode_operators(d, u, ctx, list);
                const Operator& a = of_kind(list, OperatorKind::attention);
                return {timed_flops(a, gpu_) / u, timed_bytes(a, profile_) / u};
            };
            decode_attention_lo_[j] = attention_at(c.piece[j].lo);
            decode_attention_hi_[j] = attention_at(c.piece[j].hi);
        }
        prefill_operators(d, u, prompt_tokens, list);
        const Operator& a = of_kind(list, OperatorKind::attention);
        prefill_attention_ = {timed_flops(a, gpu_) / u, timed_bytes(a, profile_) / u};
        attention_gpu_ = attention_roof(gpu_, profile_, a.compute);
        scratch_ = template_;
    }

    /// Mean time of an iteration over the contexts the decoding sequences go through, ms: every operator but
    /// attention is the same at every context; attention's mean is exact (mean_of_max on each piece). The
    /// operators of one attention group (Operator::local, attention among them) see `local_prompts` prompts in
    /// the replica's terms: dp_attention x those of the busiest group, which the iteration waits for (busiest());
    /// the others, all `prompts`.
    double ms(double batch, double prompts, double local_prompts) const {
        double attention = 0;
        for (int j = 0; j < contexts_.count; ++j) {
            const ContextPiece& piece = contexts_.piece[j];
            attention += piece.steps() *
                         mean_of_max(piece, attention_time(batch, local_prompts, decode_attention_lo_[j]),
                                     attention_time(batch, local_prompts, decode_attention_hi_[j]));
        }
        return others(batch, prompts, local_prompts) + attention / contexts_.steps;
    }
    /// The prompts spread evenly over the attention groups (bound's schedules, a lone group).
    double ms(double batch, double prompts) const { return ms(batch, prompts, prompts); }

    /// An engine's iteration carrying `prompts` prompts (whole ones, or a chunk's share of one): each attention group
    /// takes whole prompts, so with g = dp_attention groups the busiest holds ceil(prompts / g) of them (a chunk,
    /// its share), and the replica waits for it at every expert dispatch and at the iteration's end (TensorRT-LLM's
    /// tech blog 10 measures the groups' balance at 54% without a scheduler that balances them). In the replica's
    /// terms, for ms(): g x the busiest group's prompts.
    double busiest(double prompts) const {
        const double g = deployment_.layout.dp_attention;
        if (g <= 1 || prompts <= 0) return prompts;
        const double own = prompts <= 1 ? prompts : std::min(prompts, std::ceil(prompts / g * (1 - 1e-12)));
        return g * own;
    }
    /// An engine's iteration: ms() with its busiest group.
    double engine_ms(double batch, double prompts) const { return ms(batch, prompts, busiest(prompts)); }

    /// The tokens of an iteration (the replica's) past which the experts read are all of them, to a part in 10^12:
    /// beyond it bound's iteration is a sum of max(affine, affine) in the tokens, convex. 0 for a dense model.
    double experts_saturate_at() const {
        if (!model_.moe()) return 0;
        const double q = 1 - model_.experts_per_token / model_.experts;
        if (!(q > 0 && q < 1)) return 0;
        return deployment_.layout.pp * std::max(1.0, std::log(1e-12) / std::log(q));
    }

    /// One iteration of given work (the simulation's, simulate.cpp): `tokens` tokens through the linear layers, `local`
    /// through the busiest attention group's operators and `sequences` its sequences (both in the replica's terms:
    /// dp_attention x the group's), `logits` through lm_head, and the attention work of that group (the sum over its
    /// sequences' decode attention and its prompts' chunks, in the replica's terms too), ms.
    double ms_of(double tokens, double local, double logits, double sequences, const Work& attention) const {
        return others_at(tokens, local, logits, sequences) + step_time(attention, attention_gpu_).time_ms;
    }

    /// A prefill alone of `prompts` prompts, ms.
    double prefill_ms(double prompts) const {
        return others(0, prompts, prompts) + attention_time(0, prompts, decode_attention_lo_[0]).time_ms;
    }

private:
    /// How an operator's work grows with the iteration's tokens: the operator model's kinds, the others per token.
    enum class Kind { per_token, attention, lm_head, experts, state };
    static Kind kind_of(OperatorKind kind) {
        switch (kind) {
            case OperatorKind::attention: return Kind::attention;
            case OperatorKind::lm_head: return Kind::lm_head;
            case OperatorKind::experts: return Kind::experts;
            case OperatorKind::state: return Kind::state;
            default: return Kind::per_token;
        }
    }
    struct Coefficients {
        Kind kind = Kind::per_token;
        double flops0 = 0, bytes0 = 0, flops1 = 0, bytes1 = 0, link1 = 0, out1 = 0, bytes_per_expert = 0,
               bytes_per_sequence = 0, tokens1 = 0, recurrence0 = 0, recurrence1 = 0;
        bool local = false;  ///< Operator::local
    };

    /// As the experts operator counts them: over the tokens of one pipeline micro-batch.
    double touched(double tokens) const {
        return expected_distinct_experts(model_.experts, model_.experts_per_token,
                                         micro_batch_tokens(deployment_, tokens));
    }

    StepTime attention_time(double batch, double prompts, const Work& per_sequence) const {
        return step_time({batch * per_sequence.flops + prompts * prefill_attention_.flops,
                          batch * per_sequence.bytes + prompts * prefill_attention_.bytes},
                         attention_gpu_);
    }

    /// Every operator but attention, the profile's fixed costs included, ms.
    double others(double batch, double prompts, double local_prompts) const {
        // Through the linear layers; an attention group's, in the replica's terms; through lm_head.
        return others_at(batch + prompts * prompt_tokens_, batch + local_prompts * prompt_tokens_, batch + prompts,
                         batch + local_prompts);
    }

    /// The same for `tokens` tokens through the linear layers, `local` through an attention group's operators (in the
    /// replica's terms), `logits` through lm_head, and `sequences` whose recurrent state the state layers read.
    double others_at(double tokens, double local, double logits, double sequences) const {
        for (std::size_t i = 0; i < coefficients_.size(); ++i) {
            const Coefficients& k = coefficients_[i];
            Operator& op = scratch_[i];
            switch (k.kind) {
                case Kind::attention:
                    op.flops = op.bytes = 0;  // timed apart, per context
                    break;
                case Kind::lm_head:
                    op.flops = k.flops0 + logits * k.flops1;
                    op.bytes = k.bytes0 + logits * k.bytes1;
                    op.tokens = logits * k.tokens1;
                    break;
                case Kind::experts: {
                    const double t = touched(tokens);
                    op.flops = k.flops0 + tokens * k.flops1;
                    op.bytes = k.bytes_per_expert * t + tokens * k.bytes1;
                    op.tokens = t > 0 ? micro_batch_tokens(deployment_, tokens) * model_.experts_per_token / t : 0;
                    break;
                }
                case Kind::state:  // on an attention group's tokens and sequences
                    op.tokens = local * k.tokens1;
                    op.flops = k.flops0 + local * k.flops1;
                    op.recurrence_flops = k.recurrence0 + local * k.recurrence1;
                    op.bytes = k.bytes0 + local * k.bytes1 + sequences * k.bytes_per_sequence;
                    break;
                case Kind::per_token: {
                    const double t = k.local ? local : tokens;
                    op.tokens = t * k.tokens1;
                    op.flops = k.flops0 + t * k.flops1;
                    op.bytes = k.bytes0 + t * k.bytes1;
                    op.link_bytes = t * k.link1;
                    op.scaleout_bytes = t * k.out1;
                    break;
                }
            }
        }
        const double total = estimate(scratch_, gpu_, profile_);
        scratch_.resize(template_.size());  // estimate() appends the profile's overhead
        return total;
    }

    const GpuSpec& gpu_;
    const Profile& profile_;
    Contexts contexts_;
    double prompt_tokens_;
    const ModelSpec& model_;
    DeploymentRef deployment_;
    std::vector<Operator> template_;
    std::vector<Coefficients> coefficients_;
    // Attention's work, its FLOPs as timed_flops() counts them (an indexer's FP8 scores at the FP8 peak's rate).
    std::vector<Work> decode_attention_lo_, decode_attention_hi_;  ///< one sequence, at each piece's ends
    Work prefill_attention_;                                           ///< one prompt
    Gpu attention_gpu_;                                                ///< what attention runs at
    mutable std::vector<Operator> scratch_;
};

/// Memory for weights and KV cache left for the KV cache, bytes per GPU (mem_util of its memory less the weights);
/// throws no_solution naming "model" when the weights alone do not fit.
double kv_budget_bytes(const Deployment& d, double mem_util);

}  // namespace roofline::serving::detail
