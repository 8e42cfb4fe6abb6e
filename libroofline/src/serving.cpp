// The serving model. See serving.hpp and docs/serving-model.md.
#include "roofline/serving.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

#include "roofline/error.hpp"
#include "roofline/units.hpp"

namespace roofline::serving {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kSecondsPerHour = 3600;
constexpr double kTokensPerMillion = 1e6;

// ---- Checks: each names its argument. -------------------------------------------------------------

[[noreturn]] void fail(Status status, const char* argument, const std::string& reason) {
    throw Error(status, argument, fmt::format("argument '{}': {}", argument, reason));
}

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

// ---- The contexts a decoding sequence goes through. --------------------------------------------------

/// Decode step j (j = 1 ... output_tokens - 1) of a request attends over prompt_tokens + j - 1 cached
/// tokens. A step is affine in the context except at a sliding window, where the slope changes: the
/// mean over the steps is exact when taken over each affine piece at its mean context.
struct ContextPiece {
    double steps = 0;  ///< how many decode steps have a context in the piece
    double mean = 0;   ///< their mean context
};

struct Contexts {
    std::array<ContextPiece, 2> piece{};
    int count = 0;
    double steps = 0;

    template <typename F> double mean_of(F&& f) const {
        double sum = 0;
        for (int i = 0; i < count; ++i) sum += piece[i].steps * f(piece[i].mean);
        return sum / steps;
    }
};

Contexts contexts(const ModelSpec& m, const Workload& w) {
    const double lo = w.prompt_tokens, hi = w.prompt_tokens + w.output_tokens - 2;
    Contexts c;
    c.steps = w.output_tokens - 1;
    const double window = std::floor(m.sliding_window);
    if (m.sliding_layers > 0 && window >= lo && window < hi) {
        c.piece[0] = {window - lo + 1, (lo + window) / 2};
        c.piece[1] = {hi - window, (window + 1 + hi) / 2};
        c.count = 2;
    } else {
        c.piece[0] = {c.steps, (lo + hi) / 2};
        c.count = 1;
    }
    return c;
}

// ---- One iteration: decode tokens fused with prefill tokens. ----------------------------------------

const Operator& named(const std::vector<Operator>& ops, std::string_view name) {
    for (const Operator& op : ops)
        if (op.name == name) return op;
    throw Error(Status::internal, "", fmt::format("the operator model has no '{}'", name));
}

/// The operators of one fused iteration on one GPU of tp: `batch` sequences decode one token each at
/// `ctx` tokens of context, and `prompts` prompts of `prompt_tokens` tokens prefill. The linear layers,
/// experts, norms and all-reduces see every token with the weights read once; attention is each
/// sequence's decode attention plus each prompt's causal prefill attention; lm_head runs for the decode
/// tokens and the last token of each prompt.
std::vector<Operator> fused_operators(const Deployment& d, double batch, double ctx, double prompts,
                                      double prompt_tokens) {
    if (!(prompts > 0)) return decode_operators(d, batch, ctx);
    if (!(batch > 0)) return prefill_operators(d, prompts, prompt_tokens);
    std::vector<Operator> ops = decode_operators(d, batch + prompts * prompt_tokens, ctx);
    const std::vector<Operator> decode = decode_operators(d, batch, ctx);
    const std::vector<Operator> prefill = prefill_operators(d, prompts, prompt_tokens);
    const std::vector<Operator> logits = decode_operators(d, batch + prompts, ctx);
    for (Operator& op : ops) {
        if (op.name == "attention") {
            op.flops = named(decode, "attention").flops + named(prefill, "attention").flops;
            op.bytes = named(decode, "attention").bytes + named(prefill, "attention").bytes;
        } else if (op.name == "lm_head") {
            op = named(logits, "lm_head");
        }
    }
    return ops;
}

double fused_ms(const Deployment& d, const Profile& p, double batch, double ctx, double prompts, double prompt_tokens) {
    std::vector<Operator> ops = fused_operators(d, batch, ctx, prompts, prompt_tokens);
    return estimate(ops, d.gpu, p);
}

/// A prefill alone of `prompts` prompts, ms.
double prefill_ms(const Deployment& d, const Profile& p, double prompts, double prompt_tokens) {
    std::vector<Operator> ops = prefill_operators(d, prompts, prompt_tokens);
    return estimate(ops, d.gpu, p);
}

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

/// The colocated replica at `batch` (checked by the caller).
ReplicaState colocated(const Deployment& d, const Profile& p, const Workload& w, double batch) {
    ReplicaState s;
    s.batch = batch;
    const double prompts = batch / (w.output_tokens - 1);  // prompts per iteration that keep the batch full
    s.tpot_ms = iteration_ms(d, p, w, batch, prompts);
    s.rps = prompts / units::seconds_from_ms(s.tpot_ms);
    const double decode_only = iteration_ms(d, p, w, batch, 0);
    s.prefill_share = 1 - decode_only / s.tpot_ms;
    if (is_bound(p)) {
        // The physical limit: the prompt's prefill alone, nothing ahead of it.
        s.ttft_ms = prefill_ms(d, p, 1, w.prompt_tokens);
    } else {
        // Wait for the running iteration (half of one on average), queue behind the prefills ahead (M/D/1 with
        // the time one prompt adds to an iteration as its service time), then the iteration that carries it.
        const double with_prompt = iteration_ms(d, p, w, batch, 1);
        const double service = with_prompt - decode_only;
        const double load = units::seconds_from_ms(service) * s.rps;
        s.ttft_ms = load < 1 ? s.tpot_ms / 2 + load * service / (2 * (1 - load)) + with_prompt : kInf;
    }
    return finish(s, w);
}

Deployment with_model(const Deployment& d, const ModelSpec& m) {
    Deployment out = d;
    out.model = m;
    return out;
}

}  // namespace

