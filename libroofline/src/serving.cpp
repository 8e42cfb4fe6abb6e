// The serving model. See serving.hpp and docs/serving-model.md.
#include "roofline/serving.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

#include "roofline/error.hpp"
#include "roofline/nearest.hpp"
#include "roofline/roofline.hpp"
#include "roofline/units.hpp"

#include "serving_search.hpp"

namespace roofline::serving {

// ---- Checks: each names its argument (serving_search.hpp: the planner's too). ------------------------------

namespace detail {

[[noreturn]] void fail(Status status, const char* argument, const std::string& reason) {
    throw Error::of_argument(status, "", argument, reason);
}

[[noreturn]] void unknown(const char* argument, const std::string& reason) { fail(Status::unknown_id, argument, reason); }

void require_whole(const char* argument, double v, double min) {
    if (!std::isfinite(v) || v < min || v != std::floor(v))
        fail(Status::invalid_argument, argument, fmt::format("must be a whole number >= {} (got {})", min, v));
}

void require_positive(const char* argument, double v) {
    if (!std::isfinite(v) || !(v > 0))
        fail(Status::invalid_argument, argument, fmt::format("must be greater than zero (got {})", v));
}

void require_non_negative(const char* argument, double v) {
    if (!std::isfinite(v) || v < 0)
        fail(Status::invalid_argument, argument, fmt::format("must be zero or more (got {})", v));
}

void require_fraction(const char* argument, double v) {
    if (!std::isfinite(v) || !(v > 0) || v > 1)
        fail(Status::invalid_argument, argument, fmt::format("must be above 0 and at most 1 (got {})", v));
}

void check(const Workload& w) {
    require_whole("prompt_tokens", w.prompt_tokens, 1);
    if (!std::isfinite(w.output_tokens) || w.output_tokens < 2 || w.output_tokens != std::floor(w.output_tokens))
        fail(Status::invalid_argument, "output_tokens",
             fmt::format("must be a whole number >= 2: the first token comes from the prefill, the rest from "
                         "decode steps (got {})",
                         w.output_tokens));
}

void check(const Targets& t) {
    require_positive("ttft_ms", t.ttft_ms);
    require_positive("tpot_ms", t.tpot_ms);
}

}  // namespace detail

using namespace detail;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kSecondsPerHour = 3600;
constexpr double kTokensPerMillion = 1e6;
constexpr double kMaxBatch = 1099511627776;  ///< 2^40 sequences: beyond, a batch is not a question of serving

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

Contexts contexts(const ModelSpec& m, const Workload& w) {
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
double mean_of_max(const ContextPiece& p, const StepTime& at_lo, const StepTime& at_hi) {
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
const Operator& of_kind(const std::vector<Operator>& ops, OperatorKind kind) {
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
                    return {a.flops / u, a.bytes / u};
                }
                decode_operators(d, u, ctx, list);
                const Operator& a = of_kind(list, OperatorKind::attention);
                return {a.flops / u, a.bytes / u};
            };
            decode_attention_lo_[j] = attention_at(c.piece[j].lo);
            decode_attention_hi_[j] = attention_at(c.piece[j].hi);
        }
        prefill_operators(d, u, prompt_tokens, list);
        const Operator& a = of_kind(list, OperatorKind::attention);
        prefill_attention_ = {a.flops / u, a.bytes / u};
        attention_gpu_ = {gpu_.peak_tflops(a.compute) * profile_.compute_efficiency * profile_.attention_efficiency,
                          gpu_.hbm_tbs * profile_.bandwidth_efficiency * profile_.attention_efficiency};
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
               bytes_per_sequence = 0, tokens1 = 0;
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
        const double tokens = batch + prompts * prompt_tokens_;  // through the linear layers
        const double local = batch + local_prompts * prompt_tokens_;  // an attention group's, in the replica's terms
        const double logits = batch + prompts;                   // through lm_head
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
                    op.bytes = k.bytes0 + local * k.bytes1 + (batch + local_prompts) * k.bytes_per_sequence;
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
    std::vector<Work> decode_attention_lo_, decode_attention_hi_;  ///< one sequence, at each piece's ends
    Work prefill_attention_;                                           ///< one prompt
    Gpu attention_gpu_;                                                ///< what attention runs at
    mutable std::vector<Operator> scratch_;
};

