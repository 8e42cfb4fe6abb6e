// The planner's prediction for a row of tests/data/serving-validation.csv: output tokens/s per GPU of one
// replica (header-only, for the planner-accuracy benchmark and tests/test_serving.cpp). A row is one of
// four kinds:
//   - under latency limits (ttft_ms_limit and tpot_ms_limit given): the largest batch within both limits;
//   - at a stated batch (batch given): that batch, with all the memory allowed (it ran, so it fits);
//   - a decode pool at a stated batch (batch given, phase "decode"): a disaggregated deployment's decode
//     replica, whose iterations carry decode tokens only (no prefill), at that batch;
//   - at maximum load (neither): every request queued at once, no latency limit: the largest batch that fits
//     in memory.
// Rows under limits or at maximum load use the row's `mem_util` (the share of GPU memory the engine was given)
// when it is stated, else the planner's default 0.9.
//
// Optional columns (a column missing or a cell empty takes the default):
//   ep, dp_attention, pp  the replica's layout (roofline::Layout; default 1 each: tensor parallelism over tp);
//   expert_dtype          the routed experts' format when it differs from weight_dtype (MXFP4 or NVFP4 experts
//                         with 16- or 8-bit attention); default weight_dtype;
//   phase                 "decode" for a decode pool (above); default empty: prefill and decode colocated.
//   burst_requests        a burst: that many requests sent at once (request rate inf) and simulated (simulated_burst);
//   ttft_ms_mean          the burst's published mean TTFT, ms.
#pragma once

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "roofline/catalog.hpp"
#include "roofline/dtype.hpp"
#include "roofline/error.hpp"
#include "roofline/operators.hpp"
#include "roofline/serving.hpp"
#include "roofline/simulate.hpp"

#include "measurements.hpp"

