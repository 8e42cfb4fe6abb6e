// Kernel models and their fitter. See kernels.hpp.
#include "roofline/kernels.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string_view>
#include <tuple>

#include "catalog_data.hpp"
#include "minimize.hpp"

namespace roofline {
namespace {

/// Where the catalog gives no L2: more than any L2 of the GPUs with kernel data (RTX PRO 6000's is 128 MB).
constexpr double kL2WhereNotGivenBytes = 128e6;
constexpr double kOutputBytes = 2;  // C in 16 bits

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::vector<double> scaled(const std::vector<double>& unit, std::span<const KernelParameter> p) {
    std::vector<double> v(p.size());
    for (std::size_t i = 0; i < p.size(); ++i) v[i] = p[i].lo + std::clamp(unit[i], 0.0, 1.0) * (p[i].hi - p[i].lo);
    return v;
}

/// The step schedule of the fit from `x` over the parameters `free` marks (the others stay as they are): the smooth
/// loss (squared logs) first, then the robust one (|log|), each from a fresh simplex, smaller each time (a simplex on a
/// non-smooth loss can stall far from the best point). Returns the point; `fx` its robust loss.
template <class Loss>
std::vector<double> descend(std::span<const KernelParameter> p, Loss& loss, std::vector<double> x,
                            const std::vector<bool>& free, double& fx) {
    std::vector<std::size_t> index;
    for (std::size_t i = 0; i < p.size(); ++i)
        if (free[i]) index.push_back(i);
    bool squared = true;
    auto f = [&](const std::vector<double>& sub) {
        std::vector<double> u = x;
        for (std::size_t i = 0; i < index.size(); ++i) u[index[i]] = sub[i];
        return loss(scaled(u, p), squared);
    };
    std::vector<double> sub;
    for (const std::size_t i : index) sub.push_back(x[i]);
    fx = f(sub);
    for (const double step : {0.25, 0.1, 0.05, 0.02}) {
        squared = step == 0.25;
        if (step == 0.1) fx = f(sub);
        sub = detail::simplex_descent(f, sub, step, fx);
    }
    for (std::size_t i = 0; i < index.size(); ++i) x[index[i]] = sub[i];
    return x;
}

/// The best (robust loss, `best_f`) of four descents over the parameters not `held` (those stay at their lower limit):
/// from three points of the box (its middle, a quarter and three quarters of each range), and from the best point of
/// the simpler model, the terms whose lower limit leaves them out held there. In the unit box.
template <class Loss>
std::vector<double> fit_from_starts(std::span<const KernelParameter> p, Loss& loss, const std::vector<bool>& held,
                                    double& best_f) {
    std::vector<bool> free(p.size()), kept(p.size());
    std::vector<double> simple(p.size());
    for (std::size_t i = 0; i < p.size(); ++i) {
        free[i] = !held[i];
        kept[i] = free[i] && !p[i].lo_leaves_out;
        simple[i] = kept[i] ? 0.5 : 0;
    }
    double fx = 0;
    simple = descend(p, loss, simple, kept, fx);
    std::vector<double> best;
    for (const double start : {0.5, 0.25, 0.75, -1.0}) {
        std::vector<double> x = simple;
        if (start >= 0)
            for (std::size_t i = 0; i < p.size(); ++i) x[i] = free[i] ? start : 0;
        x = descend(p, loss, std::move(x), free, fx);
        if (best.empty() || fx < best_f) best = std::move(x), best_f = fx;
    }
    return best;
}

/// The fit: fit_from_starts(), nested in the model without its newest term: the last of `newer` (the terms each
/// table's model gained, oldest first), or where `newer` is empty the table's last term that the rows identify and
/// whose lower limit leaves it out (each table grows at its end). That model's best point, itself fitted so (nested in
/// the model without the term before), as it is and as a further start with the term free, is a candidate too, so a
/// term added to a model never ends with a higher loss than the fit without it had (four MLA prefill fits did before,
/// stopping in another valley). In the unit box; `best_f` its robust loss.
template <class Loss>
std::vector<double> fit_nested(std::span<const KernelParameter> p, Loss& loss, const std::vector<bool>& held,
                               std::vector<std::size_t> newer, double& best_f) {
    std::vector<double> best = fit_from_starts(p, loss, held, best_f);
    if (newer.empty())
        for (std::size_t i = 0; i < p.size(); ++i)
            if (!held[i] && p[i].lo_leaves_out) newer = {i};
    if (newer.empty() || held[newer.back()]) return best;
    std::vector<bool> without = held;
    without[newer.back()] = true;
    newer.pop_back();
    double f = 0;
    std::vector<double> x = newer.empty() ? fit_from_starts(p, loss, without, f) : fit_nested(p, loss, without, newer, f);
    if (f < best_f) best = x, best_f = f;
    std::vector<bool> free(p.size());
    for (std::size_t i = 0; i < p.size(); ++i) free[i] = !held[i];
    x = descend(p, loss, std::move(x), free, f);
    if (f < best_f) best = std::move(x), best_f = f;
    return best;
}

template <class Loss>
std::vector<double> fit(std::span<const KernelParameter> p, Loss&& loss, const std::vector<bool>& held,
                        const std::vector<std::size_t>& newer) {
    double f = 0;
    return scaled(fit_nested(p, loss, held, newer, f), p);
}

double bus_factor(Collective op, double gpus) {
    return (op == Collective::all_reduce ? 2 : 1) * (gpus - 1) / gpus;
}

struct Catalog {
    std::map<std::tuple<std::string, std::string, DType>, GemmKernel> gemm;
    std::map<std::tuple<std::string, std::string, DType>, MoeKernel> moe;
    std::map<std::tuple<std::string, std::string, bool, DType>, AttentionKernel> attention, mla;
    std::map<std::tuple<std::string, Collective, double>, CollectiveKernel> collective;
    std::vector<std::pair<std::string, double>> moe_layer;  ///< architecture, µs (a few: a scan finds one)
    std::vector<std::pair<std::string, double>> attention_compute;  ///< architecture, ratio
};

/// A model's fitted parameters from its kernels.json entry, in its table's order.
std::vector<double> fitted(const nlohmann::json& g, std::span<const KernelParameter> table) {
    std::vector<double> v;
    for (const KernelParameter& p : table) v.push_back(g.at("fitted").at(std::string(p.json)).get<double>());
    return v;
}

/// A format field of a kernels.json entry.
DType format_of(const nlohmann::json& g, const char* field) {
    const auto format = parse_dtype(g.at(field).get<std::string>());
    if (!format) throw std::logic_error("kernels.json: unknown format " + g.at(field).dump());
    return *format;
}

const Catalog& catalog() {
    static const Catalog c = [] {
        Catalog out;
        const auto j = nlohmann::json::parse(detail::kKernelsJson);
        auto engine_and_architecture = [](const nlohmann::json& g) {
            return std::pair{g.at("engine").get<std::string>(), g.at("architecture").get<std::string>()};
        };
        for (const auto& g : j.at("gemm")) {
            const auto [engine, architecture] = engine_and_architecture(g);
            out.gemm[{engine, architecture, format_of(g, "format")}] = gemm_kernel_of(fitted(g, kGemmParameters));
        }
        for (const auto& g : j.at("moe")) {
            const auto [engine, architecture] = engine_and_architecture(g);
            out.moe[{engine, architecture, format_of(g, "format")}] = moe_kernel_of(fitted(g, kMoeParameters));
        }
        for (const char* kind : {"attention", "mla"})
            for (const auto& g : j.at(kind)) {
                const auto [engine, architecture] = engine_and_architecture(g);
                (kind == std::string_view("mla") ? out.mla : out.attention)[{engine, architecture,
                                                                            g.at("phase").get<std::string>() == "prefill",
                                                                            format_of(g, "kv")}] =
                    attention_kernel_of(fitted(g, kAttentionParameters));
            }
        for (const auto& g : j.at("collectives")) {
            const auto op = parse_collective(g.at("op").get<std::string>());
            if (!op) throw std::logic_error("kernels.json: unknown collective " + g.at("op").dump());
            out.collective[{g.at("architecture").get<std::string>(), *op, g.at("gpus").get<double>()}] =
                collective_kernel_of(fitted(g, kCollectiveParameters));
        }
        for (const auto& g : j.at("moe_layer"))
            out.moe_layer.emplace_back(g.at("architecture").get<std::string>(), g.at("us").get<double>());
        for (const auto& g : j.at("attention_compute"))
            out.attention_compute.emplace_back(g.at("architecture").get<std::string>(), g.at("ratio").get<double>());
        return out;
    }();
    return c;
}

}  // namespace

double gemm_kernel_ms(const GemmShape& s, const GpuSpec& gpu, const GemmKernel& k, bool warm_l2) {
    const double flops = 2 * s.m * s.n * s.k;
    const double fill = k.compute_efficiency * s.m / (s.m + k.half_rows) * s.n / (s.n + k.half_columns);
    const double compute_ms = flops / (gpu.peak_tflops(compute_dtype(s.format)) * 1e12 * fill) * 1e3;
    // A in the format (the activations quantized to it), or in 16 bits for a weight-only format (int8, int4: the
    // weights dequantized to the 16-bit compute dtype, the activations as they are).
    const double value = bytes_per_value(s.format);
    const DType compute = compute_dtype(s.format);
    const double a_value = bits_per_value(compute) >= 16 ? bytes_per_value(compute) : value;
    const double bytes = s.m * s.k * a_value + s.k * s.n * value + s.m * s.n * kOutputBytes;
    const double in_l2 = warm_l2 ? std::min(bytes, l2_bytes(gpu)) : 0;
    const double rate = gpu.hbm_tbs * 1e12 * k.bandwidth_efficiency * s.n / (s.n + k.half_columns_memory);
    const double memory_ms = ((bytes - in_l2) / rate + in_l2 / (rate * k.l2_speedup)) * 1e3;
    const double tiles = std::ceil(s.m / k.tile) * std::ceil(s.n / k.tile);
    const double body = std::max(compute_ms, memory_ms);  // no output tile (m or n 0): no tiles' term
    return k.latency_us / 1e3 + (tiles > 0 ? body * (tiles + k.half_tiles) / tiles : body);
}

double moe_kernel_ms(const MoeShape& s, const GpuSpec& gpu, const MoeKernel& k) {
    const double local = s.experts / s.ep, width = s.inter / s.tp, matrices = s.gated ? 3 : 2;
    const double assignments = s.tokens * s.topk / s.ep;
    const double touched = std::min(local, std::ceil(assignments));
    const double rows = touched > 0 ? assignments / touched : 0;
    const double computed = k.tile_rows > 0 ? touched * std::ceil(rows / k.tile_rows) * k.tile_rows : assignments;
    const double flops = 2 * matrices * s.hidden * width * computed;
    const double fill = k.compute_efficiency * rows / (rows + k.half_rows);
    // Each grouped multiply's share of the FLOPs at (t + half_tiles) / t of its time, t its output tiles.
    const double row_tiles = touched * std::ceil(rows / kMoeOutputTile);
    auto tiles_factor = [&](double columns) {
        const double tiles = row_tiles * std::ceil(columns / kMoeOutputTile);
        return tiles > 0 ? (tiles + k.half_tiles) / tiles : 1;
    };
    const double up_share = (matrices - 1) / matrices;
    const double tile_factor = up_share * tiles_factor((matrices - 1) * width) + (1 - up_share) * tiles_factor(s.hidden);
    const double compute_ms =
        flops > 0 ? flops / (gpu.peak_tflops(compute_dtype(s.format)) * 1e12 * fill) * tile_factor * 1e3 : 0;
    const double bandwidth = gpu.hbm_tbs * 1e12;
    const double weights = touched * matrices * s.hidden * width * bytes_per_value(s.format);
    const double memory_ms = weights / (bandwidth * k.bandwidth_efficiency * width / (width + k.half_columns)) * 1e3;
    const double activations_ms = k.activation_passes * assignments * s.hidden * kOutputBytes / bandwidth * 1e3;
    return (k.latency_us + k.expert_us * touched) / 1e3 + std::max(compute_ms, memory_ms) + activations_ms;
}

AttentionShape mla_shape(double batch, double context, double heads, DType kv, bool prefill, double latent, double rope,
                         double nope, double v) {
    AttentionShape s{batch, context, heads, prefill ? heads : 1, 0, kv, prefill};
    s.qk_dim = prefill ? nope + rope : latent + rope;
    s.v_dim = prefill ? v : latent;
    s.head_dim = (s.qk_dim + s.v_dim) / 2;
    s.cache_values = prefill ? (latent + rope) / heads : latent + rope;  // one latent a token, for all heads
    return s;
}

double attention_kernel_ms(const AttentionShape& s, const GpuSpec& gpu, const AttentionKernel& k, bool warm_l2) {
    // Prefill: the causal pairs as a kernel computes them, in tiles of split_tokens queries (the diagonal's tiles whole).
    const double pairs = s.prefill ? s.context * (s.context + k.split_tokens) / 2 : s.context;
    const double group = s.kv_heads > 0 ? s.heads / s.kv_heads : 1;
    // Decode computes each key-value head's group of query heads in whole tiles of group_tile rows.
    const double padding = !s.prefill && k.group_tile > 1 ? std::ceil(group / k.group_tile) * k.group_tile / group : 1;
    const double flops = s.batch * s.heads * padding * (s.flops_per_pair() + 2 * k.pair_dims) * pairs;
    const double tokens = s.prefill ? s.context : 1;  // new tokens of each sequence
    const double reads = !s.prefill && group > kLargestSharedGroup ? 1 + k.large_group_reads * (group - 1) : 1;
    const double bytes =
        s.batch * (s.kv_heads * s.cached() * s.context * bytes_per_value(s.kv) * reads +
                   k.token_passes * tokens * (s.heads * s.qk() + s.kv_heads * (s.qk() + s.v())) * kOutputBytes);
    const double compute_ms = flops / (gpu.peak_tflops(DType::bf16) * 1e12 * k.compute_efficiency) * 1e3;
    const double speedup = warm_l2 && bytes <= l2_bytes(gpu) ? k.l2_speedup : 1;
    const double memory_ms = bytes / (gpu.hbm_tbs * 1e12 * k.bandwidth_efficiency * speedup) * 1e3;
    // Work units: a decode kernel splits each sequence's key-value heads by blocks of its context (flash decoding); a
    // prefill kernel gives each query head a tile of split_tokens queries. Their fill scales the roofline's time; the
    // fixed costs (the kernel's latency, each sequence's and each of its key-value heads') come on top.
    const double units = s.prefill ? s.batch * s.heads * std::ceil(s.context / k.split_tokens)
                                   : s.batch * s.kv_heads * (1 + s.context / k.split_tokens);
    return (k.latency_us + (k.sequence_us + k.kv_head_us * s.kv_heads) * s.batch) / 1e3 +
           std::max(compute_ms, memory_ms) * (units + k.half_units) / units;
}

std::optional<Collective> parse_collective(std::string_view name) noexcept {
    for (Collective c : {Collective::all_reduce, Collective::all_gather, Collective::reduce_scatter, Collective::alltoall})
        if (to_string(c) == name) return c;
    return std::nullopt;
}

std::string_view to_string(Collective c) noexcept {
    switch (c) {
        case Collective::all_reduce: return "all_reduce";
        case Collective::all_gather: return "all_gather";
        case Collective::reduce_scatter: return "reduce_scatter";
        case Collective::alltoall: return "alltoall";
    }
    return "";
}

double collective_kernel_ms(Collective op, double gpus, double bytes, const GpuSpec& gpu, const CollectiveKernel& k) {
    if (gpus <= 1) return 0;
    const double moved = bytes * bus_factor(op, gpus), rate = gpu.interconnect_tbs * 1e12 * k.bus_efficiency;
    const double ms = k.latency_us / 1e3 + moved / rate * 1e3;
    if (k.small_efficiency_share <= 0) return ms;
    return std::min(ms, k.latency_us * k.small_latency_share / 1e3 + moved / (rate * k.small_efficiency_share) * 1e3);
}

const GemmKernel* find_gemm_kernel(std::string_view engine, std::string_view architecture, DType format) {
    const auto& m = catalog().gemm;
    const auto it = m.find({std::string(engine), std::string(architecture), format});
    return it == m.end() ? nullptr : &it->second;
}

const MoeKernel* find_moe_kernel(std::string_view engine, std::string_view architecture, DType format) {
    const auto& m = catalog().moe;
    const auto it = m.find({std::string(engine), std::string(architecture), format});
    return it == m.end() ? nullptr : &it->second;
}

const AttentionKernel* find_attention_kernel(std::string_view engine, std::string_view architecture, bool prefill,
                                             DType kv) {
    const auto& m = catalog().attention;
    const auto it = m.find({std::string(engine), std::string(architecture), prefill, kv});
    return it == m.end() ? nullptr : &it->second;
}

const AttentionKernel* find_mla_kernel(std::string_view engine, std::string_view architecture, bool prefill, DType kv) {
    const auto& m = catalog().mla;
    const auto it = m.find({std::string(engine), std::string(architecture), prefill, kv});
    return it == m.end() ? nullptr : &it->second;
}

const CollectiveKernel* find_collective_kernel(std::string_view architecture, Collective op, double gpus) {
    const auto& m = catalog().collective;
    const auto it = m.find({std::string(architecture), op, gpus});
    return it == m.end() ? nullptr : &it->second;
}

double l2_bytes(const GpuSpec& gpu) noexcept { return gpu.l2_mb > 0 ? gpu.l2_mb * 1e6 : kL2WhereNotGivenBytes; }

double moe_layer_us(std::string_view architecture) {
    for (const auto& [a, us] : catalog().moe_layer)
        if (a == architecture) return us;
    return 0;
}

double attention_compute_ratio(std::string_view architecture) {
    for (const auto& [a, ratio] : catalog().attention_compute)
        if (a == architecture) return ratio;
    return 1;
}

std::vector<double> parameters_of(const GemmKernel& k) {
    return {k.compute_efficiency, k.half_rows, k.half_columns, k.bandwidth_efficiency, k.half_columns_memory,
            k.latency_us, k.l2_speedup, k.tile, k.half_tiles};
}

GemmKernel gemm_kernel_of(const std::vector<double>& v) {
    return {v.at(0), v.at(1), v.at(2), v.at(3), v.at(4), v.at(5), v.at(6), v.at(7), v.at(8)};
}

std::vector<double> parameters_of(const MoeKernel& k) {
    return {k.compute_efficiency, k.half_rows,  k.bandwidth_efficiency, k.half_columns,
            k.latency_us,         k.expert_us, k.activation_passes,    k.tile_rows,
            k.half_tiles};
}

MoeKernel moe_kernel_of(const std::vector<double>& v) {
    return {v.at(0), v.at(1), v.at(2), v.at(3), v.at(4), v.at(5), v.at(6), v.at(7), v.at(8)};
}

std::vector<double> parameters_of(const AttentionKernel& k) {
    return {k.compute_efficiency, k.bandwidth_efficiency, k.half_units,  k.split_tokens,
            k.latency_us,         k.sequence_us,          k.token_passes, k.pair_dims, k.large_group_reads,
            k.l2_speedup,         k.group_tile,           k.kv_head_us};
}

AttentionKernel attention_kernel_of(const std::vector<double>& v) {
    return {v.at(0), v.at(1), v.at(2), v.at(3), v.at(4), v.at(5), v.at(6), v.at(7), v.at(8), v.at(9), v.at(10), v.at(11)};
}

std::vector<double> parameters_of(const CollectiveKernel& k) {
    return {k.bus_efficiency, k.latency_us, k.small_latency_share, k.small_efficiency_share};
}
CollectiveKernel collective_kernel_of(const std::vector<double>& v) { return {v.at(0), v.at(1), v.at(2), v.at(3)}; }

namespace {

/// Each kind's time of a measured sample under a model (the multiplies' with the benchmark's warm L2).
double time_of(const GemmSample& s, const GemmKernel& k) { return gemm_kernel_ms(s.shape, *s.gpu, k, true); }
double time_of(const MoeSample& s, const MoeKernel& k) { return moe_kernel_ms(s.shape, *s.gpu, k); }
double time_of(const AttentionSample& s, const AttentionKernel& k) {
    return attention_kernel_ms(s.shape, *s.gpu, k, true);
}
double time_of(const CollectiveSample& s, const CollectiveKernel& k) {
    return collective_kernel_ms(s.op, s.gpus, s.bytes, *s.gpu, k);
}

/// The model of a kind fitted on its samples: its parameters' table, the model of a parameter vector.
/// `held`: the parameters (by name) the samples cannot identify, held at their lower limit; `newer`: the terms the model
/// gained, oldest first, the fit nested in the model without each (fit_nested(); empty: the table's newest).
template <class Sample, class Of>
auto fit_samples(const std::vector<Sample>& samples, std::span<const KernelParameter> parameters, Of of,
                 const std::vector<std::string_view>& held = {}, const std::vector<std::string_view>& newer = {}) {
    auto index = [&](std::string_view name) {
        const auto at = std::find_if(parameters.begin(), parameters.end(),
                                     [&](const KernelParameter& p) { return p.json == name; });
        if (at == parameters.end()) throw std::logic_error("kernel fit: no parameter " + std::string(name));
        return static_cast<std::size_t>(at - parameters.begin());
    };
    std::vector<bool> mask(parameters.size());
    for (const std::string_view name : held) mask[index(name)] = true;
    std::vector<std::size_t> newer_index;
    for (const std::string_view name : newer)
        if (!mask[index(name)]) newer_index.push_back(index(name));
    return of(fit(parameters, [&](const std::vector<double>& v, bool squared) {
        const auto k = of(v);
        double l = 0;
        for (const Sample& s : samples) {
            const double e = std::log(time_of(s, k) / s.measured_ms);
            l += squared ? e * e : std::abs(e);
        }
        return l;
    }, mask, newer_index));
}

template <class Sample, class Kernel>
double mdape_of(const std::vector<Sample>& samples, const Kernel& kernel) {
    std::vector<double> e;
    e.reserve(samples.size());
    for (const Sample& s : samples) e.push_back(std::abs(time_of(s, kernel) / s.measured_ms - 1) * 100);
    return median(std::move(e));
}

}  // namespace

GemmKernel fit_gemm_kernel(const std::vector<GemmSample>& samples) {
    return fit_samples(samples, kGemmParameters, gemm_kernel_of);
}
MoeKernel fit_moe_kernel(const std::vector<MoeSample>& samples) {
    return fit_samples(samples, kMoeParameters, moe_kernel_of);
}
AttentionKernel fit_attention_kernel(const std::vector<AttentionSample>& samples) {
    // What the rows cannot identify is held. Prefill rows: decode's terms (large groups' reads, the group's tiles); not
    // the warm L2, which a prefill's Q, K, V and output outgrow in many rows (on L40S 64 query heads of 128 over 2,048
    // tokens take 0.026 ms, over 4,096 0.198 ms, where their 134 MB of Q and output outgrow its 96 MB: held once, as if
    // they fitted in every row, it is the prefill's newest term, the fit nested in the model without it). Rows of one
    // head shape (DeepSeek's MLA, whose latent all its heads share): the softmax's cost per pair (not told from the
    // products' efficiency) and large groups' reads.
    // GQA decode: the group's tiles (fitted, its groups of 1 to 128 query heads put them anywhere from 4 to 126 rows
    // and gained at most 2 points of error; MLA's 1 to 128 heads a GPU identify them: FlashMLA's 64). Rows of one count
    // of key-value heads (MLA's decode, one latent): the cost of each sequence's key-value head, sequence_us's twin.
    const bool one_shape = std::all_of(samples.begin(), samples.end(), [&](const AttentionSample& s) {
        return s.shape.qk() == samples.front().shape.qk() && s.shape.v() == samples.front().shape.v();
    });
    const bool prefill = std::all_of(samples.begin(), samples.end(), [](const AttentionSample& s) { return s.shape.prefill; });
    const bool one_kv_head_count = std::all_of(samples.begin(), samples.end(), [&](const AttentionSample& s) {
        return s.shape.kv_heads == samples.front().shape.kv_heads;
    });
    std::vector<std::string_view> held;
    if (prefill) held.insert(held.end(), {"large_group_reads", "group_tile"});
    if (one_shape) held.push_back("pair_dims");
    if (one_shape && !prefill) held.push_back("large_group_reads");  // prefill's holds it already
    if (!one_shape && !prefill) held.push_back("group_tile");
    if (one_kv_head_count) held.push_back("kv_head_us");  // the same term as sequence_us
    std::vector<std::string_view> newer;  // the terms the model gained, oldest first (the fit nests in each)
    if (prefill) newer = {"kv_head_us", "l2_speedup"};
    return fit_samples(samples, kAttentionParameters, attention_kernel_of, held, newer);
}
CollectiveKernel fit_collective_kernel(const std::vector<CollectiveSample>& samples) {
    return fit_samples(samples, kCollectiveParameters, collective_kernel_of);
}

double gemm_mdape_percent(const std::vector<GemmSample>& samples, const GemmKernel& k) { return mdape_of(samples, k); }
double moe_mdape_percent(const std::vector<MoeSample>& samples, const MoeKernel& k) { return mdape_of(samples, k); }
double attention_mdape_percent(const std::vector<AttentionSample>& samples, const AttentionKernel& k) {
    return mdape_of(samples, k);
}
double collective_mdape_percent(const std::vector<CollectiveSample>& samples, const CollectiveKernel& k) {
    return mdape_of(samples, k);
}

}  // namespace roofline