/// Memory for weights and KV cache, bytes per GPU; throws when the weights alone do not fit.
double kv_budget(const Deployment& d, double mem_util) {
    const double usable = mem_util * units::bytes_from_gb(d.gpu.hbm_gb);
    const double weights = weight_bytes_per_gpu(d);
    if (weights >= usable)
        fail(Status::no_solution, "model",
             fmt::format("the weights of '{}' in {} ({:.3g} GB per GPU at tp = {}) do not fit in {} of the {} GB "
                         "of a '{}'",
                         d.model.id, to_string(d.weights), units::gb_from_bytes(weights), d.tp, mem_util,
                         d.gpu.hbm_gb, d.gpu.id));
    return usable - weights;
}

double whole_sequences(double budget, double bytes_per_sequence) {
    return std::floor(budget / bytes_per_sequence * (1 + 1e-12));
}

/// Largest whole x in [1, hi] with ok(x), given ok(1) (ok is monotone: true up to some x, then false).
template <typename F> double largest(double hi, F&& ok) {
    double lo = 1;
    if (ok(hi)) return hi;
    while (hi - lo > 1) {
        const double mid = std::floor((lo + hi) / 2);
        (ok(mid) ? lo : hi) = mid;
    }
    return lo;
}

ReplicaState finish(ReplicaState s, const Workload& w) {
    s.e2e_ms = s.ttft_ms + (w.output_tokens - 1) * s.tpot_ms;
    s.output_tokens_per_s = s.rps * w.output_tokens;
    return s;
}

// ---- The iteration as engines schedule it (docs/serving-model.md, section 2). -------------------------------

/// The engine's limits on one replica: its profile's, per attention group, times the groups (each runs a
/// scheduler of its own). Infinite where the profile sets none (bound).
struct Limits {
    double seqs = kInf;    ///< sequences running at once
    double tokens = kInf;  ///< tokens of one iteration, decode and prefill
};

Limits limits(const Deployment& d, const Profile& profile) {
    const Profile& p = profile.for_vendor(d.gpu.vendor);
    Limits l;
    if (p.max_running_seqs > 0) l.seqs = std::floor(p.max_running_seqs) * d.layout.dp_attention;
    if (p.max_iteration_tokens > 0) l.tokens = std::floor(p.max_iteration_tokens) * d.layout.dp_attention;
    return l;
}

/// The largest batch whose prefills the token budget keeps up with: B P / (O - 1) + B <= tokens.
double budget_batch(const Limits& l, const Workload& w) {
    if (!std::isfinite(l.tokens)) return kInf;
    return std::floor(l.tokens * (w.output_tokens - 1) / (w.prompt_tokens + w.output_tokens - 1) * (1 + 1e-12));
}

/// The largest batch the engine runs for this workload (memory aside): its cap on sequences and its token budget;
/// at least 1 (a budget below one prompt's worth per request still runs one sequence, chunk by chunk).
double engine_batch(const Limits& l, const Workload& w) {
    return std::max(1.0, std::min(l.seqs, budget_batch(l, w)));
}

/// A prompt prefilled in chunks of at most `room` tokens: `count` chunks, the last of `last` tokens (the rest).
struct Chunks {
    double size = 0, count = 1, last = 0;
};
Chunks chunks_of(double prompt_tokens, double room) {
    Chunks c;
    c.size = std::min(prompt_tokens, std::max(1.0, room));  // at least one token
    c.count = std::ceil(prompt_tokens / c.size * (1 - 1e-12));
    c.last = prompt_tokens - (c.count - 1) * c.size;
    return c;
}

