// Calling the C ABI from the CLI: formulas by name, results as numbers, texts or tables, and
// failures as exceptions that carry the exit code and name the command-line option at fault.
#pragma once

#include <roofline.h>

#include <map>
#include <string>
#include <variant>
#include <vector>

namespace cli {

/// Exit codes of the roofline command (documented in --help and the README).
enum Exit : int {
    kOk = 0,
    kUsage = 2,        ///< unknown subcommand or option, a required option missing, a value not a number
    kBadValue = 3,     ///< a value the library refuses (NaN, negative, zero, fraction...): names the option
    kNoSolution = 4,   ///< valid values, but no answer (e.g. no batch is compute bound) or out of range
    kIo = 5,           ///< a file could not be written
    kInternal = 70,    ///< a bug
};

/// A failure: what to print and the exit code.
struct Failure {
    int exit_code;
    std::string message;
};

using Cell = std::variant<double, std::string>;
struct Result {
    std::vector<std::vector<Cell>> rows;  ///< 1 x 1 for a number or a text
    double number() const { return std::get<double>(rows.at(0).at(0)); }
    const std::string& text() const { return std::get<std::string>(rows.at(0).at(0)); }
};

/// "params_b" -> "--params-b": the option of a formula argument.
std::string option_name(const std::string& arg);

/// Calls formula `name` with these arguments (all of them, in order). Throws Failure; the message
/// names the option that carries the bad argument (or, with name_options false, only the argument).
Result call(const std::string& name, const std::vector<Cell>& args, bool name_options = true);

/// The values of a subcommand's options, by argument name ("params_b" -> 8, "model" -> "llama-3-8b").
class Values {
public:
    double& operator[](const std::string& arg) { return values_[arg]; }
    double at(const std::string& arg) const { return values_.at(arg); }
    std::string& text(const std::string& arg) { return texts_[arg]; }
    const std::string& text_at(const std::string& arg) const { return texts_.at(arg); }
    /// Calls `formula` with the values of its arguments, found by name.
    Result call(const std::string& formula) const;

private:
    std::map<std::string, double> values_;
    std::map<std::string, std::string> texts_;
};

}  // namespace cli
