// roofline memory: how many sequences fit in GPU memory beside the weights of a dense model.
#include <fmt/format.h>

#include "../options.hpp"
#include "../output.hpp"
#include "../subcommands.hpp"

namespace cli {
namespace {

void run_memory(const Values& values, bool json) {
    const double one_sequence = 1;
    print_lines({{"weights", "weights_gb", values.call("ROOFLINE_WEIGHTS_GB").number(), "GB"},
                 {"KV cache per sequence", "kv_gb_per_sequence",
                  call("ROOFLINE_KV_GB", {one_sequence, values.at("ctx"), values.at("kv_kib_per_token")}).number(), "GB"},
                 {"sequences that fit", "max_batch", values.call("ROOFLINE_MAX_BATCH").number(), "sequences"}},
                json,
                fmt::format("Memory: {} GB, {} per sequence", values.at("mem_gb"), count_of(values.at("ctx"), "token")));
}

}  // namespace

void setup_memory(CLI::App& app) {
    add_formula_subcommand(app, "memory", "What fits in GPU memory beside the weights", "ROOFLINE_MAX_BATCH", run_memory);
}

}  // namespace cli
