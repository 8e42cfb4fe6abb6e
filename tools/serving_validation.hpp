// The planner's prediction for a row of tests/data/serving-validation.csv: output tokens/s per GPU of one
// replica, at the row's batch when it states one (which ran, so it fits: all the memory may hold it), else at the largest batch within its latency limits
// (header-only, for the planner-accuracy benchmark and tests/test_serving.cpp).
#pragma once

#include "roofline/catalog.hpp"
#include "roofline/dtype.hpp"
#include "roofline/error.hpp"
#include "roofline/operators.hpp"
#include "roofline/serving.hpp"

#include "measurements.hpp"

namespace serving_validation {

/// 0 when the model finds no batch within the row's limits (a throughput of nothing: the model's error).
inline double predicted_tokens_per_s_per_gpu(const measurements::Row& r, const roofline::Profile& profile) {
    using namespace roofline;
    const Deployment d{*find_model(r["model"]), *find_gpu(r["gpu"]), *parse_dtype(r["weight_dtype"]),
                       *parse_dtype(r["kv_dtype"]), r.number("tp")};
    const serving::Workload w{r.number("prompt_tokens"), r.number("output_tokens")};
    try {
        const serving::ReplicaState s =
            r["batch"].empty()
                ? serving::replica_rps(d, profile, w, {r.number("ttft_ms_limit"), r.number("tpot_ms_limit")})
                : serving::replica_state(d, profile, w, r.number("batch"), 1.0);  // it ran: memory is not the question
        return s.output_tokens_per_s / d.tp;
    } catch (const Error& e) {
        if (e.status() != Status::no_solution) throw;
        return 0;
    }
}

}  // namespace serving_validation
