// roofline prefill: the lower bound of a prefill of a dense model from its parameter count.
#include <fmt/format.h>

#include "../options.hpp"
#include "../output.hpp"
#include "../subcommands.hpp"

namespace cli {
namespace {

void run_prefill(const Values& values, bool json) {
    print_lines({{"prefill time (lower bound)", "prefill_ms", values.call("ROOFLINE_PREFILL_MS").number(), "ms"},
                 {"weights", "weights_gb", values.call("ROOFLINE_WEIGHTS_GB").number(), "GB"}},
                json, fmt::format("Prefill of {}; {}", count_of(values.at("tokens"), "token"), dense_model(values)));
}

}  // namespace

void setup_prefill(CLI::App& app) {
    add_formula_subcommand(app, "prefill", "A prefill: its lower bound", "ROOFLINE_PREFILL_MS", run_prefill);
}

}  // namespace cli