/// The mean iteration at a decode batch, with the prefill that keeps the batch full: `n = batch / (O - 1)` prompts
/// per iteration on average, in iterations of their own sizes.
struct Schedule {
    double tpot_ms = 0;   ///< the mean iteration: TPOT
    double prompts = 0;   ///< prompts started per iteration (n, or less when the budget cannot keep up)
    double with_prompt_ms = 0;  ///< the iterations that carry one prompt, from its first chunk to its last (TTFT)
    double chunks = 1;    ///< iterations one prompt's prefill takes
};

/// An engine's schedule (every profile but bound): decode first, then the waiting prompts in the iteration's
/// token budget (vLLM V1's and SGLang's schedulers, TensorRT-LLM's with chunked context). Prompts arrive one by one,
/// so an iteration carries whole prompts: floor(n) or ceil(n) of them, in the shares that make n; a prompt longer
/// than the budget left by the decode tokens goes in chunks of that room, the last chunk the rest. Where even that
/// does not fit (the budget is nearly full) every iteration carries the budget's room.
Schedule engine_schedule(const IterationModel& m, const Workload& w, double batch, const Limits& l) {
    Schedule s;
    const double P = w.prompt_tokens, n = batch / (w.output_tokens - 1);
    const double room = l.tokens - batch;  // prefill tokens an iteration may carry beside the decode tokens
    const double decode_only = m.engine_ms(batch, 0);
    s.prompts = n;
    const double lo = std::floor(n), hi = std::ceil(n);
    if (hi * P <= room) {
        // Whole prompts: (1 - phi) of the iterations carry floor(n), phi carry ceil(n).
        const double phi = n - lo;
        s.tpot_ms = (1 - phi) * (lo > 0 ? m.engine_ms(batch, lo) : decode_only) + (phi > 0 ? phi * m.engine_ms(batch, hi) : 0);
        s.with_prompt_ms = m.engine_ms(batch, 1);
        return s;
    }
    const Chunks c = chunks_of(P, room);
    const double chunk = std::max(1.0, room), last = c.last;  // the budget's room, at least one token
    s.chunks = c.count;
    if (n < 1 && n * s.chunks <= 1) {
        // One prompt at a time, in chunks: n x chunks of the iterations carry one of its chunks, the rest none.
        const double full = s.chunks > 1 ? m.engine_ms(batch, chunk / P) : 0;
        s.with_prompt_ms = (s.chunks - 1) * full + m.engine_ms(batch, last / P);
        s.tpot_ms = n * s.with_prompt_ms + (1 - n * s.chunks) * decode_only;
        return s;
    }
    // The budget is (nearly) full: a share n P / room of the iterations carries the budget's room, the rest none; a
    // budget that cannot keep up (share above 1, only where the batch is 1: engine_batch) starts fewer prompts.
    const double share = std::min(1.0, n * P / chunk);
    s.prompts = std::min(n, chunk / P);
    const double full = m.engine_ms(batch, chunk / P);
    s.tpot_ms = share * full + (1 - share) * decode_only;
    s.with_prompt_ms = (s.chunks - 1) * full + m.engine_ms(batch, last / P);
    return s;
}