namespace serving_validation {

enum class Kind { latency_limits, stated_batch, decode_batch, maximum_load };

/// A cell of an optional column: empty when the column is missing.
inline std::string optional(const measurements::Row& r, const std::string& column) {
    const auto found = r.field.find(column);
    return found == r.field.end() ? std::string() : found->second;
}

/// An optional number: `fallback` when the column is missing or the cell empty.
inline double optional_number(const measurements::Row& r, const std::string& column, double fallback) {
    const std::string v = optional(r, column);
    return v.empty() ? fallback : std::stod(v);
}

inline Kind kind(const measurements::Row& r) {
    if (!r["batch"].empty()) return optional(r, "phase") == "decode" ? Kind::decode_batch : Kind::stated_batch;
    if (!r["ttft_ms_limit"].empty() || !r["tpot_ms_limit"].empty()) return Kind::latency_limits;
    return Kind::maximum_load;
}

inline const char* kind_name(Kind k) {
    switch (k) {
        case Kind::latency_limits: return "under latency limits";
        case Kind::stated_batch: return "at a stated batch";
        case Kind::decode_batch: return "decode pool, stated batch";
        case Kind::maximum_load: return "at maximum load";
    }
    return "?";
}

/// The family of a row's source: its id up to the first '-' (trt05, nim, trt10, ...).
inline std::string family(const measurements::Row& r) {
    const std::string& id = r["id"];
    return id.substr(0, id.find('-'));
}

/// The row's layout (ep, dp_attention, pp; 1 where not stated).
inline roofline::Layout layout(const measurements::Row& r) {
    return {optional_number(r, "ep", 1), optional_number(r, "dp_attention", 1), optional_number(r, "pp", 1)};
}

/// The name of a layout of `tp` GPUs, for the benchmark's medians: "TP" (tensor parallelism, tp 1 included),
/// "TEP" (experts over all the GPUs, attention in tensor parallel), "DEP" (experts over all the GPUs,
/// attention data-parallel on each), "EP" (any other expert parallelism), "DP-attention" (data-parallel
/// attention without EP), "PP" (pipeline stages of one GPU), "TPxPP" (stages of several GPUs).
inline std::string layout_kind(double tp, const roofline::Layout& l) {
    if (l.pp > 1) return tp == l.pp ? "PP" : "TPxPP";
    const double stage = tp / l.pp;
    if (l.ep > 1) {
        if (l.ep == stage && l.dp_attention == 1) return "TEP";
        if (l.ep == stage && l.dp_attention == stage) return "DEP";
        return "EP";
    }
    return l.dp_attention > 1 ? "DP-attention" : "TP";
}

inline std::string layout_kind(const measurements::Row& r) { return layout_kind(r.number("tp"), layout(r)); }

/// The deployment of a row: its model, GPU, formats, tp and layout.
inline roofline::Deployment deployment(const measurements::Row& r) {
    using namespace roofline;
    Deployment d{*find_model(r["model"]), *find_gpu(r["gpu"]), *parse_dtype(r["weight_dtype"]),
                 *parse_dtype(r["kv_dtype"]), r.number("tp")};
    if (const std::string e = optional(r, "expert_dtype"); !e.empty()) d.experts = *parse_dtype(e);
    d.layout = layout(r);
    if (const std::string problem = layout_problem(d.model, d.tp, d.layout); !problem.empty())
        throw std::runtime_error(r["id"] + ": " + problem);
    return d;
}

/// The row's prediction for the deployment `d` (the row's own, or the same GPUs in another layout):
/// 0 when the model finds no batch within the row's limits (a throughput of nothing: the model's error).
/// `another_layout`: `d` is not the layout that ran, so a stated batch is capped by what fits in all of the
/// GPUs' memory in `d` (under `profile`'s accounting); 0 when not even the weights fit.
inline double predicted_tokens_per_s_per_gpu(const measurements::Row& r, const roofline::Deployment& d,
                                             const roofline::Profile& profile, bool another_layout = false) {
    using namespace roofline;
    const serving::Workload w{r.number("prompt_tokens"), r.number("output_tokens")};
    // No limit: a target no batch reaches (a year, in ms), so memory alone bounds the batch.
    constexpr double no_limit_ms = 3.2e10;
    const auto found = r.field.find("mem_util");
    const double mem_util = found == r.field.end() || found->second.empty() ? defaults::mem_util : r.number("mem_util");
    try {
        double batch = r["batch"].empty() ? 0 : r.number("batch");
        if (another_layout && batch > 0) batch = std::min(batch, std::floor(serving::memory_batch(d, profile, w, 1.0)));
        if (another_layout && kind(r) != Kind::latency_limits && kind(r) != Kind::maximum_load && !(batch >= 1)) return 0;
        serving::ReplicaState s;
        switch (kind(r)) {
            case Kind::latency_limits:
                s = serving::replica_rps(d, profile, w, {r.number("ttft_ms_limit"), r.number("tpot_ms_limit")}, mem_util);
                break;
            case Kind::stated_batch:
                s = serving::replica_state(d, profile, w, batch, 1.0);  // it ran: memory is not the question
                break;
            case Kind::decode_batch:
                // Decode tokens only, every sequence's context running over its decode steps; it ran: memory
                // is not the question.
                return batch / serving::iteration_ms(d, profile, w, batch, 0) * 1000 / d.tp;
            case Kind::maximum_load: s = serving::replica_rps(d, profile, w, {no_limit_ms, no_limit_ms}, mem_util); break;
        }
        return s.output_tokens_per_s / d.tp;
    } catch (const Error& e) {
        if (e.status() != Status::no_solution) throw;
        return 0;
    }
}

/// The same for the row's own deployment.
inline double predicted_tokens_per_s_per_gpu(const measurements::Row& r, const roofline::Profile& profile) {
    return predicted_tokens_per_s_per_gpu(r, deployment(r), profile);
}

/// A burst as a benchmark client sends it (burst_requests requests at once), simulated iteration by iteration
/// (roofline::simulate, docs/serving-model.md section 14) with the row's deployment, lengths and memory share.
struct Burst {
    double tokens_per_s_per_gpu = 0;  ///< output tokens over the burst's duration, per GPU
    double ttft_ms = 0;               ///< mean time to first token, queueing included
};

/// Whether the row is a burst (its burst_requests given).
inline bool is_burst(const measurements::Row& r) { return !optional(r, "burst_requests").empty(); }

inline Burst simulated_burst(const measurements::Row& r, const roofline::Profile& profile) {
    const roofline::Deployment d = deployment(r);
    roofline::serving::SimulationOptions o;
    o.requests = r.number("burst_requests");
    o.arrival_times_s.assign(static_cast<std::size_t>(o.requests), 0.0);
    o.mem_util = optional_number(r, "mem_util", roofline::defaults::mem_util);
    const roofline::serving::SimulationResult s =
        roofline::serving::simulate(d, profile, 1, {r.number("prompt_tokens"), r.number("output_tokens")}, o);
    return {s.throughput_tok_s / d.tp, s.ttft_ms.mean};
}

/// Whether a burst simulated under `bound` stays a bound on the row: a mean TTFT no higher than the published one, a
/// throughput no lower.
inline bool bound_holds(const measurements::Row& r, const Burst& bound_burst) {
    return bound_burst.ttft_ms > 0 && bound_burst.ttft_ms <= r.number("ttft_ms_mean") &&
           bound_burst.tokens_per_s_per_gpu >= r.number("output_tokens_per_s_per_gpu");
}

/// The layouts of the row's `tp` GPUs over which `bound` must stay a bound (docs/serving-model.md, section 11):
/// the row's own; tensor parallelism (all 1); for an MoE model TEP (ep = tp) and DEP (ep = dp_attention = tp);
/// for any model pipeline stages of tensor-parallel GPUs (pp each divisor of tp above 1). Only the layouts
/// the operator model accepts for the model (layout_problem) are listed; the row's own comes first.
inline std::vector<roofline::Layout> bound_layouts(const roofline::Deployment& d) {
    using roofline::Layout;
    std::vector<Layout> out{d.layout};
    const auto add = [&](const Layout& l) {
        for (const Layout& o : out)
            if (o.ep == l.ep && o.dp_attention == l.dp_attention && o.pp == l.pp) return;
        if (roofline::layout_problem(d.model, d.tp, l).empty()) out.push_back(l);
    };
    add({1, 1, 1});
    if (d.model.moe()) {
        add({d.tp, 1, 1});
        add({d.tp, d.tp, 1});
    }
    for (double pp = 2; pp <= d.tp; ++pp)
        if (std::fmod(d.tp, pp) == 0) add({1, 1, pp});
    return out;
}

/// The best `bound` prediction for the row over bound_layouts(): its value and the layout that gives it. The
/// row's own layout is predicted as it ran; the others with the stated batch capped by their memory.
inline std::pair<double, roofline::Layout> best_bound_over_layouts(const measurements::Row& r,
                                                                   const roofline::Profile& bound) {
    const roofline::Deployment own = deployment(r);
    std::pair<double, roofline::Layout> best{-1, own.layout};
    bool first = true;
    for (const roofline::Layout& l : bound_layouts(own)) {
        roofline::Deployment d = own;
        d.layout = l;
        const double v = predicted_tokens_per_s_per_gpu(r, d, bound, !first);
        first = false;
        if (v > best.first) best = {v, l};
    }
    return best;
}

}  // namespace serving_validation
