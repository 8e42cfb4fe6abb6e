// roofline step: one decode step of a catalog model on a catalog GPU, operator by operator.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "../options.hpp"
#include "../output.hpp"
#include "../subcommands.hpp"

namespace cli {
namespace {

void run_step(const Values& values, bool json) {
    const Result breakdown = values.call("ROOFLINE_STEP_BREAKDOWN");
    const KvCache kv_cache = kv_cache_of(values);
    const std::vector<Line> lines = {
        {"step time", "step_ms", values.call("ROOFLINE_STEP_MS").number(), "ms"},
        {"system throughput", "tokens_per_s", values.call("ROOFLINE_STEP_TOKS").number(), "tokens/s"},
    };
    if (json) {
        nlohmann::json object = kv_cache.json();
        for (const Line& line : lines) object[line.json_key] = *line.value;
        object["profile"] = values.text_at("profile");
        nlohmann::json operators = nlohmann::json::array();
        for (const Operator& op : operators_of(breakdown))
            operators.push_back({{"operator", op.name}, {"flop", op.flop}, {"bytes", op.bytes}, {"ms", op.ms}, {"bound", op.bound}});
        object["operators"] = operators;
        fmt::print("{}\n", object.dump(2));
        return;
    }
    print_lines(lines, false,
                fmt::format("Decode step: batch {}, {} of context; {}; profile {}", values.at("batch"),
                            count_of(values.at("ctx"), "token"), deployment(values, kv_cache), values.text_at("profile")));
    fmt::print("\n  {:<16} {:>12} {:>12} {:>10}  {}\n", "operator", "GFLOP", "MB", "ms", "bound");
    for (const Operator& op : operators_of(breakdown))
        fmt::print("  {:<16} {:>12.3f} {:>12.2f} {:>10.4f}  {}\n", op.name, half_away(op.flop / 1e9, 3),
                   half_away(op.bytes / 1e6, 2), half_away(op.ms, 4), op.bound);
}

}  // namespace

void setup_step(CLI::App& app) {
    add_formula_subcommand(app, "step", "One decode step of a catalog model on a catalog GPU, operator by operator",
                           "ROOFLINE_STEP_MS", run_step);
}

}  // namespace cli