bool is_bound(const Profile& p) noexcept {
    return p.bandwidth_efficiency == 1 && p.compute_efficiency == 1 && p.interconnect_efficiency == 1 &&
           p.step_overhead_ms == 0 && p.allreduce_latency_us == 0;
}

double iteration_ms(const Deployment& d, const Profile& p, const Workload& w, double batch, double prompts) {
    check(w);
    require_non_negative("batch", batch);
    require_non_negative("prompts", prompts);
    return contexts(d.model, w).mean_of(
        [&](double ctx) { return fused_ms(d, p, batch, ctx, prompts, w.prompt_tokens); });
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

ReplicaState replica_state(const Deployment& d, const Profile& p, const Workload& w, double batch, double mem_util) {
    check(w);
    require_whole("batch", batch, 1);
    const double fit = memory_batch(d, p, w, mem_util);
    if (batch > fit)
        fail(Status::no_solution, "batch",
             fmt::format("{} sequences of {} + {} tokens do not fit beside the weights (at most {})", batch,
                         w.prompt_tokens, w.output_tokens, fit));
    return colocated(d, p, w, batch);
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
    double cap = fit;
    if (!std::isfinite(cap)) {
        cap = 1;
        while (step(cap * 2) <= tpot_ms) cap *= 2;
        cap *= 2;
    }
    return largest(cap, [&](double b) { return step(b) <= tpot_ms; });
}

ReplicaState replica_rps(const Deployment& d, const Profile& p, const Workload& w, const Targets& t, double mem_util) {
    check(w);
    check(t);
    const double fit = memory_batch(d, p, w, mem_util);
    if (fit < 1)
        fail(Status::no_solution, "prompt_tokens",
             fmt::format("not one sequence of {} + {} tokens fits beside the weights", w.prompt_tokens,
                         w.output_tokens));
    const ReplicaState one = colocated(d, p, w, 1);
    if (one.tpot_ms > t.tpot_ms)
        fail(Status::no_solution, "tpot_ms",
             fmt::format("no batch meets tpot_ms = {}: one sequence alone takes {:.4g} ms per token", t.tpot_ms,
                         one.tpot_ms));
    if (one.ttft_ms > t.ttft_ms)
        fail(Status::no_solution, "ttft_ms",
             fmt::format("no load meets ttft_ms = {}: the first token of one request takes {:.4g} ms", t.ttft_ms,
                         one.ttft_ms));
    const double batch = largest(fit, [&](double b) {
        const ReplicaState s = colocated(d, p, w, b);
        return s.tpot_ms <= t.tpot_ms && s.ttft_ms <= t.ttft_ms;
    });
    return colocated(d, p, w, batch);
}

PrefillState prefill_rps(const Deployment& d, const Profile& p, const Workload& w, double ttft_ms, double mem_util) {
    check(w);
    require_positive("ttft_ms", ttft_ms);
    require_fraction("mem_util", mem_util);
    const double budget = kv_budget(d, mem_util);
    const double alone = prefill_ms(d, p, 1, w.prompt_tokens);
    if (alone > ttft_ms)
        fail(Status::no_solution, "ttft_ms",
             fmt::format("no load meets ttft_ms = {}: the prefill of one prompt takes {:.4g} ms", ttft_ms, alone));
    PrefillState s;
    if (is_bound(p)) {
        // Prompts prefilled together share the weight reads: the most prompts whose prefill meets the target and
        // whose KV cache fits, back to back with no queue.
        const double fit = whole_sequences(budget, kv_bytes_per_sequence_per_gpu(d, w.prompt_tokens));
        s.prompts_per_batch = largest(std::max(1.0, fit), [&](double k) {
            return prefill_ms(d, p, k, w.prompt_tokens) <= ttft_ms;
        });
        s.ttft_ms = prefill_ms(d, p, s.prompts_per_batch, w.prompt_tokens);
        s.rps = s.prompts_per_batch / units::seconds_from_ms(s.ttft_ms);
    } else {
        // One prompt at a time, M/D/1: TTFT = t + rho t / (2 (1 - rho)) <= target gives the highest load
        // rho = 2 (T - t) / (2 T - t).
        const double load = std::min(1.0, 2 * (ttft_ms - alone) / (2 * ttft_ms - alone));
        s.prompts_per_batch = 1;
        s.ttft_ms = load < 1 ? alone + load * alone / (2 * (1 - load)) : ttft_ms;
        s.rps = load / units::seconds_from_ms(alone);
    }
    return s;
}

ReplicaState decode_rps(const Deployment& d, const Profile& p, const Workload& w, double tpot_ms, double mem_util) {
    check(w);
    require_positive("tpot_ms", tpot_ms);
    const double fit = memory_batch(d, p, w, mem_util);
    if (fit < 1)
        fail(Status::no_solution, "prompt_tokens",
             fmt::format("not one sequence of {} + {} tokens fits beside the weights", w.prompt_tokens,
                         w.output_tokens));
    auto state = [&](double batch) {
        ReplicaState s;
        s.batch = batch;
        s.tpot_ms = iteration_ms(d, p, w, batch, 0);
        s.rps = batch / (w.output_tokens - 1) / units::seconds_from_ms(s.tpot_ms);
        return finish(s, w);
    };
    const ReplicaState one = state(1);
    if (one.tpot_ms > tpot_ms)
        fail(Status::no_solution, "tpot_ms",
             fmt::format("no batch meets tpot_ms = {}: one sequence alone takes {:.4g} ms per token", tpot_ms,
                         one.tpot_ms));
    return state(largest(fit, [&](double b) { return state(b).tpot_ms <= tpot_ms; }));
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
        if (op.name == "attention") {
            op.flops = named(one_query, "attention").flops * (draft_len + 1);
            op.bytes = named(written, "attention").bytes;
        }
    const double verify_ms = estimate(verify, target.gpu, p);
    return (draft_len * draft_ms + verify_ms) / tokens;
}

// ---- The planner. ---------------------------------------------------------------------------------

namespace {

std::vector<DType> formats_for(const GpuSpec& gpu, const PlanOptions& o) {
    if (o.weights) return {*o.weights};
    std::vector<DType> out{DType::bf16};
    if (gpu.fp8 > 0) out.push_back(DType::fp8);
    out.push_back(DType::int8);
    out.push_back(DType::int4);
    return out;
}

bool tp_possible(const ModelSpec& m, const GpuSpec& g, double tp) {
    return std::fmod(m.heads, tp) == 0 && (tp == 1 || g.interconnect_tbs > 0);
}

/// Why configurations fail, to name the argument when every one fails for the same reason.
struct Failures {
    int memory = 0, tpot = 0, ttft = 0, other = 0;
    void add(const Error& e) {
        const std::string& a = e.argument();
        if (a == "tpot_ms") ++tpot;
        else if (a == "ttft_ms") ++ttft;
        else if (a == "model" || a == "prompt_tokens") ++memory;
        else ++other;
    }
};

void price(PlanRow& row, std::optional<double> usd_per_gpu_hour, double rps, const Workload& w) {
    const double tokens_per_s = rps * w.output_tokens;
    row.output_tokens_per_s_per_gpu = tokens_per_s / row.gpus;
    if (usd_per_gpu_hour) {
        row.usd_per_hour = *usd_per_gpu_hour * row.gpus;
        row.usd_per_mtok = cost_per_mtok(*usd_per_gpu_hour, row.gpus, tokens_per_s);
    }
}

PlanRow row_of(const GpuSpec& gpu, double tp, DType weights, const ReplicaState& decode, double rps) {
    PlanRow row;
    row.gpu = gpu.id;
    row.tp = tp;
    row.weights = weights;
    row.batch = decode.batch;
    row.replicas = std::ceil(rps / decode.rps);
    row.tpot_ms = decode.tpot_ms;
    return row;
}

template <typename F> void attempt(Failures& failures, F&& f) {
    try {
        f();
    } catch (const Error& e) {
        if (e.status() != Status::no_solution) throw;
        failures.add(e);
    }
}

}  // namespace

std::vector<PlanRow> plan(const ModelSpec& model, double rps, const Workload& w, const Targets& t,
                          const PlanOptions& o) {
    require_positive("rps", rps);
    check(w);
    check(t);
    require_fraction("mem_util", o.mem_util);
    const Profile* profile = find_profile(o.profile);
    if (!profile)
        fail(Status::invalid_argument, "profile",
             fmt::format("must be one of {} (got '{}')", profile_names(), o.profile));
    for (double tp : o.tps) require_whole("tp", tp, 1);
    std::vector<GpuSpec> gpus;
    if (o.gpu) {
        const auto g = find_gpu(*o.gpu);
        if (!g) fail(Status::invalid_argument, "gpu", fmt::format("no GPU '{}' in the catalog", *o.gpu));
        gpus.push_back(*g);
    } else {
        for (const std::string& id : gpu_ids()) gpus.push_back(*find_gpu(id));
    }
    for (const auto& [id, usd] : o.prices) require_non_negative("usd_per_gpu_hour", usd);

    std::vector<PlanRow> rows;
    Failures failures;
    for (const GpuSpec& gpu : gpus) {
        std::optional<double> usd;
        if (auto it = o.prices.find(gpu.id); it != o.prices.end()) usd = it->second;
        else if (gpu.usd_per_gpu_hour > 0) usd = gpu.usd_per_gpu_hour;
        for (DType weights : formats_for(gpu, o)) {
            auto deployment = [&](double tp) { return Deployment{model, gpu, weights, o.kv, tp}; };
            if (o.disaggregated) {
                // Each pool takes the tensor parallelism that needs the fewest GPUs.
                std::optional<std::pair<double, PrefillState>> prefill;
                for (double tp : o.tps) {
                    if (!tp_possible(model, gpu, tp)) continue;
                    attempt(failures, [&] {
                        const PrefillState s = prefill_rps(deployment(tp), *profile, w, t.ttft_ms, o.mem_util);
                        const auto gpus_of = [&](double ptp, const PrefillState& p) { return std::ceil(rps / p.rps) * ptp; };
                        if (!prefill || gpus_of(tp, s) < gpus_of(prefill->first, prefill->second)) prefill = {tp, s};
                    });
                }
                if (!prefill) continue;
                for (double tp : o.tps) {
                    if (!tp_possible(model, gpu, tp)) continue;
                    attempt(failures, [&] {
                        const ReplicaState s = decode_rps(deployment(tp), *profile, w, t.tpot_ms, o.mem_util);
                        PlanRow row = row_of(gpu, tp, weights, s, rps);
                        row.prefill_tp = prefill->first;
                        row.prefill_replicas = std::ceil(rps / prefill->second.rps);
                        row.gpus = row.replicas * tp + row.prefill_replicas * row.prefill_tp;
                        row.ttft_ms = prefill->second.ttft_ms;
                        price(row, usd, rps, w);
                        rows.push_back(std::move(row));
                    });
                }
            } else {
                for (double tp : o.tps) {
                    if (!tp_possible(model, gpu, tp)) continue;
                    attempt(failures, [&] {
                        const ReplicaState s = replica_rps(deployment(tp), *profile, w, t, o.mem_util);
                        PlanRow row = row_of(gpu, tp, weights, s, rps);
                        row.gpus = row.replicas * tp;
                        row.ttft_ms = s.ttft_ms;
                        price(row, usd, rps, w);
                        rows.push_back(std::move(row));
                    });
                }
            }
        }
    }
    if (rows.empty()) {
        const int total = failures.memory + failures.tpot + failures.ttft + failures.other;
        const char* argument = failures.tpot == total && total > 0   ? "tpot_ms"
                               : failures.ttft == total && total > 0 ? "ttft_ms"
                               : failures.memory == total          ? "model"
                                                                   : "";
        const std::string reason = fmt::format(
            "no configuration of '{}' meets ttft_ms = {} and tpot_ms = {} ({} ruled out by the TPOT target, {} by "
            "the TTFT target, {} by memory)",
            model.id, t.ttft_ms, t.tpot_ms, failures.tpot, failures.ttft, failures.memory);
        if (*argument) fail(Status::no_solution, argument, reason);
        throw Error(Status::no_solution, "", reason);
    }
    std::stable_sort(rows.begin(), rows.end(), [](const PlanRow& a, const PlanRow& b) {
        if (a.usd_per_hour.has_value() != b.usd_per_hour.has_value()) return a.usd_per_hour.has_value();
        if (a.usd_per_hour && *a.usd_per_hour != *b.usd_per_hour) return *a.usd_per_hour < *b.usd_per_hour;
        if (a.gpus != b.gpus) return a.gpus < b.gpus;
        return a.tpot_ms < b.tpot_ms;
    });
    return rows;
}

std::vector<PlanRow> plan(std::string_view model_id, double rps, const Workload& w, const Targets& t,
                          const PlanOptions& o) {
    const auto model = find_model(model_id);
    if (!model) fail(Status::invalid_argument, "model", fmt::format("no model '{}' in the catalog", model_id));
    return plan(*model, rps, w, t, o);
}

}  // namespace roofline::serving
