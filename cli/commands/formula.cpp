// roofline formula NAME ARGS...: any formula by name, its arguments in formula order.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <memory>

#include "../options.hpp"
#include "../output.hpp"
#include "../subcommands.hpp"

namespace cli {
namespace {

struct FormulaCallOptions {
    std::string name;
    std::vector<std::string> args;
    bool json = false;
};

/// The arguments as the formula's types want them: texts as given, numbers parsed.
std::vector<Cell> typed_arguments(const roofline_formula_info& formula, const std::vector<std::string>& args) {
    std::vector<Cell> typed;
    for (size_t i = 0; i < args.size(); ++i) {
        if (i < formula.arg_count && (formula.args[i]->type == ROOFLINE_TYPE_TEXT || formula.args[i]->type == ROOFLINE_TYPE_TABLE)) {
            typed.emplace_back(args[i]);
            continue;
        }
        char* end = nullptr;
        const double number = std::strtod(args[i].c_str(), &end);
        if (args[i].empty() || *end != '\0')
            throw Failure{kUsage, "", fmt::format("argument {} ('{}') of {} is not a number", i + 1, args[i], formula.name)};
        typed.emplace_back(number);
    }
    return typed;
}

nlohmann::json cell_json(const Cell& cell) {
    return std::holds_alternative<double>(cell) ? nlohmann::json(std::get<double>(cell)) : nlohmann::json(std::get<std::string>(cell));
}

std::string cell_text(const Cell& cell) {
    return std::holds_alternative<double>(cell) ? fmt::format("{:.10g}", std::get<double>(cell)) : std::get<std::string>(cell);
}

void run_formula(const FormulaCallOptions& options) {
    const roofline_formula_info* formula = roofline_formula_find(options.name.c_str());
    if (!formula) throw Failure{kBadValue, "", fmt::format("no formula named '{}' (see `roofline formulas`)", options.name)};
    // Positional arguments have no option to name: the library's message names the formula's argument.
    const Result result = call(formula->name, typed_arguments(*formula, options.args), Blame::kFormula);
    if (options.json) {
        nlohmann::json value;
        if (result.rows.size() == 1 && result.rows[0].size() == 1) value = cell_json(result.rows[0][0]);
        else
            for (const auto& row : result.rows) {
                nlohmann::json cells = nlohmann::json::array();
                for (const Cell& cell : row) cells.push_back(cell_json(cell));
                value.push_back(cells);
            }
        fmt::print("{}\n", nlohmann::json{{"formula", formula->name}, {"result", value}, {"unit", formula->result_unit}}.dump(2));
        return;
    }
    for (const auto& row : result.rows) {
        std::string line;
        for (const Cell& cell : row) line += (line.empty() ? "" : "\t") + cell_text(cell);
        fmt::print("{}\n", line);
    }
}

}  // namespace

void setup_formula(CLI::App& app) {
    auto options = std::make_shared<FormulaCallOptions>();
    CLI::App* cmd = app.add_subcommand("formula", "Call any formula by name: roofline formula ROOFLINE_BALANCE 989 3.35");
    cmd->add_option("name", options->name, "Formula name, e.g. ROOFLINE_DECODE_MS")->required();
    cmd->add_option("args", options->args, "Its arguments in formula order; trailing optional ones may be left out");
    add_json_flag(*cmd, options->json);
    cmd->callback([options] { run_formula(*options); });
}

}  // namespace cli
