// roofline fit: how many sequences of a catalog model fit in the memory of catalog GPUs.
#include <fmt/format.h>

#include "../options.hpp"
#include "../output.hpp"
#include "../subcommands.hpp"

namespace cli {
namespace {

void run_fit(const Values& values, bool json) {
    const KvCache kv_cache = kv_cache_of(values);
    print_lines({{"sequences that fit", "fit_batch", values.call("ROOFLINE_FIT_BATCH").number(), "sequences"}}, json,
                fmt::format("Memory: {} per sequence, {} of each GPU's memory; {}", count_of(values.at("ctx"), "token"),
                            values.at("mem_util"), deployment(values, kv_cache)),
                kv_cache.json());
}

}  // namespace

void setup_fit(CLI::App& app) {
    add_formula_subcommand(app, "fit",
                           "How many sequences fit in the GPUs' memory beside the weights", "ROOFLINE_FIT_BATCH", run_fit);
}

}  // namespace cli
