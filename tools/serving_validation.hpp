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
#pragma once

#include <stdexcept>
#include <string>

#include "roofline/catalog.hpp"
#include "roofline/dtype.hpp"
#include "roofline/error.hpp"
#include "roofline/operators.hpp"
#include "roofline/serving.hpp"

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
inline double predicted_tokens_per_s_per_gpu(const measurements::Row& r, const roofline::Deployment& d,
                                             const roofline::Profile& profile) {
    using namespace roofline;
    const serving::Workload w{r.number("prompt_tokens"), r.number("output_tokens")};
    // No limit: a target no batch reaches (a year, in ms), so memory alone bounds the batch.
    constexpr double no_limit_ms = 3.2e10;
    const auto found = r.field.find("mem_util");
    const double mem_util = found == r.field.end() || found->second.empty() ? 0.9 : r.number("mem_util");
    try {
        serving::ReplicaState s;
        switch (kind(r)) {
            case Kind::latency_limits:
                s = serving::replica_rps(d, profile, w, {r.number("ttft_ms_limit"), r.number("tpot_ms_limit")}, mem_util);
                break;
            case Kind::stated_batch:
                s = serving::replica_state(d, profile, w, r.number("batch"), 1.0);  // it ran: memory is not the question
                break;
            case Kind::decode_batch:
                // Decode tokens only, every sequence's context running over its decode steps; it ran: memory
                // is not the question.
                return r.number("batch") / serving::iteration_ms(d, profile, w, r.number("batch"), 0) * 1000 / d.tp;
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

}  // namespace serving_validation
