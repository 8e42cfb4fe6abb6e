// The planner's prediction for a row of tests/data/serving-validation.csv: output tokens/s per GPU of one
// replica (header-only, for the planner-accuracy benchmark and tests/test_serving.cpp). A row is one of
// three kinds:
//   - under latency limits (ttft_ms_limit and tpot_ms_limit given): the largest batch within both limits;
//   - at a stated batch (batch given): that batch, with all the memory allowed (it ran, so it fits);
//   - at maximum load (neither): every request queued at once, no latency limit: the largest batch that fits
//     in memory.
// Rows under limits or at maximum load use the row's `mem_util` (the share of GPU memory the engine was given)
// when it is stated, else the planner's default 0.9.
#pragma once

#include <string>

#include "roofline/catalog.hpp"
#include "roofline/dtype.hpp"
#include "roofline/error.hpp"
#include "roofline/operators.hpp"
#include "roofline/serving.hpp"

#include "measurements.hpp"

namespace serving_validation {

enum class Kind { latency_limits, stated_batch, maximum_load };

inline Kind kind(const measurements::Row& r) {
    if (!r["batch"].empty()) return Kind::stated_batch;
    if (!r["ttft_ms_limit"].empty() || !r["tpot_ms_limit"].empty()) return Kind::latency_limits;
    return Kind::maximum_load;
}

inline const char* kind_name(Kind k) {
    switch (k) {
        case Kind::latency_limits: return "under latency limits";
        case Kind::stated_batch: return "at a stated batch";
        case Kind::maximum_load: return "at maximum load";
    }
    return "?";
}

/// The family of a row's source: its id up to the first '-' (trt05, nim, trt10, ...).
inline std::string family(const measurements::Row& r) {
    const std::string& id = r["id"];
    return id.substr(0, id.find('-'));
}

/// 0 when the model finds no batch within the row's limits (a throughput of nothing: the model's error).
inline double predicted_tokens_per_s_per_gpu(const measurements::Row& r, const roofline::Profile& profile) {
    using namespace roofline;
    const Deployment d{*find_model(r["model"]), *find_gpu(r["gpu"]), *parse_dtype(r["weight_dtype"]),
                       *parse_dtype(r["kv_dtype"]), r.number("tp")};
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
            case Kind::maximum_load: s = serving::replica_rps(d, profile, w, {no_limit_ms, no_limit_ms}, mem_util); break;
        }
        return s.output_tokens_per_s / d.tp;
    } catch (const Error& e) {
        if (e.status() != Status::no_solution) throw;
        return 0;
    }
}

}  // namespace serving_validation
