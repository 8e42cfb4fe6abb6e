// roofline decode: one decode step of a dense model from its parameter count.
#include <fmt/format.h>

#include "../options.hpp"
#include "../output.hpp"
#include "../subcommands.hpp"

namespace cli {
namespace {

void run_decode(const Values& values, bool json) {
    const std::vector<Line> lines = {
        {"step time (lower bound)", "step_ms", values.call("ROOFLINE_DECODE_MS").number(), "ms"},
        {"system throughput", "tokens_per_s", values.call("ROOFLINE_DECODE_TOKS").number(), "tokens/s"},
        {"arithmetic intensity", "ai_flop_per_byte", values.call("ROOFLINE_DECODE_AI").number(), "FLOP/byte"},
        {"balance point", "balance_flop_per_byte",
         call("ROOFLINE_BALANCE", {values.at("tflops"), values.at("bw_tbs")}).number(), "FLOP/byte"},
        {"weights", "weights_gb", values.call("ROOFLINE_WEIGHTS_GB").number(), "GB"},
        {"KV cache", "kv_gb", values.call("ROOFLINE_KV_GB").number(), "GB"},
        {"critical batch", "critical_batch", number_or_none([&] { return values.call("ROOFLINE_CRITICAL_BATCH"); }),
         "sequences", "never: each sequence's KV read outweighs its compute"},
    };
    print_lines(lines, json,
                fmt::format("Decode step: batch {}, {} of context; {}", values.at("batch"),
                            count_of(values.at("ctx"), "token"), dense_model(values)));
}

}  // namespace

void setup_decode(CLI::App& app) {
    add_formula_subcommand(app, "decode", "One decode step of a dense model: time, throughput, intensity, memory",
                           "ROOFLINE_DECODE_MS", run_decode);
}

}  // namespace cli
