// The CLI's adapter to the C ABI: converts arguments and results, and turns a failed call into a
// Failure that names the command-line option at fault.
#include "calls.hpp"

#include <fmt/format.h>

namespace cli {

std::string option_name(const std::string& arg) {
    std::string option = "--" + arg;
    for (char& c : option)
        if (c == '_') c = '-';
    return option;
}

namespace {

int exit_code_of(int status) {
    switch (status) {
        case ROOFLINE_ERROR_ARGUMENT:
        case ROOFLINE_ERROR_UNKNOWN_FORMULA:
        case ROOFLINE_ERROR_ARITY:
        case ROOFLINE_ERROR_UNKNOWN_ID: return kBadValue;
        case ROOFLINE_ERROR_NO_SOLUTION:
        case ROOFLINE_ERROR_RANGE: return kNoSolution;
        default: return kInternal;
    }
}

/// Where the CLI lists the ids an unknown-id argument may take.
std::string where_to_look(const std::string& arg) {
    if (arg == "model") return " (see `roofline catalog models`)";
    if (arg == "gpu" || arg == "prices") return " (see `roofline catalog gpus`)";
    return "";
}

/// The library's reason, said in the CLI's words: the option at fault (or, with no argument at fault,
/// the subcommand: Failure::where empty), never the formula's name.
Failure failure_of(int status, Blame blame) {
    const std::string arg = roofline_errarg();
    if (blame == Blame::kFormula) return {exit_code_of(status), "", roofline_errmsg()};
    std::string reason = roofline_errdetail();
    if (status == ROOFLINE_ERROR_UNKNOWN_ID) reason += where_to_look(arg);
    return {exit_code_of(status), arg.empty() ? "" : option_name(arg), reason};
}

}  // namespace

std::size_t Result::column(const std::string& name) const {
    const auto& header = rows.at(0);
    for (std::size_t c = 0; c < header.size(); ++c)
        if (const auto* text = std::get_if<std::string>(&header[c]); text && *text == name) return c;
    throw Failure{kInternal, "", fmt::format("the array has no column '{}'", name)};
}

Result call(const std::string& name, const std::vector<Cell>& args, Blame blame) {
    std::vector<roofline_value> abi_args;
    for (const Cell& arg : args) {
        if (const auto* text = std::get_if<std::string>(&arg)) abi_args.push_back({0, text->c_str()});
        else abi_args.push_back({std::get<double>(arg), nullptr});
    }
    roofline_array* array = nullptr;
    const int status = roofline_call(name.c_str(), abi_args.data(), abi_args.size(), &array);
    if (status != ROOFLINE_OK) throw failure_of(status, blame);
    Result result;
    for (size_t row = 0; row < roofline_array_rows(array); ++row) {
        auto& cells = result.rows.emplace_back();
        for (size_t col = 0; col < roofline_array_cols(array); ++col) {
            if (roofline_array_is_text(array, row, col)) cells.emplace_back(std::string(roofline_array_text(array, row, col)));
            else cells.emplace_back(roofline_array_number(array, row, col));
        }
    }
    roofline_array_free(array);
    return result;
}

Result Values::call(const std::string& formula) const {
    const roofline_formula_info* info = roofline_formula_find(formula.c_str());
    std::vector<Cell> args;
    for (size_t i = 0; i < info->arg_count; ++i) {
        const roofline_arg_info& arg = *info->args[i];
        if (arg.type == ROOFLINE_TYPE_TEXT || arg.type == ROOFLINE_TYPE_TABLE) args.emplace_back(text_at(arg.name));
        else args.emplace_back(at(arg.name));
    }
    return cli::call(formula, args);
}

}  // namespace cli