/// bound's schedule: the fastest mean over every schedule an engine could run at this batch. Iteration i carries
/// x_i prefill tokens, their mean x = n P fixed; its time is decode(B) + g(x_i). The mean is at least decode(B) +
/// conv(g)(x), g's convex envelope; g(0) = 0, and g is convex for a dense model (every operator max(affine,
/// affine): the fluid x_i = x is the fastest) but concave where a MoE's experts are memory bound (the experts read
/// grow concavely with the tokens), so the envelope at x is min over c >= x of (x / c) g(c): a share x / c of the
/// iterations carry c tokens (whole prompts together where c >= P), the rest none. docs/serving-model.md, section 2.
/// With `enough_ms` the search stops at the first schedule at or below it (a planner asking whether a TPOT target is
/// met needs no more; its tpot_ms is then that schedule's, not the minimum).
Schedule bound_schedule(const IterationModel& m, const Workload& w, double batch, bool concave,
                        double enough_ms = -kInf) {
    Schedule s;
    const double P = w.prompt_tokens, n = batch / (w.output_tokens - 1), x = n * P;
    s.prompts = n;
    s.with_prompt_ms = m.ms(batch, 1);
    const double decode_only = m.ms(batch, 0);
    const double fluid = m.ms(batch, n);
    if (!concave || !(x > 0) || fluid <= enough_ms) {
        s.tpot_ms = fluid;
        return s;
    }
    // slope(c) = g(c) / c; the fluid is c = x. A grid of ratio 2^(1/2) up to 2^24 tokens (beyond, every expert is
    // read and the experts are compute bound long before), then golden-section search about its best point to a
    // millionth of it (the slope is flat there: its error is of the second order). Past the tokens where every
    // expert is read, g is convex, so g(c) / c is quasi-convex ((c g' - g)' = c g'' >= 0): once it rises there it
    // rises for good, and the grid stops.
    const auto slope = [&](double c) { return (m.ms(batch, c / P) - decode_only) / c; };
    double best_c = x, best = (fluid - decode_only) / x;
    const double enough = (enough_ms - decode_only) / x;  // a slope at or below it meets enough_ms
    constexpr double kRatio = 1.4142135623730951;  // 2^(1/2)
    constexpr double kMaxTokens = 16777216;
    const double convex_from = m.experts_saturate_at();
    double previous = best;
    for (double c = x * kRatio; c <= std::max(kMaxTokens, x); c *= kRatio) {
        const double v = slope(c);
        if (v < best) best = v, best_c = c;
        if (c / kRatio >= convex_from && v > previous) break;
        previous = v;
        if (best <= enough) {
            s.tpot_ms = decode_only + x * best;
            return s;
        }
    }
    if (best_c > x) {
        double a = std::max(x, best_c / kRatio), b = best_c * kRatio;
        constexpr double kGolden = 0.6180339887498949;
        double c1 = b - kGolden * (b - a), c2 = a + kGolden * (b - a), v1 = slope(c1), v2 = slope(c2);
        for (int i = 0; i < 40 && b - a > 1e-4 * b && std::min(v1, v2) > enough; ++i) {
            if (v1 < v2) b = c2, c2 = c1, v2 = v1, c1 = b - kGolden * (b - a), v1 = slope(c1);
            else a = c1, c1 = c2, v1 = v2, c2 = a + kGolden * (b - a), v2 = slope(c2);
        }
        for (double c : {c1, c2})
            if (const double v = slope(c); v < best) best = v, best_c = c;
    }
    s.tpot_ms = decode_only + x * best;
    return s;
}

/// The colocated replica at `batch` (checked by the caller).
ReplicaState colocated(const IterationModel& m, bool bound, const Workload& w, double batch, const Limits& l,
                       bool concave) {
    ReplicaState s;
    s.batch = batch;
    const Schedule it = bound ? bound_schedule(m, w, batch, concave) : engine_schedule(m, w, batch, l);
    s.tpot_ms = it.tpot_ms;
    s.rps = it.prompts / units::seconds_from_ms(s.tpot_ms);
    const double decode_only = m.ms(batch, 0);
    s.prefill_share = 1 - decode_only / s.tpot_ms;
    if (bound) {
        // The physical limit: the prompt's prefill alone, nothing ahead of it.
        s.ttft_ms = m.prefill_ms(1);
    } else {
        // Wait for the running iteration (half of one on average), queue behind the prefills ahead (M/D/1 with
        // the time one prompt adds to the schedule as its service time: (TPOT - decode step) / n, which is
        // iteration(B, 1 prompt) - iteration(B, 0) where each prompt has an iteration of its own), then the
        // iterations that carry its prompt.
        const double service = (s.tpot_ms - decode_only) / it.prompts;
        const double load = units::seconds_from_ms(service) * s.rps;
        s.ttft_ms = load < 1 ? s.tpot_ms / 2 + load * service / (2 * (1 - load)) + it.with_prompt_ms : kInf;
    }
    return finish(s, w);
}

