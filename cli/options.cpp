#include "options.hpp"

#include <fmt/format.h>

#include <memory>

namespace cli {

void add_formula_options(CLI::App& cmd, Values& values, const char* formula) {
    static const std::map<std::string, std::string> short_names = {
        {"bw_tbs", "--bw"}, {"kv_kib_per_token", "--kv-kib"}, {"prompt_tokens", "--prompt"}, {"output_tokens", "--output"}};
    const roofline_formula_info* info = roofline_formula_find(formula);
    for (size_t i = 0; i < info->arg_count; ++i) {
        const roofline_arg_info& arg = *info->args[i];
        if (cmd.get_option_no_throw(option_name(arg.name))) continue;
        std::string names = option_name(arg.name);
        if (auto it = short_names.find(arg.name); it != short_names.end()) names = it->second + "," + names;
        const std::string help = fmt::format("{} [{}]", arg.description_en, arg.unit);
        CLI::Option* option = nullptr;
        if (arg.type == ROOFLINE_TYPE_TEXT) {
            std::string& value = values.text(arg.name);
            option = cmd.add_option(names, value, help);
            if (arg.optional) value = arg.default_text ? arg.default_text : "";
        } else {
            double& value = values[arg.name];
            option = cmd.add_option(names, value, help);
            if (arg.optional) value = arg.default_number;
        }
        // --help shows the default as the library formats it, like every host.
        if (arg.optional) option->default_str(roofline_arg_default_string(&arg));
        else option->required();
    }
}

const roofline_arg_info& formula_arg(const char* formula, const std::string& arg) {
    const roofline_formula_info* info = roofline_formula_find(formula);
    for (size_t i = 0; info && i < info->arg_count; ++i)
        if (info->args[i]->name == arg) return *info->args[i];
    throw Failure{kInternal, "", fmt::format("the formula table has no argument {} of {}", arg, formula)};
}

void add_json_flag(CLI::App& cmd, bool& json) { cmd.add_flag("--json", json, "Print JSON instead of a table"); }

namespace {

/// The options of a subcommand built from a formula, and its --json flag.
struct FormulaOptions {
    Values values;
    bool json = false;
};

}  // namespace

CLI::App* add_formula_subcommand(CLI::App& app, const char* name, const char* about, const char* formula,
                                 void (*run)(const Values& values, bool json)) {
    auto options = std::make_shared<FormulaOptions>();
    CLI::App* cmd = app.add_subcommand(name, about);
    add_formula_options(*cmd, options->values, formula);
    add_json_flag(*cmd, options->json);
    cmd->callback([options, run] { run(options->values, options->json); });
    return cmd;
}

}  // namespace cli
