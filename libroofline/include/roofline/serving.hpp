// The serving model: from one decode step and one prefill to a replica under load, and to a capacity
// plan ("which GPUs, how many, at what cost") for a request rate and latency targets.
//
// docs/serving-model.md states the model, every assumption and its source. In short: a replica of `tp`
// GPUs serves requests with continuous batching and chunked prefill. Each request is one prefill of its
// prompt and (output_tokens - 1) decode steps at the batch it shares; the first output token comes from
// the prefill. Every iteration runs the decode tokens of `batch` sequences together with the prefill
// tokens that keep the batch full (batch / (output_tokens - 1) prompts per iteration), as one fused
// forward pass on the per-operator roofline of operators.hpp. The `bound` profile (the ideal roofline)
// stays a true bound: no queueing, no overhead, the time-to-first-token of a prefill alone, the mean
// context of a sequence in memory. Any other profile (`typical`) adds the queueing of prefills
// (M/D/1), the wait for the running iteration, and reserves memory for the longest context.
//
// Functions check their own inputs and throw roofline::Error with the argument's name, message
// "argument '<name>': <reason>" (the formula layer prefixes "<FORMULA>: "). Statuses: invalid_argument
// for a value outside its domain or an unknown catalog id, no_solution for a valid question with no
// answer (a target below the fastest possible step, weights that do not fit).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/catalog.hpp"
#include "roofline/defaults.hpp"
#include "roofline/dtype.hpp"
#include "roofline/operators.hpp"