/// The sequences of the workload that fit (memory_batch), at least one.
double sequences_that_fit(const Deployment& d, const Profile& p, const Workload& w, double mem_util) {
    const double fit = memory_batch(d, p, w, mem_util);
    if (fit < 1)
        fail(Status::no_solution, "prompt_tokens",
             fmt::format("not one sequence of {} + {} tokens fits beside the weights", w.prompt_tokens,
                         w.output_tokens));
    return fit;
}

void require_meets_tpot(const ReplicaState& one_sequence, double tpot_ms) {
    if (one_sequence.tpot_ms > tpot_ms)
        fail(Status::no_solution, "tpot_ms",
             fmt::format("no batch meets tpot_ms = {}: one sequence alone takes {:.4g} ms per token", tpot_ms,
                         one_sequence.tpot_ms));
}

IterationModel iteration_model(const Deployment& d, const Profile& p, const Workload& w) {
    return IterationModel(d, p, contexts(d.model, w), w.prompt_tokens);
}

}  // namespace

Miss detail::search_replica(const Deployment& d, const Profile& p, const Workload& w, const Targets& t,
                            double mem_util, ReplicaState& out) {
    const double memory = memory_batch(d, p, w, mem_util);
    if (memory < 1) return Miss::memory;
    const IterationModel m = iteration_model(d, p, w);
    const bool bound = is_bound(p), concave = d.model.moe();
    const Limits l = limits(d, p);
    const double fit = std::min(memory, engine_batch(l, w));
    out = colocated(m, bound, w, 1, l, concave);
    if (out.tpot_ms > t.tpot_ms) return Miss::tpot;
    if (out.ttft_ms > t.ttft_ms) return Miss::ttft;
    ReplicaState at;
    const double batch = largest(fit, [&](double b) {
        // The decode step first (no schedule's mean is below it), the schedule only where it is met.
        if (m.ms(b, 0) > t.tpot_ms) return false;
        // bound's TTFT is the prompt's prefill alone, met at batch 1: only its TPOT is asked, and any schedule
        // meeting the target answers it.
        if (bound) return bound_schedule(m, w, b, concave, t.tpot_ms).tpot_ms <= t.tpot_ms;
        at = colocated(m, bound, w, b, l, concave);
        return at.tpot_ms <= t.tpot_ms && at.ttft_ms <= t.ttft_ms;
    });
    out = at.batch == batch ? at : colocated(m, bound, w, batch, l, concave);
    return Miss::none;
}

namespace {

Deployment with_model(const Deployment& d, const ModelSpec& m) {
    Deployment out = d;
    out.model = m;
    return out;
}

}  // namespace

bool is_bound(const Profile& p) noexcept {
    return p.bandwidth_efficiency == 1 && p.compute_efficiency == 1 && p.interconnect_efficiency == 1 &&
           p.step_overhead_ms == 0 && p.allreduce_latency_us == 0 && p.expert_imbalance == 1 &&
           p.overlap_expert_traffic && p.mfu_half_tokens == 0 && p.attention_efficiency == 1 &&
           p.layer_overhead_us == 0 && p.alltoall_latency_us == 0 && p.expert_overhead_us == 0 &&
           p.max_running_seqs == 0 && p.max_iteration_tokens == 0 && p.vendors.empty() &&
           (p.scaleout_efficiency == 0 || p.scaleout_efficiency == 1);
}

double iteration_ms(const Deployment& d, const Profile& p, const Workload& w, double batch, double prompts) {
    return iteration_ms(d, p, w, batch, prompts, prompts);
}

double iteration_ms(const Deployment& d, const Profile& p, const Workload& w, double batch, double prompts,
                    double local_prompts) {
    check(w);
    require_non_negative("batch", batch);
    require_non_negative("prompts", prompts);
    require_non_negative("local_prompts", local_prompts);
    return iteration_model(d, p, w).ms(batch, prompts, local_prompts);
}

