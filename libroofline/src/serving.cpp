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

#include "serving_iteration.hpp"
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

void check_percentile(double percentile) {
    if (percentile != 0 && !(percentile >= 50 && percentile <= 99.9))
        fail(Status::invalid_argument, "percentile",
             fmt::format("must be from 50 to 99.9, or 0 for the means (got {})", percentile));
}

bool simulates(double percentile, const Profile& profile) noexcept { return percentile != 0 && !is_bound(profile); }

void check(const Targets& t) {
    require_positive("ttft_ms", t.ttft_ms);
    require_positive("tpot_ms", t.tpot_ms);
}

}  // namespace detail

using namespace detail;

namespace {

constexpr double kSecondsPerHour = 3600;
constexpr double kTokensPerMillion = 1e6;
constexpr double kMaxBatch = 1099511627776;  ///< 2^40 sequences: beyond, a batch is not a question of serving

// The contexts and the iteration model: serving_iteration.hpp.


/// Memory for weights and KV cache, bytes per GPU; throws when the weights alone do not fit.
double kv_budget(const Deployment& d, double mem_util) {
    const double usable = mem_util * memory_bytes(d.gpu);
    const double weights = weight_bytes_per_gpu(d);
    if (weights >= usable)
        fail(Status::no_solution, "model",
             fmt::format("the weights of '{}' in {} ({:.3g} GB per GPU at tp = {}) do not fit in {} of the {} GB "
                         "of a '{}'",
                         d.model.id, to_string(d.weights), units::gb_from_bytes(weights), d.tp, mem_util,
                         memory_gb(d.gpu), d.gpu.id));
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
           (p.scaleout_efficiency == 0 || p.scaleout_efficiency == 1) &&
           (p.attention_compute_efficiency == 0 || p.attention_compute_efficiency == 1) && p.moe_layer == 0 &&
           p.sparse_gather == 0 && p.state_compute_efficiency == 0;
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
            op.fp8_flops = of_kind(one_query, OperatorKind::attention).fp8_flops * (draft_len + 1);
            op.bytes = of_kind(written, OperatorKind::attention).bytes;
        }
    const double verify_ms = estimate(verify, target.gpu, p);
    return (draft_len * draft_ms + verify_ms) / tokens;
}

double detail::kv_budget_bytes(const Deployment& d, double mem_util) { return kv_budget(d, mem_util); }

}  // namespace roofline::serving
