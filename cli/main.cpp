// roofline: the command line of libroofline. A host of the C ABI only: it parses options (CLI11),
// calls the library, and prints (fmt) aligned tables or, with --json, JSON. It computes nothing.
// Each subcommand lives in commands/<name>.cpp and registers itself with setup_<name>().
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <string>
#include <vector>

#include "calls.hpp"
#include "subcommands.hpp"

namespace cli {
namespace {

std::string read_file(const std::string& option, const std::string& path) {
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (!file) throw Failure{kIo, option, fmt::format("cannot read {}", path)};
    std::string text;
    char buffer[65536];
    for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, file)) > 0;) text.append(buffer, n);
    std::fclose(file);
    return text;
}

/// The user's own catalog, added before a subcommand runs: the user folder (unless --no-user-catalog),
/// then the files of --catalog and --hf-config, which replace entries of the same id. Extending the
/// catalog is the host's job: no formula reads a file.
struct UserCatalog {
    std::vector<std::string> catalog_files, hf_configs;
    bool no_user_folder = false;

    /// $XDG_CONFIG_HOME/libroofline (else ~/.config/libroofline), as the Calc add-in and Python read it.
    /// A file there that does not load is a warning, not an error: the command runs with the others.
    void load_user_folder() const {
        if (no_user_folder || roofline_catalog_load_user_folder(nullptr, nullptr) == ROOFLINE_OK) return;
        const std::string detail = roofline_errdetail();
        for (size_t start = 0; start < detail.size();) {
            size_t end = detail.find('\n', start);
            if (end == std::string::npos) end = detail.size();
            fmt::print(stderr, "roofline: warning: {} (skipped; --no-user-catalog reads no user folder)\n",
                       detail.substr(start, end - start));
            start = end + 1;
        }
    }

    void add_to_library() const {
        load_user_folder();
        for (const auto& path : catalog_files) {
            size_t added = 0;
            if (roofline_catalog_add_json(read_file("--catalog", path).c_str(), &added) != ROOFLINE_OK)
                throw Failure{kBadValue, "--catalog " + path, roofline_errmsg()};
        }
        for (const auto& spec : hf_configs) {
            const auto equals = spec.find('=');
            if (equals == std::string::npos || equals == 0)
                throw Failure{kUsage, "--hf-config " + spec, "expected ID=PATH or ID=PATH,HF_QUANT_CONFIG_PATH"};
            // ID=config.json[,hf_quant_config.json]: a ModelOpt checkpoint keeps its formats in the second.
            const std::string paths = spec.substr(equals + 1);
            const auto comma = paths.find(',');
            const std::string text = read_file("--hf-config", paths.substr(0, comma));
            const std::string quant = comma == std::string::npos ? std::string() : read_file("--hf-config", paths.substr(comma + 1));
            if (roofline_model_import_hf_checkpoint(spec.substr(0, equals).c_str(), text.c_str(), quant.c_str()) != ROOFLINE_OK)
                throw Failure{kBadValue, "--hf-config " + spec, roofline_errmsg()};
        }
    }
};

/// "unknown subcommand 'stpe', did you mean 'step'?" where the first word after the global options
/// names no subcommand; empty where it does (or there is none).
std::string unknown_subcommand(CLI::App& app) {
    const std::vector<std::string> remaining = app.remaining();
    if (!app.get_subcommands().empty() || remaining.empty() || remaining.front().rfind('-', 0) == 0) return "";
    const std::string& word = remaining.front();
    std::vector<std::string> names;
    for (const CLI::App* subcommand : app.get_subcommands([](const CLI::App*) { return true; }))
        names.push_back(subcommand->get_name());
    std::vector<const char*> candidates;
    for (const auto& name : names) candidates.push_back(name.c_str());
    const long nearest = roofline_nearest(word.c_str(), candidates.data(), candidates.size());
    return nearest >= 0 ? fmt::format("unknown subcommand '{}', did you mean '{}'?", word, names[static_cast<size_t>(nearest)])
                        : fmt::format("unknown subcommand '{}' (see `roofline --help`)", word);
}

}  // namespace
}  // namespace cli

int main(int argc, char** argv) {
    using namespace cli;
    CLI::App app{fmt::format("roofline {}: lower bounds for LLM inference on GPUs, from the roofline model.", roofline_version())};
    app.footer("Units: parameters in billions, TB/s, TFLOP/s (dense), GB = 1e9 bytes, KV in KiB per token, ms, tokens/s.\n"
               "Exit codes: 0 ok, 2 usage, 3 a value the library refuses, 4 no answer for valid values, 5 cannot write a file.");
    app.require_subcommand(1);
    app.set_version_flag("--version", std::string(roofline_version()));

    UserCatalog user_catalog;
    app.add_option("--catalog", user_catalog.catalog_files, "Add a catalog file of your own (JSON, the format of libroofline/catalog/*.json)")
        ->check(CLI::ExistingFile)
        ->allow_extra_args(false);  // one file per --catalog: the next word is the subcommand
    app.add_option("--hf-config", user_catalog.hf_configs, "Add a model from a Hugging Face config.json, as ID=PATH (e.g. my-model=config.json), or "
                   "ID=PATH,PATH with the checkpoint's hf_quant_config.json")
        ->allow_extra_args(false);
    app.add_flag("--no-user-catalog", user_catalog.no_user_folder,
                 "Do not read the user folder, $XDG_CONFIG_HOME/libroofline (else ~/.config/libroofline): its "
                 "catalog/*.json and models/<id>.json (a Hugging Face config.json each), read by default before "
                 "the subcommand runs; a file there that does not load is skipped with a warning on stderr");
    // Runs after parsing, before the subcommand's callback.
    app.parse_complete_callback([&user_catalog] { user_catalog.add_to_library(); });

    for (auto setup : {setup_decode, setup_prefill, setup_memory, setup_roof, setup_tables, setup_plot, setup_formula,
                       setup_formulas, setup_step, setup_ttft, setup_fit, setup_catalog, setup_plan, setup_curve, setup_simulate,
                       setup_calibrate, setup_energy})
        setup(app);

    try {
        app.parse(argc, argv);  // runs the subcommand's callback
    } catch (const CLI::ParseError& e) {
        if (const std::string unknown = unknown_subcommand(app); !unknown.empty()) {
            fmt::print(stderr, "roofline: error: {}\n", unknown);
            return kUsage;
        }
        const int rc = app.exit(e);
        return rc == 0 ? kOk : kUsage;
    } catch (const Failure& failure) {
        const auto subcommands = app.get_subcommands();
        const std::string where = !failure.where.empty() ? failure.where
                                  : subcommands.empty()  ? std::string("roofline")
                                                         : subcommands.front()->get_name();
        fmt::print(stderr, "roofline: error: {}: {}\n", where, failure.message);
        return failure.exit_code;
    } catch (const std::exception& e) {
        fmt::print(stderr, "roofline: internal error: {}\n", e.what());
        return kInternal;
    }
    return kOk;
}