double memory_batch(const Deployment& d, const Profile& p, const Workload& w, double mem_util) {
    check(w);
    require_fraction("mem_util", mem_util);
    const double budget = kv_budget(d, mem_util);
    const double per_sequence =
        is_bound(p) ? contexts(d.model, w).mean_of([&](double ctx) { return kv_bytes_per_sequence_per_gpu(d, ctx); })
                    : kv_bytes_per_sequence_per_gpu(d, w.prompt_tokens + w.output_tokens);
    return whole_sequences(budget, per_sequence);
}

double max_batch(const Deployment& d, const Profile& p, const Workload& w, double mem_util) {
    const double fit = memory_batch(d, p, w, mem_util);
    const Limits l = limits(d, p);
    return std::min({fit, l.seqs, engine_batch(l, w)});
}

ReplicaState replica_state(const Deployment& d, const Profile& p, const Workload& w, double batch, double mem_util) {
    check(w);
    require_whole("batch", batch, 1);
    const double fit = memory_batch(d, p, w, mem_util);
    if (batch > fit)
        fail(Status::no_solution, "batch",
             fmt::format("{} sequences of {} + {} tokens do not fit beside the weights (at most {})", batch,
                         w.prompt_tokens, w.output_tokens, fit));
    const Limits l = limits(d, p);
    if (batch > l.seqs)
        fail(Status::no_solution, "batch",
             fmt::format("the profile's engine runs at most {} sequences at once (max_seqs, per attention group)",
                         l.seqs));
    if (batch > engine_batch(l, w))
        fail(Status::no_solution, "batch",
             fmt::format("at a batch of {} the profile's token budget of {} per iteration (max_tokens) cannot prefill "
                         "the prompts that keep it full (at most {} sequences of {} + {} tokens)",
                         batch, l.tokens, engine_batch(l, w), w.prompt_tokens, w.output_tokens));
    const ReplicaState s = colocated(iteration_model(d, p, w), is_bound(p), w, batch, l, d.model.moe());
    if (!std::isfinite(s.ttft_ms))
        fail(Status::no_solution, "batch",
             fmt::format("at a batch of {} the prefills arrive faster than the replica serves them: the queue "
                         "never empties",
                         batch));
    return s;
}

double e2e_ms(const Deployment& d, const Profile& p, const Workload& w, double batch, double mem_util) {
    return replica_state(d, p, w, batch, mem_util).e2e_ms;
}

double slo_batch(const Deployment& d, const Profile& p, double ctx, double tpot_ms, double mem_util) {
    require_non_negative("ctx", ctx);
    require_positive("tpot_ms", tpot_ms);
    require_fraction("mem_util", mem_util);
    const double budget = kv_budget(d, mem_util);
    const double fit = ctx > 0 ? whole_sequences(budget, kv_bytes_per_sequence_per_gpu(d, ctx)) : kInf;
    auto step = [&](double batch) {
        std::vector<Operator> ops = decode_operators(d, batch, ctx);
        return estimate(ops, d.gpu, p);
    };
    const double fastest = step(1);
    if (fastest > tpot_ms)
        fail(Status::no_solution, "tpot_ms",
             fmt::format("no batch meets tpot_ms = {}: one sequence alone takes {:.4g} ms per step", tpot_ms, fastest));
    if (fit < 1)
        fail(Status::no_solution, "ctx", fmt::format("not one sequence of {} tokens fits beside the weights", ctx));
    // Beyond memory, the batch is bounded by the step time: a batch of B takes at least B x (the compute of
    // one token), so B <= tpot / (that) + 1 caps the search when ctx = 0.
    // The engine's cap: its running sequences, and the decode tokens of one iteration.
    const Limits l = limits(d, p);
    double cap = std::min(fit, std::min(l.seqs, l.tokens));
    if (!std::isfinite(cap)) {
        cap = 1;
        while (step(cap * 2) <= tpot_ms) {
            cap *= 2;
            if (cap > kMaxBatch)
                fail(Status::out_of_range, "tpot_ms",
                     fmt::format("more than {} sequences meet tpot_ms = {}", kMaxBatch, tpot_ms));
        }
        cap *= 2;
    }
    return largest(cap, [&](double b) { return step(b) <= tpot_ms; });
}

