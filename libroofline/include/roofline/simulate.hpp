// The serving simulation: one replica under a stream of requests, iteration by iteration, as an engine with
// continuous batching and chunked prefill runs it (docs/serving-model.md, section 14). Where the serving model
// (serving.hpp) gives means in steady state, the simulation gives distributions: the percentiles of TTFT, TPOT,
// inter-token latency and end-to-end latency under Poisson, constant or bursty arrivals and lengths that vary.
//
// Each iteration is timed by the operator model of operators.hpp under the profile, as the serving model times its
// mean iteration: the decode tokens of the running sequences fused with the prefill chunks the engine's token budget
// leaves room for, attention at each sequence's own context. Nothing is fitted beyond what the profile has: the
// engine's caps are the profile's (max_running_seqs, max_iteration_tokens); the KV memory is what mem_util leaves
// beside the weights, and a sequence that no longer fits is preempted (its cache freed, recomputed later).
//
// Deterministic: the same inputs and seed give the same numbers on every platform (its own random generator and
// distributions, no std:: distribution).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "roofline/defaults.hpp"
#include "roofline/operators.hpp"
#include "roofline/serving.hpp"

namespace roofline::serving {

/// How requests arrive.
enum class Arrival {
    poisson,   ///< exponential gaps of mean 1 / rps
    constant,  ///< every 1 / rps seconds
    gamma,     ///< gamma gaps of mean 1 / rps and coefficient of variation `cv` (bursts above 1; 1 is Poisson)
};

/// How the prompt and output lengths of the requests vary about the workload's (its tokens are the means).
enum class Lengths {
    fixed,      ///< every request the workload's
    uniform,    ///< uniform in mean x (1 - spread) ... mean x (1 + spread), rounded
    lognormal,  ///< lognormal of that mean and coefficient of variation `spread`, rounded
};

std::string_view to_string(Arrival a) noexcept;
std::string_view to_string(Lengths l) noexcept;
/// "poisson" -> Arrival::poisson (to_string's names, in any case, spaces around them ignored); nullopt for another.
std::optional<Arrival> parse_arrival(std::string_view name) noexcept;
/// "lognormal" -> Lengths::lognormal, as parse_arrival.
std::optional<Lengths> parse_lengths(std::string_view name) noexcept;

struct SimulationOptions {
    double requests = defaults::simulate_requests;  ///< requests simulated, a whole number >= 1
    std::uint64_t seed = defaults::simulate_seed;   ///< the random stream's seed
    Arrival arrival = Arrival::poisson;
    double cv = defaults::simulate_cv;              ///< Arrival::gamma's coefficient of variation, > 0
    Lengths lengths = Lengths::fixed;
    double spread = 0;                              ///< Lengths::uniform's fraction (< 1), lognormal's cv (>= 0)
    /// Arrival times, seconds (ascending, >= 0): when not empty, the requests arrive then (rps and arrival aside).
    std::vector<double> arrival_times_s;
    /// The requests' prompt and output tokens, row by row (whole numbers, a prompt >= 1, an output >= 2; a trace's
    /// rows): when not empty, request i (in order of conversation and turn) takes row i, the rows again from the first
    /// when the requests outnumber them (the workload's lengths, `lengths` and `spread` aside; a later turn's prompt
    /// still carries its conversation's history).
    std::vector<std::array<double, 2>> length_rows;
    double mem_util = defaults::mem_util;           ///< fraction of each GPU's memory for weights and KV cache
    /// A shared prefix (a system prompt): the first `prefix_tokens` tokens of the prompts of a share `prefix_share`
    /// (0 ... 1) of the conversations are the same, and computed once while they stay in the prefix cache (the KV
    /// memory no running sequence holds, evicted least recently used first). A prompt no longer than the prefix
    /// does not share it.
    double prefix_tokens = 0;
    double prefix_share = 0;
    /// Multi-turn conversations: `turns` requests each (a whole number >= 1), a turn's prompt the conversation so far
    /// (earlier prompts and answers) and a new message of the workload's prompt length; the next turn arrives
    /// `think_s` seconds (exponential, that mean; 0: at once) after the answer. The history stays in the prefix cache
    /// while memory allows. Conversations start at rps / turns, so that requests arrive at about rps.
    double turns = 1;
    double think_s = 0;
    /// A second tier of KV memory: `host_kv_gb` GB of host memory per GPU (0: none) where the prefix cache's entries go
    /// when the GPUs' memory needs their room, dropped from there least recently used first; a hit there waits for
    /// its bytes to come back over `host_tbs` TB/s per direction per GPU (0: the GPU's host link, GpuSpec::
    /// host_link_tbs), the iteration that admits it waiting for the transfer.
    double host_kv_gb = 0;
    double host_tbs = 0;
    /// At most this many requests in flight (a whole number; 0: no limit), as a benchmark client with a concurrency
    /// limit sends them (vllm bench serve --max-concurrency, GuideLLM's concurrent profile): a request that arrives
    /// while `concurrency` are in flight waits at the client, first come first served, and is sent when one ends;
    /// its TTFT and latency count from then. With a rate far above what the replica sustains, a closed loop of
    /// `concurrency` users.
    double concurrency = 0;
    /// A percentile to report besides p50, p90 and p99 (Percentiles::at), and the one replica_rps_at() meets the
    /// targets at: 50 to 99.9; 0: the mean.
    double percentile = 0;
    /// The most work the run may take (defaults::simulate_max_steps): token steps, and ten for each iteration; past
    /// it, Error naming "requests" (invalid_argument), so that no call computes for minutes.
    double max_steps = defaults::simulate_max_steps;
    /// Targets for the goodput: a request counts when it meets both (a target of 0 is met by every request).
    Targets targets{0, 0};
};

/// A distribution's mean and percentiles (linear interpolation between the order statistics, as numpy's default).
struct Percentiles {
    double mean = 0, p50 = 0, p90 = 0, p99 = 0;
    double at = 0;  ///< at SimulationOptions::percentile (the mean where it is 0)
};

struct SimulationResult {
    Percentiles ttft_ms;  ///< arrival to the first token (the prefill's)
    Percentiles tpot_ms;  ///< each request's (e2e - ttft) / (output_tokens - 1)
    Percentiles itl_ms;   ///< every gap between two tokens of a request
    Percentiles e2e_ms;   ///< arrival to the last token
    double throughput_tok_s = 0;  ///< output tokens / the time from the first arrival to the last token
    double goodput_rps = 0;       ///< requests meeting both targets / that time
    double mean_batch = 0;        ///< sequences decoding, averaged over the time the replica works
    double prefix_hit_rate = 0;   ///< prompt tokens found in the prefix cache / prompt tokens (first admissions)
    double requests = 0;          ///< requests completed (all of them)
    double duration_s = 0;        ///< from the first arrival to the last token
    double iterations = 0;        ///< forward passes the replica ran
    double preemptions = 0;       ///< sequences evicted from the KV memory to be recomputed
    double max_queue = 0;         ///< the most requests waiting at once (arrived, not yet running)
    double offloaded_gb = 0;      ///< KV cache moved to host memory over the run, GB per GPU
    double steps = 0;             ///< token steps simulated: each sequence's decode token or prefill chunk per iteration
};

/// Simulates `o.requests` requests arriving at `rps` requests/s (> 0) on one replica of the deployment, each of
/// the workload's lengths (their means, Lengths), under the profile. Throws Error naming the argument: rps,
/// requests, cv, spread, mem_util, prefix_tokens, prefix_share, turns, think_s, prompt_tokens/output_tokens; no_solution naming "model" when the weights do not
/// fit, "prompt_tokens" when one request's cache does not fit alone in the memory left.
SimulationResult simulate(const Deployment& d, const Profile& profile, double rps, const Workload& w,
                          const SimulationOptions& o);

/// What one replica sustains with both targets met at a percentile (SimulationOptions::percentile) of the requests'
/// TTFT and TPOT, as the simulation finds it: the largest rate (bisected to 1%, with the options' requests and seed
/// at every rate) whose simulated percentiles meet both targets. `state` holds that rate, its mean decode batch and
/// the TTFT, TPOT and E2E at the percentile. Under `bound` (no queue, no tail), or with percentile 0, the closed
/// form's replica_rps (means). Throws no_solution naming the target missed when not even a trickle meets them.
struct PercentileCapacity {
    ReplicaState state;
    int simulations = 0;  ///< runs it took
    double work = 0;      ///< their work, as SimulationOptions::max_steps counts it
};
PercentileCapacity replica_rps_at(const Deployment& d, const Profile& profile, const Workload& w, const Targets& t,
                                  const SimulationOptions& o);

/// The largest batch whose TPOT meets `tpot_ms` at a percentile (SimulationOptions::percentile) of the requests: the
/// most concurrent requests (a closed loop, SimulationOptions::concurrency, each user sending its next request as its
/// answer ends, the users' first requests spread over one request's latency) of `prompt_tokens` tokens whose answers
/// end at `ctx` tokens of context (output ctx - prompt_tokens), that the replica holds in memory and its engine caps,
/// and whose simulated TPOT at the percentile meets the target; bisected over whole batches, 20 requests per user (200
/// to 2000) a run. Under `bound`, or with percentile 0, slo_batch() (the decode step at ctx). Throws no_solution naming
/// tpot_ms when not even one sequence meets it, invalid_argument naming prompt_tokens when it leaves no answer of at
/// least 2 tokens before ctx.
double slo_batch_at(const Deployment& d, const Profile& profile, double ctx, double tpot_ms, double prompt_tokens,
                    const SimulationOptions& o);

}  // namespace roofline::serving
