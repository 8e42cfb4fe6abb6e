// The formulas of the group "Planner": the serving model (serving.hpp, docs/serving-model.md) through the table.
// Each formula only adapts its arguments; the computation is the serving model's.
#include <fmt/format.h>

#include <charconv>
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "roofline/catalog.hpp"
#include "roofline/formulas.hpp"
#include "roofline/nearest.hpp"
#include "roofline/operators.hpp"
#include "roofline/serving.hpp"
#include "roofline/simulate.hpp"

#include "ascii.hpp"
#include "formula_args.hpp"
#include "formula_table.hpp"

namespace roofline::formula {

using namespace formula_table;
using namespace formula_args;
using ascii::iequals;
using ascii::trimmed;

namespace {

/// Runs the serving model; an error it throws (which names its argument but no formula) is said as the formula's.
template <typename F> auto serving_model(const FormulaSpec& f, F&& compute) {
    try {
        return compute();
    } catch (const Error& e) {
        if (!e.where().empty()) throw;
        if (e.argument().empty()) throw Error::of_call(e.status(), f.name, "", e.reason());
        // A simulation's budget names its requests; a formula that simulates a fixed number of them (a percentile)
        // has no such argument: the answers' length is what to shorten.
        const auto takes = [&](std::string_view name) {
            return std::any_of(f.args.begin(), f.args.end(), [&](const ArgSpec& a) { return a.name == name; });
        };
        if (e.argument() == "requests" && !takes("requests"))
            throw Error::of_argument(e.status(), f.name, takes("output_tokens") ? "output_tokens" : "ctx", e.reason());
        throw Error::of_argument(e.status(), f.name, e.argument(), e.reason());
    }
}

serving::Workload workload(double prompt_tokens, double output_tokens) { return {prompt_tokens, output_tokens}; }




/// The GPUs of ROOFLINE_PLAN's `gpu` (or `prefill_gpu`): one id or a list ("h100-sxm, h200"; ',' ';' or a new line
/// between them), each the catalog's id of a GPU.
std::vector<std::string> gpu_list_of(const FormulaSpec& f, std::string_view text, const char* arg = "gpu") {
    if (text.find_first_of(",;\n") == std::string_view::npos) return {gpu_of(f, text, arg).id};  // one id, as it is
    std::vector<std::string> ids;
    while (!text.empty()) {
        const std::size_t end = text.find_first_of(",;\n");
        const std::string_view item = trimmed(text.substr(0, end));
        text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
        if (item.empty()) continue;
        ids.push_back(gpu_of(f, item, arg).id);
    }
    if (ids.empty())
        throw Error::of_argument(Status::invalid_argument, f.name, arg, "names no GPU (got a list of separators)");
    return ids;
}

/// The price overrides of ROOFLINE_PLAN: "h100-sxm=2.49, a100-sxm-80gb=1.29" (',' ';' or a new line between
/// entries; a decimal point), by the catalog's id of each GPU; none for "" or "catalog".
std::map<std::string, double> prices_of(const FormulaSpec& f, std::string_view text) {
    std::map<std::string, double> prices;
    if (iequals(trimmed(text), "catalog")) return prices;
    auto bad = [&](std::string reason) { throw Error::of_argument(Status::invalid_argument, f.name, "prices", std::move(reason)); };
    while (!text.empty()) {
        const std::size_t end = text.find_first_of(",;\n");
        const std::string_view raw = text.substr(0, end), entry = trimmed(raw);
        text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
        if (entry.empty()) continue;
        const std::size_t equals = entry.find('=');
        if (equals == std::string_view::npos)
            bad(fmt::format("'{}' is not gpu=price (e.g. \"h100-sxm=2.49, a100-sxm-80gb=1.29\")", raw));
        const std::string_view id = trimmed(entry.substr(0, equals)), number = trimmed(entry.substr(equals + 1));
        const GpuSpec gpu = [&] {
            if (auto g = find_gpu(id)) return *g;
            unknown_id(f, "prices", unknown_catalog_id("GPU", id, gpu_ids()));
        }();
        double usd = 0;
        const auto [at, error] = std::from_chars(number.data(), number.data() + number.size(), usd);
        if (number.empty() || error != std::errc() || at != number.data() + number.size() || !std::isfinite(usd))
            bad(fmt::format("the price of '{}' must be a number of USD per GPU-hour with a decimal point (got '{}')",
                            id, number));
        if (usd < 0) bad(fmt::format("the price of '{}' must be zero or more (got {})", id, usd));
        prices[gpu.id] = usd;
    }
    return prices;
}

/// A price cell of ROOFLINE_PLAN: the number, or "" where the GPU has no price.
std::variant<double, std::string> price_cell(const std::optional<double>& usd) {
    if (!usd) return std::string();
    return *usd;
}

}  // namespace

double e2e_ms(std::string_view model, std::string_view gpu, double prompt_tokens, double output_tokens, double batch,
              std::string_view weight_dtype, std::string_view kv_dtype, double tp, std::string_view profile,
              double mem_util, double ep, double dp_attention, double pp) {
    const auto& f = checked<&e2e_ms>(
        {model, gpu, prompt_tokens, output_tokens, batch, weight_dtype, kv_dtype, tp, profile, mem_util, ep, dp_attention, pp});
    const Deployment d = deployment(f, model, gpu, weight_dtype, kv_dtype, tp, {ep, dp_attention, pp});
    check_window(f, d.model, prompt_tokens, output_tokens);
    const Profile& p = profile_of(f, profile);
    return finite(f, serving_model(f, [&] {
        return serving::e2e_ms(d, p, workload(prompt_tokens, output_tokens), batch, mem_util);
    }));
}

double slo_batch(std::string_view model, std::string_view gpu, double ctx, double tpot_ms, std::string_view weight_dtype,
                 std::string_view kv_dtype, double tp, std::string_view profile, double mem_util, double ep, double dp_attention, double pp,
                 double percentile, double prompt_tokens) {
    const auto& f = checked<&slo_batch>({model, gpu, ctx, tpot_ms, weight_dtype, kv_dtype, tp, profile, mem_util, ep,
                                         dp_attention, pp, percentile, prompt_tokens});
    const Deployment d = deployment(f, model, gpu, weight_dtype, kv_dtype, tp, {ep, dp_attention, pp});
    check_window(f, d.model, ctx, "ctx", "each sequence's");
    const Profile& p = profile_of(f, profile);
    if (percentile == 0 && prompt_tokens != 0)
        out_of_domain(f, arg_named(f, "prompt_tokens"), prompt_tokens, "0 without percentile (the decode step at ctx)");
    return finite(f, serving_model(f, [&] {
        serving::SimulationOptions o;
        o.percentile = percentile;
        o.mem_util = mem_util;
        return serving::slo_batch_at(d, p, ctx, tpot_ms, prompt_tokens, o);
    }));
}

double replica_rps(std::string_view model, std::string_view gpu, double prompt_tokens, double output_tokens,
                   double ttft_ms, double tpot_ms, std::string_view weight_dtype, std::string_view kv_dtype, double tp,
                   std::string_view profile, double mem_util, double ep, double dp_attention, double pp,
                   double percentile) {
    const auto& f = checked<&replica_rps>({model, gpu, prompt_tokens, output_tokens, ttft_ms, tpot_ms, weight_dtype,
                                           kv_dtype, tp, profile, mem_util, ep, dp_attention, pp, percentile});
    const Deployment d = deployment(f, model, gpu, weight_dtype, kv_dtype, tp, {ep, dp_attention, pp});
    check_window(f, d.model, prompt_tokens, output_tokens);
    const Profile& p = profile_of(f, profile);
    return finite(f, serving_model(f, [&] {
        serving::SimulationOptions o;
        o.percentile = percentile;
        o.mem_util = mem_util;
        return serving::replica_rps_at(d, p, workload(prompt_tokens, output_tokens), {ttft_ms, tpot_ms}, o).state.rps;
    }));
}

Table curve(std::string_view model, std::string_view gpu, double prompt_tokens, double output_tokens,
            std::string_view weight_dtype, std::string_view kv_dtype, double tp, std::string_view profile, double ep,
            double dp_attention, double pp, double ttft_ms, double mem_util, double percentile) {
    const auto& f = checked<&curve>({model, gpu, prompt_tokens, output_tokens, weight_dtype, kv_dtype, tp, profile, ep,
                                     dp_attention, pp, ttft_ms, mem_util, percentile});
    if (tp != 0 && !(tp >= 1 && tp == std::floor(tp)))
        out_of_domain(f, arg_named(f, "tp"), tp, "0 (every replica size and layout: the front) or a whole number >= 1");
    // tp 0: the formats on one GPU; serving::curve tries the layouts (and refuses a layout given with tp 0).
    const Layout layout{ep, dp_attention, pp};
    const Deployment d = deployment(f, model, gpu, weight_dtype, kv_dtype, tp == 0 ? 1 : tp, tp == 0 ? Layout{} : layout);
    check_window(f, d.model, prompt_tokens, output_tokens);
    const Profile& p = profile_of(f, profile);
    serving::CurveOptions o;
    o.tp = tp;
    o.layout = layout;
    if (ttft_ms > 0) o.ttft_ms = ttft_ms;
    o.mem_util = mem_util;
    o.percentile = percentile;
    const std::vector<serving::CurvePoint> points =
        serving_model(f, [&] { return serving::curve(d, p, workload(prompt_tokens, output_tokens), o); });
    Rows t(f);
    t.reserve(points.size());
    for (const serving::CurvePoint& c : points) {
        for (double v : {c.state.tpot_ms, c.tokens_per_s_per_user, c.capacity_tokens_per_s_per_gpu, c.state.batch,
                         c.state.ttft_ms, c.state.rps, c.tp, c.layout.ep, c.layout.dp_attention, c.layout.pp})
            t.number(v);
        t.end_row();
    }
    return std::move(t).done();
}

Table simulate(std::string_view model, std::string_view gpu, double rps, double prompt_tokens, double output_tokens,
               std::string_view weight_dtype, std::string_view kv_dtype, double tp, std::string_view profile, double ep,
               double dp_attention, double pp, std::string_view arrival, double cv, double requests, double seed,
               std::string_view lengths, double spread, double ttft_ms, double tpot_ms, double mem_util,
               double prefix_tokens, double prefix_share, double turns, double think_s, double host_kv_gb,
               double host_tbs, double concurrency) {
    const auto& f = checked<&simulate>({model, gpu, rps, prompt_tokens, output_tokens, weight_dtype, kv_dtype, tp, profile,
                                        ep, dp_attention, pp, arrival, cv, requests, seed, lengths, spread, ttft_ms,
                                        tpot_ms, mem_util, prefix_tokens, prefix_share, turns, think_s, host_kv_gb,
                                        host_tbs, concurrency});
    if (seed != std::floor(seed)) out_of_domain(f, arg_named(f, "seed"), seed, "a whole number >= 0");
    serving::SimulationOptions o;
    if (const auto a = serving::parse_arrival(or_default(f, "arrival", arrival))) o.arrival = *a;
    else unknown_choice(f, "arrival", "arrival", or_default(f, "arrival", arrival), {"poisson", "constant", "gamma"});
    if (const auto l = serving::parse_lengths(or_default(f, "lengths", lengths))) o.lengths = *l;
    else unknown_choice(f, "lengths", "kind of lengths", or_default(f, "lengths", lengths), {"fixed", "uniform", "lognormal"});
    if (o.lengths == serving::Lengths::fixed && spread != 0)
        out_of_domain(f, arg_named(f, "spread"), spread, "0 with lengths fixed (give lengths uniform or lognormal)");
    o.cv = cv;
    o.requests = requests;
    o.seed = static_cast<std::uint64_t>(seed);
    o.spread = spread;
    o.targets = {ttft_ms, tpot_ms};
    o.mem_util = mem_util;
    o.prefix_tokens = prefix_tokens;
    o.prefix_share = prefix_share;
    o.turns = turns;
    o.think_s = think_s;
    o.host_kv_gb = host_kv_gb;
    o.host_tbs = host_tbs;
    o.concurrency = concurrency;
    const Deployment d = deployment(f, model, gpu, weight_dtype, kv_dtype, tp, Layout{ep, dp_attention, pp});
    check_window(f, d.model, prompt_tokens, output_tokens);
    check_window(f, d.model, turns * (prompt_tokens + output_tokens), "turns",
                 "the last turn of a conversation: its history, its prompt and its answer");
    const Profile& p = profile_of(f, profile);
    const serving::SimulationResult r = serving_model(f, [&] {
        return serving::simulate(d, p, rps, workload(prompt_tokens, output_tokens), o);
    });
    Rows t(f);
    for (const auto& [name, q] : {std::pair{"ttft_ms", r.ttft_ms}, {"tpot_ms", r.tpot_ms}, {"itl_ms", r.itl_ms},
                                  {"e2e_ms", r.e2e_ms}}) {
        t.text(name).number(q.mean).number(q.p50).number(q.p90).number(q.p99);
        t.end_row();
    }
    for (const auto& [name, v] : {std::pair{"throughput_tok_s", r.throughput_tok_s}, {"goodput_rps", r.goodput_rps},
                                  {"mean_batch", r.mean_batch}, {"prefix_hit_rate", r.prefix_hit_rate},
                                  {"requests", r.requests}, {"duration_s", r.duration_s}, {"iterations", r.iterations},
                                  {"preemptions", r.preemptions}, {"max_queue", r.max_queue},
                                  {"offloaded_gb", r.offloaded_gb}}) {
        t.text(name).number(v).text("").text("").text("");
        t.end_row();
    }
    return std::move(t).done();
}

namespace {

/// The GPUs a plan searches: "" or "datacenter" (the catalog's datacenter GPUs), "all" (every one) or a list of ids.
void gpus_into(const FormulaSpec& f, std::string_view gpu, serving::PlanOptions& o) {
    const std::string_view gpus = trimmed(gpu);
    o.every_gpu = iequals(gpus, "all");
    if (!gpus.empty() && !o.every_gpu && !iequals(gpus, "datacenter")) o.gpus = gpu_list_of(f, gpu);
}

/// The weights' formats a plan tries: published (the default since 0.14), all, native (0.13) or one format
/// (docs/formulas.md, ROOFLINE_PLAN).
void formats_into(const FormulaSpec& f, std::string_view weight_dtype, serving::PlanOptions& o) {
    const std::string_view formats = trimmed(or_default(f, "weight_dtype", weight_dtype));
    if (iequals(formats, "published")) o.formats = serving::PlanOptions::Formats::published;
    else if (iequals(formats, "all")) o.formats = serving::PlanOptions::Formats::all;
    else if (iequals(formats, "native")) o.formats = serving::PlanOptions::Formats::native;
    else if (const auto w = parse_dtype(formats)) o.weights = *w;
    else {
        std::vector<std::string> known = dtype_names();
        known.insert(known.begin(), {"published", "all", "native"});
        unknown_choice(f, "weight_dtype", "dtype", or_default(f, "weight_dtype", weight_dtype), known);
    }
}

/// What a plan rents (whole servers or single GPUs) and the basis of the catalog's prices.
void renting_into(const FormulaSpec& f, std::string_view rent, std::string_view price_basis, double years,
                  serving::PlanOptions& o) {
    const std::string_view renting = or_default(f, "rent", rent);
    if (!iequals(renting, "servers") && !iequals(renting, "gpus"))
        unknown_choice(f, "rent", "choice of what is rented", renting, {"servers", "gpus"});
    o.whole_servers = iequals(renting, "servers");
    const std::string_view basis = trimmed(or_default(f, "price_basis", price_basis));
    if (iequals(basis, "on-demand")) o.price_basis = serving::PlanOptions::PriceBasis::on_demand;
    else if (iequals(basis, "reserved")) o.price_basis = serving::PlanOptions::PriceBasis::reserved;
    else if (iequals(basis, "owned")) o.price_basis = serving::PlanOptions::PriceBasis::owned;
    else
        unknown_choice(f, "price_basis", "price basis", or_default(f, "price_basis", price_basis),
                       {"on-demand", "reserved", "owned"});
    o.years = years;
}

/// ROOFLINE_FLEET's workloads: one per row of its range, by place (model, rps, prompt_tokens, output_tokens, ttft_ms,
/// tpot_ms and an optional gpu); a header row (the first row without a number) and empty rows skipped. An error names
/// `workloads`, the row (1: the range's first) and the column.
using Cell = std::variant<double, std::string>;

std::vector<serving::FleetWorkload> workloads_of(const FormulaSpec& f, std::string_view text) {
    const ArgSpec& arg = f.args[0];
    const std::vector<std::string_view> columns = columns_of(arg.unit);
    const Table t = table_from_text(text);
    constexpr std::size_t kRowsMax = 100, kNeeded = 6;
    auto refuse = [&](std::string reason) -> Error {
        return Error::of_argument(Status::invalid_argument, f.name, arg.name, std::move(reason));
    };
    if (t.rows > kRowsMax) throw refuse(fmt::format("has {} rows: at most {}", t.rows, kRowsMax));
    const bool blank = std::all_of(t.cells.begin(), t.cells.end(), [](const Cell& c) {
        const std::string* s = std::get_if<std::string>(&c);
        return s && trimmed(*s).empty();
    });
    if (blank)  // no rows: no answer, as ROOFLINE_CALIBRATE has none for too few rows
        throw Error::of_argument(Status::no_solution, f.name, arg.name,
                                 fmt::format("0 workload rows: give one at least ({})", arg.unit));
    if (t.cols < kNeeded)
        throw refuse(fmt::format("has {} column{}: it takes {} or {}: {}", t.cols, t.cols == 1 ? "" : "s", kNeeded,
                                 columns.size(), arg.unit));
    const auto is_empty = [](const Cell& c) {
        const std::string* s = std::get_if<std::string>(&c);
        return s && trimmed(*s).empty();
    };
    std::vector<serving::FleetWorkload> out;
    bool first = true;
    for (std::size_t r = 0; r < t.rows; ++r) {
        const auto row = std::span<const Cell>(t.cells).subspan(r * t.cols, t.cols);
        if (std::all_of(row.begin(), row.end(), is_empty)) continue;
        const std::size_t at = r + 1;
        const bool header = first && std::none_of(row.begin(), row.end(), [](const Cell& c) {
            return std::holds_alternative<double>(c);
        });
        first = false;
        if (header) continue;
        for (std::size_t c = columns.size(); c < row.size(); ++c)
            if (!is_empty(row[c]))
                throw refuse(fmt::format("row {}: column {} is not empty: workloads take {} columns, {}", at, c + 1,
                                         columns.size(), arg.unit));
        auto text_at = [&](std::size_t c) -> std::string_view {
            if (c >= row.size()) return {};
            if (const double* d = std::get_if<double>(&row[c]))
                throw refuse(fmt::format("row {}, {}: must be a text (got {})", at, columns[c], *d));
            return std::get<std::string>(row[c]);
        };
        auto number_at = [&](std::size_t c) -> double {
            if (const double* d = std::get_if<double>(&row[c])) return *d;
            if (is_empty(row[c])) throw refuse(fmt::format("row {}, {}: is empty", at, columns[c]));
            throw refuse(fmt::format("row {}, {}: must be a number (got '{}')", at, columns[c],
                                     std::get<std::string>(row[c])));
        };
        // The checks of the model, a GPU or the window, said for this row.
        auto in_row = [&](auto&& check) {
            try {
                return check();
            } catch (const Error& e) {
                throw Error::of_argument(e.status(), f.name, arg.name,
                                         fmt::format("row {}, {}: {}", at, e.argument(), e.reason()));
            }
        };
        serving::FleetWorkload w{in_row([&] { return model_of(f, text_at(0)); }), number_at(1),
                                 workload(number_at(2), number_at(3)), {number_at(4), number_at(5)}, {}};
        if (const std::string_view gpu = trimmed(text_at(6)); !gpu.empty())
            w.gpus = in_row([&] { return gpu_list_of(f, gpu); });
        in_row([&] { check_window(f, w.model, w.workload.prompt_tokens, w.workload.output_tokens); });
        out.push_back(std::move(w));
    }
    if (out.empty())
        throw Error::of_argument(Status::no_solution, f.name, arg.name,
                                 fmt::format("0 workload rows below its header: give one at least ({})", arg.unit));
    return out;
}

}  // namespace

Table plan(std::string_view model, double rps, double prompt_tokens, double output_tokens, double ttft_ms,
           double tpot_ms, std::string_view gpu, std::string_view weight_dtype, std::string_view kv_dtype,
           std::string_view profile, double disaggregated, std::string_view prices, double mem_util,
           std::string_view rows_wanted, double headroom, double min_replicas, double percentile,
           double usd_per_kwh, double pue, double max_kw, std::string_view prefill_gpu, double input_ratio,
           std::string_view rent, std::string_view price_basis, double years) {
    const auto& f = checked<&plan>({model, rps, prompt_tokens, output_tokens, ttft_ms, tpot_ms, gpu, weight_dtype,
                                    kv_dtype, profile, disaggregated, prices, mem_util, rows_wanted, headroom,
                                    min_replicas, percentile, usd_per_kwh, pue, max_kw, prefill_gpu, input_ratio,
                                    rent, price_basis, years});
    if (pue < 1) out_of_domain(f, arg_named(f, "pue"), pue, "at least 1 (the facility's power over its IT equipment's)");
    if (disaggregated != 0 && disaggregated != 1)
        out_of_domain(f, arg_named(f, "disaggregated"), disaggregated, "0 (colocated) or 1 (disaggregated)");
    const ModelSpec m = model_of(f, model);
    check_window(f, m, prompt_tokens, output_tokens);
    serving::PlanOptions o;
    gpus_into(f, gpu, o);
    const std::string_view rows_choice = or_default(f, "rows", rows_wanted);
    if (!iequals(rows_choice, "best") && !iequals(rows_choice, "all"))
        unknown_choice(f, "rows", "choice of rows", rows_choice, {"best", "all"});
    o.all_rows = iequals(rows_choice, "all");
    formats_into(f, weight_dtype, o);
    o.kv = dtype_of(f, "kv_dtype", kv_dtype);
    o.profile = profile_of(f, profile).name;
    o.mem_util = mem_util;
    o.disaggregated = disaggregated == 1;
    o.prices = prices_of(f, prices);
    o.headroom = headroom;
    o.min_replicas = min_replicas;
    o.percentile = percentile;
    o.usd_per_kwh = usd_per_kwh;
    o.pue = pue;
    o.max_kw = max_kw;
    o.input_ratio = input_ratio;
    renting_into(f, rent, price_basis, years, o);
    if (const std::string_view pg = trimmed(or_default(f, "prefill_gpu", prefill_gpu)); !iequals(pg, "same")) {
        o.prefill_gpus = gpu_list_of(f, prefill_gpu, "prefill_gpu");  // an unknown id first: named as such
        if (!o.disaggregated)
            throw Error::of_argument(Status::invalid_argument, f.name, "prefill_gpu",
                                     "a prefill GPU is for a disaggregated plan (disaggregated 1)");
    }
    const std::vector<serving::PlanRow> rows = serving_model(f, [&] {
        return serving::plan(m, rps, workload(prompt_tokens, output_tokens), {ttft_ms, tpot_ms}, o);
    });
    // The columns the table declares; they only grow at the end (a workbook's INDEX(...; ; 13) keeps its meaning).
    Rows t(f);
    t.reserve(rows.size());
    for (const serving::PlanRow& r : rows) {
        t.text(r.gpu).number(r.tp).text(std::string(to_string(r.weights)));
        for (double v : {r.batch, r.replicas, r.prefill_tp, r.prefill_replicas, r.gpus, r.ttft_ms, r.tpot_ms,
                         r.output_tokens_per_s_per_gpu})
            t.number(v);
        t.cell(price_cell(r.usd_per_hour)).cell(price_cell(r.usd_per_mtok));
        for (double v : {r.layout.ep, r.layout.dp_attention, r.layout.pp, r.capacity_tokens_per_s_per_gpu}) t.number(v);
        t.text(r.checkpoint);
        t.number(r.tp / r.layout.pp);  // the engine's --tensor-parallel-size: tp x pp GPUs make a replica
        t.cell(price_cell(r.usd_per_month)).cell(price_cell(r.usd_per_mtok_blended));
        t.cell(price_cell(r.kw)).cell(price_cell(r.j_per_token)).cell(price_cell(r.tok_s_per_mw));
        t.text(r.prefill_gpu);
        t.cell(price_cell(r.usd_per_mtok_input)).cell(price_cell(r.usd_per_mtok_output));
        t.number(r.servers);
        t.cell(price_cell(r.usd_per_gpu_hour));
        t.end_row();
    }
    return std::move(t).done();
}

Table fleet(std::string_view workloads, std::string_view gpu, std::string_view weight_dtype, std::string_view profile,
            std::string_view prices, double headroom, double min_replicas, std::string_view price_basis, double years,
            double usd_per_kwh, double pue, std::string_view rent) {
    const auto& f = checked<&fleet>({workloads, gpu, weight_dtype, profile, prices, headroom, min_replicas, price_basis,
                                     years, usd_per_kwh, pue, rent});
    if (pue < 1) out_of_domain(f, arg_named(f, "pue"), pue, "at least 1 (the facility's power over its IT equipment's)");
    serving::PlanOptions o;
    gpus_into(f, gpu, o);
    formats_into(f, weight_dtype, o);
    o.profile = profile_of(f, profile).name;
    o.prices = prices_of(f, prices);
    o.headroom = headroom;
    o.min_replicas = min_replicas;
    o.usd_per_kwh = usd_per_kwh;
    o.pue = pue;
    renting_into(f, rent, price_basis, years, o);
    const std::vector<serving::FleetWorkload> ws = workloads_of(f, workloads);
    const serving::Fleet fleet = serving_model(f, [&] { return serving::fleet(ws, o); });
    Rows t(f);
    t.reserve(ws.size() + 1);
    double rps = 0;
    for (std::size_t i = 0; i < ws.size(); ++i) {
        const serving::PlanRow& r = fleet.rows[i];
        rps += ws[i].rps;
        t.text(ws[i].model.id).number(ws[i].rps).text(r.gpu).text(std::string(to_string(r.weights))).text(r.checkpoint);
        for (double v : {r.tp, r.tp / r.layout.pp, r.layout.pp, r.layout.ep, r.layout.dp_attention, r.replicas, r.gpus,
                         r.servers, r.ttft_ms, r.tpot_ms})
            t.number(v);
        t.cell(price_cell(r.usd_per_hour)).cell(price_cell(r.usd_per_month)).cell(price_cell(r.usd_per_mtok));
        t.cell(price_cell(r.kw));
        t.end_row();
    }
    // The totals: the load, GPUs, servers, the hour, the month, the fleet's USD per million output tokens and kW.
    t.text("total").number(rps);
    for (int c = 0; c < 3 + 6; ++c) t.text("");  // gpu ... checkpoint, tp ... replicas
    t.number(fleet.gpus).number(fleet.servers).text("").text("");
    t.cell(price_cell(fleet.usd_per_hour)).cell(price_cell(fleet.usd_per_month)).cell(price_cell(fleet.usd_per_mtok));
    t.cell(price_cell(fleet.kw));
    t.end_row();
    return std::move(t).done();
}

double cost_per_mtok(double usd_per_gpu_hour, double gpus, double output_tokens_per_s) {
    const auto& f = checked<&cost_per_mtok>({usd_per_gpu_hour, gpus, output_tokens_per_s});
    return finite(f, serving_model(f, [&] { return serving::cost_per_mtok(usd_per_gpu_hour, gpus, output_tokens_per_s); }));
}

double spec_tokens(double acceptance, double draft_len) {
    const auto& f = checked<&spec_tokens>({acceptance, draft_len});
    return finite(f, serving_model(f, [&] { return serving::spec_tokens(acceptance, draft_len); }));
}

double spec_step_ms(std::string_view model, std::string_view draft_model, std::string_view gpu, double batch, double ctx,
                    double draft_len, double acceptance, std::string_view weight_dtype, std::string_view kv_dtype,
                    double tp, std::string_view profile, double ep, double dp_attention, double pp) {
    const auto& f = checked<&spec_step_ms>(
        {model, draft_model, gpu, batch, ctx, draft_len, acceptance, weight_dtype, kv_dtype, tp, profile, ep, dp_attention, pp});
    const Deployment d = deployment(f, model, gpu, weight_dtype, kv_dtype, tp, {ep, dp_attention, pp});
    check_window(f, d.model, ctx + draft_len + 1, "ctx", "each sequence's, with the drafted tokens");
    // "mtp": the target's own MTP layers draft (a decoder layer each, with the target's embedding and lm_head).
    const ModelSpec draft = ascii::iequals(draft_model, "mtp") ? mtp_draft_of(f, d.model) : model_of(f, draft_model, "draft_model");
    const Profile& p = profile_of(f, profile);
    return finite(f, serving_model(f, [&] {
        return serving::spec_step_ms(d, draft, p, batch, ctx, draft_len, acceptance);
    }));
}

}  // namespace roofline::formula
