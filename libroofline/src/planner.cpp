// The planner's search: the feasible configurations for a request rate within latency targets (serving.hpp,
// plan()), over the GPUs, weight formats, replica sizes and layouts, each configuration priced by the serving
// model (serving.cpp) colocated or disaggregated. docs/serving-model.md, "7. The plan" and "8. Prefill/decode
// disaggregation".
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "roofline/error.hpp"
#include "roofline/nearest.hpp"
#include "roofline/power.hpp"
#include "roofline/serving.hpp"
#include "roofline/simulate.hpp"
#include "roofline/units.hpp"

#include "serving_search.hpp"

namespace roofline::serving {
namespace {

using namespace detail;

/// The formats of Formats::all beside the published checkpoints', each in every module.
std::vector<DType> uniform_formats(const GpuSpec& gpu) {
    std::vector<DType> out{DType::bf16};
    // INT8 weights compute in 16 bits (dequantized): where the GPU has FP8 units, FP8 weights take the same memory
    // and are never slower, so INT8 is tried only on GPUs without them.
    if (gpu.fp8 > 0) out.push_back(DType::fp8);
    else out.push_back(DType::int8);
    out.push_back(DType::int4);
    // FP4 in every module where the matrix units compute it (elsewhere it would dequantize: int4 stands for that).
    if (gpu.fp4 > 0 && gpu.fp4_nvfp4) out.push_back(DType::nvfp4);
    if (gpu.fp4 > 0 && gpu.fp4_mxfp4) out.push_back(DType::mxfp4);
    return out;
}

/// One set of formats the planner tries, and the published checkpoint that has them (empty: none).
struct Mix {
    DType linear, experts, embedding;
    std::string checkpoint;
};

/// Whether a checkpoint's formats are these (a dense model has no experts).
bool has_formats(const ModelSpec& m, const Checkpoint& c, DType linear, DType experts, DType embedding) {
    return c.linear == linear && (!m.moe() || c.experts == experts) && c.embedding == embedding;
}

/// The formats tried on a GPU, as PlanOptions::Formats says; `published` is the model's (ModelSpec::published()).
std::vector<Mix> mixes_for(const ModelSpec& m, const GpuSpec& gpu, const PlanOptions& o,
                           const std::vector<Checkpoint>& published) {
    if (o.weights) {
        const DType w = *o.weights;
        for (const Checkpoint& c : published)
            if (has_formats(m, c, w, w, w)) return {{w, w, w, c.id}};
        return {{w, w, w, {}}};
    }
    std::vector<Mix> out;
    const std::size_t n = o.formats == PlanOptions::Formats::native ? 1 : published.size();
    for (std::size_t i = 0; i < n; ++i) {
        const Checkpoint& c = published[i];
        // Two checkpoints in the same formats compute alike: the first listed stands for both.
        if (std::none_of(published.begin(), published.begin() + i, [&](const Checkpoint& e) {
                return has_formats(m, e, c.linear, c.experts, c.embedding);
            }))
            out.push_back({c.linear, c.experts, c.embedding, c.id});
    }
    if (o.formats != PlanOptions::Formats::all) return out;
    for (DType w : uniform_formats(gpu)) {
        // A published checkpoint in this format (its embedding in 16 bits, as checkpoints keep it) stands for it.
        const bool published_as = std::any_of(published.begin(), published.end(), [&](const Checkpoint& c) {
            return c.linear == w && (!m.moe() || c.experts == w);
        });
        if (!published_as) out.push_back({w, w, w, {}});
    }
    return out;
}

/// GPUs per replica: powers of two to the scale-up domain and the domain itself (72 on NVL72); for a model whose
/// weights do not fit in one domain, two and four domains over the network where the GPU has a network.
std::vector<double> replica_sizes(const ModelSpec& m, const GpuSpec& g, DType weights, const PlanOptions& o) {
    if (!o.tps.empty()) return o.tps;
    const double domain = std::max(1.0, g.scaleup_gpus);
    std::vector<double> sizes;
    for (double tp = 1; tp <= domain; tp *= 2) sizes.push_back(tp);
    if (sizes.back() != domain) sizes.push_back(domain);
    const double weights_gb = units::gb_from_bytes(weight_bytes_per_gpu(DeploymentRef{m, g, weights, o.kv, 1}));
    if (weights_gb > o.mem_util * memory_gb(g) * domain && g.scaleout_tbs > 0)
        for (double n : {2.0, 4.0}) sizes.push_back(domain * n);
    return sizes;
}

/// The layouts of a replica of tp GPUs the planner tries: tensor parallelism; for MoE models the experts over all
/// of them with attention in tensor parallelism (TEP) or one attention group per GPU (DEP); pipeline stages of
/// one domain each beyond the domain, and two stages within it. Those the model cannot take are left out.
std::vector<Layout> layouts_for(const ModelSpec& m, const GpuSpec& g, double tp) {
    std::vector<Layout> out;
    auto add = [&](Layout l) {
        if (layout_problem(m, tp, l).empty()) out.push_back(l);
    };
    const double domain = std::max(1.0, g.scaleup_gpus);
    if (tp <= domain) add({});
    if (tp > 1 && m.moe()) {
        add({tp, 1, 1});
        add({tp, tp, 1});
    }
    if (tp > domain) {
        const double pp = std::ceil(tp / domain);
        add({1, 1, pp});
        if (m.moe()) add({tp / pp, tp / pp, pp});
    } else if (tp > 1) {
        add({1, 1, 2});
    }
    return out;
}

bool tp_possible(const GpuSpec& g, double tp) {
    return tp == 1 || (g.interconnect_tbs > 0 && (tp <= g.scaleup_gpus || g.scaleout_tbs > 0));
}

/// Why configurations fail, to name the argument and the nearest thing that would work.
struct Failures {
    int memory = 0, tpot = 0, ttft = 0, other = 0;
    // The configuration whose weights come nearest to fitting: GB per GPU against the GB it may use.
    double weights_gb = 0, usable_gb = 0, tp = 0;
    std::string gpu;
    DType weights = DType::bf16;
    // The fastest TPOT of one sequence among the configurations that fit, and where.
    double fastest_tpot = kInf;
    std::string fastest_where;
    // The fastest first token of one request alone among the configurations the TTFT target rules out, and where.
    double fastest_ttft = kInf;
    std::string fastest_ttft_where;

