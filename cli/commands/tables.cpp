// roofline tables: the article's two batching tables (decode without KV and with KV), computed
// once and printed as text or JSON.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <memory>
#include <optional>

#include "../options.hpp"
#include "../output.hpp"
#include "../subcommands.hpp"

namespace cli {
namespace {

struct TablesOptions {
    Values values;
    std::vector<double> batches = {1, 64};
    double kv_ctx = 4096;
    bool json = false;
};

/// One row: a decode step of `batch` sequences, its parts and its bound.
struct BatchRow {
    double batch, weights_ms, kv_ms, compute_ms, step_ms, tokens_per_s;
};

/// One table: every batch at one context length, and where decode becomes compute bound.
struct BatchingTable {
    double ctx;
    double kv_kib_per_token;
    std::vector<BatchRow> rows;
    std::optional<double> critical_batch;  ///< nullopt: no batch is compute bound
};

constexpr double kBytesPerGb = 1e9;  // the library's GB (docs/formulas.md, Units)

double memory_ms(double bytes, const Values& values) {
    return call("ROOFLINE_MEMORY_MS", {bytes, values.at("bw_tbs")}).number();
}

BatchingTable compute_table(Values values, const std::vector<double>& batches, double ctx) {
    values["ctx"] = ctx;
    BatchingTable table{ctx, values.at("kv_kib_per_token"), {}, std::nullopt};
    for (double batch : batches) {
        values["batch"] = batch;
        // The weights a step reads: the bytes of a step without KV.
        Values without_kv = values;
        without_kv["ctx"] = 0;
        const double weights_bytes = without_kv.call("ROOFLINE_DECODE_BYTES").number();
        const double kv_bytes = values.call("ROOFLINE_KV_GB").number() * kBytesPerGb;
        table.rows.push_back({batch, memory_ms(weights_bytes, values), memory_ms(kv_bytes, values),
                              call("ROOFLINE_COMPUTE_MS", {values.call("ROOFLINE_DECODE_FLOP").number(), values.at("tflops")}).number(),
                              values.call("ROOFLINE_DECODE_MS").number(), values.call("ROOFLINE_DECODE_TOKS").number()});
    }
    table.critical_batch = number_or_none([&] { return values.call("ROOFLINE_CRITICAL_BATCH"); });
    return table;
}

void print_text(const std::vector<BatchingTable>& tables, const Values& values) {
    fmt::print("The article's batching tables: {}\n", dense_model(values));
    for (const BatchingTable& table : tables) {
        fmt::print("\n{}\n", table.ctx == 0 ? std::string("Decode without KV")
                                            : fmt::format("Decode with {} of KV per sequence ({} KiB/token)",
                                                          count_of(table.ctx, "token"), table.kv_kib_per_token));
        fmt::print("  {:>6}  {:>12}  {:>10}  {:>10}  {:>11}  {:>14}\n", "batch", "weights read", "KV read", "compute",
                   "step bound", "throughput");
        for (const BatchRow& row : table.rows)
            fmt::print("  {:>6}  {:>9.2f} ms  {:>7.2f} ms  {:>7.3f} ms  {:>8.2f} ms  {:>8.0f} tok/s\n", row.batch,
                       half_away(row.weights_ms, 2), half_away(row.kv_ms, 2), half_away(row.compute_ms, 3),
                       half_away(row.step_ms, 2), half_away(row.tokens_per_s, 0));
        if (table.critical_batch)
            fmt::print("  Compute bound from a batch of {}.\n", count_of(*table.critical_batch, "sequence"));
        else fmt::print("  No batch is compute bound: each sequence's KV read outweighs its compute.\n");
    }
}

void print_json(const std::vector<BatchingTable>& tables) {
    nlohmann::json listed = nlohmann::json::array();
    for (const BatchingTable& table : tables) {
        nlohmann::json rows = nlohmann::json::array();
        for (const BatchRow& row : table.rows)
            rows.push_back({{"batch", row.batch}, {"weights_ms", row.weights_ms}, {"kv_ms", row.kv_ms},
                            {"compute_ms", row.compute_ms}, {"step_ms", row.step_ms}, {"tokens_per_s", row.tokens_per_s}});
        listed.push_back({{"ctx", table.ctx}, {"rows", rows},
                          {"critical_batch", table.critical_batch ? nlohmann::json(*table.critical_batch) : nlohmann::json(nullptr)}});
    }
    fmt::print("{}\n", listed.dump(2));
}

void run_tables(const TablesOptions& options) {
    const double no_kv = 0;
    std::vector<BatchingTable> tables;
    for (double ctx : {no_kv, options.kv_ctx}) tables.push_back(compute_table(options.values, options.batches, ctx));
    if (options.json) print_json(tables);
    else print_text(tables, options.values);
}

}  // namespace

void setup_tables(CLI::App& app) {
    auto options = std::make_shared<TablesOptions>();
    Values& values = options->values;
    CLI::App* cmd = app.add_subcommand("tables", "The article's two batching tables (without KV, and with KV)");
    values["params_b"] = 8;
    cmd->add_option("--params-b", values["params_b"], "Parameters, billions")->capture_default_str();
    cmd->add_option("--batches", options->batches, "Batch sizes, one row each")->capture_default_str()->delimiter(',');
    cmd->add_option("--kv-ctx", options->kv_ctx, "Context tokens per sequence of the second table")->capture_default_str();
    add_formula_options(*cmd, values, "ROOFLINE_DECODE_MS");
    // The article's GPU, an H100 SXM: the default bandwidth of ROOFLINE_PREFILL_MS.
    values["bw_tbs"] = formula_arg("ROOFLINE_PREFILL_MS", "bw_tbs").default_number;
    cmd->get_option("--bw-tbs")->required(false)->capture_default_str();
    for (const char* per_row : {"--batch", "--ctx"}) cmd->remove_option(cmd->get_option(per_row));
    add_json_flag(*cmd, options->json);
    cmd->callback([options] { run_tables(*options); });
}

}  // namespace cli
