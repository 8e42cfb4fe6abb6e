// What the planner's search (planner.cpp) takes from the serving model (serving.cpp): its checks, which name their
// argument, and the searches of one replica without their errors. Private to the core.
#pragma once

#include <limits>
#include <string>

#include "roofline/error.hpp"
#include "roofline/operators.hpp"
#include "roofline/serving.hpp"

namespace roofline::serving::detail {

/// No limit (a target left out, a search without a bound).
inline constexpr double kInf = std::numeric_limits<double>::infinity();

[[noreturn]] void fail(Status status, const char* argument, const std::string& reason);

/// An id that names nothing: the reason as nearest.hpp words it (the formulas' wording, suggestion included).
[[noreturn]] void unknown(const char* argument, const std::string& reason);

void require_whole(const char* argument, double v, double min);
void require_positive(const char* argument, double v);
void require_non_negative(const char* argument, double v);
void require_fraction(const char* argument, double v);
void check(const Workload& w);
void check(const Targets& t);
/// A percentile target: 0 (the means) or 50 to 99.9, named "percentile".
void check_percentile(double percentile);
/// Whether a percentile target is met by simulation: a percentile given (not 0, the means) and a profile with tails
/// (not bound: no queue, no tail, the closed form's answer).
bool simulates(double percentile, const Profile& profile) noexcept;

/// What rules a replica out in the search of replica_rps (none: it has a solution).
enum class Miss { none, memory, tpot, ttft };

/// replica_rps without its errors (the planner tries hundreds of configurations, many of them ruled out):
/// `out` is the solution, or, for a miss, one sequence's state (its TPOT and TTFT name the miss).
Miss search_replica(const Deployment& d, const Profile& p, const Workload& w, const Targets& t, double mem_util,
                    ReplicaState& out);

/// decode_rps without its errors, as search_replica.
Miss search_decode(const Deployment& d, const Profile& p, const Workload& w, double tpot_ms, double mem_util,
                   ReplicaState& out);

}  // namespace roofline::serving::detail
