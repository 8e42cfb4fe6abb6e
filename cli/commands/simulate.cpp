// roofline simulate: one replica under a stream of requests, simulated iteration by iteration (ROOFLINE_SIMULATE):
// the mean and percentiles of TTFT, TPOT, inter-token latency and end-to-end latency, throughput and goodput.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <memory>
#include <string>

#include "../options.hpp"
#include "../output.hpp"
#include "../subcommands.hpp"

namespace cli {
namespace {

constexpr const char* kSimulateFormula = "ROOFLINE_SIMULATE";

/// The latencies (rows with percentiles), then the run's values (one number each), as ROOFLINE_SIMULATE gives them.
constexpr const char* kSimulatedLatencies[] = {"ttft_ms", "tpot_ms", "itl_ms", "e2e_ms"};
constexpr const char* kSimulatedStatistics[] = {"mean", "p50", "p90", "p99"};

struct SimulateOptions {
    Values values;
    bool json = false;
};

void run_simulate(const SimulateOptions& options) {
    const Values& values = options.values;
    const Result result = values.call(kSimulateFormula);
    const KvCache kv_cache = kv_cache_of(values);
    // Each row's name is in the column "metric"; its numbers in the columns mean, p50, p90, p99 (one value: mean).
    const std::size_t name_column = result.column("metric");
    const auto row_of = [&](const char* metric) -> const std::vector<Cell>& {
        for (const auto& row : result.rows)
            if (std::get<std::string>(row.at(name_column)) == metric) return row;
        throw Failure{kInternal, "", fmt::format("{} has no row {}", kSimulateFormula, metric)};
    };
    const auto stat = [&](const char* metric, const char* statistic) {
        return std::get<double>(row_of(metric).at(result.column(statistic)));
    };
    const auto value = [&](const char* metric) { return stat(metric, "mean"); };
    if (options.json) {
        nlohmann::json object = kv_cache.json();
        object["model"] = model_label(values.text_at("model"));
        object["gpu"] = values.text_at("gpu");
        object["profile"] = values.text_at("profile");
        object["rps"] = values.at("rps");
        object["arrival"] = values.text_at("arrival");
        object["seed"] = values.at("seed");
        for (const char* metric : kSimulatedLatencies) {
            nlohmann::json q = nlohmann::json::object();
            for (const char* statistic : kSimulatedStatistics) q[statistic] = stat(metric, statistic);
            object[metric] = q;
        }
        for (std::size_t r = 1; r < result.rows.size(); ++r) {
            const std::string& name = std::get<std::string>(result.rows[r].at(name_column));
            if (!object.contains(name)) object[name] = value(name.c_str());
        }
        fmt::print("{}\n", object.dump(2));
        return;
    }
    const double concurrency = values.at("concurrency");
    fmt::print("Simulation: {} on {} ({} GPU{} per replica), {} requests at {:g} requests/s ({} arrivals{}), {} in, {} out\n",
               model_label(values.text_at("model")), values.text_at("gpu"), values.at("tp"), values.at("tp") == 1 ? "" : "s",
               value("requests"), values.at("rps"), values.text_at("arrival"),
               concurrency > 0 ? fmt::format(", at most {:g} in flight", concurrency) : std::string(),
               count_of(values.at("prompt_tokens"), "token"), count_of(values.at("output_tokens"), "token"));
    fmt::print("profile {}; weights {}; {}; lengths {}; seed {}\n\n", values.text_at("profile"),
               values.text_at("weight_dtype").empty() ? "native" : values.text_at("weight_dtype"), kv_cache.phrase(),
               values.text_at("lengths"), values.at("seed"));
    fmt::print("  {:<26} {:>10} {:>10} {:>10} {:>10}\n", "", "mean", "p50", "p90", "p99");
    const std::pair<const char*, const char*> labels[] = {{"ttft_ms", "time to first token, ms"},
                                                          {"tpot_ms", "time per output token, ms"},
                                                          {"itl_ms", "inter-token latency, ms"},
                                                          {"e2e_ms", "end-to-end latency, ms"}};
    for (const auto& [metric, label] : labels)
        fmt::print("  {:<26} {:>10.1f} {:>10.1f} {:>10.1f} {:>10.1f}\n", label, half_away(stat(metric, "mean"), 1),
                   half_away(stat(metric, "p50"), 1), half_away(stat(metric, "p90"), 1), half_away(stat(metric, "p99"), 1));
    fmt::print("\n  throughput {:.0f} output tokens/s; goodput {:.2f} requests/s{}\n", half_away(value("throughput_tok_s"), 0),
               value("goodput_rps"),
               values.at("ttft_ms") > 0 || values.at("tpot_ms") > 0
                   ? fmt::format(" (TTFT <= {:g} ms, TPOT <= {:g} ms; 0: any)", values.at("ttft_ms"), values.at("tpot_ms"))
                   : " (no target given: every request)");
    fmt::print("  mean batch {:.1f} sequences decoding; {} iterations in {:.1f} s; {} preemption{}; at most {} request{} "
               "waiting\n",
               value("mean_batch"), value("iterations"), value("duration_s"), value("preemptions"),
               value("preemptions") == 1 ? "" : "s", value("max_queue"), value("max_queue") == 1 ? "" : "s");
    if (value("prefix_hit_rate") > 0 || value("offloaded_gb") > 0)
        fmt::print("  prefix cache: {:.1f}% of prompt tokens found cached; {:.2f} GB per GPU offloaded to host memory\n",
                   100 * value("prefix_hit_rate"), value("offloaded_gb"));
    fmt::print("\n  one replica, simulated iteration by iteration (docs/serving-model.md, section 14); the same seed gives the\n"
               "  same numbers\n");
}

}  // namespace

void setup_simulate(CLI::App& app) {
    auto options = std::make_shared<SimulateOptions>();
    CLI::App* cmd = app.add_subcommand(
        "simulate", "A replica under a stream of requests, simulated: percentiles of TTFT, TPOT and latency, throughput, goodput (ROOFLINE_SIMULATE)");
    add_formula_options(*cmd, options->values, kSimulateFormula);
    add_json_flag(*cmd, options->json);
    cmd->callback([options] { run_simulate(*options); });
}

}  // namespace cli
