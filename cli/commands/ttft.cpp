// roofline ttft: time to first token, the prefill of a catalog model on a catalog GPU.
#include <fmt/format.h>

#include "../options.hpp"
#include "../output.hpp"
#include "../subcommands.hpp"

namespace cli {
namespace {

void run_ttft(const Values& values, bool json) {
    const KvCache kv_cache = prefill_kv_cache();
    print_lines({{"time to first token", "ttft_ms", values.call("ROOFLINE_TTFT_MS").number(), "ms"}}, json,
                fmt::format("Prefill of {} of {}; {}; profile {}", count_of(values.at("batch"), "prompt"),
                            count_of(values.at("prompt_tokens"), "token"), deployment(values, kv_cache), values.text_at("profile")),
                kv_cache.json());
}

}  // namespace

void setup_ttft(CLI::App& app) {
    add_formula_subcommand(app, "ttft",
                           "Time to first token: the prefill of a catalog model on a catalog GPU", "ROOFLINE_TTFT_MS", run_ttft);
}

}  // namespace cli