    void add(const Error& e) {
        const std::string& a = e.argument();
        if (a == "tpot_ms") ++tpot;
        else if (a == "ttft_ms") ++ttft;
        else if (a == "model" || a == "prompt_tokens") ++memory;
        else ++other;
    }
    void memory_of(const Deployment& d, double mem_util) {
        const double w = units::gb_from_bytes(weight_bytes_per_gpu(d));
        const double usable = mem_util * memory_gb(d.gpu);
        if (gpu.empty() || w - usable < weights_gb - usable_gb) {
            weights_gb = w, usable_gb = usable, tp = d.tp, gpu = d.gpu.id, weights = d.weights;
        }
    }
};

/// W one GPU of a replica draws at its full load (power.hpp): the iteration of `batch` sequences decoding at the mean
/// context with the share of a prompt that keeps the batch full (colocated), or the decode step alone (a
/// disaggregated decode pool), over the iteration's `ms`.
double decode_gpu_w(const Deployment& d, const Workload& w, double batch, double ms, bool with_prefill) {
    std::vector<Operator> ops;
    const double prompts = with_prefill ? batch / (w.output_tokens - 1) : 0;
    mixed_operators(d, batch, w.prompt_tokens + w.output_tokens / 2, prompts, w.prompt_tokens, ops);
    return step_energy(ops, d.gpu, ms).watts;
}

/// W one GPU of a prefill replica draws at its full load: the prefill of `prompts` prompts together.
double prefill_gpu_w(const Deployment& d, const Profile& p, const Workload& w, double prompts) {
    std::vector<Operator> ops;
    prefill_operators(d, prompts, w.prompt_tokens, ops);
    return step_energy(ops, d.gpu, estimate(ops, d.gpu, p)).watts;
}

/// Servers rented for `gpus` GPUs of `gpu`: whole servers of it (whole_servers), or each GPU as a server of one.
double servers_for(double gpus, const GpuSpec& gpu, const PlanOptions& o) {
    return o.whole_servers ? std::ceil(gpus / gpu.server_gpus) : gpus;
}

/// GPUs rented (and paid for) for `gpus` GPUs of `gpu`.
double rented_gpus(double gpus, const GpuSpec& gpu, const PlanOptions& o) {
    return o.whole_servers ? servers_for(gpus, gpu, o) * gpu.server_gpus : gpus;
}

/// The power of a row's GPUs (each pool's GPUs at the W one of them draws, the spare GPUs of its rented servers at
/// idle) with their servers' share, times the PUE; nothing where the GPU has no board power.
void power(PlanRow& row, const GpuSpec& gpu, double decode_gpus, double decode_w, const GpuSpec& prefill_gpu,
           double prefill_gpus, double prefill_w, double rps, const Workload& w, const PlanOptions& o) {
    if (!(gpu.power_w > 0) || (prefill_gpus > 0 && !(prefill_gpu.power_w > 0))) return;
    const auto pool_w = [&](const GpuSpec& g, double gpus, double busy_w) {
        const double rented = rented_gpus(gpus, g, o);
        return gpus * busy_w + (rented - gpus) * idle_power_w(g) + rented * host_power_w(g);
    };
    row.kw = units::kw_from_w(pool_w(gpu, decode_gpus, decode_w) + pool_w(prefill_gpu, prefill_gpus, prefill_w)) * o.pue;
    const double tokens_per_s = rps * w.output_tokens;
    row.j_per_token = *row.kw * units::watts_per_kw / tokens_per_s;
    row.tok_s_per_mw = tokens_per_s / (*row.kw / units::kw_per_mw);
}

/// A row's cost: its GPUs' hour (`gpus_usd_per_hour`: each pool's GPUs at their GPU-hour price), and with usd_per_kwh
/// its electricity (kw, the PUE in it); nothing without a price, or with electricity asked for and no power to price.
void price(PlanRow& row, std::optional<double> gpus_usd_per_hour, double rps, const Workload& w, const PlanOptions& o) {
    const double tokens_per_s = rps * w.output_tokens;
    row.output_tokens_per_s_per_gpu = tokens_per_s / row.gpus;
    row.usd_per_hour = row.usd_per_mtok = row.usd_per_month = row.usd_per_mtok_blended = std::nullopt;
    row.usd_per_mtok_input = row.usd_per_mtok_output = std::nullopt;
    if (!gpus_usd_per_hour || (o.usd_per_kwh > 0 && !row.kw)) return;
    const double electricity = o.usd_per_kwh > 0 ? *row.kw * o.usd_per_kwh : 0;
    row.usd_per_hour = *gpus_usd_per_hour + electricity;
    // The whole deployment's hour as one "GPU" of cost_per_mtok.
    const auto per_mtok = [&](double tokens) { return cost_per_mtok(*row.usd_per_hour, 1, tokens); };
    row.usd_per_mtok = per_mtok(tokens_per_s);
    row.usd_per_month = *row.usd_per_hour * units::hours_per_month;
    row.usd_per_mtok_blended = per_mtok(rps * (w.prompt_tokens + w.output_tokens));
    // Priced apart: an output token at p, an input token at input_ratio x p, the load paying the hour.
    if (o.input_ratio > 0) {
        row.usd_per_mtok_output = per_mtok(rps * (w.output_tokens + o.input_ratio * w.prompt_tokens));
        row.usd_per_mtok_input = o.input_ratio * *row.usd_per_mtok_output;
    }
}

/// Replicas of `replica_rps` requests/s each for the load: at most `headroom` of their capacity used, and at least
/// min_replicas of them.
double replicas_for(double rps, double replica_rps, const PlanOptions& o) {
    return std::max(o.min_replicas, std::ceil(rps / (o.headroom * replica_rps)));
}

PlanRow row_of(const Deployment& d, const ReplicaState& decode, double rps, const PlanOptions& o) {
    PlanRow row;
    row.gpu = d.gpu.id;
    row.tp = d.tp;
    row.layout = d.layout;
    row.weights = d.model.moe() ? d.experts : d.weights;
    row.linear = d.weights;
    row.experts = d.experts;
    row.embedding = d.embedding;
    row.batch = decode.batch;
    row.replicas = replicas_for(rps, decode.rps, o);
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

/// The KV cache of one prompt from the prefill pool to the decode pool on `decode` GPUs, ms: each prefill GPU sends
/// its share over the network (the pools are separate machines), or over the scale-up links where the GPU has no
/// network. Between two GPU types (machines of their own, docs/serving-model.md §5) always over the network, at the
/// slower of the two GPUs' NICs (the one that has one where the other's is not recorded); neither: no_solution.
double kv_transfer_ms(const Deployment& prefill, const GpuSpec& decode, const Profile& p, const Workload& w) {
    const double bytes = kv_bytes_per_sequence_per_gpu(prefill, w.prompt_tokens);
    double tbs = prefill.gpu.scaleout_tbs > 0 ? prefill.gpu.scaleout_tbs : prefill.gpu.interconnect_tbs;
    if (prefill.gpu.id != decode.id) {
        const double a = prefill.gpu.scaleout_tbs, b = decode.scaleout_tbs;
        tbs = a > 0 && b > 0 ? std::min(a, b) : std::max(a, b);
        if (!(tbs > 0))
            fail(Status::no_solution, "prefill_gpu",
                 fmt::format("no network between '{}' and '{}': the catalog records no NIC (scaleout_tbs) for either",
                             prefill.gpu.id, decode.id));
    }
    if (!(tbs > 0)) return 0;  // one GPU with no link in the catalog: the pools share its memory
    return bytes / (tbs * p.interconnect_efficiency * 1e12) * 1e3;
}

/// Cost of a row for the comparison of rows: USD per hour, or GPUs where there is no price.
double cost_of(const PlanRow& r) { return r.usd_per_hour ? *r.usd_per_hour : r.gpus; }

/// The rows that no other row of the same GPU (and the same prefill GPU) beats on both cost and TPOT.
std::vector<PlanRow> pareto(std::vector<PlanRow> rows) {
    std::vector<PlanRow> kept;
    for (const PlanRow& r : rows) {
        bool beaten = false;
        for (const PlanRow& o : rows) {
            if (&o == &r || o.gpu != r.gpu || o.prefill_gpu != r.prefill_gpu) continue;
            const bool no_worse = cost_of(o) <= cost_of(r) && o.tpot_ms <= r.tpot_ms;
            const bool better = cost_of(o) < cost_of(r) || o.tpot_ms < r.tpot_ms;
            if (no_worse && (better || &o < &r)) {  // of two equal rows, the first stays
                beaten = true;
                break;
            }
        }
        if (!beaten) kept.push_back(r);
    }
    return kept;
}

std::string layout_name(double tp, const Layout& l) {
    if (l.trivial()) return fmt::format("tp {}", tp);
    return fmt::format("tp {} (ep {}, dp_attention {}, pp {})", tp, l.ep, l.dp_attention, l.pp);
}

/// A replica size and layout to try, of one GPU in one weight format.
struct Candidate {
    double tp;
    Layout layout;
};

/// What plan() searches, checked once, and what it finds: the feasible rows and why the others fail.
struct Search {
    const ModelSpec& model;
    double rps;
    const Workload& w;
    const Targets& t;
    const PlanOptions& o;
    const Profile& profile;
    std::vector<PlanRow> rows;
    Failures failures;
    std::vector<Checkpoint> published;  ///< the model's (ModelSpec::published)
    std::string checkpoint;  ///< of the formats being tried (Mix::checkpoint)
    std::vector<GpuSpec> prefill_gpus;  ///< the options' prefill GPUs (empty: each decode GPU's own)
};

/// The deployment `d` set to the candidate's size and layout: one deployment per GPU (the model and the GPU copied
/// once), its format, size and layout set for each configuration in turn.
const Deployment& as(Deployment& d, const Candidate& c) {
    d.tp = c.tp;
    d.layout = c.layout;
    return d;
}

/// The GPUs to plan on, each once: the options' (checked ids), or the catalog's datacenter GPUs (every one with
/// every_gpu).
std::vector<GpuSpec> gpus_to_plan(const PlanOptions& o) {
    std::vector<GpuSpec> gpus;
    for (const std::string& id : o.gpus.empty() ? gpu_ids() : o.gpus) {
        const auto g = find_gpu(id);
        if (!g) unknown("gpu", unknown_catalog_id("GPU", id, gpu_ids()));
        if (o.gpus.empty() && !o.every_gpu && !g->datacenter()) continue;
        if (std::none_of(gpus.begin(), gpus.end(), [&](const GpuSpec& x) { return x.id == g->id; })) gpus.push_back(*g);
    }
    return gpus;
}

/// USD per GPU-hour: the options' price of the GPU, else the catalog's example on the options' basis (owned: its
/// server's purchase price over the years, per GPU); none where neither has one.
std::optional<double> price_of(const GpuSpec& gpu, const PlanOptions& o) {
    if (auto it = o.prices.find(gpu.id); it != o.prices.end()) return it->second;
    double usd = 0;
    switch (o.price_basis) {
        case PlanOptions::PriceBasis::on_demand: usd = gpu.usd_per_gpu_hour; break;
        case PlanOptions::PriceBasis::reserved: usd = gpu.usd_per_gpu_hour_reserved; break;
        case PlanOptions::PriceBasis::owned:
            usd = gpu.usd_per_server / gpu.server_gpus / (o.years * units::hours_per_year);
            break;
    }
    if (usd > 0) return usd;
    return std::nullopt;
}

/// Every layout of every replica size that the GPU links and the model takes, in the format `d` holds. Weights that
/// do not fit rule a configuration out before any search.
std::vector<Candidate> candidates_of(Search& s, Deployment& d) {
    std::vector<Candidate> candidates;
    for (double tp : replica_sizes(s.model, d.gpu, d.weights, s.o)) {
        if (!tp_possible(d.gpu, tp)) continue;
        for (const Layout& layout : layouts_for(s.model, d.gpu, tp)) {
            if (weight_bytes_per_gpu(as(d, {tp, layout})) >= s.o.mem_util * memory_bytes(d.gpu)) {
                ++s.failures.memory;
                s.failures.memory_of(d, s.o.mem_util);
                continue;
            }
            candidates.push_back({tp, layout});
        }
    }
    return candidates;
}

/// A colocated row sized for the load from one replica's state (the closed form's, or a percentile's): its
/// replicas, batch, latencies, GPUs, capacity and cost.
void size_colocated(PlanRow& row, const Deployment& d, const ReplicaState& state, const Search& s,
                    std::optional<double> usd) {
    row.replicas = replicas_for(s.rps, state.rps, s.o);
    row.batch = state.batch;
    row.ttft_ms = state.ttft_ms;
    row.tpot_ms = state.tpot_ms;
    row.gpus = row.replicas * row.tp;
    row.capacity_tokens_per_s_per_gpu = row.replicas * state.rps * s.w.output_tokens / row.gpus;
    const double rented = rented_gpus(row.gpus, d.gpu, s.o);
    row.servers = servers_for(row.gpus, d.gpu, s.o);
    if (d.gpu.power_w > 0)
        power(row, d.gpu, row.gpus, decode_gpu_w(d, s.w, state.batch, state.tpot_ms, true), d.gpu, 0, 0, s.rps, s.w,
              s.o);
    row.usd_per_gpu_hour = usd;
    price(row, usd ? std::optional<double>(*usd * rented) : std::nullopt, s.rps, s.w, s.o);
}

/// The nearest miss of one target so far: one request's value there, and where.
void note_nearest(double& best, std::string& where, double value, const Deployment& d) {
    if (value >= best) return;
    best = value;
    where = fmt::format("'{}' in {} at {}", d.gpu.id, to_string(d.weights), layout_name(d.tp, d.layout));
}

/// A colocated replica of the candidate `d` holds (prefill and decode on the same GPUs): its row, or why it fails.
/// No exception per configuration ruled out: search_replica says why.
void colocated_candidate(Search& s, const Deployment& d, std::optional<double> usd) {
    ReplicaState state;
    switch (search_replica(d, s.profile, s.w, s.t, s.o.mem_util, state)) {
        case Miss::none: {
            PlanRow row = row_of(d, state, s.rps, s.o);
            row.checkpoint = s.checkpoint;
            size_colocated(row, d, state, s, usd);
            s.rows.push_back(std::move(row));
            break;
        }
        case Miss::memory: ++s.failures.memory; break;
        case Miss::ttft:  // one request alone's first token, the nearest to the target
            ++s.failures.ttft;
            note_nearest(s.failures.fastest_ttft, s.failures.fastest_ttft_where, state.ttft_ms, d);
            break;
        case Miss::tpot:  // one sequence's TPOT (colocated at a batch of 1), the nearest to the target
            ++s.failures.tpot;
            note_nearest(s.failures.fastest_tpot, s.failures.fastest_where, state.tpot_ms, d);
            break;
    }
}

/// The prefill pool of a disaggregated deployment: its GPUs (the replica's deployment), its state at full load, the
/// KV transfer of a prompt to the decode pool, ms, and its GPU's price.
struct PrefillPool {
    Deployment deployment;
    PrefillState state;
    double transfer_ms = 0;
    std::optional<double> usd_per_gpu_hour;
};

/// The prefill pool on the GPU and in the format `d` holds, beside decode pools on `decode` GPUs: the
/// tensor-parallel replica that needs the fewest GPUs. Its TTFT target is what the KV transfer to the decode pool
/// leaves of the request's.
std::optional<PrefillPool> prefill_pool(Search& s, Deployment& d, const std::vector<Candidate>& candidates,
                                        const GpuSpec& decode) {
    std::optional<PrefillPool> pool;
    const auto gpus_of = [&](double ptp, const PrefillState& p) { return replicas_for(s.rps, p.rps, s.o) * ptp; };
    for (const Candidate& c : candidates) {
        if (!c.layout.trivial()) continue;
        as(d, c);
        attempt(s.failures, [&] {
            const double kv = kv_transfer_ms(d, decode, s.profile, s.w);
            if (kv >= s.t.ttft_ms)
                fail(Status::no_solution, "ttft_ms", fmt::format("the KV transfer of a prompt alone takes {:.4g} ms", kv));
            const PrefillState state = prefill_rps(d, s.profile, s.w, s.t.ttft_ms - kv, s.o.mem_util);
            if (!pool || gpus_of(d.tp, state) < gpus_of(pool->deployment.tp, pool->state))
                pool = PrefillPool{d, state, kv, price_of(d.gpu, s.o)};
        });
    }
    return pool;
}

/// A decode pool of the candidate `d` holds beside the prefill pool: its row, or why it fails.
void disaggregated_candidate(Search& s, const Deployment& d, const PrefillPool& prefill, std::optional<double> usd) {
    ReplicaState state;
    const Miss miss = search_decode(d, s.profile, s.w, s.t.tpot_ms, s.o.mem_util, state);
    if (miss == Miss::memory) ++s.failures.memory;
    if (miss == Miss::tpot) ++s.failures.tpot;
    if (miss != Miss::none) return;
    attempt(s.failures, [&] {
        const Deployment& pd = prefill.deployment;
        PlanRow row = row_of(d, state, s.rps, s.o);
        row.checkpoint = s.checkpoint;
        row.prefill_gpu = pd.gpu.id;
        row.prefill_tp = pd.tp;
        row.prefill_replicas = replicas_for(s.rps, prefill.state.rps, s.o);
        const double decode_gpus = row.replicas * d.tp, prefill_gpus = row.prefill_replicas * row.prefill_tp;
        row.gpus = decode_gpus + prefill_gpus;
        row.ttft_ms = prefill.state.ttft_ms + prefill.transfer_ms;
        // The deployment sustains what its smaller pool does.
        row.capacity_tokens_per_s_per_gpu =
            std::min(row.replicas * state.rps, row.prefill_replicas * prefill.state.rps) * s.w.output_tokens / row.gpus;
        power(row, d.gpu, decode_gpus, decode_gpu_w(d, s.w, state.batch, state.tpot_ms, false), pd.gpu, prefill_gpus,
              prefill_gpu_w(pd, s.profile, s.w, prefill.state.prompts_per_batch), s.rps, s.w, s.o);
        // Each pool's rented GPUs at their own price; no price where either has none.
        const double decode_rented = rented_gpus(decode_gpus, d.gpu, s.o);
        const double prefill_rented = rented_gpus(prefill_gpus, pd.gpu, s.o);
        row.servers = servers_for(decode_gpus, d.gpu, s.o) + servers_for(prefill_gpus, pd.gpu, s.o);
        const std::optional<double> gpus_usd =
            usd && prefill.usd_per_gpu_hour
                ? std::optional<double>(*usd * decode_rented + *prefill.usd_per_gpu_hour * prefill_rented)
                : std::nullopt;
        row.usd_per_gpu_hour = usd;
        price(row, gpus_usd, s.rps, s.w, s.o);
        s.rows.push_back(std::move(row));
    });
}

/// Every configuration of one GPU: each format, each candidate, colocated or disaggregated (the prefill pool on the
/// same GPU, or on each of the options' prefill GPUs).
void search_gpu(Search& s, const GpuSpec& gpu) {
    const std::optional<double> usd = price_of(gpu, s.o);
    Deployment d{s.model, gpu, DType::bf16, s.o.kv, 1};
    for (const Mix& mix : mixes_for(s.model, gpu, s.o, s.published)) {
        d.weights = mix.linear;
        d.experts = mix.experts;
        d.embedding = mix.embedding;
        s.checkpoint = mix.checkpoint;
        const std::vector<Candidate> candidates = candidates_of(s, d);
        if (!s.o.disaggregated) {
            for (const Candidate& c : candidates) colocated_candidate(s, as(d, c), usd);
            continue;
        }
        std::vector<std::optional<PrefillPool>> pools;
        if (s.prefill_gpus.empty()) {
            pools.push_back(prefill_pool(s, d, candidates, gpu));
        } else {
            for (const GpuSpec& pg : s.prefill_gpus) {
                Deployment pd{s.model, pg, mix.linear, s.o.kv, 1};
                pd.experts = mix.experts;
                pd.embedding = mix.embedding;
                const std::vector<Candidate> prefill_candidates = pg.id == gpu.id ? candidates : candidates_of(s, pd);
                attempt(s.failures, [&] { pools.push_back(prefill_pool(s, pd, prefill_candidates, gpu)); });
            }
        }
        for (const std::optional<PrefillPool>& pool : pools) {
            if (!pool) continue;
            for (const Candidate& c : candidates) disaggregated_candidate(s, as(d, c), *pool, usd);
        }
    }
}

/// No row: the error names the binding constraint with its numbers, and the nearest thing that would work.
[[noreturn]] void no_configuration(const Search& s) {
    const Failures& failures = s.failures;
    const bool none_fits = failures.tpot + failures.ttft == 0 && failures.memory > 0;
    const char* argument = none_fits ? "model"
                           : failures.tpot + failures.ttft == 0 ? ""
                           : failures.tpot >= failures.ttft      ? "tpot_ms"
                                                                 : "ttft_ms";
    std::string reason;
    if (none_fits) {
        reason = fmt::format(
            "no configuration of '{}' fits in memory: the nearest, {} weights at tp {} on '{}', need {:.3g} GB per "
            "GPU against the {:.3g} GB ({} of {} GB) they may use; more GPUs per replica, a smaller format or a "
            "GPU with more memory would fit",
            s.model.id, to_string(failures.weights), failures.tp, failures.gpu, failures.weights_gb,
            failures.usable_gb, s.o.mem_util, failures.usable_gb / s.o.mem_util);
    } else {
        reason = fmt::format(
            "no configuration of '{}' meets ttft_ms = {} and tpot_ms = {} ({} ruled out by the TPOT target, {} by "
            "the TTFT target, {} by memory)",
            s.model.id, s.t.ttft_ms, s.t.tpot_ms, failures.tpot, failures.ttft, failures.memory);
        // The target that rules out most, with what its nearest configuration reaches.
        if (std::string_view(argument) == "tpot_ms" && std::isfinite(failures.fastest_tpot))
            reason += fmt::format("; the fastest, {}, takes {:.4g} ms per output token for one request: a "
                                  "tpot_ms of at least that would be met",
                                  failures.fastest_where, failures.fastest_tpot);
        if (std::string_view(argument) == "ttft_ms" && std::isfinite(failures.fastest_ttft))
            reason += fmt::format("; the fastest first token, {}, comes {:.4g} ms after a request alone arrives: a "
                                  "ttft_ms above that is met at a low enough load",
                                  failures.fastest_ttft_where, failures.fastest_ttft);
    }
    if (*argument) fail(Status::no_solution, argument, reason);
    throw Error::of_call(Status::no_solution, "", "", reason);
}

/// Cheapest first: rows with a price by USD per hour, then those without; then by GPUs, then by TPOT.
void sort_cheapest_first(std::vector<PlanRow>& rows) {
    std::stable_sort(rows.begin(), rows.end(), [](const PlanRow& a, const PlanRow& b) {
        if (a.usd_per_hour.has_value() != b.usd_per_hour.has_value()) return a.usd_per_hour.has_value();
        if (a.usd_per_hour && *a.usd_per_hour != *b.usd_per_hour) return *a.usd_per_hour < *b.usd_per_hour;
        if (a.gpus != b.gpus) return a.gpus < b.gpus;
        return a.tpot_ms < b.tpot_ms;
    });
}

/// The configurations a plan at a percentile simulates: the closed form's rows cheapest first, those within twice
/// the cheapest's cost, at most this many (each is a bisection of about eight simulations).
constexpr std::size_t kPercentileShortlist = 6;

/// Sizes the closed form's shortlist again with the targets met at PlanOptions::percentile (replica_rps_at): each
/// row's replica capacity as the simulation finds it, its replicas, GPUs, cost and latencies at the percentile. Rows
/// that miss a target at the percentile go; none left: no_solution naming "percentile".
void at_percentile(Search& s) {
    sort_cheapest_first(s.rows);
    std::vector<PlanRow> shortlist;
    const std::optional<double> cheapest = s.rows.front().usd_per_hour;
    for (const PlanRow& r : s.rows) {
        if (shortlist.size() == kPercentileShortlist) break;
        if (cheapest && r.usd_per_hour && *r.usd_per_hour > 2 * *cheapest) break;
        shortlist.push_back(r);
    }
    SimulationOptions so;
    so.percentile = s.o.percentile;
    so.mem_util = s.o.mem_util;
    // The shortlist's searches share three simulations' budget (a second or two of CPU), each row at most its own.
    double left = 3 * defaults::simulate_max_steps;
    std::vector<PlanRow> kept;
    std::string missed;
    for (PlanRow row : shortlist) {
        const GpuSpec gpu = *find_gpu(row.gpu);  // a copy: find_gpu gives an optional by value
        Deployment d{s.model, gpu, row.linear, s.o.kv, row.tp};
        d.experts = row.experts;
        d.embedding = row.embedding;
        d.layout = row.layout;
        so.max_steps = std::min(defaults::simulate_max_steps, left / 2);
        try {
            const PercentileCapacity c = replica_rps_at(d, s.profile, s.w, s.t, so);
            left -= c.work;
            size_colocated(row, d, c.state, s, price_of(gpu, s.o));
            kept.push_back(std::move(row));
        } catch (const Error& e) {
            if (e.status() != Status::no_solution) throw;
            if (missed.empty()) missed = e.what();
        }
    }
    if (kept.empty())
        fail(Status::no_solution, "percentile",
             fmt::format("none of the {} cheapest configurations meets both targets at p{} ({})", shortlist.size(),
                         s.o.percentile, missed));
    s.rows = std::move(kept);
}

/// Leaves out the rows above the power budget (those without a power too: nothing says they are within it); none
/// left: no_solution naming max_kw, with the least power found.
void within_power_budget(Search& s) {
    std::optional<double> least;
    std::vector<PlanRow> kept;
    for (PlanRow& r : s.rows) {
        if (r.kw && (!least || *r.kw < *least)) least = *r.kw;
        if (r.kw && *r.kw <= s.o.max_kw) kept.push_back(std::move(r));
    }
    if (kept.empty())
        fail(Status::no_solution, "max_kw",
             least ? fmt::format("every configuration draws more than {} kW: the least, {:.4g} kW", s.o.max_kw, *least)
                   : fmt::format("no configuration's GPU has a board power (power_w) to hold to {} kW", s.o.max_kw));
    s.rows = std::move(kept);
}

}  // namespace

namespace {

/// The options' own values, checked once for every plan of them (plan(), fleet()): an error names the option.
void check_options(const PlanOptions& o) {
    require_fraction("mem_util", o.mem_util);
    require_fraction("headroom", o.headroom);
    require_whole("min_replicas", o.min_replicas, 1);
    for (const auto& [id, usd] : o.prices) require_non_negative("usd_per_gpu_hour", usd);
    require_non_negative("usd_per_kwh", o.usd_per_kwh);
    if (!(o.pue >= 1) || !std::isfinite(o.pue))
        fail(Status::invalid_argument, "pue", fmt::format("must be at least 1, the facility's power over its IT "
                                                          "equipment's (got {})", o.pue));
    require_non_negative("max_kw", o.max_kw);
    require_non_negative("input_ratio", o.input_ratio);
    if (o.price_basis == PlanOptions::PriceBasis::owned) {
        require_positive("years", o.years);
        if (!(o.usd_per_kwh > 0))
            fail(Status::invalid_argument, "usd_per_kwh",
                 "owned GPUs pay for their electricity: give its price, USD per kWh (price_basis 'owned')");
    }
}

}  // namespace

std::vector<PlanRow> plan(const ModelSpec& model, double rps, const Workload& w, const Targets& t,
                          const PlanOptions& o) {
    require_positive("rps", rps);
    check(w);
    check(t);
    check_options(o);
    const Profile* profile = find_profile(o.profile);
    if (!profile) unknown("profile", unknown_choice("profile", o.profile, profile_names()));
    for (double tp : o.tps) require_whole("tp", tp, 1);
    const std::vector<GpuSpec> gpus = gpus_to_plan(o);

    check_percentile(o.percentile);
    if (o.disaggregated && simulates(o.percentile, *profile))
        fail(Status::invalid_argument, "percentile",
             "a percentile is planned for colocated replicas only (disaggregated 0): the simulation runs one replica "
             "of prefill and decode together");
    Search s{model, rps, w, t, o, *profile, {}, {}, model.published(), {}, {}};
    if (!o.prefill_gpus.empty() && !o.disaggregated)
        fail(Status::invalid_argument, "prefill_gpu", "a prefill GPU is for a disaggregated plan (disaggregated 1)");
    for (const std::string& id : o.prefill_gpus) {
        const auto g = find_gpu(id);
        if (!g) unknown("prefill_gpu", unknown_catalog_id("GPU", id, gpu_ids()));
        if (std::none_of(s.prefill_gpus.begin(), s.prefill_gpus.end(), [&](const GpuSpec& x) { return x.id == g->id; }))
            s.prefill_gpus.push_back(*g);
    }
    for (const GpuSpec& gpu : gpus) search_gpu(s, gpu);
    if (s.rows.empty()) no_configuration(s);
    if (simulates(o.percentile, *profile)) at_percentile(s);
    if (o.max_kw > 0) within_power_budget(s);
    if (!o.all_rows) s.rows = pareto(std::move(s.rows));
    sort_cheapest_first(s.rows);
    return std::move(s.rows);
}

namespace {

/// The batches a curve samples: 1, 2, 3, 4, 6, 8, 12 ... below `most`, then `most`.
std::vector<double> curve_batches(double most) {
    std::vector<double> out;
    for (double b = 1; b < most; b *= 2) {
        out.push_back(b);
        if (b >= 2 && 1.5 * b < most) out.push_back(1.5 * b);
    }
    out.push_back(most);
    return out;
}

/// Fastest first; of equal speed, the one that sustains more.
void sort_fastest_first(std::vector<CurvePoint>& points) {
    std::stable_sort(points.begin(), points.end(), [](const CurvePoint& a, const CurvePoint& b) {
        if (a.state.tpot_ms != b.state.tpot_ms) return a.state.tpot_ms < b.state.tpot_ms;
        return a.capacity_tokens_per_s_per_gpu > b.capacity_tokens_per_s_per_gpu;
    });
}

/// The front of points sorted fastest first: a point stays when no faster one sustains as much per GPU.
std::vector<CurvePoint> front_of(const std::vector<CurvePoint>& points) {
    std::vector<CurvePoint> front;
    for (const CurvePoint& c : points)
        if (front.empty() || c.capacity_tokens_per_s_per_gpu > front.back().capacity_tokens_per_s_per_gpu)
            front.push_back(c);
    return front;
}

/// Each point's TTFT and TPOT at the percentile, as a simulation of its replica at its load finds them (the points
/// above o.ttft_ms then go); the batch stays the point's, the load's decode batch in the closed form.
void curve_at_percentile(const Deployment& base, const Profile& p, const Workload& w, const CurveOptions& o,
                   std::vector<CurvePoint>& points) {
    SimulationOptions so;
    so.percentile = o.percentile;
    so.mem_util = o.mem_util;
    std::vector<CurvePoint> kept;
    for (CurvePoint c : points) {
        Deployment d = base;
        d.tp = c.tp;
        d.layout = c.layout;
        const SimulationResult r = simulate(d, p, c.state.rps, w, so);
        c.state.ttft_ms = r.ttft_ms.at;
        c.state.tpot_ms = r.tpot_ms.at;
        c.state.e2e_ms = r.e2e_ms.at;
        c.tokens_per_s_per_user = 1e3 / c.state.tpot_ms;
        if (o.ttft_ms && c.state.ttft_ms > *o.ttft_ms) continue;
        kept.push_back(c);
    }
    points = std::move(kept);
}

/// The points of one replica size and layout (none where the weights do not fit).
void curve_of(const Deployment& d, const Profile& p, const Workload& w, const CurveOptions& o, std::vector<CurvePoint>& out,
              bool& fits) {
    double most = 0;
    try {
        most = max_batch(d, p, w, o.mem_util);
    } catch (const Error& e) {
        if (e.status() != Status::no_solution) throw;
        return;
    }
    if (!(most >= 1)) return;
    fits = true;
    for (double b : curve_batches(most)) {
        ReplicaState s;
        try {
            s = replica_state(d, p, w, b, o.mem_util);
        } catch (const Error& e) {
            if (e.status() != Status::no_solution) throw;
            continue;  // a batch whose prefill queue never empties
        }
        if (o.ttft_ms && !simulates(o.percentile, p) && s.ttft_ms > *o.ttft_ms) continue;
        out.push_back({d.tp, d.layout, s, 1e3 / s.tpot_ms, s.rps * w.output_tokens / d.tp});
    }
}

}  // namespace

std::vector<CurvePoint> curve(const Deployment& d, const Profile& p, const Workload& w, const CurveOptions& o) {
    check(w);
    require_fraction("mem_util", o.mem_util);
    if (o.ttft_ms) require_positive("ttft_ms", *o.ttft_ms);
    check_percentile(o.percentile);
    std::vector<CurvePoint> points;
    bool fits = false;
    Deployment r = d;
    if (o.tp == 0)
        for (const auto& [name, v] : {std::pair{"ep", o.layout.ep}, {"dp_attention", o.layout.dp_attention}, {"pp", o.layout.pp}})
            if (v != 1)
                fail(Status::invalid_argument, name,
                     fmt::format("must be 1 with tp 0, where every layout is tried (got {}): give tp for one layout", v));
    if (o.tp > 0) {
        require_whole("tp", o.tp, 1);
        r.tp = o.tp;
        r.layout = o.layout;
        curve_of(r, p, w, o, points, fits);
    } else {
        PlanOptions po;
        po.kv = d.kv;
        po.mem_util = o.mem_util;
        for (double tp : replica_sizes(d.model, d.gpu, d.weights, po)) {
            if (!tp_possible(d.gpu, tp)) continue;
            for (const Layout& layout : layouts_for(d.model, d.gpu, tp)) {
                r.tp = tp;
                r.layout = layout;
                if (weight_bytes_per_gpu(r) >= o.mem_util * memory_bytes(d.gpu)) continue;
                curve_of(r, p, w, o, points, fits);
            }
        }
    }
    if (!fits)
        fail(Status::no_solution, "model",
             fmt::format("the weights of '{}' do not fit in {} of the memory of {} '{}'{}", d.model.id, o.mem_util,
                         o.tp > 0 ? fmt::format("{} x", o.tp) : std::string("any replica of"), d.gpu.id,
                         o.tp > 0 ? "" : " the planner tries"));
    sort_fastest_first(points);
    if (o.tp == 0) points = front_of(points);
    if (simulates(o.percentile, p)) {  // the closed form's points (its front) simulated, then sorted and reduced again
        curve_at_percentile(d, p, w, o, points);
        sort_fastest_first(points);
        if (o.tp == 0) points = front_of(points);
    }
    if (points.empty())
        fail(Status::no_solution, "ttft_ms",
             fmt::format("no batch of any replica meets ttft_ms = {}{}", o.ttft_ms ? *o.ttft_ms : 0.0,
                         simulates(o.percentile, p) ? fmt::format(" at p{}", o.percentile) : std::string()));
    return points;
}

std::vector<PlanRow> plan(std::string_view model_id, double rps, const Workload& w, const Targets& t,
                          const PlanOptions& o) {
    const auto model = find_model(model_id);
    if (!model) unknown("model", unknown_catalog_id("model", model_id, model_ids()));
    return plan(*model, rps, w, t, o);
}

Fleet fleet(const std::vector<FleetWorkload>& workloads, const PlanOptions& o) {
    if (workloads.empty()) fail(Status::invalid_argument, "workloads", "has no workload: give one row at least");
    check_options(o);  // the options once, named as themselves before any workload
    Fleet f;
    f.usd_per_hour = f.kw = 0.0;
    double tokens_per_s = 0;
    for (std::size_t i = 0; i < workloads.size(); ++i) {
        const FleetWorkload& fw = workloads[i];
        PlanOptions own = o;
        if (!fw.gpus.empty()) own.gpus = fw.gpus;
        std::vector<PlanRow> rows;
        try {
            rows = plan(fw.model, fw.rps, fw.workload, fw.targets, own);
        } catch (const Error& e) {
            const std::string reason = fmt::format("workload {} ({}): {}{}", i + 1, fw.model.id,
                                                   e.argument().empty() ? "" : fmt::format("{}: ", e.argument()),
                                                   e.reason());
            throw Error::of_argument(e.status(), "", "workloads", reason);
        }
        const PlanRow& r = rows.front();  // the cheapest
        f.gpus += r.gpus;
        f.servers += r.servers;
        if (f.usd_per_hour && r.usd_per_hour) *f.usd_per_hour += *r.usd_per_hour;
        else f.usd_per_hour = std::nullopt;
        if (f.kw && r.kw) *f.kw += *r.kw;
        else f.kw = std::nullopt;
        tokens_per_s += fw.rps * fw.workload.output_tokens;
        f.rows.push_back(r);
    }
    if (f.usd_per_hour) {
        f.usd_per_month = *f.usd_per_hour * units::hours_per_month;
        f.usd_per_mtok = cost_per_mtok(*f.usd_per_hour, 1, tokens_per_s);
    }
    return f;
}

}  // namespace roofline::serving
