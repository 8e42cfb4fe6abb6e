// roofline energy: the energy of one decode step of a catalog model on a catalog GPU, per output token (issue #34).
#include <fmt/format.h>

#include "../options.hpp"
#include "../output.hpp"
#include "../subcommands.hpp"

namespace cli {
namespace {

void run_energy(const Values& values, bool json) {
    // The library's numbers only: a host converts and prints, it does not compute.
    const double batch = values.at("batch"), tp = values.at("tp");
    const std::vector<Line> lines = {
        {"energy per output token", "j_per_token", values.call("ROOFLINE_ENERGY_J").number(), "J"},
        {"step time", "step_ms", values.call("ROOFLINE_STEP_MS").number(), "ms"},
    };
    print_lines(lines, json,
                fmt::format("Decode energy: batch {}, {} of context on {} x {}; profile {} (GPUs only: not the "
                            "servers around them, not the PUE)",
                            batch, count_of(values.at("ctx"), "token"), tp, values.text_at("gpu"),
                            values.text_at("profile")));
}

}  // namespace

void setup_energy(CLI::App& app) {
    add_formula_subcommand(app, "energy",
                           "The energy of one decode step of a catalog model on a catalog GPU per output token, over "
                           "the replica's GPUs (the power model: docs/formulas.md, Energy)",
                           "ROOFLINE_ENERGY_J", run_energy);
}

}  // namespace cli