ReplicaState replica_rps(const Deployment& d, const Profile& p, const Workload& w, const Targets& t, double mem_util) {
    check(w);
    check(t);
    require_fraction("mem_util", mem_util);
    ReplicaState s;
    switch (search_replica(d, p, w, t, mem_util, s)) {
        case Miss::none: return s;
        case Miss::memory: sequences_that_fit(d, p, w, mem_util); break;  // throws, naming prompt_tokens
        case Miss::tpot: require_meets_tpot(s, t.tpot_ms); break;
        case Miss::ttft:
            fail(Status::no_solution, "ttft_ms",
                 fmt::format("no load meets ttft_ms = {}: the first token of one request takes {:.4g} ms", t.ttft_ms,
                             s.ttft_ms));
    }
    throw Error::of_call(Status::internal, "", "", "replica_rps: a miss without its error");
}

PrefillState prefill_rps(const Deployment& d, const Profile& p, const Workload& w, double ttft_ms, double mem_util) {
    check(w);
    require_positive("ttft_ms", ttft_ms);
    require_fraction("mem_util", mem_util);
    const double budget = kv_budget(d, mem_util);
    const IterationModel m = iteration_model(d, p, w);
    // An engine prefills a prompt longer than its token budget in chunks of the budget, the last the rest.
    const Limits l = limits(d, p);
    const Chunks c = chunks_of(w.prompt_tokens, l.tokens);
    const double alone = (c.count > 1 ? (c.count - 1) * m.prefill_ms(c.size / w.prompt_tokens) : 0) +
                         m.prefill_ms(c.last / w.prompt_tokens);
    if (alone > ttft_ms)
        fail(Status::no_solution, "ttft_ms",
             fmt::format("no load meets ttft_ms = {}: the prefill of one prompt takes {:.4g} ms", ttft_ms, alone));
    PrefillState s;
    if (is_bound(p)) {
        // Prompts prefilled together share the weight reads: the most prompts whose prefill meets the target and
        // whose KV cache fits, back to back with no queue.
        const double fit = whole_sequences(budget, kv_bytes_per_sequence_per_gpu(d, w.prompt_tokens));
        if (fit < 1)
            fail(Status::no_solution, "prompt_tokens",
                 fmt::format("the KV cache of one prompt of {} tokens does not fit beside the weights", w.prompt_tokens));
        s.prompts_per_batch = largest(fit, [&](double k) {
            return m.prefill_ms(k) <= ttft_ms;
        });
        s.ttft_ms = m.prefill_ms(s.prompts_per_batch);
        s.rps = s.prompts_per_batch / units::seconds_from_ms(s.ttft_ms);
    } else {
        // One prompt at a time, M/D/1: TTFT = t + rho t / (2 (1 - rho)) <= target gives the highest load
        // rho = 2 (T - t) / (2 T - t).
        const double load = std::min(1.0, 2 * (ttft_ms - alone) / (2 * ttft_ms - alone));
        s.prompts_per_batch = 1;
        s.ttft_ms = std::min(ttft_ms, alone + load * alone / (2 * (1 - load)));  // the target, up to rounding
        s.rps = load / units::seconds_from_ms(alone);
    }
    return s;
}