namespace roofline::serving {

/// What each request asks: its prompt and its answer, tokens. The first output token is the prefill's.
struct Workload {
    double prompt_tokens = 0;  ///< whole number >= 1
    double output_tokens = 0;  ///< whole number >= 2 (one from the prefill, the rest decoded)
};

/// Latency targets (means, not percentiles).
struct Targets {
    double ttft_ms = 0;  ///< time to first token, > 0
    double tpot_ms = 0;  ///< time per output token after the first, > 0
};

/// One replica in steady state at a decode batch: what it sustains and the latencies it gives.
struct ReplicaState {
    double batch = 0;                ///< sequences decoding together
    double ttft_ms = 0;              ///< time to first token (infinite when the prefill queue is unstable)
    double tpot_ms = 0;              ///< mean time per output token after the first: one iteration
    double e2e_ms = 0;               ///< ttft_ms + (output_tokens - 1) x tpot_ms
    double rps = 0;                  ///< requests per second the replica completes
    double output_tokens_per_s = 0;  ///< rps x output_tokens
    double prefill_share = 0;        ///< fraction of the iteration time that prefill adds
};

/// True for the ideal roofline (every efficiency 1, no fixed cost): the profile that must stay a bound.
bool is_bound(const Profile& profile) noexcept;

/// Mean time of one iteration that decodes `batch` sequences whose contexts run over the request's
/// decode steps (prompt_tokens ... prompt_tokens + output_tokens - 2 cached tokens), fused with
/// `prompts` prompts' prefill (0: decode only), ms. Exact mean over the contexts (piecewise at a
/// sliding window).
double iteration_ms(const Deployment& d, const Profile& profile, const Workload& w, double batch, double prompts);

/// The same iteration where the operators of one attention group (Operator::local: the token mixers, the
/// projections and norms beside them, the dispatch) wait for the busiest group: `local_prompts` is that group's
/// prompts times dp_attention (= prompts where they are spread evenly, as above). An engine puts each prompt in one
/// group, so its iteration of k prompts waits for a group with ceil(k / dp_attention) of them (docs/serving-model.md,
/// section 2).
double iteration_ms(const Deployment& d, const Profile& profile, const Workload& w, double batch, double prompts,
                    double local_prompts);

/// Sequences of this workload that fit in mem_util of the GPUs' memory beside the weights: with the
/// mean context of a decoding sequence under the bound profile, the longest (prompt + output) under any
/// other. Throws no_solution ("model") when the weights alone do not fit.
double memory_batch(const Deployment& d, const Profile& profile, const Workload& w, double mem_util);

/// The largest decode batch a replica runs for this workload: what fits in memory (memory_batch) and what the
/// profile's engine runs (its running-sequence cap and its token budget per iteration).
double max_batch(const Deployment& d, const Profile& profile, const Workload& w, double mem_util = defaults::mem_util);

/// The replica at a decode batch (a whole number >= 1 that fits in memory), colocated prefill and decode.
ReplicaState replica_state(const Deployment& d, const Profile& profile, const Workload& w, double batch,
                           double mem_util = defaults::mem_util);

/// Latency of one request at that batch: TTFT + (output_tokens - 1) x TPOT, ms.
double e2e_ms(const Deployment& d, const Profile& profile, const Workload& w, double batch, double mem_util = defaults::mem_util);

/// The largest batch whose decode step at `ctx` tokens of context meets `tpot_ms` and fits in mem_util of
/// the memory (decode alone, as in a disaggregated decode pool). Throws no_solution naming "tpot_ms"
/// when even one sequence's step is slower, "model" when the weights do not fit.
double slo_batch(const Deployment& d, const Profile& profile, double ctx, double tpot_ms, double mem_util = defaults::mem_util);

/// The replica at the largest batch that meets both targets and fits: the most requests/s it sustains.
/// Throws no_solution naming the target that not even one sequence meets ("tpot_ms" or "ttft_ms").
ReplicaState replica_rps(const Deployment& d, const Profile& profile, const Workload& w, const Targets& t,
                         double mem_util = defaults::mem_util);

/// A prefill-only replica of a disaggregated deployment at its capacity within the TTFT target.
struct PrefillState {
    double prompts_per_batch = 0;  ///< prompts prefilled together
    double ttft_ms = 0;            ///< at full load (bound: the batch's prefill, no queue)
    double rps = 0;                ///< prompts per second
};
PrefillState prefill_rps(const Deployment& d, const Profile& profile, const Workload& w, double ttft_ms,
                         double mem_util = defaults::mem_util);
/// A decode-only replica of a disaggregated deployment at the largest batch within the TPOT target.
ReplicaState decode_rps(const Deployment& d, const Profile& profile, const Workload& w, double tpot_ms,
                        double mem_util = defaults::mem_util);

/// Cost of a million output tokens: usd_per_gpu_hour x gpus / (output_tokens_per_s x 3600) x 1e6, USD.
double cost_per_mtok(double usd_per_gpu_hour, double gpus, double output_tokens_per_s);

/// Speculative decoding: expected tokens per target step with `draft_len` drafted tokens each accepted
/// with probability `acceptance` (independently): (1 - a^(g+1)) / (1 - a); g + 1 when a = 1.
double spec_tokens(double acceptance, double draft_len);

/// Effective ms per output token of speculative decoding: (draft_len draft decode steps + one target
/// step verifying draft_len + 1 tokens per sequence) / spec_tokens. The draft model runs on the same
/// GPUs, in the same formats and tensor parallelism as the target.
double spec_step_ms(const Deployment& target, const ModelSpec& draft, const Profile& profile, double batch, double ctx,
                    double draft_len, double acceptance);

/// What the planner searches and how.
struct PlanOptions {
    std::vector<std::string> gpus;       ///< GPUs of the catalog to plan on; when empty, its datacenter GPUs (all
                                         ///< of them with every_gpu)
    bool every_gpu = false;              ///< with gpus empty: consumer and workstation GPUs too
    /// The weights' formats tried on each GPU (with `weights` empty).
    enum class Formats {
        /// The model's published checkpoints (ModelSpec::published(): the config's own formats, per module, and
        /// the quantized checkpoints the catalog lists), each on every GPU: FP8 or FP4 weights computed in 16 bits
        /// where the GPU has no such matrix units.
        published,
        /// Those, and each of bf16, fp8 (where the GPU has fp8 matrix units; int8 where not), int4 (weight-only),
        /// nvfp4 and mxfp4 (where the GPU computes them at its FP4 peak) in every module, unless a published
        /// checkpoint has that format in its linear layers and experts; such rows have no checkpoint.
        all,
        /// The config's own formats alone.
        native,
    };
    Formats formats = Formats::published;
    /// Targets met at this percentile of the requests (50 to 99.9; 0: as means): the closed form's plan shortlists
    /// the configurations, the simulation (simulate.hpp, replica_rps_at) sizes each again. Colocated only; bound
    /// keeps the closed form (no queue, no tail).
    double percentile = 0;
    std::optional<DType> weights;        ///< one weight format in every module (formats is then ignored)
    DType kv = DType::bf16;              ///< KV cache format
    std::string profile = defaults::plan_profile;  ///< a profile name (operators.hpp)
    double mem_util = defaults::mem_util;               ///< fraction of each GPU's memory for weights and KV cache
    std::map<std::string, double> prices;  ///< USD per GPU-hour by GPU id, overriding the catalog
    bool disaggregated = false;          ///< separate prefill and decode pools
    /// Disaggregated: the GPUs the prefill pool is tried on (ids), each with every decode GPU; empty: each decode
    /// GPU's own. The KV cache goes between pools of two GPU types over the network (docs/serving-model.md §5).
    std::vector<std::string> prefill_gpus;
    /// GPUs per replica tried; when empty: 1, 2, 4, 8 and on to the GPU's scale-up domain (72 on NVL72), and for
    /// a model that does not fit in one domain, two and four domains over the network.
    std::vector<double> tps;
    /// Every feasible configuration; when false, for each GPU only those that no other configuration of the same
    /// GPU beats on both cost (GPUs where there is no price) and TPOT.
    bool all_rows = false;
    /// The fraction of a replica's capacity at the targets that the load may use (above 0, at most 1): replicas =
    /// ceil(rps / (headroom x a replica's requests/s)), each pool's where they are separate. 0.8 leaves a fifth spare.
    double headroom = defaults::plan_headroom;
    /// Replicas at least (a whole number >= 1), each pool's where they are separate: for redundancy.
    double min_replicas = defaults::plan_min_replicas;
    /// Electricity, USD per kWh (0: none): each row's USD per hour gains kw x usd_per_kwh (the PUE included).
    double usd_per_kwh = defaults::plan_usd_per_kwh;
    /// The datacentre's power usage effectiveness, >= 1: its facility's power over its IT equipment's; kw includes it.
    double pue = defaults::plan_pue;
    /// A power budget, kW (0: none): configurations whose kw is above it are left out.
    double max_kw = defaults::plan_max_kw;
    /// The price of an input (prompt) token as a share of an output token's, as providers price them apart (0.25: a
    /// quarter); 0: not priced apart (PlanRow::usd_per_mtok_input and usd_per_mtok_output empty).
    double input_ratio = defaults::plan_input_ratio;
    /// Whole servers (GpuSpec::server_gpus: 8 for an HGX node, 72 for an NVL72 rack) are rented and priced, each
    /// pool's rounded up; false: each GPU, for clouds that rent single GPUs (the planner before 0.14).
    bool whole_servers = true;
    /// The basis GPUs are priced on (with no price in `prices` for them): each catalog GPU's on-demand example
    /// (GpuSpec::usd_per_gpu_hour), its reserved example (usd_per_gpu_hour_reserved, for its reserved_years), or
    /// owned: its server's purchase price (usd_per_server) over `years`, per GPU-hour, with the electricity
    /// (usd_per_kwh, which owned requires) on top. A GPU with no example on the basis has no price.
    enum class PriceBasis { on_demand, reserved, owned };
    PriceBasis price_basis = PriceBasis::on_demand;
    double years = defaults::plan_years;  ///< owned: the years a server's purchase price is spread over (> 0)
};

/// One feasible configuration. Colocated: prefill_tp = prefill_replicas = 0.
struct PlanRow {
    std::string gpu;
    double tp = 0;                      ///< GPUs per (decode) replica
    Layout layout;                      ///< how a (decode) replica's GPUs share the model
    /// The weights' format: for a checkpoint's mix of formats, the format of most of its bytes (the routed experts'
    /// of an MoE model, else the linear layers').
    DType weights = DType::bf16;
    /// The published checkpoint in the row's formats (Checkpoint::id); empty where none is (PlanOptions::Formats::all
    /// or one format).
    std::string checkpoint;
    /// The formats of its modules: linear layers, routed experts, embedding and lm_head (weights is the one of most
    /// bytes among them).
    DType linear = DType::bf16, experts = DType::bf16, embedding = DType::bf16;
    double batch = 0;                   ///< decode batch per replica at full load
    double replicas = 0;                ///< (decode) replicas
    double prefill_tp = 0;              ///< disaggregated: GPUs per prefill replica
    double prefill_replicas = 0;        ///< disaggregated: prefill replicas
    std::string prefill_gpu;            ///< disaggregated: the prefill pool's GPU (empty: colocated)
    double gpus = 0;                    ///< GPUs in total that the replicas use
    /// Servers (or racks) rented: each pool's GPUs over its GPU's server_gpus, rounded up (whole_servers); the GPUs
    /// paid for are servers x server_gpus, the spare ones idle. Per GPU: the GPUs, as servers of one.
    double servers = 0;
    double ttft_ms = 0;                 ///< at a replica's full load
    double tpot_ms = 0;                 ///< at a replica's full load
    double output_tokens_per_s_per_gpu = 0;  ///< the load's output tokens/s over all the GPUs
    /// Output tokens/s per GPU that the plan's GPUs sustain with both targets met: the replicas' capacity (colocated,
    /// a replica's requests/s x output tokens / its GPUs; disaggregated, the smaller of the two pools' capacities)
    /// over all the GPUs. At least output_tokens_per_s_per_gpu; equal where the load fills every replica.
    double capacity_tokens_per_s_per_gpu = 0;
    std::optional<double> usd_per_hour;      ///< all GPUs; empty when the GPU has no price
    /// The (decode) GPU's price per GPU-hour on the plan's basis, electricity not included (empty: none).
    std::optional<double> usd_per_gpu_hour;
    std::optional<double> usd_per_mtok;      ///< per million output tokens at the load
    std::optional<double> usd_per_month;     ///< usd_per_hour x units::hours_per_month (730)
    /// Per million tokens of the load, prompt and output tokens together (a price that counts every token alike).
    std::optional<double> usd_per_mtok_blended;
    /// The deployment's power, kW: each GPU at its pool's full load (power.hpp: the iteration at the row's batch; an
    /// upper estimate where headroom or whole replicas leave some spare), its server's share (host_power_w), times the
    /// PUE. Empty where the GPU has no board power.
    std::optional<double> kw;
    std::optional<double> j_per_token;   ///< kw over the load's output tokens/s: J per output token, all in
    std::optional<double> tok_s_per_mw;  ///< the load's output tokens/s per MW of kw
    /// With input_ratio: the prices per million input and output tokens, input_ratio apart, that pay usd_per_hour at
    /// the load (prompt tokens x input price + output tokens x output price = the cost).
    std::optional<double> usd_per_mtok_input, usd_per_mtok_output;
};

/// The feasible configurations for `rps` requests/s of the workload within the targets, cheapest first
/// (rows without a price last, by GPUs). For each GPU, replicas of 1, 2, 4, 8 ... GPUs up to its scale-up
/// domain in the layouts docs/serving-model.md lists (tensor parallelism; for MoE models experts over all the
/// replica's GPUs, with attention in tensor or data parallelism; pipeline stages), and beyond the domain over
/// the network for a model that does not fit in it. Throws invalid_argument for a bad input or an unknown GPU or
/// profile, no_solution when nothing is feasible: its message names the binding constraint with its numbers
/// and what would come nearest (the argument: the target that rules most configurations out, or "model").
std::vector<PlanRow> plan(const ModelSpec& model, double rps, const Workload& w, const Targets& t,
                          const PlanOptions& options = {});
/// One workload of a fleet: a model at a load within targets, on the options' GPUs or on its own (`gpus`).
struct FleetWorkload {
    ModelSpec model;
    double rps = 0;
    Workload workload;
    Targets targets;
    std::vector<std::string> gpus;  ///< the GPUs it is planned on; empty: the fleet's options' (PlanOptions::gpus)
};

/// A fleet's plan: the cheapest configuration of each workload (plan()'s first row), and their totals.
struct Fleet {
    std::vector<PlanRow> rows;  ///< one per workload, in their order
    double gpus = 0;            ///< GPUs the workloads use
    double servers = 0;         ///< servers (or racks) rented: each workload's own, none shared between them
    std::optional<double> usd_per_hour, usd_per_month;  ///< empty where a workload's row has no price
    std::optional<double> kw;   ///< empty where a workload's GPU has no board power
    /// USD per million output tokens of the whole fleet's load (every workload's output tokens together).
    std::optional<double> usd_per_mtok;
};

/// The fleet's plan: each workload planned as plan() plans it with the options (its own GPUs where it names them),
/// its cheapest row kept; the totals over them. Each workload rents its own servers (no two models share one). Throws
/// as plan() does, the argument "workloads" and the message naming the workload (1: the first) where one has no
/// configuration or a bad value.
Fleet fleet(const std::vector<FleetWorkload>& workloads, const PlanOptions& options = {});

/// One point of the throughput-against-interactivity curve: a replica of tp GPUs in a layout at a decode batch.
struct CurvePoint {
    double tp = 0;
    Layout layout;
    ReplicaState state;                          ///< batch, TTFT, TPOT and requests/s at that batch
    double tokens_per_s_per_user = 0;            ///< 1000 / tpot_ms: what one user sees
    double capacity_tokens_per_s_per_gpu = 0;    ///< state.rps x output_tokens / tp: what a GPU sustains
};

/// What curve() draws: the deployment's formats, and either one replica size and layout or all of them.
struct CurveOptions {
    double tp = 0;                 ///< GPUs per replica; 0: every size and layout the planner tries (the front)
    Layout layout;                 ///< with tp > 0; all 1 with tp 0 (else invalid_argument naming ep, dp_attention or pp)
    std::optional<double> ttft_ms; ///< leaves out the points whose TTFT is above it
    double mem_util = defaults::mem_util;
    /// 50 to 99.9: each point's TTFT and TPOT at that percentile of the requests, as a simulation of the replica at the
    /// point's load finds them (Poisson arrivals, 1000 requests, seed 1: simulate.hpp); 0: the closed form's means.
    /// `bound` keeps the means (no queue, no tail). Since 0.14.
    double percentile = 0;
};

/// The throughput-against-interactivity curve of a model on a GPU (`d` gives both, the formats and, with o.tp > 0,
/// ignoring d.tp, the replica): one point per decode batch, 1, 2, 3, 4, 6, 8, 12 ... (powers of two and 1.5 times
/// them) up to the largest the replica runs (max_batch), that one included, at steady full load; by TPOT, fastest
/// first. With o.tp = 0 the points of every replica size and layout the planner tries, reduced to the front: a
/// point is kept when no faster one (higher tokens/s per user) sustains as much per GPU. With o.percentile, each
/// point (with o.tp = 0, each of the closed form's front) is simulated at its load and its TTFT and TPOT are those at
/// the percentile; the points are then sorted, filtered by o.ttft_ms and reduced to the front again. Throws
/// no_solution naming "model" when no replica holds the weights, "ttft_ms" when no point meets it.
std::vector<CurvePoint> curve(const Deployment& d, const Profile& profile, const Workload& w, const CurveOptions& o);

/// The same for a model of the catalog: throws invalid_argument naming "model" for an unknown id.
std::vector<PlanRow> plan(std::string_view model_id, double rps, const Workload& w, const Targets& t,
                          const PlanOptions& options = {});

}  // namespace roofline::serving
