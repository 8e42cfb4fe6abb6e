// roofline roof: the roofline of a GPU, its balance point and points on the roof.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "../options.hpp"
#include "../output.hpp"
#include "../subcommands.hpp"

namespace cli {
namespace {

void run_roof(const Values& values, bool json) {
    const Result roof = values.call("ROOFLINE_ROOF");
    const double balance = values.call("ROOFLINE_BALANCE").number();
    if (json) {
        nlohmann::json points = nlohmann::json::array();
        for (const auto& row : roof.rows)
            points.push_back({{"ai_flop_per_byte", std::get<double>(row[0])}, {"attainable_tflops", std::get<double>(row[1])}});
        fmt::print("{}\n", nlohmann::json{{"balance_flop_per_byte", balance}, {"roof", points}}.dump(2));
        return;
    }
    fmt::print("Roofline of {} TFLOP/s, {} TB/s: balance point {:.6g} FLOP/byte\n", values.at("tflops"), values.at("tbs"),
               balance);
    fmt::print("  {:>14}  {:>14}\n  {:>14}  {:>14}\n", "FLOP/byte", "TFLOP/s", "---------", "-------");
    for (const auto& row : roof.rows)
        fmt::print("  {:>14.6g}  {:>14.6g}\n", std::get<double>(row[0]), std::get<double>(row[1]));
}

}  // namespace

void setup_roof(CLI::App& app) {
    add_formula_subcommand(app, "roof", "The roofline of a GPU: balance point and roof points", "ROOFLINE_ROOF", run_roof);
}

}  // namespace cli
