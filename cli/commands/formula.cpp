// roofline formula NAME ARGS...: any formula by name, its arguments in formula order.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <memory>
#include <optional>

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

/// A number, or nothing where the text does not read whole as one.
std::optional<double> number_of(const std::string& text) {
    char* end = nullptr;
    const double number = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0') return std::nullopt;
    return number;
}

/// The arguments as the formula's types want them: texts as given, numbers parsed. The arguments a formula takes
/// any number of (ROOFLINE_WHY's, after the formula they are for) take the types of the formula that the text before
/// them names; beyond its arguments, or where it names none, a number where one reads whole, else a text, and a text
/// in double quotes ("fp8", as Calc writes one) is that text without them.
std::vector<Cell> typed_arguments(const roofline_formula_info& formula, const std::vector<std::string>& args) {
    std::vector<Cell> typed;
    const bool variadic = formula.arg_count > 0 && formula.args[formula.arg_count - 1]->type == ROOFLINE_TYPE_REST;
    const size_t rest = variadic ? formula.arg_count - 1 : formula.arg_count;
    const roofline_formula_info* inner =
        variadic && rest > 0 && args.size() >= rest ? roofline_formula_find(args[rest - 1].c_str()) : nullptr;
    for (size_t i = 0; i < args.size(); ++i) {
        const roofline_arg_info* arg = i < rest ? formula.args[i]
                                       : inner && i - rest < inner->arg_count ? inner->args[i - rest]
                                                                               : nullptr;
        if (arg && (arg->type == ROOFLINE_TYPE_TEXT || arg->type == ROOFLINE_TYPE_TABLE)) {
            typed.emplace_back(args[i]);
            continue;
        }
        if (!arg && i >= rest && variadic) {  // a value of no known type: as it reads
            const std::string& a = args[i];
            if (a.size() >= 2 && a.front() == '"' && a.back() == '"') typed.emplace_back(a.substr(1, a.size() - 2));
            else if (const auto n = number_of(a)) typed.emplace_back(*n);
            else typed.emplace_back(a);
            continue;
        }
        const auto number = number_of(args[i]);
        if (!number)
            throw Failure{kUsage, "", fmt::format("argument {} ('{}') of {} is not a number{}", i + 1, args[i],
                                                  formula.name,
                                                  i >= rest && inner ? fmt::format(" (as {}'s {} must be)", inner->name,
                                                                                    arg->name)
                                                                     : std::string())};
        typed.emplace_back(*number);
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
