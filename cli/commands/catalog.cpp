// roofline catalog gpus|models: the catalog's ids and main fields.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <memory>
#include <optional>

#include "../options.hpp"
#include "../output.hpp"
#include "../subcommands.hpp"

namespace cli {
namespace {

struct CatalogOptions {
    std::string which;
    bool json = false;
};

void run_catalog(const CatalogOptions& options) {
    const bool gpus = options.which == "gpus";
    const Result ids = call(gpus ? "ROOFLINE_GPUS" : "ROOFLINE_MODELS", {});
    const std::vector<std::string> fields =
        gpus ? std::vector<std::string>{"bf16_tflops", "fp8_tflops", "fp4_tflops", "hbm_tbs", "hbm_gb", "interconnect_tbs",
                                        "scaleup_gpus", "scaleout_tbs"}
             : std::vector<std::string>{"params_b", "active_params_b", "layers", "kv_heads", "kv_kib_per_token",
                                        "context_window"};
    // Models: the cache one sequence of 32768 tokens holds (ROOFLINE_CACHE_GB), windows, chunks and state
    // layers counted, beside kv_kib_per_token (as if every attention layer kept every token); "-" where the model's
    // context window is shorter.
    constexpr double kCacheCtx = 32768;
    const char* cache_field = "cache_gb_at_32k";
    std::size_t width = 16;
    for (const auto& row : ids.rows) width = std::max(width, std::get<std::string>(row[0]).size());
    nlohmann::json entries = nlohmann::json::array();
    if (!options.json) {
        fmt::print("{:<{}}", "id", width);
        for (const auto& field : fields) fmt::print(" {:>16}", field);
        if (!gpus) fmt::print(" {:>16}", cache_field);
        fmt::print("\n");
    }
    for (const auto& row : ids.rows) {
        const std::string id = std::get<std::string>(row[0]);
        nlohmann::json entry = {{"id", id}};
        if (!options.json) fmt::print("{:<{}}", id, width);
        auto put = [&](const std::string& field, const std::optional<double>& value) {
            entry[field] = value ? nlohmann::json(*value) : nlohmann::json(nullptr);
            if (!options.json) fmt::print(" {:>16}", value ? fmt::format("{:.6g}", *value) : std::string("-"));
        };
        for (const auto& field : fields)
            // A field the entry does not have (a GPU without fp8) is "no answer": printed as "-".
            put(field, number_or_none([&] { return call(gpus ? "ROOFLINE_GPU" : "ROOFLINE_MODEL", {id, field}); }));
        if (!gpus) {
            const double window = call("ROOFLINE_MODEL", {id, std::string("context_window")}).number();
            put(cache_field, window > 0 && window < kCacheCtx
                                 ? std::nullopt
                                 : number_or_none([&] { return call("ROOFLINE_CACHE_GB", {id, 1.0, kCacheCtx}); }));
        }
        if (!options.json) fmt::print("\n");
        entries.push_back(entry);
    }
    if (options.json) fmt::print("{}\n", entries.dump(2));
}

}  // namespace

void setup_catalog(CLI::App& app) {
    auto options = std::make_shared<CatalogOptions>();
    CLI::App* cmd = app.add_subcommand("catalog", "The catalog: roofline catalog gpus | roofline catalog models");
    cmd->add_option("which", options->which, "gpus or models")->required()->check(CLI::IsMember({"gpus", "models"}));
    add_json_flag(*cmd, options->json);
    cmd->callback([options] { run_catalog(*options); });
}

}  // namespace cli
