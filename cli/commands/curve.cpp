// roofline curve: throughput against interactivity (ROOFLINE_CURVE): a replica's output tokens/s per GPU against
// the tokens/s one user sees, one row per decode batch; with --tp 0 (the default) the front over every layout.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <memory>
#include <string>

#include "../options.hpp"
#include "../output.hpp"
#include "../subcommands.hpp"

namespace cli {
namespace {

constexpr const char* kFormula = "ROOFLINE_CURVE";

struct CurveOptions {
    Values values;
    bool json = false;
};

void run_curve(const CurveOptions& options) {
    const Values& values = options.values;
    const Result result = values.call(kFormula);
    const KvCache kv_cache = kv_cache_of(values);
    const auto number = [&](std::size_t row, const char* name) { return std::get<double>(result.rows.at(row).at(result.column(name))); };
    const std::size_t points = result.rows.size() - 1;
    if (options.json) {
        const nlohmann::json rows = json_rows(result, points);
        nlohmann::json object = kv_cache.json();
        object["model"] = model_label(values.text_at("model"));
        object["gpu"] = values.text_at("gpu");
        object["profile"] = values.text_at("profile");
        object["front"] = values.at("tp") == 0;
        object["points"] = rows;
        fmt::print("{}\n", object.dump(2));
        return;
    }
    const bool front = values.at("tp") == 0;
    fmt::print("Throughput against interactivity: {} on {}, {} in, {} out\n", model_label(values.text_at("model")),
               values.text_at("gpu"), count_of(values.at("prompt_tokens"), "token"),
               count_of(values.at("output_tokens"), "token"));
    fmt::print("profile {}; weights {}; {}; {}\n", values.text_at("profile"),
               values.text_at("weight_dtype").empty() ? "native" : values.text_at("weight_dtype"), kv_cache.phrase(),
               front ? "the front over every replica size and layout" : count_of(values.at("tp"), "GPU") + " per replica");
    fmt::print("\n  {:>8} {:>11} {:>10} {:>6} {:>8} {:>3} {:>3} {:>3} {:>3}\n", "TPOT ms", "tok/s/user", "tok/s/GPU", "batch",
               "TTFT ms", "tp", "ep", "dp", "pp");
    for (std::size_t r = 1; r <= points; ++r)
        fmt::print("  {:>8.1f} {:>11.1f} {:>10.0f} {:>6} {:>8.1f} {:>3} {:>3} {:>3} {:>3}\n", half_away(number(r, "tpot_ms"), 1),
                   half_away(number(r, "tok_s_per_user"), 1), half_away(number(r, "capacity_tok_s_per_gpu"), 0),
                   number(r, "batch"), half_away(number(r, "ttft_ms"), 1), number(r, "tp"), number(r, "ep"),
                   number(r, "dp_attention"), number(r, "pp"));
    const double percentile = values.at("percentile");
    const bool simulated = percentile > 0 && values.text_at("profile") != "bound";
    fmt::print("\n  each row a replica at full load at one decode batch ({}); tok/s/user: 1000 / TPOT; tok/s/GPU:\n"
               "  what each GPU of the replica sustains; {}\n",
               simulated ? fmt::format("TPOT and TTFT at p{:g}", percentile) : "means",
               front ? "a row stays where no faster one sustains as much per GPU" : "one layout, every batch sampled");
    if (simulated)
        fmt::print("  p{:g}: a simulation of the replica at the row's load (Poisson, 1000 requests, seed 1)\n", percentile);
}

}  // namespace

void setup_curve(CLI::App& app) {
    auto options = std::make_shared<CurveOptions>();
    CLI::App* cmd = app.add_subcommand(
        "curve", "Throughput against interactivity: output tokens/s per GPU against tokens/s per user, one row per decode batch (ROOFLINE_CURVE)");
    add_formula_options(*cmd, options->values, kFormula);
    add_json_flag(*cmd, options->json);
    cmd->callback([options] { run_curve(*options); });
}

}  // namespace cli