Miss detail::search_decode(const Deployment& d, const Profile& p, const Workload& w, double tpot_ms,
                           double mem_util, ReplicaState& out) {
    const double memory = memory_batch(d, p, w, mem_util);
    if (memory < 1) return Miss::memory;
    const Limits l = limits(d, p);
    const double fit = std::max(1.0, std::min(memory, std::min(l.seqs, l.tokens)));  // the engine's cap
    const IterationModel m = iteration_model(d, p, w);
    auto state = [&](double batch) {
        ReplicaState s;
        s.batch = batch;
        s.tpot_ms = m.ms(batch, 0);
        s.rps = batch / (w.output_tokens - 1) / units::seconds_from_ms(s.tpot_ms);
        return finish(s, w);
    };
    out = state(1);
    if (out.tpot_ms > tpot_ms) return Miss::tpot;
    out = state(largest(fit, [&](double b) { return m.ms(b, 0) <= tpot_ms; }));
    return Miss::none;
}

ReplicaState decode_rps(const Deployment& d, const Profile& p, const Workload& w, double tpot_ms, double mem_util) {
    check(w);
    require_positive("tpot_ms", tpot_ms);
    require_fraction("mem_util", mem_util);
    ReplicaState s;
    switch (search_decode(d, p, w, tpot_ms, mem_util, s)) {
        case Miss::none: return s;
        case Miss::memory: sequences_that_fit(d, p, w, mem_util); break;  // throws, naming prompt_tokens
        default: require_meets_tpot(s, tpot_ms); break;
    }
    throw Error::of_call(Status::internal, "", "", "decode_rps: a miss without its error");
}

double cost_per_mtok(double usd_per_gpu_hour, double gpus, double output_tokens_per_s) {
    require_non_negative("usd_per_gpu_hour", usd_per_gpu_hour);
    require_whole("gpus", gpus, 1);
    require_positive("output_tokens_per_s", output_tokens_per_s);
    return usd_per_gpu_hour * gpus / (output_tokens_per_s * kSecondsPerHour) * kTokensPerMillion;
}

double spec_tokens(double acceptance, double draft_len) {
    if (!std::isfinite(acceptance) || acceptance < 0 || acceptance > 1)
        fail(Status::invalid_argument, "acceptance", fmt::format("must be between 0 and 1 (got {})", acceptance));
    require_whole("draft_len", draft_len, 1);
    if (acceptance == 1) return draft_len + 1;
    return (1 - std::pow(acceptance, draft_len + 1)) / (1 - acceptance);
}

double spec_step_ms(const Deployment& target, const ModelSpec& draft, const Profile& p, double batch, double ctx,
                    double draft_len, double acceptance) {
    const double tokens = spec_tokens(acceptance, draft_len);
    require_whole("batch", batch, 1);
    require_non_negative("ctx", ctx);
    if (std::fmod(draft.heads, target.tp) != 0)
        fail(Status::invalid_argument, "draft_model",
             fmt::format("'{}' has {} attention heads: not a multiple of tp = {}", draft.id, draft.heads, target.tp));
    // The draft proposes draft_len tokens, one decode step each.
    const Deployment d = with_model(target, draft);
    std::vector<Operator> draft_ops = decode_operators(d, batch, ctx);
    const double draft_ms = estimate(draft_ops, d.gpu, p);
    // The target checks draft_len + 1 tokens per sequence in one pass: the linear layers and lm_head see every
    // token; attention reads each sequence's KV cache once (and writes draft_len + 1 positions), with the FLOPs of
    // draft_len + 1 queries.
    std::vector<Operator> verify = decode_operators(target, batch * (draft_len + 1), ctx);
    const std::vector<Operator> one_query = decode_operators(target, batch, ctx);
    const std::vector<Operator> written = decode_operators(target, batch, ctx + draft_len);
    for (Operator& op : verify)
        if (op.kind == OperatorKind::attention) {
            op.flops = of_kind(one_query, OperatorKind::attention).flops * (draft_len + 1);
            op.bytes = of_kind(written, OperatorKind::attention).bytes;
        }
    const double verify_ms = estimate(verify, target.gpu, p);
    return (draft_len * draft_ms + verify_ms) / tokens;
}

}  // namespace roofline::serving
