// roofline formulas: the formula table, each formula's signature and description.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <memory>

#include "../options.hpp"
#include "../output.hpp"
#include "../subcommands.hpp"

namespace cli {
namespace {

void run_formulas(bool json) {
    nlohmann::json listed = nlohmann::json::array();
    for (size_t i = 0; i < roofline_formula_count(); ++i) {
        const roofline_formula_info* formula = roofline_formula_at(i);
        // The library formats signatures and defaults, for every host alike.
        const std::string signature = roofline_formula_signature(formula);
        if (!json) {
            fmt::print("{}\n    {}\n", signature, formula->description_en);
            continue;
        }
        nlohmann::json args = nlohmann::json::array();
        for (size_t j = 0; j < formula->arg_count; ++j) {
            const roofline_arg_info& arg = *formula->args[j];
            args.push_back({{"name", arg.name}, {"unit", arg.unit}, {"optional", arg.optional != 0},
                            {"default", arg.optional ? nlohmann::json(roofline_arg_default_string(&arg)) : nlohmann::json(nullptr)}});
        }
        listed.push_back({{"name", formula->name}, {"signature", signature}, {"unit", formula->result_unit},
                          {"description", formula->description_en}, {"args", args}});
    }
    if (json) fmt::print("{}\n", listed.dump(2));
}

}  // namespace

void setup_formulas(CLI::App& app) {
    auto json = std::make_shared<bool>(false);
    CLI::App* cmd = app.add_subcommand("formulas", "List every formula with its arguments and defaults");
    add_json_flag(*cmd, *json);
    cmd->callback([json] { run_formulas(*json); });
}

}  // namespace cli
