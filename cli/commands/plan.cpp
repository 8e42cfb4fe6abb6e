// roofline plan: the capacity plan for a load and latency targets (ROOFLINE_PLAN), ranked by cost.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "../options.hpp"
#include "../output.hpp"
#include "../subcommands.hpp"

namespace cli {
namespace {

constexpr const char* kFormula = "ROOFLINE_PLAN";

struct PlanOptions {
    Values values;
    bool json = false;
    bool disaggregated = false;
    std::size_t top = 20;
    std::string fleet;  ///< --fleet FILE: a CSV of workloads, planned together (ROOFLINE_FLEET)
};

/// A price cell as the table prints it.
std::string price(const Cell& cell, const char* format, int digits) {
    if (const auto* number = std::get_if<double>(&cell)) return fmt::format(fmt::runtime(format), half_away(*number, digits));
    return "no price";
}

/// The plan's rows by their header: the column `name` of row `row`.
struct Plan {
    const Result& result;
    const Cell& at(std::size_t row, const std::string& name) const { return result.rows.at(row).at(result.column(name)); }
    double number(std::size_t row, const std::string& name) const { return std::get<double>(at(row, name)); }
    const std::string& text(std::size_t row, const std::string& name) const { return std::get<std::string>(at(row, name)); }
    std::size_t configurations() const { return result.rows.size() - 1; }
};

std::string prices_phrase(const Values& values) {
    const std::string& prices = values.text_at("prices");
    std::string basis = values.text_at("price_basis");
    std::transform(basis.begin(), basis.end(), basis.begin(), [](unsigned char c) { return std::tolower(c); });
    const std::string catalog =
        basis == "owned"      ? fmt::format("owned: the catalog's server prices over {:g} years", values.at("years"))
        : basis == "reserved" ? std::string("the catalog's reserved prices")
                              : std::string("the catalog's on-demand prices");
    return prices.empty() || prices == "catalog" ? catalog + " (examples; they date quickly)"
                                                 : fmt::format("prices: {}; else {}", prices, catalog);
}

void print_table(const Plan& plan, const Values& values, const KvCache& kv_cache, bool disaggregated, std::size_t shown) {
    const double percentile = values.at("percentile");
    const std::string at = percentile > 0 ? fmt::format(" at p{:g}", percentile) : "";
    fmt::print("Capacity plan: {} at {} requests/s, {} in, {} out; TTFT <= {} ms, TPOT <= {} ms{}\n", model_label(values.text_at("model")),
               values.at("rps"), count_of(values.at("prompt_tokens"), "token"), count_of(values.at("output_tokens"), "token"),
               values.at("ttft_ms"), values.at("tpot_ms"), at);
    fmt::print("profile {}; {}; {}; {}\n", values.text_at("profile"), kv_cache.phrase(),
               disaggregated ? "separate prefill and decode pools" : "prefill and decode on the same GPUs",
               prices_phrase(values));
    const std::string& weights = values.text_at("weight_dtype");
    if (std::equal(weights.begin(), weights.end(), "native", "native" + 6,
                   [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; }))
        fmt::print("weights: the checkpoint's own formats, per module (the weights column: the format of most of the bytes)\n");
    if (values.at("headroom") != 1 || values.at("min_replicas") != 1)
        fmt::print("at most {:g}% of each replica's capacity used; {:g} replica{} at least{}\n", 100 * values.at("headroom"),
                   values.at("min_replicas"), values.at("min_replicas") == 1 ? "" : "s",
                   disaggregated ? " in each pool" : "");
    if (values.at("usd_per_kwh") > 0 || values.at("pue") != 1 || values.at("max_kw") > 0)
        fmt::print("electricity {:g} USD/kWh in USD/hour; PUE {:g}{}\n", values.at("usd_per_kwh"), values.at("pue"),
                   values.at("max_kw") > 0 ? fmt::format("; at most {:g} kW", values.at("max_kw")) : "");
    // A format no published checkpoint has (weight_dtype "all" or one format) is marked '*'.
    auto weights_of = [&](std::size_t r) { return plan.text(r, "weights") + (plan.text(r, "checkpoint").empty() ? "*" : ""); };
    std::size_t gpu_width = 3;
    std::size_t weights_width = 7;
    bool unpublished = false;
    for (std::size_t r = 1; r <= shown; ++r) {
        gpu_width = std::max(gpu_width, plan.text(r, "gpu").size());
        weights_width = std::max(weights_width, weights_of(r).size());
        unpublished = unpublished || plan.text(r, "checkpoint").empty();
    }
    // Disaggregated: the prefill pool as replicas x GPUs per replica, and its GPU where it is not the decode pool's.
    const auto prefill_of = [&](std::size_t r) {
        const std::string& gpu = plan.text(r, "prefill_gpu");
        return fmt::format("{}x{}{}", plan.number(r, "prefill_replicas"), plan.number(r, "prefill_tp"),
                           gpu == plan.text(r, "gpu") ? "" : " " + gpu);
    };
    std::size_t prefill_width = 8;
    if (disaggregated)
        for (std::size_t r = 1; r <= shown; ++r) prefill_width = std::max(prefill_width, prefill_of(r).size());
    const std::string prefill_header = disaggregated ? fmt::format(" {:>{}}", "prefill", prefill_width) : "";
    fmt::print("\n  {:>3}  {:<{}}  {:<{}} {:>3} {:>3} {:>3} {:>3} {:>6} {:>8}{} {:>5} {:>7} {:>8} {:>8} {:>10} {:>8} {:>10} {:>10} {:>9} {:>9} {:>8} {:>6}\n", "#",
               "gpu", gpu_width, "weights", weights_width, "tp", "ep", "dp", "pp", "batch", "replicas", prefill_header, "GPUs", "servers", "TTFT ms",
               "TPOT ms", "tok/s/GPU", "cap/GPU", "USD/hour", "USD/month", "USD/Mtok", "all/Mtok", "kW", "J/tok");
    for (std::size_t r = 1; r <= shown; ++r) {
        const std::string prefill = disaggregated ? fmt::format(" {:>{}}", prefill_of(r), prefill_width) : "";
        fmt::print("  {:>3}  {:<{}}  {:<{}} {:>3} {:>3} {:>3} {:>3} {:>6.0f} {:>8}{} {:>5} {:>7} {:>8.1f} {:>8.1f} {:>10.0f} {:>8.0f} {:>10} {:>10} {:>9} {:>9} {:>8} {:>6}\n",
                   r, plan.text(r, "gpu"), gpu_width, weights_of(r), weights_width, plan.number(r, "engine_tp"), plan.number(r, "ep"),
                   plan.number(r, "dp_attention"), plan.number(r, "pp"), half_away(plan.number(r, "batch"), 0),
                   plan.number(r, "replicas"), prefill, plan.number(r, "gpus"), plan.number(r, "servers"),
                   half_away(plan.number(r, "ttft_ms"), 1),
                   half_away(plan.number(r, "tpot_ms"), 1), half_away(plan.number(r, "output_tok_s_per_gpu"), 0),
                   half_away(plan.number(r, "capacity_tok_s_per_gpu"), 0), price(plan.at(r, "usd_per_hour"), "{:.2f}", 2),
                   price(plan.at(r, "usd_per_month"), "{:.0f}", 0), price(plan.at(r, "usd_per_mtok"), "{:.3f}", 3),
                   price(plan.at(r, "usd_per_mtok_blended"), "{:.3f}", 3), price(plan.at(r, "kw"), "{:.1f}", 1),
                   price(plan.at(r, "j_per_token"), "{:.2f}", 2));
    }
    if (percentile > 0)
        fmt::print("\n  TTFT, TPOT: p{:g} at the most a replica takes with both targets met there, simulated (Poisson\n"
                   "  arrivals, 1000 requests, seed 1; the closed form's cheapest configurations sized again); batch: its\n"
                   "  mean decode batch there",
                   percentile);
    else
        fmt::print("\n  TTFT, TPOT: means at a replica's full load");
    fmt::print("; tok/s/GPU: the load's output tokens per second per GPU;\n"
               "  cap/GPU: what the GPUs sustain within both targets (the capacity); servers: the whole servers or racks\n"
               "  rented and priced (--rent gpus: single GPUs); USD/month: 730 hours;\n"
               "  USD/Mtok: per million output tokens; all/Mtok: per million tokens, prompt and output together;\n"
               "  kW: the deployment's power (its GPUs at full load and their servers' share, times the PUE); J/tok: joules\n"
               "  per output token of the load (docs/formulas.md, Energy);\n"
               "  tp, pp: the engine's --tensor-parallel-size and --pipeline-parallel-size (a replica: tp x pp GPUs), ep:\n"
               "  GPUs holding a share of the experts, dp: attention groups (data-parallel attention; docs/serving-model.md,\n"
               "  Layouts){}\n",
               disaggregated ? ".\n  tp, batch, replicas: the decode pool; prefill: replicas x GPUs per replica (and its GPU where it\n"
                               "  is not the decode pool's)" : "");
    if (values.at("input_ratio") > 0 && shown > 0)
        fmt::print("  priced apart, an input token at {:g} of an output token's: #1 at {} USD per million input tokens, {} per\n"
                   "  million output tokens (JSON: usd_per_mtok_input, usd_per_mtok_output)\n",
                   values.at("input_ratio"), price(plan.at(1, "usd_per_mtok_input"), "{:.3f}", 3),
                   price(plan.at(1, "usd_per_mtok_output"), "{:.3f}", 3));
    if (unpublished)
        fmt::print("  *: no checkpoint of the model is published in these formats (the JSON's \"checkpoint\" names those that are)\n");
    if (shown < plan.configurations())
        fmt::print("\n  ... and {} more configuration{} (--top 0 shows all)\n", plan.configurations() - shown,
                   plan.configurations() - shown == 1 ? "" : "s");
}

/// --fleet FILE: the workloads of a CSV file (model, rps, prompt_tokens, output_tokens, ttft_ms, tpot_ms and an
/// optional gpu; a header row allowed), each planned as `plan` plans it with the other options, its cheapest
/// configuration and the fleet's totals (ROOFLINE_FLEET).
void run_fleet(const PlanOptions& options) {
    Values values = options.values;
    // One row per line of the file (a blank line an empty row, which the library skips), so that the library's
    // "row N" is the file's line N.
    std::string table;
    std::size_t lines = 0;
    for (const CsvRecord& record : csv_records(options.fleet, read_file(options.fleet))) {
        const std::size_t at = std::stoul(record.where.substr(record.where.rfind(':') + 1));
        for (; lines + 1 < at; ++lines) table += '\n';
        std::string line;
        for (std::size_t c = 0; c < record.fields.size(); ++c) line += (c ? "\t" : "") + record.fields[c];
        table += line + '\n';
        ++lines;
    }
    values.text("workloads") = table;
    const Result result = [&] {
        try {
            return values.call("ROOFLINE_FLEET");
        } catch (Failure& f) {  // the workloads are the file's rows (row 1: its first line)
            if (f.where == "--workloads") f.where = file_name(options.fleet);
            throw;
        }
    }();
    const Plan fleet{result};
    const std::size_t n = fleet.configurations();  // the workloads and the total
    if (options.json) {
        nlohmann::json object;
        object["file"] = file_name(options.fleet);
        object["profile"] = values.text_at("profile");
        object["rows"] = json_rows(result, n);
        fmt::print("{}\n", object.dump(2));
        return;
    }
    fmt::print("Fleet: {} from {}; profile {}; {}\n", count_of(static_cast<double>(n - 1), "workload"),
               file_name(options.fleet), values.text_at("profile"), prices_phrase(values));
    std::size_t model_width = 5, gpu_width = 3, weights_width = 7;
    for (std::size_t r = 1; r <= n; ++r) {
        model_width = std::max(model_width, fleet.text(r, "model").size());
        gpu_width = std::max(gpu_width, fleet.text(r, "gpu").size());
        weights_width = std::max(weights_width, fleet.text(r, "weights").size());
    }
    const auto number = [&](std::size_t r, const char* name, const char* format, int digits) {
        return price(fleet.at(r, name), format, digits);
    };
    const auto blank_or = [&](std::size_t r, const char* name) {
        return r == n ? std::string() : fmt::format("{:g}", fleet.number(r, name));
    };
    fmt::print("\n  {:<{}} {:>7}  {:<{}}  {:<{}} {:>3} {:>3} {:>3} {:>3} {:>8} {:>5} {:>7} {:>8} {:>8} {:>10} {:>10} {:>9} {:>7}\n",
               "model", model_width, "rps", "gpu", gpu_width, "weights", weights_width, "tp", "pp", "ep", "dp", "replicas", "GPUs",
               "servers", "TTFT ms", "TPOT ms", "USD/hour", "USD/month", "USD/Mtok", "kW");
    for (std::size_t r = 1; r <= n; ++r) {
        const bool total = r == n;
        fmt::print("  {:<{}} {:>7g}  {:<{}}  {:<{}} {:>3} {:>3} {:>3} {:>3} {:>8} {:>5g} {:>7g} {:>8} {:>8} {:>10} {:>10} {:>9} {:>7}\n",
                   fleet.text(r, "model"), model_width, fleet.number(r, "rps"), fleet.text(r, "gpu"), gpu_width,
                   fleet.text(r, "weights"), weights_width, blank_or(r, "engine_tp"), blank_or(r, "pp"), blank_or(r, "ep"),
                   blank_or(r, "dp_attention"), blank_or(r, "replicas"), fleet.number(r, "gpus"),
                   fleet.number(r, "servers"),
                   total ? std::string() : fmt::format("{:.1f}", half_away(fleet.number(r, "ttft_ms"), 1)),
                   total ? std::string() : fmt::format("{:.1f}", half_away(fleet.number(r, "tpot_ms"), 1)),
                   number(r, "usd_per_hour", "{:.2f}", 2), number(r, "usd_per_month", "{:.0f}", 0),
                   number(r, "usd_per_mtok", "{:.3f}", 3), number(r, "kw", "{:.1f}", 1));
    }
    fmt::print("\n  Each workload's cheapest configuration (roofline plan with the same options); each rents its own\n"
               "  servers. total: the GPUs, servers, USD per hour and month and kW summed, and USD per million output\n"
               "  tokens of all the workloads' output. tp, pp: the engine's --tensor-parallel-size and\n"
               "  --pipeline-parallel-size; ep, dp: experts and attention groups (docs/serving-model.md, Layouts)\n");
}

void run_plan(PlanOptions& options, bool top_given) {
    Values& values = options.values;
    values["disaggregated"] = options.disaggregated ? 1 : 0;
    const Result result = values.call(kFormula);
    const Plan plan{result};
    const KvCache kv_cache = kv_cache_of(values);
    // --top 0: every configuration. JSON gives every one unless --top is given.
    const std::size_t all = plan.configurations();
    const std::size_t shown = options.top == 0 || (options.json && !top_given) ? all : std::min(options.top, all);
    if (options.json) {
        const nlohmann::json rows = json_rows(result, shown);
        nlohmann::json object = kv_cache.json();
        object["model"] = model_label(values.text_at("model"));
        object["profile"] = values.text_at("profile");
        object["disaggregated"] = options.disaggregated;
        object["configurations"] = all;
        object["rows"] = rows;
        fmt::print("{}\n", object.dump(2));
        return;
    }
    print_table(plan, values, kv_cache, options.disaggregated, shown);
}

}  // namespace

void setup_plan(CLI::App& app) {
    auto options = std::make_shared<PlanOptions>();
    CLI::App* cmd = app.add_subcommand(
        "plan", "Which GPUs, how many, at what cost: every configuration that serves a load within TTFT and TPOT targets, cheapest first");
    cmd->add_flag("--disaggregated", options->disaggregated,
                  "Separate prefill and decode pools, each sized for its own target (default: both on the same GPUs)");
    add_formula_options(*cmd, options->values, kFormula);
    // ROOFLINE_FLEET takes the plan's options of the same names (gpu, prices, price_basis, ...) and the file's rows.
    // --fleet FILE replaces the one workload's options (required without it).
    std::vector<CLI::Option*> workload;
    for (CLI::Option* o : cmd->get_options())
        if (o->get_required()) workload.push_back(o->required(false));
    CLI::Option* fleet = cmd->add_option("--fleet", options->fleet,
                                         "A CSV file of workloads (model, rps, prompt_tokens, output_tokens, ttft_ms, "
                                         "tpot_ms, gpu: optional), each planned with the options given; prints each "
                                         "one's cheapest configuration and the totals (ROOFLINE_FLEET)");
    for (CLI::Option* o : workload) o->excludes(fleet);
    CLI::Option* top = cmd->add_option("--top", options->top, "Configurations to print, cheapest first; 0: all (JSON: all unless given)")
                           ->default_str("20");
    add_json_flag(*cmd, options->json);
    cmd->callback([options, top, workload, fleet] {
        if (fleet->count() > 0) return run_fleet(*options);
        for (CLI::Option* o : workload)
            if (o->count() == 0) throw CLI::RequiredError(o->get_name());
        run_plan(*options, top->count() > 0);
    });
}

}  // namespace cli
