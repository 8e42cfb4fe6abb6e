// Calling the C ABI from the CLI: formulas by name, results as numbers, texts or tables, and
// failures as exceptions that carry the exit code and name the command-line option at fault.
#pragma once

#include <roofline.h>

#include <map>
#include <string>
#include <variant>
#include <vector>

namespace cli {

/// Exit codes of the roofline command (documented in --help and docs/cli.md).
enum Exit : int {
    kOk = 0,
    kUsage = 2,        ///< unknown subcommand or option, a required option missing, a value not a number
    kBadValue = 3,     ///< a value the library refuses (NaN, negative, zero, fraction, unknown id): names the option
    kNoSolution = 4,   ///< valid values, but no answer (e.g. no batch is compute bound) or out of range
    kIo = 5,           ///< a file could not be written
    kInternal = 70,    ///< a bug
};

/// A failure: the exit code, what is at fault (an option such as "--model"; empty: the subcommand
/// as a whole) and why.
struct Failure {
    int exit_code;
    std::string where;
    std::string message;
};

using Cell = std::variant<double, std::string>;
struct Result {
    std::vector<std::vector<Cell>> rows;  ///< 1 x 1 for a number or a text
    double number() const { return std::get<double>(rows.at(0).at(0)); }
    const std::string& text() const { return std::get<std::string>(rows.at(0).at(0)); }
    /// The column named `name` in an array's header row (its first: the columns as the formula table declares
    /// them), so that a host reads a column by its name, never by its place. Throws Failure (kInternal) where there
    /// is none.
    std::size_t column(const std::string& name) const;
};

/// "params_b" -> "--params-b": the option of a formula argument.
std::string option_name(const std::string& arg);

/// How failures of a call name what is at fault.
enum class Blame {
    kOption,    ///< the option of the argument at fault ("--model: no model 'x' in the catalog")
    kFormula,   ///< the library's whole message, formula and argument names included (`roofline formula`)
};

/// Calls formula `name` with these arguments (all of them, in order). Throws Failure.
Result call(const std::string& name, const std::vector<Cell>& args, Blame blame = Blame::kOption);

/// The values of a subcommand's options, by argument name ("params_b" -> 8, "model" -> "llama-3-8b").
class Values {
public:
    double& operator[](const std::string& arg) { return numbers_[arg]; }
    double at(const std::string& arg) const { return numbers_.at(arg); }
    bool has(const std::string& arg) const { return numbers_.count(arg) > 0; }
    std::string& text(const std::string& arg) { return texts_[arg]; }
    const std::string& text_at(const std::string& arg) const { return texts_.at(arg); }
    /// Calls `formula` with the values of its arguments, found by name.
    Result call(const std::string& formula) const;

private:
    std::map<std::string, double> numbers_;
    std::map<std::string, std::string> texts_;
};

}  // namespace cli
